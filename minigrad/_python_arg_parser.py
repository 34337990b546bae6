"""Checking the arguments of the public functions, in one place (PyTorch: python_arg_parser.cpp).

``minigrad.exp([1., 2.])`` must fail the way ``torch.exp([1., 2.])`` does,
with a TypeError naming the function, the argument and what it got, not
with an AttributeError from deep inside the library. Every top-level function
is wrapped once, at import, by ``checked``: the wrapper looks only at the
arguments that must be tensors (a type check each) and then calls the
function itself. Tensor methods are wrapped the same way, against their own signatures
(_python_variable_methods.py).
"""
import functools
import inspect
import math
import warnings

import numpy as np

from ._tensor import Tensor
from . import _dtype, _memory_format
from ._warnings import stacklevel_outside_minigrad

_NUMBERS = (int, float, bool, np.number, np.bool_)
TENSOR, TENSOR_OR_NUMBER, TENSORS, SIZE = "Tensor", "Tensor or Number", "tuple of Tensors", "size"
INT = "int"
OVERLOADED = "one of several signatures"     # PyTorch lists the signatures it tried


def _type_name(value):
    return type(value).__name__


def invalid_combination(name, args, kwargs):
    """PyTorch's first line when no overload of ``name`` accepts these arguments."""
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    described = ", ".join(got) if args else "".join(g + ", " for g in got)
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({described}), but expected "
        "one of:")


def _check_tensor_list(name, value, position, parameter="tensors"):
    if isinstance(value, Tensor) or not isinstance(value, (tuple, list)):
        raise TypeError(f"{name}(): argument '{parameter}' (position {position + 1}) must be tuple "
                        f"of Tensors, not {_type_name(value)}")
    for k, item in enumerate(value):
        if not isinstance(item, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument {position}, but got "
                            f"{_type_name(item)}")


def _check_softmax_dim(name, args, kwargs):
    """torch.softmax(x, dim) names dim's position only when it was given by position."""
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    if dim is not None and (not isinstance(dim, (int, np.integer)) or isinstance(dim, bool)):
        position = " (position 2)" if len(args) > 1 else ""
        raise TypeError(f"{name}(): argument 'dim'{position} must be int, not {_type_name(dim)}")


def check_dtype(name, dtype):
    """dtype= must be a minigrad dtype (or Python's float, int, bool, as PyTorch allows)."""
    if dtype is None or isinstance(dtype, _dtype.dtype) or dtype in (float, int, bool):
        return
    raise TypeError(f"{name}(): argument 'dtype' must be torch.dtype, not {_type_name(dtype)}")


def check_sizes(name, sizes):
    """f(2, 3) or f((2, 3)): a size is a tuple of ints (PyTorch's messages for anything else)."""
    if len(sizes) == 1:
        only = sizes[0]
        if isinstance(only, (tuple, list)):
            sizes = tuple(only)
        elif not isinstance(only, (int, np.integer)) or isinstance(only, bool):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{_type_name(only)}")
    elif any(isinstance(s, (tuple, list)) for s in sizes):
        raise TypeError(f"{name}() takes 1 positional argument but {len(sizes)} were given")
    elif not isinstance(sizes[0], (int, np.integer, Tensor)) or isinstance(sizes[0], bool):
        # PyTorch tries its other signatures with the first argument; rand and randn have some
        if name in ("rand", "randn"):
            raise invalid_combination(name, sizes, {})
        raise TypeError(f"{name}() takes 1 positional argument but {len(sizes)} were given")
    if name == "zeros" and any(isinstance(s, (int, np.integer)) and s < 0 for s in sizes):
        raise RuntimeError(f"{name}: Dimension size must be non-negative.")
    for position, size in enumerate(sizes):
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            if isinstance(size, Tensor) and size.numel() == 1 and not size.is_floating_point():
                continue
            raise TypeError(
                f"{name}(): argument 'size' failed to unpack the object at pos {position + 1} with "
                f"error \"type must be tuple of ints,but got {_type_name(size)}\"")
        if not -2**63 <= size < 2**63:
            raise int64_overflow(name, "size", position)
    return tuple(int(s) for s in sizes)


