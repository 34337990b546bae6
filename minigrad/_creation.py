"""Making tensors: ``tensor``, ``zeros``, ``ones``, ``eye``, ``arange``, ``rand``, ... and ``*_like``.

A new tensor made by these functions is a *leaf*: it has no ``grad_fn``.
Pass ``requires_grad=True`` to make autograd track what is computed from it.
"""
import math
import warnings

import numpy as np

from ._type_names import type_name
from . import _dtype, _memory_format, random as _random
from ._tensor import Tensor, _wrap, _check_can_require_grad
from ._python_arg_parser import invalid_combination
from ._memory_format import (contiguous_format, empty_laid_out_like, keep_zero_steps, preserve_format,
                             row_major_steps, with_pytorch_steps)
from ._ops import result, batched_as
from ._functorch import drawn, check_same_randomness
from ._warnings import stacklevel_outside_minigrad
from .autograd.function import _FuncTransforms
from ._ops.inplace import BernoulliBackward0
from ._fused_multiply_add import fma as _fma
from .autograd.graph import Node


# what PyTorch reads as a sequence of values (its shape is read along the first items)
_SEQUENCES = (list, tuple, range, bytearray)


def _infer_numpy_dtype(data):
    """PyTorch's rule: Python floats -> float32, ints -> int64, bools -> bool; arrays keep theirs."""
    if isinstance(data, np.ndarray):
        return data.dtype
    if isinstance(data, np.generic):
        return data.dtype
    if isinstance(data, Tensor):
        return data._array.dtype
    if isinstance(data, bool):
        return np.dtype(np.bool_)
    if isinstance(data, int):
        return np.dtype(np.int64)
    if isinstance(data, float):
        return _dtype.DEFAULT_FLOAT
    if isinstance(data, _SEQUENCES):
        kinds = [_infer_numpy_dtype(item) for item in data]
        if not kinds:
            return _dtype.DEFAULT_FLOAT
        floats = [k for k in kinds if k.kind == "f"]
        if floats:
            # numpy float64 values inside the list keep float64; Python floats give float32
            wider = [k for k in floats if k != _dtype.DEFAULT_FLOAT]
            return max(wider, key=lambda k: k.itemsize) if wider else _dtype.DEFAULT_FLOAT
        integers = [k for k in kinds if k.kind in "iu"]
        if integers:      # (Python ints are int64; numpy's keep their size: [np.int32(3)] is int32)
            return np.result_type(*integers)
        return np.dtype(np.bool_)
    if isinstance(data, (str, bytes)):
        # (a string first in a list is one more dimension to PyTorch: _shape_along_first_items)
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    raise RuntimeError(
        f"Could not infer dtype of {type_name(data)}\n"
        "minigrad hint: minigrad.tensor takes numbers, (nested) lists of numbers, numpy arrays "
        "or tensors.")


def _shape_along_first_items(data):
    """The shape PyTorch reads off nested sequences: the lengths along the first items. A string
    there is a sequence whose first item is itself, dimensions without end."""
    shape, item = [], data
    while isinstance(item, _SEQUENCES + (str, np.ndarray)):
        if isinstance(item, str):
            raise ValueError("too many dimensions 'str'")
        if isinstance(item, np.ndarray):       # (a sequence too, whose own shape ends it)
            if item.ndim == 0:
                raise TypeError("len() of unsized object")
            shape.extend(item.shape)
            break
        shape.append(len(item))
        if not item:
            break
        item = item[0]
    return shape


def _to_nested_numbers(data, depth, ndim, float_tensors, kind=None):
    """Nested sequences as lists numpy reads: a tensor where a number belongs (depth ``ndim``)
    gives its one value, elsewhere its values (a tensor of another size stays: _check_storable).
    ``float_tensors`` gets True for a floating tensor where a number belongs, and False for a
    value a dtype of ``kind`` (numpy's letter, given when the dtype is) does not store."""
    if isinstance(data, Tensor):
        if ndim is None or depth < ndim:
            return data._array
        if data._array.dtype.kind in "fc":
            float_tensors.append(True)
        return data._array.reshape(()) if data._array.size == 1 else data
    if isinstance(data, _SEQUENCES):
        return [_to_nested_numbers(item, depth + 1, ndim, float_tensors, kind) for item in data]
    if kind is not None and _refused_number(data, kind):
        float_tensors.append(False)
    return data


def _refused_number(value, kind):
    """PyTorch's TypeError for a value that a tensor of a given dtype (numpy's kind letter) cannot
    store, None for one it can: a floating dtype reads it as Python's float() does (``None``,
    ``'a'`` and ``1j`` refused, numpy's complex numbers too), an integer or bool dtype as an index
    (a float cut, ``Fraction`` refused), a bool dtype a complex number too. numpy would store
    None as nan and read strings."""
    if isinstance(value, (np.ndarray, np.number, np.bool_, bool, int, float)) and not (
            kind in "iu" and isinstance(value, np.complexfloating)) and not (
            kind == "f" and type(value) is complex):
        return None
    if kind in "fc":
        if not isinstance(value, complex) and hasattr(type(value), "__float__") or hasattr(
                type(value), "__index__"):
            return None
        return TypeError(f"must be real number, not {type_name(value)}")
    if hasattr(type(value), "__index__") or (kind == "b" and isinstance(value, complex)):
        return None
    return TypeError(f"'{type_name(value)}' object cannot be interpreted as an integer")


