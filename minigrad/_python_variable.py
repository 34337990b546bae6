"""More of the Tensor's properties and small methods (PyTorch: torch/csrc/autograd/python_variable.cpp
and the Tensor methods of native_functions.yaml).

Where a tensor lives (``is_cpu``, ``is_cuda``, ``get_device()``), what kind it is (``is_sparse``,
``is_quantized``, ...: never, in minigrad), its memory (``data_ptr()``, ``dim_order()``), the
conjugate transposes ``H``/``mH``/``adjoint()`` (plain transposes for real numbers), the old
typed conversions ``short()``/``char()``/``byte()`` and a few methods of functions minigrad
already has. ``install`` puts them on Tensor.
"""
import warnings

from . import _dtype
from ._warnings import stacklevel_outside_minigrad, warn_once


def _is_cpu(self):
    """True: minigrad's tensors are all in the computer's memory."""
    return True


def _never(self):
    """False: minigrad has no GPU, sparse, quantized, nested or meta tensors."""
    return False


def get_device(self):
    """-1 for a tensor on the CPU (a GPU tensor gives its GPU's number)."""
    return -1


def _output_nr(self):
    """Which output of its grad_fn this tensor is (0 for most; i for the i-th piece of split)."""
    return self._output_nr


def _transposed(self, name, transpose_dims, matrices_only=False):
    ndim = self._array.ndim
    if ndim == 0:
        warn_once(f"{name} is deprecated on 0-D tensors. Consider using x.conj().")   # (once, as PyTorch)
        return self
    if matrices_only and ndim != 2:
        extra = " For batches of matrices, consider using tensor.mH" if ndim > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {ndim}-D tensor.{extra}")
    if ndim < 2:
        shown = "tensor.mH" if name == "Tensor.mH" else "tensor.adjoint()"
        raise RuntimeError(f"{shown} is only supported on matrices or batches of matrices. Got {ndim}-D tensor.")
    return self.transpose(*transpose_dims)


def _H(self):                                   # noqa: N802 (PyTorch's name)
    """The conjugate transpose of a matrix (for real numbers, its transpose ``x.t()``, a view)."""
    return _transposed(self, "Tensor.H", (0, 1), matrices_only=True)


def _mH(self):                                  # noqa: N802
    """The conjugate transpose of the last two dims (for real numbers, ``x.mT``, a view)."""
    return _transposed(self, "Tensor.mH", (-2, -1))


def adjoint(self):
    """``x.mH`` as a method: the last two dims swapped (conjugated, for complex numbers)."""
    return _transposed(self, "adjoint()", (-2, -1))


def short(self, memory_format=None):
    """This tensor as int16 (rounded toward zero); the result cannot require grad."""
    return self.to(_dtype.int16)


def char(self, memory_format=None):
    """This tensor as int8 (rounded toward zero, wrapping around outside -128..127)."""
    return self.to(_dtype.int8)


def byte(self, memory_format=None):
    """This tensor as uint8 (0..255, wrapping around outside it)."""
    return self.to(_dtype.uint8)


def data_ptr(self):
    """The memory address of the tensor's first element (views of one tensor share memory:
    ``x[1:].data_ptr() - x.data_ptr()`` is one element's size). A ZeroTensor has no memory: its
    address is 0, a view of one its offset from there."""
    if self._zero_tensor_memory is not None:
        return self.storage_offset() * self._array.itemsize
    return int(self._array.__array_interface__["data"][0])


def dim_order(self, *, ambiguity_check=False):
    """The dims from the one whose elements lie furthest apart in memory to the closest: (0, 1, ...)
    for a contiguous tensor, (1, 0) for a transposed matrix.

    ``ambiguity_check=True`` refuses a tensor with more than one such order (a dim of size 1, or
    two dims with the same stride); a list of memory formats accepts it still when exactly one of
    them describes the tensor."""
    from ._memory_format import memory_format
    message = "The ambiguity_check argument must be a bool or a list of memory formats."
    if not isinstance(ambiguity_check, bool):
        if not isinstance(ambiguity_check, list) or not all(
                isinstance(f, memory_format) for f in ambiguity_check):
            raise TypeError(message)
    strides, sizes = self.stride(), self.shape
    if ambiguity_check is not False:
        several = (any(a == b for a, b in zip(strides, strides[1:]))
                   or any(size == 1 for size in sizes))
        formats = ambiguity_check if isinstance(ambiguity_check, list) else []
        if several and sum(bool(self.is_contiguous(memory_format=f)) for f in formats) != 1:
            raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact "
                               "one of the given memory formats.")
    order, ambiguous = _physical_order(self, bool(ambiguity_check))
    if ambiguous:
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(order)