def int64_overflow(name, parameter, position):
    """PyTorch's error for an int of a list of ints past a C++ long long (its message goes on
    with the C++ stack of the failed conversion)."""
    return TypeError(f"{name}(): argument '{parameter}' failed to unpack the object at pos "
                     f"{position + 1} with error \"Overflow when unpacking long long\"")


def check_storage_size(sizes, dtype):
    """PyTorch's errors for sizes whose steps or count of bytes pass a C++ int64, before it tries
    to allocate (its messages)."""
    step = 1
    for size in reversed(sizes[1:]):
        step *= max(size, 1)
        if step >= 2**63:
            raise RuntimeError("Stride calculation overflowed")
    itemsize = _dtype.to_numpy_dtype(dtype).itemsize if dtype is not None else 4
    if math.prod(sizes) * itemsize >= 2**63:
        shown = ", ".join(str(s) for s in sizes)
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{shown}]")


def _allocation_error(sizes, dtype):
    itemsize = _dtype.to_numpy_dtype(dtype).itemsize if dtype is not None else 4
    count = math.prod(sizes)
    return RuntimeError(
        f"DefaultCPUAllocator: can't allocate memory: you tried to allocate {count * itemsize} "
        "bytes. Error code 12 (Cannot allocate memory)\n"
        "minigrad hint: that tensor does not fit into this computer's memory; check its sizes.")


# --- PyTorch's signatures: a cheap look first, PyTorch's whole parse only when it fails --------

# the exact types a cheap look takes for a Tensor (nn.Parameter adds itself when it is defined)
TENSOR_TYPES = {Tensor}
_CHEAP_TYPES = {"int": (int,), "bool": (bool,), "float": (float, int, bool), "Number": (int, float, bool),
                "torch.dtype": (_dtype.dtype,), "str": (str,), "name": (str,),
                "torch.memory_format": (_memory_format.memory_format,),
                "tuple of ints": (tuple, list)}


# (the types of a parameter that takes anything, torch.tensor's data)
_ANYTHING = frozenset({object})


class _CheapLook:
    """What a correct call of one signature looks like, in exact types only: how many
    arguments, which keywords, which types at each position. A call that passes needs no
    parse (its function checks the finer points); any other goes through PyTorch's whole
    parse, which accepts it or raises PyTorch's error."""

    def __init__(self, signature, numbers_as_tensors, method=False, several_ints=True):
        """``method``: a Tensor method's signature (after self), whose first Tensor parameter
        takes a number without a parse (x.add(2)); ``several_ints``: the function takes a lone
        tuple of ints as several ints itself (x.view(2, 3)), else a parse puts them in a tuple
        (x.flip(0, 1))."""
        self.max_positional, self.fewest = signature.max_pos_args, signature.min_args
        # x.view(2, 3): a lone tuple of ints given as several ints
        self.several_ints = signature.varargs and several_ints
        self.positional, self.keywords = [], {}
        # (index, name) of each parameter without a default: given by position or by keyword
        self.required = tuple((index, p.name) for index, p in enumerate(signature.params)
                              if not p.optional)
        for index, parameter in enumerate(signature.params):
            types = self._types(parameter, index + method, numbers_as_tensors)
            types = types if types is _ANYTHING else frozenset(types)
            if not parameter.keyword_only:
                self.positional.append(types)
            # (and the position it would take: a keyword for an argument given by position is
            # one value too many)
            self.keywords[parameter.name] = (types, index if not parameter.keyword_only else 10**9)
        if self.several_ints:       # (x.view(size=(2, 3)): a parse, which passes it by position)
            del self.keywords[signature.params[0].name]

    @staticmethod
    def _types(parameter, index, numbers_as_tensors):
        if parameter.type_name == "Tensor":
            types = set(TENSOR_TYPES)
            if numbers_as_tensors and index > 0:     # (a number first is made a tensor: a parse)
                types |= {int, float, bool}
        elif parameter.type_name == "object":
            return _ANYTHING
        else:
            types = set(_CHEAP_TYPES.get(parameter.type_name, ()))
        if parameter.takes_one_int:
            types.add(int)
        if parameter.allow_none:
            types.add(type(None))
        return types

    def passes(self, args, kwargs):
        """True if the call looks right at a glance (exact types, counts, known keywords)."""
        if self.several_ints and args and type(args[0]) is int:     # (torch.ones(2, 3): one size)
            if not _plain_list(args):
                return False
            args = (args,)
        if len(args) > self.max_positional or len(args) + len(kwargs) < self.fewest:
            return False
        for value, types in zip(args, self.positional):
            if types is _ANYTHING:
                continue
            if type(value) not in types or (type(value) in (tuple, list) and not _plain_list(value)) or (
                    type(value) is int and not _INT64_MIN <= value <= _INT64_MAX):
                return False
        if len(args) < len(self.required):
            for index, name in self.required:
                if index >= len(args) and name not in kwargs:
                    return False
        for key, value in kwargs.items():
            types, index = self.keywords.get(key, (None, 0))
            if types is _ANYTHING and index >= len(args):
                continue
            if types is None or types is _ANYTHING or type(value) not in types or index < len(args) or (
                    type(value) in (tuple, list) and not _plain_list(value)) or (
                    type(value) is int and not _INT64_MIN <= value <= _INT64_MAX):
                return False
        return True