def _check_storable(data, shape, kind, dim=0):
    """PyTorch's error for nested data that does not fill ``shape`` (in its order: it stores
    the values one by one, reading each sequence as it goes)."""
    if dim == len(shape):
        if isinstance(data, _SEQUENCES):
            raise TypeError(f"must be real number, not {type(data).__name__}" if kind in "fc" else
                            f"'{type(data).__name__}' object cannot be interpreted as an integer")
        if not isinstance(data, Tensor):
            refusal = _refused_number(data, kind)
            if refusal is not None:
                raise refusal
            return
        hint = "\nminigrad hint: to join tensors into one, use minigrad.stack" if data.numel() != 1 else ""
        if kind in "fc" and hint:
            raise ValueError("only one element tensors can be converted to Python scalars" + hint)
        if kind not in "fc" and (hint or data.is_floating_point()):    # (read as an index)
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index" + hint)
        return
    if not isinstance(data, _SEQUENCES + (Tensor,)) or (isinstance(data, Tensor) and data.ndim == 0):
        raise TypeError("not a sequence")
    if len(data) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(data)})")
    for item in data:
        _check_storable(item, shape, kind, dim + 1)


def tensor_data_to_array(data, dtype=None):
    """A fresh numpy array (never shared with ``data``) of the right dtype."""
    shape = _shape_along_first_items(data) if isinstance(data, _SEQUENCES) else None
    numpy_dtype = _dtype.to_numpy_dtype(dtype) if dtype is not None else _infer_numpy_dtype(data)
    if isinstance(data, np.ndarray):
        _dtype.from_numpy_dtype(data.dtype)          # raises for dtypes PyTorch does not store
        if data.flags.c_contiguous and data.size and 1 not in data.shape:
            return data.astype(numpy_dtype)          # (the usual case: a row-major copy)
        # PyTorch copies numpy data as clone() copies a tensor: laid out in memory as the data
        # is, and an array without elements with its very steps (numpy's 0s, see keep_zero_steps)
        array = empty_laid_out_like(data, numpy_dtype)
        array[...] = data
        return array
    if shape is not None and 0 in shape:     # (nothing to store: PyTorch reads no further)
        return np.zeros(shape, numpy_dtype)
    if dtype is not None and isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    float_tensors = []
    numbers = _to_nested_numbers(data, 0, len(shape) if shape is not None else None, float_tensors,
                                 numpy_dtype.kind if dtype is not None else None)
    if shape is None and False in float_tensors:      # (a single value the dtype does not store)
        raise _refused_number(data, numpy_dtype.kind)
    if numpy_dtype.kind in "iu":
        numbers = _as_integers(numbers, numpy_dtype, _dtype.from_numpy_dtype(numpy_dtype).name)
    try:
        if numpy_dtype.kind == "f" and numpy_dtype.itemsize < 8:
            with np.errstate(over="ignore"):    # (1e39 is inf in float32, silently, as in PyTorch)
                array = np.array(numbers, dtype=numpy_dtype)
        else:
            array = np.array(numbers, dtype=numpy_dtype)
    except OverflowError:           # (a Python int past int64, for an inferred int64)
        raise ValueError("Overflow when unpacking long long") from None
    except (ValueError, TypeError) as error:
        array, numpy_error = None, error
    # (a floating tensor is no integer's value to PyTorch, where numpy would cut it)
    if shape is not None and (array is None or array.shape != tuple(shape) or False in float_tensors or (
            True in float_tensors and numpy_dtype.kind in "iub")):
        _check_storable(data, shape, numpy_dtype.kind)
    if array is None:
        raise ValueError(f"could not make a tensor from this data ({numpy_error})") from None
    if array.dtype == object:
        raise TypeError("minigrad.tensor needs numbers; got objects it cannot convert")
    return array


def _as_integers(numbers, numpy_dtype, name, unpacked=True):
    """Python numbers checked as PyTorch stores them in an integer dtype: out of its range is
    refused, except that an unsigned dtype takes a negative int down to minus its largest
    value and wraps it around (two's complement: uint8 stores -1 as 255); a float must lie in
    the range (NaN and inf never do), then loses its fraction. ``unpacked``: an int is first
    read as a C ``long long`` (torch.tensor, not torch.full)."""
    info = np.iinfo(numpy_dtype)

    def checked(item):
        if isinstance(item, (list, tuple)):
            return [checked(each) for each in item]
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, float, np.number)):
            return item
        if unpacked and isinstance(item, (int, np.integer)) and not -2**63 <= item < 2**63:
            raise ValueError("Overflow when unpacking long long")
        lowest = -info.max if info.min == 0 and isinstance(item, (int, np.integer)) else info.min
        if not lowest <= item <= info.max:
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")
        return item % (info.max + 1) if item < 0 and info.min == 0 else item
    return checked(numbers)


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data``, with the dtype inferred like PyTorch."""
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
            "or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).",
            UserWarning, stacklevel=stacklevel_outside_minigrad())
    _check_flag("tensor", requires_grad, none_allowed=False)
    return _leaf(tensor_data_to_array(data, dtype), requires_grad, isinstance(data, np.ndarray))


def _check_flag(name, requires_grad, none_allowed=True):
    """PyTorch's parser takes only True or False for requires_grad, not 1 or "yes" (and None
    where the signature has it as an optional bool: not in tensor())."""
    if type(requires_grad) is not bool and not (none_allowed and requires_grad is None):
        raise TypeError(f"{name}(): argument 'requires_grad' must be bool, not "
                        f"{type_name(requires_grad)}")


def as_tensor(data, dtype=None):
    """``data`` as a tensor, sharing memory with a numpy array or tensor when it can (no history)."""
    if isinstance(data, Tensor):          # (another dtype: a converted copy, as ``data.to``)
        return data if dtype is None or data.dtype is dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or data.dtype == _dtype.to_numpy_dtype(dtype)):
        # (numpy's steps, 0s included, as PyTorch keeps them; numpy's memory, which cannot grow)
        return _over_numpy_memory(keep_zero_steps(_wrap(data)))
    return tensor(data, dtype=dtype)


def from_numpy(array):
    """A tensor that shares memory with the numpy array ``array``."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtype.from_numpy_dtype(array.dtype)          # raises for unsupported dtypes
    # (numpy's steps, 0s included, as PyTorch keeps them; numpy's memory, which cannot grow)
    return _over_numpy_memory(keep_zero_steps(_wrap(array)))


