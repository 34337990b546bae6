"""torch.functional: the functions PyTorch writes in Python on top of its operations.

Each of them (``einsum``, ``split``, ``unique``, ``tensordot``, ...) is a short Python layer
over one C++ operation: it takes its arguments as Python does (so a missing or extra one gets
Python's own TypeError, naming the function PyTorch's code ends in: ``_return_output()`` for
``unique``), reads them in its own way (einsum's sublist format, meshgrid's one list), and
then calls the operation, whose argument parser checks them once more (``torch._VF``).
minigrad keeps the same two steps, so that a wrong call fails at the same step, with the same
message: the layer here, then ``_VF``'s signatures, then the operation in ``_ops/``.

``lu`` and ``lu_solve`` (deprecated in PyTorch: ``torch.linalg.lu_factor`` and
``torch.linalg.lu_solve`` took their place) live here too.
"""
from ._signatures import Signatures
from ._type_names import type_name
from ._tensor import Tensor
from ._warnings import warn_once
from . import _dtype, _python_arg_parser

# the C++ operations these functions end in, as PyTorch declares their arguments
_VF = {signatures.name: signatures for signatures in (
    Signatures("broadcast_tensors", "tuple of Tensors tensors"),
    Signatures("block_diag", "tuple of Tensors tensors"),
    Signatures("cartesian_prod", "tuple of Tensors tensors"),
    Signatures("chain_matmul", "tuple of Tensors matrices, *, Tensor out=None"),
    Signatures("einsum", "str equation, tuple of Tensors tensors, *, tuple of ints? path=None"),
    Signatures("meshgrid", "tuple of Tensors tensors", "tuple of Tensors tensors, *, str indexing"),
    Signatures("tensordot", "Tensor input, Tensor other, tuple of ints dims_self, "
                            "tuple of ints dims_other, *, Tensor out=None"),
    Signatures("cdist", "Tensor x1, Tensor x2, float p=2, int? compute_mode=None"),
    *(Signatures(name, "Tensor input", "tuple of Tensors tensors")
      for name in ("atleast_1d", "atleast_2d", "atleast_3d")),
    Signatures("_unique2", "Tensor input, bool sorted=True, bool return_inverse=False, "
                           "bool return_counts=False"),
    Signatures("unique_dim", "Tensor input, int dim, bool sorted=True, bool return_inverse=False, "
                             "bool return_counts=False"),
    Signatures("unique_consecutive", "Tensor input, bool return_inverse=False, "
                                     "bool return_counts=False, int? dim=None"),
    Signatures("_lu_with_info", "Tensor input, bool pivot=True, bool check_errors=True"),
    Signatures("split", "Tensor input, int split_size, int dim=0",
               "Tensor input, tuple of ints split_size, int dim=0"),
    Signatures("split_with_sizes", "Tensor input, tuple of ints split_sizes, int dim=0"),
    Signatures("linalg_vector_norm", "Tensor input, Number ord=2, tuple of ints[1]? dim=None, "
                                     "bool keepdim=False, *, torch.dtype? dtype=None, Tensor out=None"),
    Signatures("linalg_matrix_norm", *(f"Tensor input, {ord}, tuple of ints dim={{-2,-1}}, bool keepdim=False, "
                                       "*, torch.dtype dtype=None, Tensor out=None"
                                       for ord in ("Number ord", 'str ord="fro"'))),
)}

# the operations themselves: torch.X as minigrad defined it before this layer (``take_operations``)
_OPERATIONS = {}


def _vf(name, *args, **kwargs):
    """Raise the TypeError PyTorch's parser gives C++ operation ``name`` for these arguments
    (nothing if they fit)."""
    _VF[name].parse(args, kwargs)


def _tensors(values):
    """Are ``values`` all tensors? (the cheap test a correct call passes)"""
    return all(isinstance(value, Tensor) for value in values)


def _torch_function(function, args, kwargs=None):
    """PyTorch's ``has_torch_function`` step, the first of each function: a lazy module's
    uninitialized parameter among the arguments is refused there."""
    if _python_arg_parser.refuse_uninitialized is not None:
        _python_arg_parser.refuse_uninitialized(
            f"<function {function.__name__} at {hex(id(function))}>", args, kwargs or {})


# --- functions of several tensors --------------------------------------------------------------

