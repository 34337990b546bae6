"""``make_tensor``: a random tensor to test with, drawn as PyTorch's torch.testing draws it.

Its values are uniform in [low, high): for floats ``empty(shape).uniform_(low, high)`` (default
[-9, 9)), for integers ``randint(low, high)`` (default [-9, 10), cut to what the dtype holds, and
both ends rounded up), for bools ``randint(0, 2)``. With the same seed, minigrad and PyTorch make
the same tensor. ``noncontiguous=True`` draws twice as many columns and keeps every other one (the 2nd, 4th, ...);
``exclude_zero=True`` replaces zeros by 1 (integers) or the dtype's smallest normal number
(floats).
"""
import collections.abc
import math
import warnings


def _low_and_high(low, high, dtype, *, lowest, highest_exclusive, default_low, default_high):
    """The interval [low, high) to draw from: the defaults where None, checked, then cut to
    [lowest, highest_exclusive); for integers and bools both ends are rounded up."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(value, float) and math.isnan(value) for value in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low!r} and high={high!r}")
    if low == high and dtype.is_floating_point:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
                      "is deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
                      FutureWarning, stacklevel=3)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest_exclusive:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), but {dtype} "
                         f"only supports [{lowest}, {highest_exclusive})")
    low = min(max(low, lowest), highest_exclusive)
    high = min(max(high, lowest), highest_exclusive)
    if dtype.is_floating_point:
        return low, high
    return math.ceil(low), math.ceil(high)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` (numbers, or one sequence) and ``dtype`` with random values in
    [low, high) (see the module's docstring), on ``device`` (only the CPU here)."""
    from .. import bool as bool_dtype, empty, finfo, iinfo, int64, randint
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
                         f"noncontiguous={noncontiguous!r} and memory_format={memory_format!r}")
    if requires_grad and not dtype.is_floating_point:
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral dtypes, but got "
                         f"dtype={dtype!r}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:               # (twice the columns; half of them are kept below)
        shape = (*shape[:-1], 2 * shape[-1])

    if dtype is bool_dtype:
        low, high = _low_and_high(low, high, dtype, lowest=0, highest_exclusive=2, default_low=0, default_high=2)
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif not dtype.is_floating_point:
        # (int64's largest value itself cannot be an exclusive end: PyTorch stops one short)
        limits = iinfo(dtype)
        highest_exclusive = limits.max + (0 if dtype is int64 else 1)
        low, high = _low_and_high(low, high, dtype, lowest=limits.min, highest_exclusive=highest_exclusive,
                                  default_low=-9, default_high=10)
        result = randint(low, high, shape, device=device, dtype=dtype)
    else:
        limits = finfo(dtype)
        low, high = _low_and_high(low, high, dtype, lowest=limits.min, highest_exclusive=limits.max,
                                  default_low=-9, default_high=9)
        result = empty(shape, device=device, dtype=dtype)
        if high - low >= limits.max:    # (uniform_ needs high - low to fit the dtype: halve, draw, double)
            result.uniform_(low / 2, high / 2).mul_(2)
        else:
            result.uniform_(low, high)

    if noncontiguous:               # (the odd columns: PyTorch's choice, so the values match)
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = finfo(dtype).tiny if dtype.is_floating_point else 1
    if dtype.is_floating_point:
        result.requires_grad = requires_grad
    return result