def _over_numpy_memory(tensor):
    """Mark ``tensor``'s memory as numpy's, which resize_ cannot grow (_ops/resize.py)."""
    from ._ops.resize import over_numpy_memory
    return over_numpy_memory(tensor)


def _leaf(array, requires_grad, numpy_data=False):
    _check_can_require_grad(array, requires_grad)
    if array.size == 0 and not numpy_data:
        array = _with_row_major_steps(array)
    out = _wrap(array)
    out._requires_grad = bool(requires_grad)
    return keep_zero_steps(out) if numpy_data else out


def _with_row_major_steps(empty):
    """An empty array with PyTorch's steps for a new tensor: row-major, a size-0 dim counting
    as 1 (numpy gives every dim a step of 0). Views of it (a transpose, a permute) then report
    the steps PyTorch's views of an empty tensor report."""
    return np.lib.stride_tricks.as_strided(empty, empty.shape, row_major_steps(empty.shape, empty.itemsize))


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    for n in size:
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise TypeError(f"sizes must be integers, got {n!r} of type {type(n).__name__}")
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {list(size)}")
    return tuple(int(n) for n in size)


def _check_size_given(name, size, any_keyword=True):
    """``zeros()`` without a size: PyTorch's TypeError (not a 0-d tensor). ``rand()`` and
    ``randn()`` without any argument match none of their signatures, and say so."""
    if not size:
        if not any_keyword:
            raise invalid_combination(name, (), {})
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')


def _float_dtype(dtype):
    return _dtype.to_numpy_dtype(dtype) if dtype is not None else _dtype.DEFAULT_FLOAT


def _refuse_dtype(kernel, numpy_dtype, refused_kinds):
    """PyTorch's error when its ``kernel`` has no version for this dtype ("arange_cpu" for
    bool, ...): numpy would happily compute something PyTorch never gives."""
    if np.dtype(numpy_dtype).kind in refused_kinds:
        name = _dtype.from_numpy_dtype(numpy_dtype).tensor_type_name[:-len("Tensor")]
        raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