def _cheap_looks(signatures, method=False, several_ints=True):
    """The cheap look of each of ``signatures``' printed signatures."""
    return tuple(_CheapLook(signature, signatures.numbers_as_tensors, method, several_ints)
                 for signature in signatures.signatures)


def _looks_right(looks, args, kwargs):
    for look in looks:
        if look.passes(args, kwargs):
            return True
    return False


# (an int past a C++ long long gets PyTorch's overflow error from the whole parse)
_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def _plain_list(value):
    """A list of ints (exact type, each a C++ long long), which a cheap look lets through."""
    return all(type(item) is int and _INT64_MIN <= item <= _INT64_MAX for item in value)


def parse_as_pytorch(signatures, args, kwargs):
    """PyTorch's whole parse of a call that failed the cheap look: its TypeError, or the
    arguments to call the function with: a number given for a first Tensor parameter, as in
    torch.add(2, 3), made a tensor as PyTorch does; a deprecated signature's arguments
    (torch.add(x, 2, y)) put as the printed first signature takes them, after its warning."""
    index, values = signatures.parse(args, kwargs)
    if index >= len(signatures.signatures):
        return deprecated_call(signatures, signatures.deprecated[index - len(signatures.signatures)],
                               values, kwargs)
    if values.converted:     # (ints given as integer tensors, torch.zeros(torch.tensor(3)): their values)
        args, kwargs = values.as_called(kwargs)
    if values.get("device") is not None:
        check_device(values["device"])
    if (signatures.numbers_as_tensors and args and isinstance(args[0], _NUMBERS)
            and signatures.signatures[0].params[0].type_name == "Tensor"):
        from ._creation import tensor
        if type(args[0]) is int:
            args = (_int_given_first(signatures.name, args[0], args[1:], kwargs),) + args[1:]
        else:
            args = (tensor(args[0]),) + args[1:]
    return args, kwargs