def _physical_order(tensor, check):
    """(dims from outermost to innermost in memory, whether that order was not fully decided),
    found as PyTorch's elementwise operations find their output's layout: an insertion sort
    by stride in which a dim that steps by 0 decides nothing, and of two equal strides the
    longer dim goes outside."""
    from ._memory_format import channels_last
    ndim, sizes, strides = tensor.ndim, tensor.shape, tensor.stride()
    if ndim <= 1:
        return list(range(ndim)), False
    contiguous = tensor.is_contiguous()
    channels = ndim == 4 and tensor.is_contiguous(memory_format=channels_last)
    if contiguous and not channels:
        return list(range(ndim)), False
    if channels and not contiguous:
        return [0, *range(2, ndim), 1], False

    def at_least(a, b):
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def should_swap(a, b):
        stride_a, stride_b = strides[a], strides[b]
        if stride_a == 0 or stride_b == 0:
            return 0
        if stride_a == stride_b:
            return 0 if at_least(sizes[b], sizes[a]) else 1
        if at_least(stride_b, stride_a):
            return -1
        return 1 if at_least(stride_a, stride_b) else 0

    from ._ops.inplace import sort_dims_by_insertion
    order = sort_dims_by_insertion(ndim, should_swap)     # back to front, reversed at the end
    ambiguous = check and any(should_swap(order[i], order[i + 1]) != -1 for i in range(ndim - 1))
    return list(reversed(order)), ambiguous


def read_device(device):
    """The type of a device argument (``'cuda'`` for ``'cuda:0'``, None for None) as PyTorch's
    parser reads it before the method looks at it, with its errors for a name it cannot read and
    for an index (which names an accelerator: a CPU-only build has none)."""
    from ._tensor import device as cpu_device, check_cpu_device, _device_error, _DEVICE_TYPES
    if device is None or isinstance(device, cpu_device):
        return None if device is None else device.type
    if not isinstance(device, str):
        check_cpu_device(device)          # (an index: refused)
    kind, colon, index = device.partition(":")
    if kind not in _DEVICE_TYPES.split(", ") or (colon and not (index.isdigit() and index.isascii())):
        raise _device_error(device)
    return kind


def _deprecated_device(name, device, line):
    if device is not None:
        warnings.warn(f"The argument 'device' of Tensor.{name}() is deprecated. Please do not pass "
                      "this argument. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/"
                      f"native/Memory.cpp:{line}.)", DeprecationWarning, stacklevel=stacklevel_outside_minigrad())


def is_pinned(self, device=None):
    """False: pinned (page-locked) memory is for copying to a GPU, which minigrad has not."""
    read_device(device)
    _deprecated_device("is_pinned", device, 31)
    return False


def pin_memory(self, device=None):
    """Pinned memory needs a GPU: PyTorch without one refuses, and so does minigrad."""
    kind = read_device(device)
    _deprecated_device("pin_memory", device, 46)
    if kind == "cpu":
        raise RuntimeError("CPU device type not an accelerator.")
    if kind == "cuda":
        from ._python_variable_methods import _CUDA_LIBRARY_MISSING
        raise RuntimeError(_CUDA_LIBRARY_MISSING)
    raise RuntimeError("Cannot access accelerator device when none is available.")


def share_memory_(self):
    """Move the tensor's memory where other processes can share it (numpy memory stays where it
    is: the tensor is only marked shared). Returns the tensor."""
    self.__dict__["_shared_memory"] = True
    return self


def is_shared(self):
    """True after ``share_memory_()``."""
    return self.__dict__.get("_shared_memory", False)


def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False, layout=None,
                      pin_memory=False):
    """An uninitialized tensor of ``size`` with the given ``stride``, of this tensor's dtype by default."""
    from ._creation import empty_strided
    return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def bernoulli(self, p=None, *, generator=None):
    """0 or 1 drawn for each element: 1 with probability ``p`` (a number), or with the element's
    own value as probability (``torch.bernoulli(x)``)."""
    from ._creation import bernoulli as draw
    if p is None:
        return draw(self, generator=generator)
    return draw(self, p, generator=generator)


def _layout(self):
    """``torch.strided``: a block of memory walked with a step per dimension (minigrad's only layout)."""
    from ._layout import strided
    return strided


def new(self, *args, **kwargs):
    """The legacy constructor: ``x.new(2, 3)`` an uninitialized tensor of x's dtype, ``x.new(data)``
    a tensor of ``data`` (a sequence) in x's dtype, ``x.new()`` an empty one, ``x.new(y)`` y seen
    through a new tensor (y of x's dtype). As ``torch.FloatTensor(...)`` for x's dtype, with
    its errors (``x.new(1.5)``: data must be a sequence)."""
    from ._tensortype import legacy_constructor
    return legacy_constructor(self.dtype, args, kwargs)


def _size_given(size, keywords):
    """The size of ``x.new_zeros(2, 3)``, ``x.new_zeros((2, 3))`` or ``x.new_zeros(size=(2, 3))``."""
    if "size" in keywords:
        return (keywords.pop("size"),)
    return size


def _new_filled(name):
    """x.new_zeros / new_ones / new_empty: a tensor of x's dtype (unless ``dtype``), the device
    (the CPU only), layout and pin_memory taken as PyTorch takes them."""
    def method(self, *size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False,
               **keywords):
        from ._ops import shape
        from ._tensor import check_cpu_device
        check_cpu_device(device)
        return getattr(shape, name)(self, *_size_given(size, keywords), dtype=dtype,
                                    requires_grad=requires_grad)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"A new tensor of ``size`` {_FILLED_WITH[name]}, of this tensor's dtype unless "
                      "``dtype`` (no history; the device can only be the CPU).")
    return method


