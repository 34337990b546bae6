"""torch.multinomial: draw category indices from rows of (unnormalised) probabilities
(PyTorch: aten/src/ATen/native/Distributions.cpp and cpu/MultinomialKernel.cpp).

    torch.multinomial(torch.tensor([1., 2., 7.]), 4, replacement=True)   # e.g. tensor([2, 2, 1, 2])

PyTorch draws in one of two ways, and minigrad follows both, so that the same
seed gives the same indices and leaves the generator in the same state:

- with replacement and more than one sample, row by row: the running sum of
  the row (in its dtype), divided by its total, the last entry set to exactly 1;
  then per sample one float64 uniform u (two 32-bit draws), and the index is the
  first category whose running sum is >= u (a binary search).
- otherwise (without replacement, or a single sample): the "exponential race".
  Each category gets an exponential number q (``exponential_``, one float64
  uniform per element) and the samples are the categories with the largest
  p / q, best first (argmax for one sample, topk for several). Dividing by an
  exponential keeps the chance that category i wins the first place at
  p_i / sum(p), and the later places follow the rules of drawing without
  replacement. Categories of probability 0 tie (0 / q = 0): they come last,
  in the order PyTorch's topk leaves equal numbers in (see _selection.py).
"""
import numpy as np

from ._type_names import type_name
from . import random as _random
from ._dtype import scalar_type_name
from ._memory_format import empty_laid_out_like, with_pytorch_steps
from ._selection import topk_order
from ._functorch import _Vmaps, check_same_randomness, drawn
from ._ops import batched_as
from ._ops.inplace import bump_version
from .autograd.function import _FuncTransforms
from ._tensor import Tensor, _wrap
from ._ops.aminmax import aminmax

_MAX_CATEGORIES = 1 << 24        # PyTorch keeps category indices in float32 on some devices


