"""Data types and shapes: ``minigrad.float32``, ``minigrad.Size`` and type promotion.

Every tensor keeps its numbers in a numpy array; a ``dtype`` object is the
PyTorch-style name for that array's numpy dtype. PyTorch's equivalents live in
``torch/_C`` (``torch.dtype``) and ``torch/_prims_common`` (type promotion).
"""
import math

from ._type_names import type_name
import numpy as np


class dtype:
    """A tensor element type such as ``minigrad.float32``.

    It prints the way PyTorch prints ``torch.float32``, and knows the numpy
    dtype that actually stores the numbers.
    """

    __slots__ = ("name", "numpy_dtype", "is_floating_point", "itemsize", "tensor_type_name")

    def __init__(self, name, numpy_dtype, tensor_type_name):
        self.name = name
        self.numpy_dtype = np.dtype(numpy_dtype)
        self.is_floating_point = self.numpy_dtype.kind == "f"
        self.itemsize = self.numpy_dtype.itemsize
        self.tensor_type_name = tensor_type_name   # what Tensor.type() returns

    def __repr__(self):
        # PyTorch's name, not ours: code written for PyTorch compares these strings
        # (``str(x.dtype) == "torch.float32"``), and a lesson prints what PyTorch prints.
        return "torch." + self.name

    def __reduce__(self):            # pickling and copy.deepcopy keep the singleton
        return (_dtype_by_name, (self.name,))