def _int_given_first(name, number, rest, kwargs):
    """A Python int given first to torch.add, torch.mul, torch.div, ..., as the tensor PyTorch
    makes of it (a "wrapped number", which never sets the dtype against a tensor of its kind).

    A true division (div without rounding_mode) of it by an integer tensor computes in floats,
    the number converted to float directly (not first to the tensor's dtype: an int32 tensor
    would cut it). From 2**63 to 2**64 - 1 PyTorch makes it a uint64 number, for which minigrad
    has no tensors: against an integer tensor it counts by its low 64 bits (two's complement:
    2**63 is -2**63 in int64), against a float one by its value; bools and other ints are
    refused, as PyTorch refuses to promote them with uint64. (Two such numbers give PyTorch a
    uint64 tensor: minigrad's overflow error instead.)"""
    from ._creation import tensor
    other = rest[0] if rest else kwargs.get("other")
    unsigned = 2**63 <= number < 2**64
    if isinstance(other, Tensor):
        kind = other._array.dtype.kind
        if kind == "b" and unsigned and name not in ("sub", "subtract"):    # (which refuse bools first)
            raise _unsigned_promotion("Bool", "UInt64")
        if kind in "iub":
            if name in ("div", "divide", "true_divide") and kwargs.get("rounding_mode") is None:
                return tensor(float(number))       # (a true division of integers: the default dtype)
            return tensor(number - 2**64 if unsigned else number)
        if unsigned:
            # (a float number never sets the dtype against a float tensor: only a 0-d one could)
            return tensor(float(number), dtype=other.dtype if other.ndim == 0 else _dtype.float64)
        return tensor(number)
    if unsigned and isinstance(other, (bool, np.bool_)):
        raise _unsigned_promotion("UInt64", "Bool")
    if unsigned and isinstance(other, (int, np.integer)) and -2**63 <= other < 2**63:
        raise _unsigned_promotion("UInt64", "Long")
    if unsigned and isinstance(other, (float, np.floating)):
        return tensor(float(number))                # (the default dtype, as PyTorch's result)
    return tensor(number)           # (past int64: the overflow error of a number)


def _unsigned_promotion(first, second):
    """PyTorch's refusal to promote uint64 (a Python int from 2**63 up) with another dtype."""
    return RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted "
                        f"to promote {first} and {second}")


_deprecation_warned = []      # (PyTorch warns of a deprecated signature once a process, whichever)


def deprecated_call(signatures, used, values, kwargs):
    """PyTorch's warning for the deprecated signature ``used``, and the arguments as the first
    printed signature takes them: addmm(2, x, 3, a, b) is addmm(x, a, b, beta=2, alpha=3)."""
    if not _deprecation_warned:
        _deprecation_warned.append(True)
        name = signatures.name
        instead = "".join(f"\n\t{name}{s.shown()}" for s in signatures.signatures)
        warnings.warn(f"This overload of {name} is deprecated:\n\t{name}{used.shown()}\nConsider "
                      f"using one of the following signatures instead:{instead} (Triggered internally "
                      "at /__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)",
                      UserWarning, stacklevel=stacklevel_outside_minigrad())
    taken = signatures.signatures[0].params
    args = tuple(values[p.name] for p in taken if not p.keyword_only and p.name in values)
    keywords = {p.name: values[p.name] for p in taken
                if p.keyword_only and p.name in values and p.name != "out"}
    if "out" in kwargs:
        keywords["out"] = kwargs["out"]
    return args, keywords


def check_device(device):
    """A device= argument as PyTorch reads it (torch.zeros(2, device='cpu:0')), with its error
    for one this CPU-only library cannot give (PyTorch's, as built without accelerators)."""
    if isinstance(device, int):
        raise RuntimeError("Device index must not be negative" if device < 0 else
                           "Cannot access accelerator device when none is available.")
    if not isinstance(device, str):
        from ._tensor import check_cpu_device
        check_cpu_device(device)        # (a minigrad device: the CPU, or another one's error)
        return
    if not device:
        raise RuntimeError("Device string must not be empty")
    kind, colon, index = device.partition(":")
    if kind == "cpu":
        if not colon or (index.isdigit() and index.isascii() and (index == "0" or index[0] != "0")):
            return
        raise RuntimeError(f"Invalid device string: '{device}'")
    from ._tensor import _device_error
    raise _device_error(device)


# keyword arguments PyTorch's factories take that change nothing here at these values (the only
# layout and pinned memory minigrad has; None for any of them, requires_grad=None included, is
# the function's default), left out before a function that does not take them itself is called
_SAME_AS_LEFT_OUT = {"layout": ("torch.strided",), "pin_memory": ("False",), "memory_format": (),
                     "requires_grad": (), "device": ()}


