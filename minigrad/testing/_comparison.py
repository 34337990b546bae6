"""``assert_close``: are two results the same, up to rounding?

How it works (as PyTorch's torch/testing/_comparison.py does):

1. Walk both inputs together. Two sequences (lists, tuples; not strings) must have the same length,
   two mappings (dicts) the same keys; their items are compared pairwise, and a failure says which
   item ("The failure occurred for item [1]['a']").
2. Each pair of leaves is one of: None and None; two bools; two numbers (int, float, complex); two
   tensor-likes (tensors, or numpy arrays, which are read as tensors). Any other pair is a
   TypeError.
3. Tensors must agree in shape, dtype (unless ``check_dtype=False``; then both are promoted to a
   common dtype) and, if asked, strides. Their values then pass ``isclose(actual, expected, rtol,
   atol, equal_nan)``: ``|actual - expected| <= atol + rtol * |expected|`` elementwise.
4. Unless given, rtol and atol depend on the dtype (the larger of the two dtypes' values):
   float16 1e-3 and 1e-5, float32 1.3e-6 and 1e-5, float64 1e-7 and 1e-7 (Python floats count as
   float64), and 0 and 0 for integers and bools, which must therefore be equal.
"""
import cmath
import collections.abc
import warnings

import numpy as np

# (rtol, atol) by dtype name; any other dtype (integers, bool) must match exactly
_DEFAULT_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
                       "float64": (1e-7, 1e-7), "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}

# the dtype a Python number is compared as
_NUMBER_DTYPES = {int: "int64", float: "float64", complex: "complex128"}


class _Failure(Exception):
    """What a comparison found wrong: the exception class to raise, its message, and the path to
    the item it concerns (``("a", 1)`` for ``actual["a"][1]``)."""

    def __init__(self, error_class, message, path=()):
        super().__init__(message)
        self.error_class, self.message, self.path = error_class, message, path

    def to_error(self, msg=None):
        """The exception to raise. A string ``msg`` replaces the message; a callable one gets the
        message (with the item's path) and returns the one to show."""
        if isinstance(msg, str):
            return self.error_class(msg)
        message = self.message
        if self.path:
            message += f"\n\nThe failure occurred for item {_path_text(self.path)}"
        if callable(msg):
            message = msg(message)
        return self.error_class(message)


def _path_text(path):
    """``[1]['a']``: each step of the path written as a one-item list."""
    return "".join(str([step]) for step in path)


def _tolerances(dtype_names, rtol, atol):
    """The rtol and atol to use: the ones given (both, or neither), else the largest defaults of
    the dtypes compared."""
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, "
                         f"but got no {'rtol' if rtol is None else 'atol'}.")
    if rtol is not None:
        return rtol, atol
    defaults = [_DEFAULT_TOLERANCES.get(name, (0.0, 0.0)) for name in dtype_names]
    return max(d[0] for d in defaults), max(d[1] for d in defaults)


def _mismatch_message(what, details, differences, rtol, atol):
    """"Tensor-likes are not close!" and the lines below it. ``differences`` is
    ``(absolute, relative)``, each ``(value, index)`` with index None for a scalar."""
    equal = rtol == 0 and atol == 0       # (no tolerance: "equal", and no "up to" to print)
    lines = [f"{what} are not {'equal' if equal else 'close'}!", "", details]
    for kind, (value, index), tolerance in zip(("absolute", "relative"), differences, (atol, rtol)):
        if index is None:
            line = f"{kind.title()} difference: {value}"
        else:
            line = f"Greatest {kind} difference: {value} at index {index}"
        if not equal:
            line += f" (up to {tolerance} allowed)"
        lines.append(line)
    return "\n".join(lines)


def _scalar_mismatch_message(actual, expected, rtol, atol):
    """The message for two numbers (or two 0-dim tensors' values) that are not close."""
    absolute = abs(actual - expected)
    relative = float("inf") if expected == 0 else absolute / abs(expected)
    return _mismatch_message("Scalars", f"Expected {expected} but got {actual}.",
                             ((absolute, None), (relative, None)), rtol, atol)