float16 = dtype("float16", np.float16, "HalfTensor")
float32 = dtype("float32", np.float32, "FloatTensor")
float64 = dtype("float64", np.float64, "DoubleTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
int8 = dtype("int8", np.int8, "CharTensor")
int16 = dtype("int16", np.int16, "ShortTensor")
int32 = dtype("int32", np.int32, "IntTensor")
int64 = dtype("int64", np.int64, "LongTensor")
bool_ = dtype("bool", np.bool_, "BoolTensor")

ALL_DTYPES = (float16, float32, float64, uint8, int8, int16, int32, int64, bool_)
_BY_NUMPY = {d.numpy_dtype: d for d in ALL_DTYPES}
_BY_NAME = {d.name: d for d in ALL_DTYPES}


def _dtype_by_name(name):
    return _BY_NAME[name]


def from_numpy_dtype(numpy_dtype):
    """The minigrad dtype that stores numbers like ``numpy_dtype``."""
    try:
        return _BY_NUMPY[np.dtype(numpy_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(numpy_dtype).type.__name__}. The only "
            "supported types are: float64, float32, float16, complex64, complex128, int64, int32, "
            "int16, int8, uint64, uint32, uint16, uint8, and bool."
            "\nminigrad hint: minigrad itself stores float64, float32, float16, int64, int32, int16, "
            "int8, uint8 and bool."
        ) from None


_CPP_NAMES = {"float16": "half", "float32": "float", "float64": "double", "int64": "long",
              "int32": "int", "int16": "short", "int8": "signed char", "uint8": "unsigned char",
              "bool": "bool"}


# The C++ type names (as the compiler prints them) that a few PyTorch messages show instead
_CPP_TYPE_NAMES = {"int64": "long int", "int16": "short int", "float16": "c10::Half"}


def cpp_type_name(d):
    """The name a C++ compiler prints for a dtype's type: 'long int', 'float', 'c10::Half', ..."""
    return _CPP_TYPE_NAMES.get(d.name, _CPP_NAMES[d.name])


_SCALAR_TYPE_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int64": "Long",
                      "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                      "bool": "Bool"}


def scalar_type_name(d):
    """PyTorch's ScalarType name of a dtype, as many messages print it: 'Float', 'Long', ..."""
    return _SCALAR_TYPE_NAMES[d.name]


def cpp_name(d):
    """The C++ name PyTorch's messages use for a dtype: 'float', 'double', 'long', ..."""
    return _CPP_NAMES[d.name]


def to_numpy_dtype(d):
    """Accept ``minigrad.float64``, ``numpy.float64`` or ``'float64'``; return a numpy dtype."""
    if isinstance(d, dtype):
        return d.numpy_dtype
    if d is float:                   # Python's float is a double, as in PyTorch
        return float64.numpy_dtype
    if d is int:
        return int64.numpy_dtype
    if d is bool:
        return bool_.numpy_dtype
    return from_numpy_dtype(d).numpy_dtype


# --- type promotion -----------------------------------------------------------
# PyTorch decides a result's dtype from the *category* of each operand
# (bool < integer < floating point) and from what kind of operand it is:
# a tensor with dimensions outranks a 0-d tensor, which outranks a Python number.
# So float32 tensor * 2.5 stays float32, and int64 tensor * 2.5 becomes the
# default float dtype (float32), where numpy would give float64.

DEFAULT_FLOAT = float32.numpy_dtype
_INT64 = int64.numpy_dtype
_BOOL = bool_.numpy_dtype


def _category(numpy_dtype):
    kind = numpy_dtype.kind
    return 2 if kind == "f" else 0 if kind == "b" else 1


# PyTorch's parser reads a Python int given for a number as a C++ 64-bit integer: signed when it
# fits, else unsigned (2**63 up to 2**64 - 1, a uint64 number); past both, Python's OverflowError.
# A uint64 number next to a bool tensor has no result dtype PyTorch will promote to.
_UINT64 = np.dtype(np.uint64)


def check_python_int(number):
    """PyTorch's OverflowError for a Python int that no C++ 64-bit integer holds (``x * 2**64``);
    anything else passes."""
    if type(number) is int and not -2**63 <= number < 2**64:
        raise OverflowError("int too big to convert" if number > 0 else
                            "can't convert negative int to unsigned")


def _python_number_dtype(number):
    if isinstance(number, (bool, np.bool_)):
        return _BOOL
    if isinstance(number, (int, np.integer)):
        if type(number) is int and not -2**63 <= number < 2**63:
            check_python_int(number)
            return _UINT64
        return _INT64
    return DEFAULT_FLOAT


def wrapped_to(number, numpy_dtype):
    """The Python int ``number`` as PyTorch's kernels see it next to a tensor of the integer
    ``numpy_dtype``: cast as C++ casts, keeping its low bits (int32 tensor + 2**32 adds 0,
    uint8 tensor == 257 compares with 1), where numpy would raise an OverflowError."""
    lowest, highest = _INTEGER_BOUNDS[numpy_dtype]
    if lowest <= number <= highest:
        return number
    low_bits = number & (2 ** (8 * numpy_dtype.itemsize) - 1)
    return low_bits - (highest + 1) * 2 if low_bits > highest else low_bits


def checked_int(number, numpy_dtype):
    """The Python int ``number`` converted as PyTorch's checked conversions convert it (x.fill_,
    an integer tensor's int exponent): out of ``numpy_dtype``'s range is refused with PyTorch's
    message, which names the C++ type (a number from 2**63 up is refused as an int64_t first
    where PyTorch reads it as one); an unsigned dtype takes a negative number from minus its
    largest value, as its two's complement (uint8: -1 is 255)."""
    lowest, highest = _INTEGER_BOUNDS[numpy_dtype]
    if lowest == 0 and -highest <= number < 0:
        return number + highest + 1
    if not lowest <= number <= highest:
        raise RuntimeError(f"value cannot be converted to type {CHECKED_CONVERSION_NAMES[numpy_dtype.name]} "
                           "without overflow")
    return number


def checked_scalar(number, numpy_dtype):
    """A Python number given as a Scalar to an operation on a tensor of ``numpy_dtype`` (a fill
    value, a clamp bound, add's alpha), converted as PyTorch's checked conversion converts it:
    refused with PyTorch's message when the dtype cannot hold it (an int out of an integer
    dtype's range, a finite number that float16 or float32 would round to infinity). Returns
    the number as the dtype takes it (an unsigned dtype's negative int: its two's complement)."""
    if type(number) is complex and numpy_dtype.kind != "c":
        # (PyTorch's checked conversion keeps a complex number's real part when its imaginary
        # part is 0, and refuses it otherwise; a bool takes "not zero")
        if numpy_dtype.kind == "b":
            return number != 0
        if number.imag != 0:                # (a NaN imaginary part is refused too)
            raise RuntimeError(f"value cannot be converted to type "
                               f"{CHECKED_CONVERSION_NAMES[numpy_dtype.name]} without overflow")
        number = number.real
    if type(number) is bool or numpy_dtype.kind == "b":
        return number
    if numpy_dtype.kind in "iu":
        if type(number) is int:
            return checked_int(number, numpy_dtype)
        if type(number) is float:        # (compared as a double: NaN and 255.5 for uint8 fail)
            lowest, highest = _INTEGER_BOUNDS[numpy_dtype]
            if not float(lowest) <= number <= float(highest):
                raise RuntimeError(f"value cannot be converted to type "
                                   f"{CHECKED_CONVERSION_NAMES[numpy_dtype.name]} without overflow")
            if number == 2.0 ** 63:      # (int64's largest as a double; x86 casts it to the smallest)
                return -2 ** 63
        return number
    if numpy_dtype.itemsize < 8 and type(number) in (int, float) and math.isfinite(number):
        if abs(float(number)) > _FLOAT_MAXIMA[numpy_dtype]:     # (past the largest, not rounded)
            raise RuntimeError(f"value cannot be converted to type {CHECKED_CONVERSION_NAMES[numpy_dtype.name]} "
                               "without overflow")
    return number


_FLOAT_MAXIMA = {np.dtype(np.float16): float(np.finfo(np.float16).max),
                 np.dtype(np.float32): float(np.finfo(np.float32).max)}
# The C++ names PyTorch's "value cannot be converted" message gives each dtype
CHECKED_CONVERSION_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double",
                            "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int",
                            "int64": "int64_t"}