def _keywords_left_out(function, signatures):
    """The keywords of ``signatures`` that ``function`` does not take itself, of those above,
    and requires_grad where PyTorch's signature takes None for it."""
    if signatures is None:
        return frozenset()
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return frozenset()
    declared = {p.name: p for s in signatures.signatures for p in s.params}
    left_out = {k for k in _SAME_AS_LEFT_OUT if k in declared and k not in parameters}
    if "requires_grad" in declared and declared["requires_grad"].allow_none:
        left_out.add("requires_grad")
    return frozenset(left_out)


def _without_defaults(kwargs, left_out):
    """``kwargs`` without those keywords of ``left_out`` that hold None or a value that changes
    nothing (a device, once the parse has read it: check_device)."""
    if kwargs.get("pin_memory") is True and "pin_memory" in left_out:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no pinned "
                           "memory allocator is available on this system.")
    return {k: v for k, v in kwargs.items() if k not in left_out or not (
        v is None or k == "device" or str(v) in _SAME_AS_LEFT_OUT[k])}


# functions PyTorch parses whose table entry minigrad does not follow yet, with the reason
NOT_PARSED = {}


def pytorch_signatures(name):
    """PyTorch's signatures of torch.<name> (from _signature_table.py), None if not known."""
    from ._signature_table import (SIGNATURES, NUMBERS_AS_TENSORS, HIDDEN, DEPRECATED, FACTORY_SIGNATURES,
                                   SYMINT)
    texts = SIGNATURES.get(name) or FACTORY_SIGNATURES.get(name)
    if texts is None or name in NOT_PARSED:
        return None
    from ._signatures import Signatures
    return Signatures(name, *texts, numbers_as_tensors=name in NUMBERS_AS_TENSORS,
                      hidden=name in HIDDEN, deprecated=DEPRECATED.get(name, ()),
                      symint=SYMINT.get(name, ()) if name in SIGNATURES else None)


def torch_function_checked(function, name, parameters, out_rule=None):
    """torch.<name>: ``checked``, parsed as PyTorch parses it when its signatures are known."""
    return checked(function, name, parameters, out_rule, pytorch_signatures(name))


