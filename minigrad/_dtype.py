"""Data types and shapes: ``minigrad.float32``, ``minigrad.Size`` and type promotion.

Every tensor keeps its numbers in a numpy array; a ``dtype`` object is the
PyTorch-style name for that array's numpy dtype. PyTorch's equivalents live in
``torch/_C`` (``torch.dtype``) and ``torch/_prims_common`` (type promotion).
"""
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


def _python_number_dtype(number):
    if isinstance(number, (bool, np.bool_)):
        return _BOOL
    if isinstance(number, (int, np.integer)):
        return _INT64
    return DEFAULT_FLOAT


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


# The C++ names PyTorch's "value cannot be converted" message gives each dtype
CONVERSION_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double", "int8": "int8_t",
                     "uint8": "uint8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}


def checked_number(number, dtype):
    """``number`` (a Python or numpy number) as a numpy scalar of ``dtype``, converted as
    PyTorch's kernels convert a number argument to the type they compute in (a clamp bound,
    hardtanh's limits, threshold's value, add's alpha, fill_'s value; float32 for the settings
    a float16 kernel computes with, see opmath_dtype). A number the type cannot hold is refused:
    RuntimeError "value cannot be converted to type c10::Half without overflow", where numpy
    would make it inf (float16 holds up to 65504) or wrap it around (int8: 1000 is -24).

    Floating types take inf and NaN, and any finite number up to their largest (rounded to
    nearest); integer types take a number in their range (a float loses its fraction; an
    unsigned type takes an int down to minus its largest and wraps it: uint8's -1 is 255);
    bool takes everything (nonzero is True). Complex numbers and dtypes pass unchecked."""
    dtype = np.dtype(dtype)
    if dtype.kind in "bc" or isinstance(number, (complex, np.complexfloating)):
        return number
    if dtype.kind == "f":
        largest = float(np.finfo(dtype).max)
        fits = not np.isfinite(number) or -largest <= float(number) <= largest
    else:
        info = np.iinfo(dtype)
        lowest = -info.max if info.min == 0 and isinstance(number, (int, np.integer)) else info.min
        fits = bool(np.isfinite(number)) and lowest <= number <= info.max
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {CONVERSION_NAMES[dtype.name]} "
                           "without overflow")
    if dtype.kind == "u" and number < 0:
        return dtype.type(int(number) % (info.max + 1))
    return dtype.type(int(number) if dtype.kind in "iu" else number)