def _random_floats(draw, size, numpy_dtype, generator, kernel):
    """rand/randn's numbers (float16 ones as minigrad/random.py draws them)."""
    _refuse_dtype(kernel, numpy_dtype, "biu")
    return draw(size, dtype=numpy_dtype, generator=generator)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    """A tensor of the given size filled with 0 (float32 unless ``dtype``)."""
    _check_size_given("zeros", size)
    shape = _size(size)
    _check_flag("zeros", requires_grad)
    return _leaf(np.zeros(shape, dtype=_float_dtype(dtype)), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    """A tensor of the given size filled with 1 (float32 unless ``dtype``)."""
    _check_size_given("ones", size)
    shape = _size(size)
    _check_flag("ones", requires_grad)
    return _leaf(np.ones(shape, dtype=_float_dtype(dtype)), requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False, memory_format=None):
    """Like zeros: minigrad fills 'uninitialised' memory with zeros so runs are reproducible.
    ``memory_format``: laid out in memory as it says (channels_last: channels innermost)."""
    _check_size_given("empty", size)
    shape = _size(size)
    _check_flag("empty", requires_grad)
    if memory_format is None or memory_format is _memory_format.contiguous_format:
        return zeros(*size, dtype=dtype, requires_grad=requires_grad)
    if memory_format is _memory_format.preserve_format:   # (nothing to preserve the layout of)
        raise RuntimeError("unsupported memory format Preserve")
    laid_out = _memory_format.copy_in_format(np.zeros(shape, dtype=_float_dtype(dtype)), memory_format)
    return _leaf(laid_out, requires_grad, numpy_data=True)


_MISSING = object()        # full(size) without a value: PyTorch's message, not Python's


def _check_number(value):
    """PyTorch reads a Python int given for a Number as a C++ 64-bit int, signed or unsigned."""
    if isinstance(value, int) and not -2**63 <= value < 2**64:
        raise OverflowError("int too big to convert" if value > 0 else
                            "can't convert negative int to unsigned")


def full(size, fill_value=_MISSING, dtype=None, device=None, requires_grad=False):
    """A tensor of ``size`` filled with ``fill_value``."""
    if fill_value is _MISSING:
        raise TypeError('full() missing 1 required positional arguments: "fill_value"')
    _check_number(fill_value)
    if not isinstance(fill_value, (int, float, bool, np.number, np.bool_, Tensor)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type_name(fill_value)}")
    _check_flag("full", requires_grad)
    if dtype is None:
        dtype = _infer_numpy_dtype(fill_value.item() if isinstance(fill_value, Tensor) else fill_value)
    value = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
    if _dtype.to_numpy_dtype(dtype).kind in "iu":        # (PyTorch names the C++ type here)
        numpy_dtype = _dtype.to_numpy_dtype(dtype)
        value = _as_integers(value, numpy_dtype, _dtype.CHECKED_CONVERSION_NAMES[numpy_dtype.name],
                             unpacked=False)
    elif _dtype.to_numpy_dtype(dtype).kind == "b":
        value = bool(value)
    else:                  # (a float dtype must hold it: 1e5 is refused for float16)
        _dtype.checked_scalar(value, _dtype.to_numpy_dtype(dtype))
    return _leaf(np.full(_size((size,)), value, dtype=_dtype.to_numpy_dtype(dtype)), requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    """The identity matrix (ones on the diagonal)."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"eye(): argument 'n' (position 1) must be int, not {type_name(n)}")
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return _leaf(np.eye(n, m if m is not None else n, dtype=_float_dtype(dtype)), requires_grad)


def arange(start=None, end=None, step=1, dtype=None, device=None, requires_grad=False):
    """start, start+step, ... up to (not including) end; integers give an int64 tensor."""
    if start is None and end is not None:       # arange(end=5)
        start, end = end, None
    given = (start,) if end is None else (start, end) if step == 1 else (start, end, step)
    if end is None:
        if not isinstance(start, (int, float, np.number, Tensor)):
            raise TypeError(f"arange(): argument 'end' (position 1) must be Number, not "
                            f"{type_name(start)}")
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if not all(isinstance(v, (int, float, np.number)) for v in values):
        raise invalid_combination("arange", given, {})
    for value in values:
        _check_number(value)
    if step == 0 or step != step:
        raise RuntimeError("step must be nonzero")
    if not all(math.isfinite(v) for v in values[:2]):
        raise RuntimeError(f"unsupported range: {values[0]:g} -> {values[1]:g}")
    if (values[1] - values[0]) * values[2] < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        dtype = np.int64 if all(isinstance(v, (int, np.integer)) for v in values) else _dtype.DEFAULT_FLOAT
    numpy_dtype = np.dtype(_dtype.to_numpy_dtype(dtype))
    _refuse_dtype("arange_cpu", numpy_dtype, "b")
    if numpy_dtype.kind in "iu":
        return _leaf(_integer_range(*values, numpy_dtype), requires_grad)
    array = np.arange(values[0], values[1], values[2], dtype=np.float64).astype(numpy_dtype)
    return _leaf(array, requires_grad)


def _integer_range(start, end, step, numpy_dtype):
    """arange with an integer dtype: PyTorch first truncates start and step to integers, so
    ``arange(0, 5, 1.5, dtype=torch.int64)`` is 0, 1, 2, 3, 4. For int64 it also counts the
    elements with those integers (a step that truncates to 0 is refused); for the other
    integer types it counts them with the numbers as given."""
    whole_start, whole_end, whole_step = int(start), int(end), int(step)
    if numpy_dtype == np.int64:
        if whole_step == 0:
            raise ValueError("step must be nonzero")
        sign = (whole_step > 0) - (whole_step < 0)
        span = whole_end - whole_start + whole_step - sign
        count = abs(span) // abs(whole_step) if span * whole_step > 0 else 0
    else:
        count = max(math.ceil((end - start) / step), 0)
    positions = np.arange(count, dtype=np.int64)
    return (whole_start + positions * whole_step).astype(numpy_dtype)


def _check_scalar_ends(name, start, end):
    """linspace and logspace take tensors for start and end, of one value each (0-d)."""
    # (naming each end given as a tensor, once one of them is not 0-d)
    given = [(which, value) for which, value in (("start", start), ("end", end))
             if isinstance(value, Tensor)]
    wrong = [f"{which} with {value.ndim} dimension(s)" for which, value in given]
    if any(value.ndim != 0 for _, value in given):
        raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, but got "
                           f"{' and '.join(wrong)}.")


def linspace(start, end, steps=None, dtype=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from start to end (both included)."""
    if steps is None:
        raise invalid_combination("linspace", (start, end), {})
    _check_scalar_ends("linspace", start, end)
    if isinstance(steps, (int, np.integer)) and steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    numpy_dtype = np.dtype(_float_dtype(dtype))
    if steps <= 1 and numpy_dtype.kind == "b":      # (PyTorch fills these without its kernel)
        return _leaf(np.full(steps, bool(start)), requires_grad)
    _refuse_dtype("linspace_cpu", numpy_dtype, "b")
    return _leaf(evenly_spaced(start, end, steps, numpy_dtype), requires_grad)


def evenly_spaced(start, end, steps, dtype):
    """``steps`` values from start to end, computed as PyTorch's linspace does, to the last bit:
    the first half as start + step * i, the second half as end - step * (steps - 1 - i) (so
    both ends come out exact), each a multiply-add rounded once. Integer dtypes take start and
    end as integers and the step in float64, then drop each value's fraction; float16 rounds
    after every operation, as PyTorch's Half arithmetic does."""
    if steps <= 1:                                   # (PyTorch converts only what it stores)
        end = start
    if steps == 0:
        return np.empty(0, dtype)
    i = np.arange(steps)
    first_half = i < max(steps // 2, 1)          # (a single value is start)
    if dtype.kind in "iu":
        name = _dtype.CHECKED_CONVERSION_NAMES[dtype.name]
        start, end = (float(int(_as_integers(value, dtype, name, unpacked=False))) for value in (start, end))
        dtype_of_steps = np.dtype(np.float64)
    else:
        dtype_of_steps = dtype
    number = dtype_of_steps.type
    start, end = number(start), number(end)
    step = (end - start) / number(steps - 1) if steps > 1 else number(0)
    count_up, count_down = i.astype(dtype_of_steps), (steps - 1 - i).astype(dtype_of_steps)
    if dtype == np.float16:
        from_start = start + (step * count_up).astype(dtype)
        from_end = end - (step * count_down).astype(dtype)
    else:
        from_start = _fma(np.full(steps, step), count_up, np.full(steps, start))
        from_end = _fma(np.full(steps, -step), count_down, np.full(steps, end))
    values = np.where(first_half, from_start, from_end)
    return np.trunc(values).astype(dtype) if dtype.kind in "iu" else values.astype(dtype)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    """Uniform random numbers in [0, 1) (PyTorch's numbers for the same seed)."""
    _check_size_given("rand", size, any_keyword=(generator, dtype, device, requires_grad) !=
                      (None, None, None, False))
    values = _random_floats(_random.uniform, _size(size), _float_dtype(dtype), generator, "check_uniform_bounds")
    return _random_leaf(values, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    """Standard normal random numbers (mean 0, standard deviation 1; PyTorch's numbers for the same seed)."""
    _check_size_given("randn", size, any_keyword=(generator, dtype, device, requires_grad) !=
                      (None, None, None, False))
    values = _random_floats(_random.normal, _size(size), _float_dtype(dtype), generator, "normal_kernel_cpu")
    return _random_leaf(values, requires_grad)


def randint(low=None, high=None, size=None, generator=None, dtype=None, device=None,
            requires_grad=False):
    """Random integers in [low, high) (int64 unless ``dtype`` says otherwise)."""
    if low is None:                 # randint(high=5, size=(3,))
        low, high = high, None
    if size is None and isinstance(high, (tuple, list)):    # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if size is None:
        raise invalid_combination("randint", (low, high) if low else (high,), {})
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dtype = _dtype.to_numpy_dtype(dtype) if dtype is not None else np.dtype(np.int64)
    _check_integer_bounds(low, high, np.dtype(dtype))
    if np.dtype(dtype).kind == "f":
        # PyTorch fills empty(size) with random_(low, high), which first moves bounds that the
        # float dtype cannot hold (float16 past 2**11) to numbers it can: those draws decide
        out = empty(tuple(size), dtype=_dtype.from_numpy_dtype(np.dtype(dtype)))
        out.random_(int(low), int(high), generator=generator)
        return _random_leaf(out._array, requires_grad)
    values = _random.integers(_size(tuple(size)), int(low), int(high), generator=generator)
    return _random_leaf(values.astype(dtype), requires_grad)


# the C++ names PyTorch's randint messages use for the integer types
_CPP_INTEGER_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
                      "int16": "short int", "int32": "int", "int64": "long"}


def _check_integer_bounds(low, high, numpy_dtype):
    """randint into a small integer type: both ends must fit it (PyTorch checks low and high - 1)."""
    if numpy_dtype.kind not in "biu" or numpy_dtype == np.int64:
        return
    smallest, largest = (0, 1) if numpy_dtype.kind == "b" else (np.iinfo(numpy_dtype).min,
                                                                 np.iinfo(numpy_dtype).max)
    name = _CPP_INTEGER_NAMES[numpy_dtype.name]
    if not smallest <= low <= largest:
        raise RuntimeError(f"from is out of bounds for {name}")
    if not smallest <= high - 1 <= largest:
        raise RuntimeError(f"to - 1 is out of bounds for {name}")


def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
    """A random order of 0, 1, ..., n-1."""
    dtype = _dtype.to_numpy_dtype(dtype) if dtype is not None else np.dtype(np.int64)
    if int(n) < 0:                # (before the dtype, as in PyTorch)
        raise RuntimeError(f"Trying to create tensor with negative dimension {int(n)}: [{int(n)}]")
    _refuse_dtype("randperm", dtype, "b")
    _check_randperm_fits(int(n), dtype)
    return _random_leaf(_random.permutation(int(n), generator=generator).astype(dtype), requires_grad)


def _check_randperm_fits(n, dtype):
    """PyTorch's errors (before any draw) when n - 1 has no exact value in ``dtype``."""
    float_limits = {np.float16: (2049, "2049", "Half"), np.float32: (2 ** 24 + 1, "2^24+1", "Float"),
                    np.float64: (2 ** 53 + 1, "2^53+1", "Double")}
    if dtype.type in float_limits:
        limit, text, name = float_limits[dtype.type]
        if n > limit:
            raise RuntimeError(f"n cannot be greater than {text} for {name} type.")
    elif n - 1 > np.iinfo(dtype).max:
        c_name = {np.uint8: "uint8_t", np.int8: "int8_t", np.int16: "int16_t", np.int32: "int"}[dtype.type]
        raise RuntimeError(f"value cannot be converted to type {c_name} without overflow")


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, requires_grad=False):
    """Normal random numbers with the given mean and standard deviation, of shape ``size``;
    or one per element of ``mean`` and/or ``std`` given as tensors (see ``_normal_per_element``)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if size is not None or dtype is not None or requires_grad:
            keywords = {k: v for k, v in (("dtype", dtype), ("requires_grad", requires_grad)) if v}
            raise invalid_combination("normal", (mean, std) + ((size,) if size is not None else ()),
                                      keywords)
        return _normal_per_element(mean, std, generator)
    if isinstance(std, (int, float)) and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    dtype = _float_dtype(dtype)
    values = _random.normal(_size((size,)), mean, std, dtype=dtype, generator=generator)
    return _random_leaf(values, requires_grad)


class _NormalBackward(Node):
    """result = normal(mean, std): random numbers, not a function of mean and std   ->
        grad_mean = 0, grad_std = 0 (zeros of their shapes), as in PyTorch"""

    def backward(self, grad):
        shapes = [getattr(self, name, None) for name in ("mean_sym_sizes", "std_sym_sizes")]
        return tuple(_wrap(np.zeros(shape, grad._array.dtype)) for shape in shapes if shape is not None)


class NormalBackward1(_NormalBackward):
    """result = normal(mean, std), mean a tensor, std a number   ->   grad_mean = 0"""


class NormalBackward2(_NormalBackward):
    """result = normal(mean, std), mean a number, std a tensor   ->   grad_std = 0"""


class NormalBackward3(_NormalBackward):
    """result = normal(mean, std), both tensors   ->   grad_mean = 0, grad_std = 0"""


def check_normal_std(std):
    """normal's first check: std (a number, or every element of a tensor) is not negative."""
    if isinstance(std, Tensor):
        if (std._array < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def broadcast_normal_shape(mean, other):
    """The shape of normal's result: the broadcast of ``mean`` and ``other`` (std, or the
    out= tensor drawn into), those of them that are tensors; PyTorch's error if they don't fit."""
    try:
        return np.broadcast_shapes(*(t._array.shape for t in (mean, other) if isinstance(t, Tensor)))
    except ValueError:
        from ._ops.pointwise import _broadcast_error
        raise _broadcast_error(mean, other) from None


def _normal_per_element(mean, std, generator):
    """normal(mean, std) with a tensor mean and/or std: one draw per element of their
    broadcast shape, made as PyTorch makes it, so that the numbers are the same:
    ``normal_(0, std)`` then ``+ mean`` for a number std, else ``normal_(0, 1) * std + mean``."""
    check_normal_std(std)
    like = mean if isinstance(mean, Tensor) else std
    if like._array.dtype.kind != "f":
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for '
                                  f"'{like.dtype.tensor_type_name[:-len('Tensor')]}'")
    shape = broadcast_normal_shape(mean, std)
    dtype = like._array.dtype
    if isinstance(std, Tensor):
        values = _random.normal(shape, 0.0, 1.0, dtype=dtype, generator=generator) * std._array
    else:
        values = _random.normal(shape, 0.0, std, dtype=dtype, generator=generator)
    values = (values + (mean._array if isinstance(mean, Tensor) else mean)).astype(dtype, copy=False)
    if not isinstance(std, Tensor):
        return result(values, NormalBackward1, (mean,), mean_sym_sizes=tuple(mean.shape))
    if not isinstance(mean, Tensor):
        return result(values, NormalBackward2, (std,), std_sym_sizes=tuple(std.shape))
    return result(values, NormalBackward3, (mean, std), mean_sym_sizes=tuple(mean.shape),
                  std_sym_sizes=tuple(std.shape))


def _random_leaf(values, requires_grad):
    """A new tensor of random numbers; inside vmap, batched if the vmap draws different ones."""
    out = _leaf(values, requires_grad)
    return drawn(out) if _FuncTransforms.vmaps else out


def bernoulli(input, p=None, *, generator=None):
    """0 or 1 per element: 1 with probability ``input[i]`` (a tensor of probabilities),
    or, given a number ``p``, with probability ``p`` in a tensor shaped like ``input``."""
    # (a new row-major tensor, whatever input's layout: PyTorch's empty_like with its legacy
    # contiguous format; the numbers are drawn in its order)
    target = empty(tuple(input.shape), dtype=input.dtype)
    if _FuncTransforms.vmaps:      # (drawn in place, into a tensor batched as the draw is)
        check_same_randomness(input)
        drawn(target, keep=p is None)
    if p is not None:
        return target.bernoulli_(float(p), generator=generator)
    values = target.bernoulli_(input.detach(), generator=generator)
    out = result(values._array, BernoulliBackward0, (input,))   # recorded, but no gradient flows
    return drawn(out, keep=True) if _FuncTransforms.vmaps else out


def _like(maker):
    def like(input, dtype=None, device=None, requires_grad=False, memory_format=None, **kwargs):
        if maker in (rand, randn) and not _FuncTransforms.vmaps:
            if memory_format is not None and memory_format is not preserve_format:
                # (drawn in that layout's memory order, as PyTorch fills it)
                return _drawn_in_format(maker, input, dtype or input.dtype, requires_grad, memory_format,
                                        kwargs.get("generator"))
            return _drawn_like(maker, input, dtype or input.dtype, requires_grad, kwargs)
        if memory_format not in (None, preserve_format):    # (a layout of its own)
            out = maker(input.shape, dtype=dtype or input.dtype, **kwargs)
            laid_out = _memory_format.copy_in_format(out._array, memory_format)
            return batched_as(_leaf(laid_out, requires_grad, numpy_data=True), input)
        out = maker(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad, **kwargs)
        if maker in (rand, randn):        # inside vmap: batched as the draws are (see randn)
            return out
        if not _same_steps(with_pytorch_steps(input), out._array):
            out = _laid_out_like(out, input)
        return batched_as(out, input)     # inside vmap: like a batched tensor, batched too
    like.__name__ = maker.__name__ + "_like"
    like.__doc__ = f"``{maker.__name__}`` with the shape (and dtype) of ``input``."
    return like


def _same_steps(like, array):
    """Do the two arrays step through memory alike, counted in elements (not bytes: a float32
    tensor's float64 copy has strides twice as many bytes for the same layout)?"""
    return [s // like.itemsize for s in like.strides] == [s // array.itemsize for s in array.strides]


def _drawn_like(maker, input, dtype, requires_grad, kwargs):
    """rand_like/randn_like: PyTorch draws the numbers into new memory laid out like ``input``,
    in the order of that memory; and normal numbers for memory that is not row-major one by
    one (as it draws fewer than 16), not in its blocks of 16."""
    layout = empty_laid_out_like(with_pytorch_steps(input), dtype.numpy_dtype)
    if maker is randn and not layout.flags.c_contiguous:
        _refuse_dtype("normal_kernel_cpu", dtype.numpy_dtype, "biu")
        values = _random.normal(input.shape, dtype=dtype.numpy_dtype, generator=kwargs.get("generator"),
                                one_by_one=True)
        out = _random_leaf(values, requires_grad)
    else:
        out = maker(input.shape, dtype=dtype, requires_grad=requires_grad, **kwargs)
    return _laid_out_like(out, input, drawn=True)


def _drawn_in_format(maker, input, dtype, requires_grad, memory_format, generator):
    """rand_like/randn_like with a ``memory_format``: PyTorch fills new memory of that layout in
    place (``uniform_``/``normal_``), so the numbers follow its memory order."""
    kernel = "check_uniform_bounds" if maker is rand else "normal_kernel_cpu"
    _refuse_dtype(kernel, dtype.numpy_dtype, "biu")
    out = empty(tuple(input.shape), dtype=dtype)
    if memory_format is not contiguous_format:
        out = out.contiguous(memory_format=memory_format)
    if maker is rand:
        out.uniform_(generator=generator)
    else:
        out.normal_(generator=generator)
    return out.requires_grad_(requires_grad)


def _laid_out_like(out, input, drawn=False):
    """``out``'s values laid out in memory like ``input`` (PyTorch's "preserve_format", see
    ``empty_laid_out_like``): a transposed matrix gives a transposed result. ``drawn`` values
    (rand_like) go in memory order, the order PyTorch draws them in."""
    array = empty_laid_out_like(with_pytorch_steps(input), out._array.dtype)
    if array.strides == out._array.strides:
        return out
    if drawn:
        slowest_first = sorted(range(array.ndim), key=lambda dim: -array.strides[dim])
        in_memory_order = array.transpose(slowest_first)      # (row-major: memory order)
        in_memory_order[...] = out._array.reshape(in_memory_order.shape)
    else:
        array[...] = out._array
    laid_out = keep_zero_steps(_wrap(array))
    laid_out._requires_grad = out._requires_grad
    return laid_out


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)
rand_like = _like(rand)
randn_like = _like(randn)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    """A tensor shaped like ``input`` filled with ``fill_value`` (no history)."""
    out = full(input.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)
    if not _same_steps(with_pytorch_steps(input), out._array):
        out = _laid_out_like(out, input)     # (PyTorch's preserve_format, as zeros_like)
    return batched_as(out, input)


# --- more ways to make tensors: logspace, scalar_tensor, asarray, empty_strided, randint_like ----

def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False):
    """``steps`` values from base ** start to base ** end, evenly spaced in the exponent.

    As PyTorch's kernel: ``start`` and ``end`` are first made numbers of the result's dtype,
    the exponents are counted from ``start`` for the first half and back from ``end`` for the
    second (so both ends are exact), in float64 (C++ promotes them there), and each power is
    taken in float64 too (C's ``pow``, which numpy calls as well), then rounded to the dtype."""
    _check_scalar_ends("logspace", start, end)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    numpy_dtype = np.dtype(_float_dtype(dtype))
    if steps > 1:               # (PyTorch fills no value or one without its kernel)
        _refuse_dtype("logspace_cpu", numpy_dtype, "b")
    with np.errstate(over="ignore", invalid="ignore"):
        if steps == 1:
            exponents = np.array([start], dtype=np.float64)
        else:
            if numpy_dtype.kind in "iu":     # (checked as PyTorch converts a number to the dtype)
                name = _dtype.CHECKED_CONVERSION_NAMES[numpy_dtype.name]
                start, end = (int(_as_integers(value, numpy_dtype, name, unpacked=False))
                              for value in (start, end))
            first, last = np.asarray(start).astype(numpy_dtype), np.asarray(end).astype(numpy_dtype)
            # the difference in C++'s arithmetic of the dtype (small integers promoted to int64)
            wide = numpy_dtype if numpy_dtype.kind == "f" else np.int64
            step = np.float64(last.astype(wide) - first.astype(wide)) / (steps - 1)
            positions = np.arange(steps, dtype=np.float64)
            exponents = np.where(positions < steps // 2, np.float64(first) + step * positions,
                                 np.float64(last) - step * (steps - 1 - positions))
        values = np.power(np.float64(base), exponents)
        return _leaf(values.astype(numpy_dtype), requires_grad)


def scalar_tensor(s, dtype=None, device=None, requires_grad=False):
    """A 0-d tensor holding the number ``s``: float32 (the default float dtype) unless ``dtype``
    says otherwise, even for an int or a bool."""
    if isinstance(s, Tensor) and s.ndim == 0 and not s.requires_grad:
        s = s.item()            # (a 0-d tensor stands for its number, as in PyTorch's parser)
    if not isinstance(s, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not "
                        f"{type_name(s)}")
    return _leaf(np.asarray(s, dtype=_float_dtype(dtype)), requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """``obj`` as a tensor, sharing its memory when it can (a tensor, a numpy array of the same
    dtype) unless ``copy=True``; ``copy=False`` refuses to copy."""
    if isinstance(obj, Tensor):
        if (dtype is None or obj.dtype is dtype) and not copy and not requires_grad:
            return obj
        if copy is False and dtype is not None and obj.dtype is not dtype:
            raise ValueError(f"can't alias tensor with dtype '{_dtype.scalar_type_name(obj.dtype)}' "
                             f"into dtype '{_dtype.scalar_type_name(dtype)}'.")
        out = obj.detach().to(dtype or obj.dtype)
        if copy and out._array is obj._array:
            out = out.clone()
        return out.requires_grad_(requires_grad) if requires_grad else out
    if isinstance(obj, np.ndarray):
        wanted = obj.dtype if dtype is None else np.dtype(_dtype.to_numpy_dtype(dtype))
        if copy is False and wanted != obj.dtype:
            names = [_dtype.scalar_type_name(_dtype.from_numpy_dtype(d)) for d in (obj.dtype, wanted)]
            raise ValueError(f"can't alias tensor with dtype '{names[0]}' into dtype '{names[1]}'.")
        if not copy and wanted == obj.dtype:
            out = from_numpy(obj)
            out._requires_grad = bool(requires_grad)
            return out
        return _leaf(np.array(obj, dtype=wanted), requires_grad, numpy_data=True)
    return tensor(obj, dtype=dtype, requires_grad=requires_grad)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor laid out in memory with the given ``stride`` (minigrad fills it with zeros,
    as it does for ``empty``)."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of "
                           f"strides ({len(stride)})")
    for n in size:
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {list(size)}")
    # (PyTorch counts the memory in unsigned numbers: a step back past the start overflows)
    if any(n > 1 and step < 0 for n, step in zip(size, stride)) and 0 not in size:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    numpy_dtype = np.dtype(_float_dtype(dtype))
    length = 0 if 0 in size else 1 + sum((n - 1) * step for n, step in zip(size, stride))
    memory = np.zeros(length, dtype=numpy_dtype)
    array = np.lib.stride_tricks.as_strided(memory, size, tuple(s * numpy_dtype.itemsize for s in stride))
    out = _leaf(array, requires_grad, numpy_data=True)
    out.__dict__["_storage_memory"] = memory      # (its storage: see _ops/strided.py)
    return out


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, device=None,
                 requires_grad=False, memory_format=None):
    """Random integers in [low, high) shaped like ``input`` (of its dtype unless ``dtype``):
    ``randint_like(x, 10)`` is in [0, 10). The same numbers as ``randint`` draws."""
    if high is None:
        low, high = 0, low
    wanted = dtype or input.dtype
    if _FuncTransforms.vmaps or memory_format is contiguous_format:
        return randint(low, high, tuple(input.shape), generator=generator, dtype=wanted,
                       requires_grad=requires_grad)
    # PyTorch fills empty_like(input) in place, so the numbers go in the order its elements lie
    # in memory (a transposed input's result is transposed too)
    numbers = randint(low, high, (input.numel(),), generator=generator, dtype=wanted)._array
    out = empty_like(input, dtype=wanted, requires_grad=requires_grad)
    out._array[...] = _random.in_memory_order(numbers, out._array.shape, out._array.strides)
    return out