def _tensor_mismatch_message(actual, expected, close, rtol, atol):
    """The message for two tensors of one shape whose values are not all close: how many are
    not, and the largest absolute and relative differences among those, with their index."""
    a, b = actual.numpy().ravel(), expected.numpy().ravel()
    close = close.numpy().ravel()
    total, mismatched = close.size, int(close.size - close.sum())
    details = f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})"
    if a.dtype.kind not in "fc":        # integers and bools: differences as int64 (no overflow) ...
        a, b = a.astype(np.int64), b.astype(np.int64)
    with np.errstate(all="ignore"):
        absolute = np.abs(a - b)
        absolute[close] = 0             # (only the mismatched elements count)
        if absolute.dtype.kind == "i":  # ... and their ratios in float32, the default float dtype
            relative = absolute.astype(np.float32) / np.abs(b).astype(np.float32)
        else:
            relative = absolute / np.abs(b)
    relative[close] = 0
    differences = []
    for values in (absolute, relative):
        flat_index = int(np.argmax(values))      # (the first nan, if there is one: as torch.max)
        index = tuple(int(i) for i in np.unravel_index(flat_index, actual.shape))
        differences.append((values[flat_index].item(), index))
    return _mismatch_message("Tensor-likes", details, differences, rtol, atol)


# --- the pairs of leaves -----------------------------------------------------------------------

class _Unsupported(Exception):
    """Raised by a pair class that cannot compare the two inputs: the next one is tried."""


class _NonePair:
    """None against anything: passes only against None."""

    def __init__(self, actual, expected, path, **options):
        if actual is not None and expected is not None:
            raise _Unsupported
        self.actual, self.expected, self.path = actual, expected, path

    def compare(self):
        if not (self.actual is None and self.expected is None):
            raise _Failure(AssertionError, f"None mismatch: {self.actual} is not {self.expected}", self.path)


class _BooleanPair:
    """Two bools (Python's or numpy's): they must be equal."""

    def __init__(self, actual, expected, path, **options):
        if not all(isinstance(value, (bool, np.bool_)) for value in (actual, expected)):
            raise _Unsupported
        self.actual, self.expected, self.path = bool(actual), bool(expected), path

    def compare(self):
        if self.actual is not self.expected:
            raise _Failure(AssertionError, f"Booleans mismatch: {self.actual} is not {self.expected}",
                           self.path)


class _NumberPair:
    """Two numbers (int, float, complex; numpy's become Python's): the same type unless
    ``check_dtype=False``, and close."""

    def __init__(self, actual, expected, path, *, rtol, atol, equal_nan, check_dtype, **options):
        kinds = (int, float, complex, np.number)
        if not all(isinstance(value, kinds) for value in (actual, expected)):
            raise _Unsupported
        actual, expected = (value.item() if isinstance(value, np.number) else value
                            for value in (actual, expected))
        if isinstance(actual, bool) or isinstance(expected, bool):
            # a bool with another number: PyTorch's NumberPair knows no dtype for bool and fails
            # with its message for errors it did not foresee
            raise RuntimeError(
                f"Originating a NumberPair() at item {_path_text(path)} with\n\n"
                f"{type(actual).__name__}(): {actual}\n\nand\n\n{type(expected).__name__}(): {expected}\n\n"
                "resulted in the unexpected exception above. If you are a user and see this message "
                "during normal operation please file an issue at https://github.com/pytorch/pytorch/issues. "
                "If you are a developer and working on the comparison functions, please except the "
                "previous error and raise an expressive `ErrorMeta` instead.")
        self.rtol, self.atol = _tolerances([_NUMBER_DTYPES[type(v)] for v in (actual, expected)], rtol, atol)
        self.actual, self.expected, self.path = actual, expected, path
        self.equal_nan, self.check_dtype = equal_nan, check_dtype

    def compare(self):
        actual, expected = self.actual, self.expected
        if self.check_dtype and type(actual) is not type(expected):
            raise _Failure(AssertionError,
                           f"The (d)types do not match: {type(actual)} != {type(expected)}.", self.path)
        if actual == expected or (self.equal_nan and cmath.isnan(actual) and cmath.isnan(expected)):
            return
        difference = abs(actual - expected)
        if cmath.isfinite(difference) and difference <= self.atol + self.rtol * abs(expected):
            return
        raise _Failure(AssertionError, _scalar_mismatch_message(actual, expected, self.rtol, self.atol),
                       self.path)