def _takes_out(function):
    """Does ``function`` declare an ``out`` parameter of its own?"""
    try:
        return "out" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def checked(function, name, parameters, out_rule=None, signatures=None):
    """``function`` with its arguments checked first: by PyTorch's ``signatures`` when given,
    and by ``parameters``, (PyTorch's parameter name, kind) for the leading positional
    parameters. ``out_rule``: how it takes out= (``_out.OUT_RULES``), None if it takes none."""
    # (the cheap looks are made at the first call, when the signatures are read: see Signatures)
    looks = None
    # (a function without a rule that takes out= itself, as multinomial does, writes it itself;
    # asked at the first call with out=, as reading every function's signature slows the import)
    writes_out_itself = None
    if signatures is not None:
        parameters = tuple(p for p in parameters if p[1] in (SIZE, TENSORS))
    # (the keywords dropped where they change nothing: found at the first call too)
    left_out = None

    @functools.wraps(function)
    def with_checked_arguments(*args, **kwargs):
        nonlocal looks, writes_out_itself, left_out
        if refuse_uninitialized is not None:        # (a lazy module's parameter exists)
            refuse_uninitialized(_shown_as_pytorch(name, with_checked_arguments), args, kwargs)
        if signatures is not None:
            if looks is None:
                looks = _cheap_looks(signatures)
                left_out = _keywords_left_out(function, signatures)
            if looks and not _looks_right(looks, args, kwargs):
                args, kwargs = parse_as_pytorch(signatures, args, kwargs)
            if left_out and kwargs:
                kwargs = _without_defaults(kwargs, left_out)
        if kwargs and "out" in kwargs:
            if writes_out_itself is None:
                writes_out_itself = out_rule is None and _takes_out(function)
            if not writes_out_itself:                    # torch.add(a, b, out=c): _out.py
                from ._out import call_with_out          # (imported late: it needs the operations)
                return call_with_out(with_checked_arguments, name, out_rule, args, kwargs)
        if "size" in kwargs and not args and parameters and parameters[0][1] == SIZE:
            args = (kwargs.pop("size"),)             # torch.randn(size=(2, 3))
        for position, (parameter, kind) in enumerate(parameters):
            if position >= len(args):
                if kind == SIZE:
                    break
                if parameter not in kwargs:
                    break
                value = kwargs[parameter]
            else:
                value = args[position]
            if kind == SIZE:
                args = (check_sizes(name, args),)
                check_dtype(name, kwargs.get("dtype"))
                if all(size >= 0 for size in args[0]):      # (a negative size: the function's error)
                    check_storage_size(args[0], kwargs.get("dtype"))
                try:
                    return function(*args, **kwargs)
                except (MemoryError, ValueError) as error:     # (numpy's: "array is too big")
                    if isinstance(error, ValueError) and "too big" not in str(error):
                        raise
                    raise _allocation_error(args[0], kwargs.get("dtype")) from None
            if kind == TENSORS:
                _check_tensor_list(name, value, position)
                if not value and name in ("cat", "concat"):
                    raise ValueError("torch.cat(): expected a non-empty list of Tensors")
                continue
            if isinstance(value, Tensor):
                continue          # (a one-element integer tensor counts as an int: the function checks)
            if kind == INT:
                if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
                    continue
                # (PyTorch names the position only of an argument given by position)
                where = f" (position {position + 1})" if position < len(args) else ""
                raise TypeError(f"{name}(): argument '{parameter}'{where} must be int, not "
                                f"{_type_name(value)}")
            if kind == OVERLOADED:
                # a number is fine after the first argument, and first in pow, remainder and
                # floor_divide (2 ** x, 2 % x, 2 // x)
                if isinstance(value, _NUMBERS) and (
                        position > 0 or name in ("pow", "remainder", "floor_divide")):
                    continue
                raise invalid_combination(name, args, kwargs)
            elif kind == TENSOR_OR_NUMBER and isinstance(value, _NUMBERS):
                continue
            else:
                raise TypeError(f"{name}(): argument '{parameter}' (position {position + 1}) must be "
                                f"Tensor, not {_type_name(value)}")
        if "dtype" in kwargs:
            check_dtype(name, kwargs["dtype"])
        if name in ("softmax", "log_softmax"):
            _check_softmax_dim(name, args, kwargs)
        return function(*args, **kwargs)
    with_checked_arguments.parsed_as_pytorch = name if signatures is not None else None
    return with_checked_arguments