def deprecated_range(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """``torch.range``: start, start+step, ... up to *and including* end (deprecated in PyTorch: use ``arange``,
    which stops before end). Always the default float dtype unless ``dtype`` says otherwise."""
    given = (start, end) if step == 1 else (start, end, step)
    for position, (name, value) in enumerate((("start", start), ("end", end), ("step", step)), 1):
        if isinstance(value, Tensor):
            value = value.item()
        if not isinstance(value, (int, float, np.number)):
            if name == "step":
                raise invalid_combination("range", given, {})
            raise TypeError(f"range(): argument '{name}' (position {position}) must be Number, not "
                            f"{type_name(value)}")
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior "
                  "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
                  "values in [start, end).", UserWarning, stacklevel=stacklevel_outside_minigrad())
    dtype = _dtype.DEFAULT_FLOAT if dtype is None else dtype
    numpy_dtype = np.dtype(_dtype.to_numpy_dtype(dtype))
    _refuse_dtype("range_cpu", numpy_dtype, "b")
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    # the numbers in the dtype's accumulating type: double for floats, int64 for integers
    if numpy_dtype.kind == "f":
        first, last, step = (float(v) for v in values)
    else:
        first, last, step = (int(v) for v in values)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(first) and math.isfinite(last)):
        raise RuntimeError(f"unsupported range: {first:g} -> {last:g}")
    if not ((step > 0 and last >= first) or (step < 0 and last <= first)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if numpy_dtype.kind == "f":
        size = int((last - first) / step + 1)
    else:
        size = abs(last - first) // abs(step) + 1      # (C++'s division: toward zero)
    positions = np.arange(size, dtype=np.float64 if numpy_dtype.kind == "f" else np.int64)
    return _leaf((first + positions * step).astype(numpy_dtype), requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """An uninitialized tensor of ``size`` whose dims lie in memory in the order ``physical_layout``
    (outermost first): ``empty_permuted((2, 3, 4), (2, 0, 1))`` has strides (3, 1, 6)."""
    size, order = tuple(size), tuple(physical_layout)
    if len(size) != len(order):
        raise RuntimeError("Number of dimensions in size does not match the length of the physical_layout; "
                           f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = {len(order)}")
    if len(set(order)) != len(order):
        raise RuntimeError("Duplicate dim not allowed")
    laid_out = empty(tuple(size[d] for d in order), dtype=dtype)
    return laid_out.permute(tuple(np.argsort(order))).detach().requires_grad_(requires_grad)