class _TensorLikePair:
    """Two tensors, or two numpy arrays (read as tensors): the same shape, dtype (unless
    ``check_dtype=False``) and strides (if ``check_stride=True``), and close values."""

    def __init__(self, actual, expected, path, *, allow_subclasses, rtol, atol, equal_nan,
                 check_dtype, check_stride, **options):
        from .. import Tensor, as_tensor
        if not all(isinstance(value, (Tensor, np.ndarray)) for value in (actual, expected)):
            raise _Unsupported
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not related or (not allow_subclasses and type(actual) is not type(expected)):
            raise _Unsupported
        actual, expected = (as_tensor(value) if isinstance(value, np.ndarray) else value
                            for value in (actual, expected))
        self.actual, self.expected, self.path = actual.detach(), expected.detach(), path
        self.rtol, self.atol = _tolerances([str(actual.dtype).split(".")[-1],
                                            str(expected.dtype).split(".")[-1]], rtol, atol)
        self.equal_nan, self.check_dtype, self.check_stride = equal_nan, check_dtype, check_stride

    def _attribute_failure(self, name, actual_value, expected_value):
        return _Failure(AssertionError, f"The values for attribute '{name}' do not match: "
                                        f"{actual_value} != {expected_value}.", self.path)

    def compare(self):
        from .. import isclose, promote_types
        actual, expected = self.actual, self.expected
        # (device and layout: every minigrad tensor is a strided one on the CPU, so they agree)
        if actual.shape != expected.shape:
            raise self._attribute_failure("shape", actual.shape, expected.shape)
        if self.check_dtype and actual.dtype != expected.dtype:
            raise self._attribute_failure("dtype", actual.dtype, expected.dtype)
        if self.check_stride and actual.stride() != expected.stride():
            raise self._attribute_failure("stride()", actual.stride(), expected.stride())
        if actual.dtype != expected.dtype:
            common = promote_types(actual.dtype, expected.dtype)
            actual, expected = actual.to(common), expected.to(common)
        close = isclose(actual, expected, rtol=self.rtol, atol=self.atol, equal_nan=self.equal_nan)
        if bool(close.all()):
            return
        if actual.dim() == 0:
            message = _scalar_mismatch_message(actual.item(), expected.item(), self.rtol, self.atol)
        else:
            message = _tensor_mismatch_message(actual, expected, close, self.rtol, self.atol)
        raise _Failure(AssertionError, message, self.path)


_PAIR_CLASSES = (_NonePair, _BooleanPair, _NumberPair, _TensorLikePair)


def _is_sequence(value):
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


def _pairs(actual, expected, path, options):
    """The pairs of leaves of ``actual`` and ``expected``, walked together (step 1 above);
    differences in their structure fail at once."""
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, f"The length of the sequences mismatch: {len(actual)} != "
                                           f"{len(expected)}", path)
        return [pair for index, (a, b) in enumerate(zip(actual, expected))
                for pair in _pairs(a, b, path + (index,), options)]
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            raise _Failure(AssertionError, "The keys of the mappings do not match:\n"
                           f"Missing keys in the actual mapping: {_sorted(expected_keys - actual_keys)}\n"
                           f"Additional keys in the actual mapping: {_sorted(actual_keys - expected_keys)}",
                           path)
        return [pair for key in _sorted(actual.keys())
                for pair in _pairs(actual[key], expected[key], path + (key,), options)]
    for pair_class in _PAIR_CLASSES:
        try:
            return [pair_class(actual, expected, path, **options)]
        except _Unsupported:
            continue
    raise _Failure(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} "
                              f"and {type(expected)}.", path)


def _sorted(keys):
    """The keys sorted, or in their own order if they cannot be sorted (1 and 'a')."""
    try:
        return sorted(keys)
    except TypeError:
        return list(keys)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Fail with an AssertionError unless ``actual`` and ``expected`` are close: tensors (or numpy
    arrays) of the same shape and dtype whose values satisfy
    ``|actual - expected| <= atol + rtol * |expected|``, numbers, or sequences and mappings of
    them. rtol and atol default by dtype (see the module's docstring); ``equal_nan=True`` counts
    two NaNs as close; ``msg`` (a string, or a function of the message) replaces the message."""
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_dtype=check_dtype, check_stride=check_stride)
    try:
        pairs = _pairs(actual, expected, (), options)
    except _Failure as failure:          # (a difference in structure: msg is not used)
        raise failure.to_error() from None
    for pair in pairs:
        try:
            pair.compare()
        except _Failure as failure:
            raise failure.to_error(msg) from None


# assert_allclose's own defaults (rtol, atol), looser than assert_close's for float32
_ALLCLOSE_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1e-4, 1e-5), "float64": (1e-5, 1e-8)}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """The old form of ``assert_close`` (warns that it is deprecated): numbers and lists are made
    tensors first (``expected`` in ``actual``'s dtype), dtypes need not match, and NaNs are equal
    by default."""
    from .. import Tensor, tensor, promote_types
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
                  "future release. Please use `torch.testing.assert_close()` instead. You can find "
                  "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
                  FutureWarning, stacklevel=2)
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        common = str(promote_types(actual.dtype, expected.dtype)).split(".")[-1]
        rtol, atol = _ALLCLOSE_TOLERANCES.get(common, (0, 0))
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=False,
                 msg=msg or None)