def broadcast_tensors(*tensors):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(broadcast_tensors, tensors)
    if not _tensors(tensors):
        _vf("broadcast_tensors", tensors)
    return _OPERATIONS["broadcast_tensors"](*tensors)


def block_diag(*tensors):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(block_diag, tensors)
    if not _tensors(tensors):
        _vf("block_diag", tensors)
    return _OPERATIONS["block_diag"](*tensors)


def cartesian_prod(*tensors):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(cartesian_prod, tensors)
    if not _tensors(tensors):
        _vf("cartesian_prod", tensors)
    return _OPERATIONS["cartesian_prod"](*tensors)


def chain_matmul(*matrices, out=None):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(chain_matmul, matrices)
    if out is None:
        if not _tensors(matrices):
            _vf("chain_matmul", matrices)
        return _OPERATIONS["chain_matmul"](*matrices)
    _vf("chain_matmul", matrices, out=out)
    return _OPERATIONS["chain_matmul"](*matrices, out=out)


def _at_least(name, tensors):
    """atleast_1d/2d/3d: one argument is taken as it is (a tensor, or a list of them)."""
    if len(tensors) == 1:
        tensors = tensors[0]
        if isinstance(tensors, Tensor):
            return _OPERATIONS[name](tensors)
    _vf(name, tensors)
    return _OPERATIONS[name](*tensors)


def atleast_1d(*tensors):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(atleast_1d, tensors)
    return _at_least("atleast_1d", tensors)


def atleast_2d(*tensors):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(atleast_2d, tensors)
    return _at_least("atleast_2d", tensors)


def atleast_3d(*tensors):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(atleast_3d, tensors)
    return _at_least("atleast_3d", tensors)


def meshgrid(*tensors, indexing=None):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(meshgrid, tensors)
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]           # (the old way: one list of them)
    if not _tensors(tensors) or not isinstance(indexing, (str, type(None))):
        _vf("meshgrid", tensors, **({} if indexing is None else {"indexing": indexing}))
    return _OPERATIONS["meshgrid"](*tensors, indexing=indexing)


# --- einsum ------------------------------------------------------------------------------------