_INTEGER_BOUNDS = {np.dtype(t): (int(np.iinfo(t).min), int(np.iinfo(t).max))
                   for t in (np.int8, np.int16, np.int32, np.int64, np.uint8)}


def result_type(*operands):
    """The numpy dtype PyTorch gives to ``op(*operands)`` (tensors or Python numbers)."""
    by_priority = ([], [], [])           # n-d tensors, 0-d tensors, Python numbers
    for x in operands:
        array = getattr(x, "_array", None)
        if array is None:
            by_priority[2].append(_python_number_dtype(x))
        else:
            by_priority[0 if array.ndim else 1].append(array.dtype)
    top = max(_category(d) for group in by_priority for d in group)
    for group in by_priority:
        candidates = [d for d in group if _category(d) == top]
        if candidates:
            if group is by_priority[2]:
                if candidates[0] is _UINT64:     # (a number from 2**63 up next to bool tensors)
                    raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                                       "attempted to promote Bool and UInt64")
                return candidates[0]
            return np.result_type(*candidates)
    raise AssertionError("unreachable: at least one operand is given")


class Size(tuple):
    """The shape of a tensor: a tuple that prints as PyTorch's does, ``torch.Size([5, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    def numel(self):
        """Number of elements a tensor of this shape holds."""
        count = 1
        for n in self:
            count *= n
        return count

    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        return Size(tuple.__add__(self, other))


# --- the dtype utilities of the torch namespace ---------------------------------------------------

def get_default_dtype():
    """The dtype of tensors made from Python floats (and of zeros(), rand(), ...): float32,
    unless ``set_default_dtype`` changed it."""
    return from_numpy_dtype(DEFAULT_FLOAT)


def set_default_dtype(d):
    """Make ``d`` (float16, float32 or float64) the dtype of new float tensors: ``tensor([1.5])``,
    ``zeros(2)``, ``rand(2)``, and of an integer tensor times a Python float."""
    global DEFAULT_FLOAT
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the "
                        "default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    DEFAULT_FLOAT = d.numpy_dtype


def _check_dtype_argument(function, name, position, value):
    if not isinstance(value, dtype):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be torch.dtype, "
                        f"not {type_name(value)}")


def promote_types(type1, type2):
    """The smallest dtype both can be converted to without losing their kind: a float beats an
    integer, an integer beats bool (``promote_types(int32, float16)`` is float16, where numpy
    says float64); uint8 and int8 meet in int16."""
    _check_dtype_argument("promote_types", "type1", 1, type1)
    _check_dtype_argument("promote_types", "type2", 2, type2)
    first, second = type1.numpy_dtype, type2.numpy_dtype
    if _category(first) != _category(second):
        return type1 if _category(first) > _category(second) else type2
    return from_numpy_dtype(np.promote_types(first, second))


def can_cast(from_, to):
    """May an operation write a result of dtype ``from_`` into a tensor of dtype ``to`` (out=,
    in-place)? Not from a float into an integer, nor from a number into bool."""
    _check_dtype_argument("can_cast", "from_", 1, from_)
    _check_dtype_argument("can_cast", "to", 2, to)
    return _category(from_.numpy_dtype) <= _category(to.numpy_dtype)


def torch_result_type(tensor, other):
    """``torch.result_type``: the dtype ``tensor + other`` would have (each a tensor or a
    number), by PyTorch's promotion rules (see ``result_type`` above)."""
    for value in (tensor, other):
        if not hasattr(value, "_array") and not isinstance(value, (int, float, bool, np.number)):
            raise TypeError(f"result_type() received an invalid combination of arguments - got "
                            f"({type(tensor).__name__}, {type(other).__name__}), but expected one of:")
    return from_numpy_dtype(result_type(tensor, other))