def _check_arguments(input, num_samples, replacement, method, out=None):
    """PyTorch's argument checks, in its order, with its messages."""
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"multinomial(): argument 'out' must be Tensor, not {type_name(out)}")
    if not isinstance(input, Tensor):
        raise TypeError(f"multinomial(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        position = 1 if method else 2
        raise TypeError(f"multinomial(): argument 'num_samples' (position {position}) must be int, "
                        f"not {type_name(num_samples)}")
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if input._array.dtype.kind != "f":
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{scalar_type_name(input.dtype)}")
    if out is not None and out._array.dtype != np.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {scalar_type_name(out.dtype)}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = input.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if categories > _MAX_CATEGORIES:
        raise RuntimeError("number of categories cannot exceed 2^24")


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """``num_samples`` category indices (int64) drawn from each row of ``input``, a 1-d or 2-d
    tensor of non-negative weights (they need not sum to 1): category i of a row comes with
    probability ``input[i] / input.sum()``. Without ``replacement`` a category comes at most
    once per row. The result has shape (num_samples,) or (rows, num_samples); given ``out``
    (an int64 tensor), it is written there (resized to fit, without a warning)."""
    _check_arguments(input, num_samples, replacement, method=False, out=out)
    drawn_indices = _draw(input, int(num_samples), replacement, generator)
    if out is None:
        return drawn_indices
    from ._out import _resized                     # (lazy: _out imports the operations)
    if out._array.shape != drawn_indices._array.shape:
        out._array = _resized(out, drawn_indices._array)
    np.copyto(out._array, drawn_indices._array)
    bump_version(out)
    return out


def multinomial_method(self, num_samples, replacement=False, *, generator=None):
    """``x.multinomial(n)`` is ``torch.multinomial(x, n)``: indices drawn from the rows of x."""
    _check_arguments(self, num_samples, replacement, method=True)
    return _draw(self, int(num_samples), replacement, generator)


def _draw(input, num_samples, replacement, generator):
    """The indices, drawn as PyTorch draws them (inside vmap: as its batching rule does)."""
    if _FuncTransforms.vmaps:           # (inside vmap: its randomness setting decides first)
        _random._pick(generator)
        check_same_randomness(input)
        level = _drawing_level(input)
        if level:
            return _draw_per_sample(input, num_samples, replacement, generator, level)
        return drawn(batched_as(_draw_now(input, num_samples, replacement, generator), input), keep=True)
    return _draw_now(input, num_samples, replacement, generator)


def _drawing_level(input):
    """Inside vmap(randomness="different"), probabilities the vmap does not batch are drawn
    from once per sample; the level of that vmap, or 0 if none."""
    levels = [level for level in _Vmaps.batch_sizes if _Vmaps.different_randomness >> level & 1]
    if not levels:
        return 0
    level = max(levels)
    if input._vmap_levels >> level & 1 or not _Vmaps.batched_levels >> level & 1:
        return 0
    return level


def _draw_per_sample(input, num_samples, replacement, generator, level):
    """The same probabilities for every sample of the vmap at ``level``: as PyTorch, one draw
    from their copies stacked into rows, the result batched at that level."""
    from .func._batched_tensor import BatchedTensor       # (lazy: func imports this package)
    size = _Vmaps.batch_sizes[level]
    rows = input._array.reshape(-1, input._array.shape[-1])
    stacked = _wrap(np.ascontiguousarray(np.broadcast_to(rows, (size,) + rows.shape)).reshape(
        -1, rows.shape[-1]))
    out = _draw_now(stacked, num_samples, replacement, generator)
    out = _wrap(out._array.reshape((size,) + tuple(input.shape[:-1]) + (num_samples,)))
    return BatchedTensor(out, 0, level)


def _draw_now(input, num_samples, replacement, generator):
    probabilities = input._array
    shape = (num_samples,) if input.ndim == 1 else (input.shape[0], num_samples)
    if np.prod(shape) == 0:
        return _wrap(np.empty(shape, np.int64))
    if not replacement or num_samples == 1:
        return _wrap(_exponential_race(input, num_samples, generator))
    rows = probabilities.reshape(-1, probabilities.shape[-1])
    generator = _random._pick(generator)
    samples = np.stack([_inverse_cdf(row, num_samples, generator) for row in rows])
    return _wrap(samples.reshape(shape))


def _exponential_race(input, num_samples, generator):
    """The categories with the largest p / q, q exponential numbers: the draw without
    replacement (and of a single sample)."""
    probabilities = input._array
    if probabilities.size == 0:
        aminmax(input)                             # (PyTorch's message for rows of nothing)
    if not (probabilities.max() < np.inf and probabilities.min() >= 0):    # (NaN fails too)
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (probabilities.sum(axis=-1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    # drawn into memory laid out as PyTorch's empty_like(input) lays it out, in memory order
    layout = empty_laid_out_like(with_pytorch_steps(input), probabilities.dtype)
    q = _random.exponential(probabilities.shape, 1.0, dtype=probabilities.dtype,
                            generator=generator, strides=layout.strides)
    ratios = probabilities / q
    if num_samples == 1:
        return np.argmax(ratios, axis=-1, keepdims=True)
    # largest first (topk); equal ratios (categories of probability 0) in topk's order
    rows = ratios.reshape(-1, ratios.shape[-1])
    picked = np.stack([_largest(row, num_samples) for row in rows])
    return picked.reshape(ratios.shape[:-1] + (num_samples,))


def _largest(row, k):
    """The positions of the k largest numbers of ``row``, largest first, as PyTorch's topk
    gives them: a plain sort when no two of them are equal, else its exact steps
    (``_selection``), which decide the order of equal numbers."""
    order = np.argsort(-row, kind="stable")
    top = row[order[:k + 1]]
    if not (top[1:] == top[:-1]).any():
        return order[:k]
    return np.array(topk_order(row.tolist(), k), dtype=np.int64)


def _inverse_cdf(row, num_samples, generator):
    """``num_samples`` draws with replacement from one row: a uniform number each, looked up in
    the row's cumulative distribution."""
    # PyTorch checks the entries one by one: the first bad one decides the message
    negative = np.flatnonzero(~(row >= 0))                 # (NaN counts here: NaN >= 0 is false)
    infinite = np.flatnonzero(~np.isfinite(row))
    if len(negative) and (not len(infinite) or negative[0] <= infinite[0]):
        raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
    if len(infinite):
        raise RuntimeError("invalid multinomial distribution (encountering probability entry = "
                           "infinity or NaN)")
    # summed one by one, in the row's dtype (float32 for float16, as PyTorch does)
    dtype = np.dtype(np.float32) if row.dtype == np.float16 else row.dtype
    cumulative = np.add.accumulate(row, dtype=dtype)
    total = cumulative[-1] if len(cumulative) else dtype.type(0)
    if not total > 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cumulative = cumulative / total
    cumulative[-1] = 1                  # so that every u < 1 finds a category
    u = _random._uniform01(generator, num_samples, np.float64)
    # the first category whose cumulative probability is >= u
    return np.searchsorted(cumulative.astype(np.float64), u, side="left")