def _subscript(number):
    """A label of einsum's sublist format as a letter: 0-25 are A-Z, 26-51 a-z, ... is ..."""
    if number == Ellipsis:
        return "..."
    if number >= 0 and number < 26:
        return chr(ord("A") + number)
    if number >= 26 and number < 52:
        return chr(ord("a") + number - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def einsum(*args):
    """(the operation's docstring, set by ``take_operations``)"""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        # the sublist format: operand, its labels, operand, its labels, ..., [output labels]
        equation = ",".join("".join(_subscript(s) for s in labels) for labels in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(_subscript(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    _torch_function(einsum, operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])      # (the old way: one list of operands)
    if not isinstance(equation, str) or not _tensors(operands):
        _vf("einsum", equation, operands)
    return _OPERATIONS["einsum"](equation, *operands)


# --- tensordot and cdist -----------------------------------------------------------------------

def tensordot(a, b, dims=2, out=None):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(tensordot, (a, b))
    if not isinstance(dims, (tuple, list, Tensor, int)):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    elif isinstance(dims, Tensor):
        if dims.numel() > 1:
            if dims.size()[0] != 2:
                raise AssertionError(f"dims tensor must have size 2 in first dimension, got "
                                     f"{dims.size()[0]}")
            dims_a, dims_b = dims[0].tolist(), dims[1].tolist()
        else:
            count = int(dims.item())
            if count < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims_a, dims_b = list(range(-count, 0)), list(range(count))
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    extra = {} if out is None else {"out": out}
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or out is not None or not all(
            isinstance(d, list) and all(type(n) is int for n in d) for d in (dims_a, dims_b)):
        _vf("tensordot", a, b, dims_a, dims_b, **extra)
    # (an int goes on as it is: the operation names a's dims from its end then, as PyTorch)
    return _OPERATIONS["tensordot"](a, b, dims if isinstance(dims, int) else (dims_a, dims_b), **extra)


_COMPUTE_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
                  "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(cdist, (x1, x2))
    if not isinstance(compute_mode, str) or compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor) and isinstance(p, (int, float))):
        _vf("cdist", x1, x2, p, _COMPUTE_MODES[compute_mode])
    return _OPERATIONS["cdist"](x1, x2, p, compute_mode)


# --- split -------------------------------------------------------------------------------------

def split(tensor, split_size_or_sections, dim=0):
    """(the operation's docstring, set by ``take_operations``)"""
    _torch_function(split, (tensor,))
    return tensor.split(split_size_or_sections, dim)


def _split_method(self, split_size, dim=0):
    """See :func:`torch.split`: pieces of ``split_size`` along ``dim``, or of the listed sizes."""
    if isinstance(split_size, Tensor):
        try:
            split_size = int(split_size)
        except ValueError:
            pass
    if isinstance(split_size, int):
        if not isinstance(dim, int) or isinstance(split_size, bool) or isinstance(dim, bool) or not (
                -2**63 <= split_size < 2**63 and -2**63 <= dim < 2**63):       # (C++ long longs)
            _vf("split", self, split_size, dim)
    elif not (isinstance(split_size, (list, tuple)) and all(type(n) is int for n in split_size)
              and type(dim) is int):
        _vf("split_with_sizes", self, split_size, dim)
    return _OPERATIONS["split"](self, split_size, dim)


# --- unique and unique_consecutive: the result's form depends on the flags ---------------------

def _flag(args, kwargs, name, index):
    """The flag a boolean dispatch chooses by (PyTorch's _jit_internal.boolean_dispatch): by
    keyword, else at its position, else False; its truth value decides (a tensor of several
    elements fails there)."""
    if name in kwargs:
        return bool(kwargs[name])
    return bool(args[index]) if index < len(args) else False


def unique(*args, **kwargs):
    """(the operation's docstring, set by ``take_operations``)"""
    if _flag(args, kwargs, "return_inverse", 2):
        chosen = _return_inverse_and_counts if _flag(args, kwargs, "return_counts", 3) else _return_inverse
    else:
        chosen = _return_counts if _flag(args, kwargs, "return_counts", 3) else _return_output
    return chosen(*args, **kwargs)


def _unique_impl(input, sorted, return_inverse, return_counts, dim):
    _torch_function(unique, (input,))
    if dim is not None:
        _vf("unique_dim", input, dim, sorted=sorted, return_inverse=return_inverse,
            return_counts=return_counts)
    else:
        _vf("_unique2", input, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)
    return _OPERATIONS["unique"](input, sorted, return_inverse, return_counts, dim)


# (PyTorch's four forms of unique: their names are what Python's errors print)
def _return_output(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _unique_impl(input, sorted, return_inverse, return_counts, dim)


def _return_inverse(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _unique_impl(input, sorted, return_inverse, return_counts, dim)


def _return_counts(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _unique_impl(input, sorted, return_inverse, return_counts, dim)


def _return_inverse_and_counts(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _unique_impl(input, sorted, return_inverse, return_counts, dim)


def unique_consecutive(*args, **kwargs):
    """(the operation's docstring, set by ``take_operations``)"""
    # (return_inverse is looked for at position 2, where return_counts is: PyTorch's indices)
    if _flag(args, kwargs, "return_inverse", 2):
        chosen = (_consecutive_return_inverse_and_counts if _flag(args, kwargs, "return_counts", 1)
                  else _consecutive_return_inverse)
    else:
        chosen = (_consecutive_return_counts if _flag(args, kwargs, "return_counts", 1)
                  else _consecutive_return_output)
    return chosen(*args, **kwargs)


def _unique_consecutive_impl(input, return_inverse, return_counts, dim):
    _torch_function(unique_consecutive, (input,))
    _vf("unique_consecutive", input, return_inverse=return_inverse, return_counts=return_counts, dim=dim)
    return _OPERATIONS["unique_consecutive"](input, return_inverse, return_counts, dim)


def _consecutive_return_output(input, return_inverse=False, return_counts=False, dim=None):
    return _unique_consecutive_impl(input, return_inverse, return_counts, dim)


def _consecutive_return_inverse(input, return_inverse=False, return_counts=False, dim=None):
    return _unique_consecutive_impl(input, return_inverse, return_counts, dim)


def _consecutive_return_counts(input, return_inverse=False, return_counts=False, dim=None):
    return _unique_consecutive_impl(input, return_inverse, return_counts, dim)


def _consecutive_return_inverse_and_counts(input, return_inverse=False, return_counts=False, dim=None):
    return _unique_consecutive_impl(input, return_inverse, return_counts, dim)


def _unique_method(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """See :func:`torch.unique`."""
    return unique(self, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts,
                  dim=dim)


def _unique_consecutive_method(self, return_inverse=False, return_counts=False, dim=None):
    """See :func:`torch.unique_consecutive`."""
    return unique_consecutive(self, return_inverse=return_inverse, return_counts=return_counts, dim=dim)


# --- norm --------------------------------------------------------------------------------------

def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """(the operation's docstring, set by ``take_operations``)"""
    from . import linalg
    _torch_function(norm, (input,))
    input.layout                      # (PyTorch's first look at input: a non-tensor fails here)
    dims = [dim] if isinstance(dim, int) else dim
    extra = {} if out is None else {"out": out}
    if isinstance(p, Tensor) and p.ndim == 0 and not p.requires_grad:
        p = p.item()                  # (a Number to PyTorch's parser)
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return _vector_norm(input, 2, dims, keepdim, dtype, extra)
        dims = list(range(input.ndim)) if dims is None else dims
        _vf("linalg_matrix_norm", input, p, dims, keepdim, dtype=dtype, **extra)
        if p not in ("fro", "nuc"):   # (matrix_norm's first check)
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        return linalg.matrix_norm(input, p, dims, keepdim, dtype=dtype, **extra)
    return _vector_norm(input, 2.0 if p is None else p, dims, keepdim, dtype, extra)


def _vector_norm(input, p, dims, keepdim, dtype, extra):
    """torch.linalg.vector_norm, where torch.norm ends for most arguments."""
    from . import linalg
    _vf("linalg_vector_norm", input, p, dims, keepdim, dtype=dtype, **extra)
    return linalg.vector_norm(input, p, dims, keepdim, dtype=dtype, **extra)


def _norm_method(self, p="fro", dim=None, keepdim=False, dtype=None):
    """See :func:`torch.norm`."""
    return norm(self, p, dim, keepdim, dtype=dtype)


# --- broadcast_shapes and unravel_index --------------------------------------------------------

def broadcast_shapes(*shapes):
    """(the operation's docstring, set by ``take_operations``)"""
    from collections.abc import Sequence
    from ._tensor import Size
    shapes = tuple((shape,) if isinstance(shape, int) else shape for shape in shapes if shape is not None)
    if not shapes:
        return Size([])
    for shape in shapes:
        if not isinstance(shape, Sequence):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of "
                               f"ints, got {shape}")
    common = [1] * max(len(shape) for shape in shapes)
    for index, shape in enumerate(shapes):
        for dim in range(-1, -1 - len(shape), -1):
            if _decided(shape[dim] == common[dim]):
                continue
            if _decided(common[dim] == 1):
                if shape[dim] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[dim] = shape[dim]
            if not _decided(shape[dim] == 1) and not common[dim] == shape[dim]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[dim]} at {dim}! Mismatching "
                    f"argument at index {index} had {shape}; but expected shape should be broadcastable "
                    f"to {common}")
    for item, size in enumerate(common):
        if not isinstance(size, int):
            raise TypeError(f"torch.Size() takes an iterable of 'int' (item {item} is '{type_name(size)}')")
    return Size(common)


def _decided(comparison):
    """A comparison of two sizes, which must be a bool (PyTorch's guard_or_false)."""
    if not isinstance(comparison, bool):
        raise AssertionError(f"Expected bool, got {_class_shown(comparison)}")
    return comparison


def _class_shown(value):
    """``repr(type(value))`` as under PyTorch: minigrad's classes by PyTorch's names."""
    kind = type(value)
    if kind.__module__.startswith("minigrad"):
        name = type_name(value)
        return f"<class '{name if name.startswith('torch.') else 'torch.' + name}'>"
    return repr(kind)


def unravel_index(indices, shape):
    """(the operation's docstring, set by ``take_operations``)"""
    from collections.abc import Sequence
    _torch_function(unravel_index, (indices,))
    if indices.is_complex() or indices.is_floating_point() or indices.dtype == _dtype.bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if not isinstance(shape, (int, Sequence)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {_class_shown(shape)}")
    if isinstance(shape, int):
        shape = int(shape)                # (True is 1)
    else:
        for size in shape:
            if not isinstance(size, int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got {_class_shown(size)}")
        shape = tuple(int(size) for size in shape)
    return _OPERATIONS["unravel_index"](indices, shape)


# --- lu (deprecated) ---------------------------------------------------------------------------

_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be removed "
    "in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\n"
    "LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2073.)")

_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch "
    "release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\n"
    "should be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2230.)")


def lu(*args, **kwargs):
    """The LU factorization of ``A`` packed in one matrix, and the pivots (deprecated: this is
    ``torch.linalg.lu_factor``, or ``lu_factor_ex`` with ``get_infos=True``, which adds infos):
    ``lu(A, pivot=True, get_infos=False, out=None)``."""
    return (_lu_with_infos if _flag(args, kwargs, "get_infos", 2) else _lu_no_infos)(*args, **kwargs)


def _lu_impl(A, pivot, get_infos, out):
    from ._ops.lu import lu_factor_ex, _check_lu_input, _lu_with_info
    _torch_function(lu, (A,))
    _vf("_lu_with_info", A, pivot=pivot, check_errors=not get_infos)
    warn_once(_LU_DEPRECATED)
    _check_lu_input("torch.lu_factor", A)
    LU, pivots, infos = lu_factor_ex(A, pivot=pivot)     # (a singular A is no error here)
    result = _lu_with_info(LU, pivots, infos)
    if out is None:
        return result if get_infos else result[:2]
    if len(out) - int(get_infos) != 2:
        raise TypeError(f"expected tuple of {2 + int(get_infos)} elements but got {len(out)}")
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"argument 'out' must be tuple of Tensors, not {type_name(out)}")
    for target, value in zip(out, result):
        target.resize_as_(value).copy_(value)
    return out


# (PyTorch's two forms of lu: their names are what Python's errors print)
def _lu_with_infos(A, pivot=True, get_infos=False, out=None):
    return _lu_impl(A, pivot, get_infos, out)


def _lu_no_infos(A, pivot=True, get_infos=False, out=None):
    return _lu_impl(A, pivot, get_infos, out)


def _lu_method(self, pivot=True, get_infos=False):
    """See :func:`torch.lu`."""
    from ._ops.lu import lu_factor_ex, _check_lu_input, _lu_with_info
    _vf("_lu_with_info", self, pivot=pivot, check_errors=not get_infos)
    warn_once(_LU_DEPRECATED)
    _check_lu_input("torch.lu_factor", self)
    result = _lu_with_info(*lu_factor_ex(self, pivot=pivot))
    return result if get_infos else result[:2]


def lu_solve(b, LU_data, LU_pivots, *, out=None):
    """The solution X of ``A X = b`` from A's packed LU factors (deprecated:
    ``torch.linalg.lu_solve(LU, pivots, B)``, its arguments in the other order)."""
    from ._ops.lu import lu_solve as solve
    warn_once(_LU_SOLVE_DEPRECATED)
    return solve(LU_data, LU_pivots, b)


# --- in place of the operations ----------------------------------------------------------------

_METHODS = {"split": _split_method, "unique": _unique_method,
            "unique_consecutive": _unique_consecutive_method, "norm": _norm_method, "lu": _lu_method}


def take_operations(namespace):
    """Put the Python layer in front of the operations: ``namespace`` (minigrad's) gives each
    function's operation and gets the function in its place; Tensor's methods of the same
    names get PyTorch's Python methods (torch/_tensor.py)."""
    for name in ("broadcast_tensors", "block_diag", "cartesian_prod", "chain_matmul", "atleast_1d",
                 "atleast_2d", "atleast_3d", "meshgrid", "einsum", "tensordot", "cdist", "split",
                 "unique", "unique_consecutive", "norm", "broadcast_shapes", "unravel_index"):
        function = globals()[name]
        _OPERATIONS[name] = namespace[name]
        function.__doc__ = namespace[name].__doc__
        namespace[name] = function
    for name, method in _METHODS.items():
        _OPERATIONS.setdefault(name, getattr(Tensor, name))
        method.__name__, method.__qualname__ = name, f"Tensor.{name}"
        setattr(Tensor, name, method)