def _short(value):
    """A number as PyTorch's finfo/iinfo print it: C's %g, 6 significant digits."""
    return f"{float(value):g}"


class finfo:
    """Facts about a floating-point dtype (default: the default dtype), as ``torch.finfo``:
    ``bits``, ``eps`` (the gap above 1.0), ``max``, ``min``, ``tiny`` / ``smallest_normal``
    (the smallest normal positive number), ``resolution`` (10 ** -digits) and ``dtype``."""

    def __init__(self, type=None):
        if type is None:
            type = get_default_dtype()
        if not isinstance(type, dtype) or not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to "
                            "handle 'torch.finfo'")
        facts = np.finfo(type.numpy_dtype)
        self.bits = facts.bits
        self.eps = float(facts.eps)
        self.max = float(facts.max)
        self.min = float(facts.min)
        self.tiny = self.smallest_normal = float(facts.smallest_normal)
        self.resolution = 10.0 ** -facts.precision     # (numpy keeps it in the dtype itself)
        self.dtype = type.name

    def __repr__(self):
        return (f"finfo(resolution={_short(self.resolution)}, min={_short(self.min)}, "
                f"max={_short(self.max)}, eps={_short(self.eps)}, "
                f"smallest_normal={_short(self.smallest_normal)}, tiny={_short(self.tiny)}, "
                f"dtype={self.dtype})")


class iinfo:
    """Facts about an integer dtype, as ``torch.iinfo``: ``bits``, ``max``, ``min``, ``dtype``."""

    def __init__(self, type=None):
        if type is None:
            raise TypeError('iinfo() missing 1 required positional arguments: "type"')
        if isinstance(type, dtype) and type.numpy_dtype.kind == "b":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if not isinstance(type, dtype) or type.numpy_dtype.kind not in "iu":
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        facts = np.iinfo(type.numpy_dtype)
        self.bits = facts.bits
        self.max = int(facts.max)
        self.min = int(facts.min)
        self.dtype = type.name

    def __repr__(self):
        return f"iinfo(min={_short(self.min)}, max={_short(self.max)}, dtype={self.dtype})"


def checked_number(number, dtype):
    """``number`` (a Python or numpy number) as a numpy scalar of ``dtype``, after
    ``checked_scalar``'s check: the form the kernels that compute with a number argument take
    it in (a threshold, a fill value, the float32 settings of a float16 kernel, see
    opmath_dtype). Complex numbers pass unchanged."""
    dtype = np.dtype(dtype)
    if isinstance(number, np.generic):
        number = number.item()
    number = checked_scalar(number, dtype)
    if isinstance(number, complex) or dtype.kind == "c":
        return number
    return dtype.type(int(number) if dtype.kind in "iu" else number)