# PyTorch's names for the leading parameters of each public function.
_INPUT = (("input", TENSOR),)
_INPUT_OTHER = (("input", TENSOR), ("other", TENSOR_OR_NUMBER))
PARAMETERS = {
    **{name: _INPUT for name in (
        "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "relu",
        "abs", "square", "reciprocal", "sign", "neg", "negative", "sum", "mean", "max", "min",
        "amax", "amin", "norm", "argmax", "argmin", "all", "any", "var", "std", "logsumexp",
        "clone", "reshape", "t", "transpose", "permute", "squeeze", "unsqueeze", "flatten", "unbind", "split",
        "chunk", "flip", "select", "swapaxes", "cumsum", "cumprod", "prod", "narrow", "gather",
        "scatter", "scatter_add", "index_select", "index_add", "topk", "roll",
        "round", "floor", "ceil", "trunc", "fix", "frac", "erf", "nonzero", "numel",
        "is_floating_point", "softmax", "log_softmax", "isnan", "isinf", "isfinite", "isposinf",
        "isneginf", "nan_to_num", "nan_to_num_", "log2", "log10", "expm1", "logical_not",
        "logical_and", "logical_or", "logical_xor", "nansum", "nanmean", "count_nonzero", "asin", "acos",
        "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "arcsin", "arccos", "arctan", "arcsinh",
        "arccosh", "arctanh", "deg2rad", "rad2deg", "erfc", "erfinv", "sinc", "exp2", "logit",
        "lgamma", "digamma", "signbit", "positive")},
    **{name: (("input", TENSOR), ("diagonal", INT)) for name in ("tril", "triu")},
    **{name: (("input", TENSOR), ("dim", INT)) for name in ("median", "nanmedian")},
    **{name: (("input", OVERLOADED),) for name in ("clamp", "clip", "pow")},
    "where": (("condition", OVERLOADED),),
    **{name: _INPUT_OTHER for name in (
        "add", "sub", "mul", "div", "subtract", "multiply", "divide", "maximum", "minimum",
        "allclose", "isclose", "equal", "true_divide", "copysign", "eq", "ne", "lt", "le", "gt",
        "ge", "greater", "greater_equal", "less", "less_equal", "not_equal")},
    **{name: (("input", TENSOR), ("other", TENSOR)) for name in (
        "hypot", "logaddexp", "logaddexp2", "fmax", "fmin")},
    # several signatures (remainder has a number-first one: remainder(2, x))
    **{name: (("input", OVERLOADED), ("other", OVERLOADED)) for name in (
        "rsub", "fmod", "remainder", "floor_divide")},
    "matmul": (("input", TENSOR), ("other", TENSOR)),
    "masked_select": (("input", TENSOR), ("mask", TENSOR)),
    "atan2": (("input", TENSOR), ("other", TENSOR)), "arctan2": (("input", TENSOR), ("other", TENSOR)),
    "mm": (("input", TENSOR), ("mat2", TENSOR)),
    "bmm": (("input", TENSOR), ("mat2", TENSOR)),
    "mv": (("input", TENSOR), ("vec", TENSOR)),
    "dot": (("input", TENSOR), ("tensor", TENSOR)),
    "outer": (("input", TENSOR), ("vec2", TENSOR)),
    "cat": (("tensors", TENSORS),), "concat": (("tensors", TENSORS),),
    "stack": (("tensors", TENSORS),),
    **{name: (("size", SIZE),) for name in ("zeros", "ones", "empty", "rand", "randn",
                                            "_efficientzerotensor")},
    # no tensor arguments, but dtype= is checked
    **{name: () for name in ("tensor", "as_tensor", "full", "arange", "linspace", "eye",
                             "randint", "asarray")},
    **{name: _INPUT for name in ("zeros_like", "ones_like", "full_like", "empty_like",
                                 "rand_like", "randn_like")},
    # statistics, counting and differences
    **{name: (("input", OVERLOADED),) for name in ("var_mean", "std_mean", "histogram")},
    **{name: (("input", OVERLOADED), ("q", OVERLOADED)) for name in ("quantile", "nanquantile")},
    **{name: _INPUT for name in ("msort", "unique_consecutive", "bincount", "argwhere", "cov",
                                 "corrcoef", "scatter_reduce", "index_reduce")},
    "searchsorted": (("sorted_sequence", OVERLOADED),),
    "histc": (("input", TENSOR), ("bins", INT)),
    "diff": (("input", TENSOR), ("n", INT), ("dim", INT)),
    "renorm": (("input", TENSOR), ("p", TENSOR_OR_NUMBER), ("dim", INT)),
    **{name: (("y", TENSOR),) for name in ("trapezoid", "trapz", "cumulative_trapezoid")},
}


# --- uninitialized parameters (lazy modules) -------------------------------------------------
# PyTorch refuses an UninitializedParameter given to any of its functions, naming the function.
# Set by nn/parameter.py when the first one is made: fn(function as shown, args, kwargs).
refuse_uninitialized = None

# torch's functions written in Python (torch/functional.py): shown as functions, the others as
# methods of a C type
_WRITTEN_IN_PYTHON = frozenset((
    "atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_tensors", "cartesian_prod",
    "cdist", "chain_matmul", "einsum", "meshgrid", "norm", "split", "tensordot", "unique",
    "unique_consecutive", "unravel_index", "stft", "istft", "lu"))


def _shown_as_pytorch(name, function):
    """How PyTorch's error prints ``torch.<name>`` (its address: one of ours)."""
    if name in _WRITTEN_IN_PYTHON:
        return f"<function {name} at {hex(id(function))}>"
    return f"<built-in method {name} of type object at {hex(id(Tensor))}>"