_FILLED_WITH = {"new_zeros": "filled with 0", "new_ones": "filled with 1",
                "new_empty": "(PyTorch leaves its values unset; minigrad fills it with 0)"}


def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False):
    """A new tensor of ``size`` filled with ``fill_value``, of this tensor's dtype unless ``dtype``
    (no history; the device can only be the CPU)."""
    from ._ops import shape
    from ._tensor import check_cpu_device
    check_cpu_device(device)
    return shape.new_full(self, size, fill_value, dtype=dtype, requires_grad=requires_grad)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    """A copy of ``data`` as a tensor of this tensor's dtype unless ``dtype`` (no history; the
    device can only be the CPU)."""
    from ._ops import shape
    from ._tensor import check_cpu_device
    check_cpu_device(device)
    return shape.new_tensor(self, data, dtype=dtype, requires_grad=requires_grad)


new_zeros, new_ones, new_empty = (_new_filled(name) for name in ("new_zeros", "new_ones", "new_empty"))


def unflatten(self, dim, sizes):
    """Dimension ``dim`` split into ``sizes`` (one entry may be -1), as a view. PyTorch writes
    this method in Python: it refuses an empty ``sizes`` first, then parses the arguments as
    its C method ``unflatten(int dim, tuple of ints sizes)`` does."""
    from ._ops.rearrange import unflatten as split_dim
    from ._python_variable_methods import parsed_arguments
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    dim, sizes = parsed_arguments("unflatten", (dim, sizes))
    return split_dim(self, dim, sizes)


def _volatile(self):
    """Always False: ``volatile`` was removed (use ``torch.no_grad()``)."""
    warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning,
                  stacklevel=stacklevel_outside_minigrad())
    return False


def _set_volatile(self, value):
    """Nothing: ``volatile`` was removed (assigning it only warns)."""
    warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                  UserWarning, stacklevel=stacklevel_outside_minigrad())


PROPERTIES = {
    "is_cpu": _is_cpu, "output_nr": _output_nr, "H": _H, "mH": _mH, "volatile": (_volatile, _set_volatile),
    "layout": _layout,
    **{name: _never for name in ("is_cuda", "is_sparse", "is_sparse_csr", "is_quantized", "is_meta",
                                 "is_nested", "is_mkldnn", "is_xpu", "is_mps", "is_xla", "is_vulkan",
                                 "is_ipu", "is_mtia", "is_maia")},
}

METHODS = {name: globals()[name] for name in (
    "get_device", "adjoint", "short", "char", "byte", "data_ptr", "dim_order", "is_pinned", "pin_memory",
    "share_memory_", "is_shared", "new_empty_strided", "bernoulli", "new", "new_zeros", "new_ones",
    "new_empty", "new_full", "new_tensor", "unflatten")}


def install(tensor_class):
    """Put the properties and methods above, and the unsafe splits, on ``tensor_class``."""
    from ._ops import view_copies
    from ._nn_functions import split_with_sizes
    for name, getter in PROPERTIES.items():      # (a getter, or a getter and a setter)
        setattr(tensor_class, name, property(*getter) if isinstance(getter, tuple) else property(getter))
    for name, method in METHODS.items():
        setattr(tensor_class, name, method)
    tensor_class.split_with_sizes = split_with_sizes
    for name in ("unsafe_split", "unsafe_chunk", "unsafe_split_with_sizes"):
        setattr(tensor_class, name, getattr(view_copies, name))
    from . import functional
    tensor_class.lu, tensor_class.lu_solve = functional.lu, functional.lu_solve
    from ._ops import samplers              # x.cauchy_(), x.log_normal_(), x.geometric_(p), x.random_()
    for name, method in samplers.METHODS.items():
        setattr(tensor_class, name, method)
    # x.eig(), x.solve(A), ...: removed, PyTorch's error says why
    tensor_class.eig, tensor_class.symeig = _removed_eig, _removed_symeig
    tensor_class.solve, tensor_class.lstsq = _removed_solve, _removed_lstsq


# The removed linear-algebra methods, with the parameters of PyTorch's (written in Python, so a
# wrong call gets Python's message naming them), each failing with torch.X's error.

def _removed_eig(self, eigenvectors=False):
    """Removed: use ``torch.linalg.eig`` / ``eigvals``."""
    from . import _linalg_utils
    return _linalg_utils.eig(self, eigenvectors)


def _removed_symeig(self, eigenvectors=False):
    """Removed: use ``torch.linalg.eigh`` / ``eigvalsh``."""
    from . import _linalg_utils
    return _linalg_utils._symeig(self, eigenvectors)


def _removed_solve(self, other):
    """Removed: use ``torch.linalg.solve(A, B)`` (its arguments reversed)."""
    from . import _linalg_utils
    return _linalg_utils.solve(self, other)


def _removed_lstsq(self, other):
    """Removed: use ``torch.linalg.lstsq(A, B).solution``."""
    from . import _linalg_utils
    return _linalg_utils.lstsq(self, other)

