"""Data types and shapes: ``minigrad.float32``, ``minigrad.Size`` and type promotion.

Every tensor keeps its numbers in a numpy array; a ``dtype`` object is the
PyTorch-style name for that array's numpy dtype. PyTorch's equivalents live in
``torch/_C`` (``torch.dtype``) and ``torch/_prims_common`` (type promotion).
"""
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
