"""Which calls the profiler times as operations, under which PyTorch names (profiler.py).

A program reaches an operation through one of its doors: an operator (``x ** 2``), a tensor
method (``x.sum()``), a function of ``torch`` (``torch.sum(x)``), of ``torch.nn.functional``
(``F.relu(x)``), ``torch.linalg`` or ``torch.special``. While a profiler is on, ``swap_in`` replaces each door by a version that
opens a range around the call, named as PyTorch's profiler names that operation
(``aten::pow``, ``aten::sum``, ``aten::relu``); ``swap_out`` puts the originals back, so that
a program without a profiler runs exactly the code it always runs.

Operations that minigrad's own code calls through these doors (the tensor operations a
backward formula is written with, say) are timed too, as PyTorch times the operations its
kernels call: they show up inside the range of the operation or node that called them.
"""
import functools
import inspect
import types

import numpy as np

from .profiler import _Profiling, new_memory, start_range

# Python's operators, and the operation PyTorch records for each
OPERATORS = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_",
    "__sub__": "sub", "__rsub__": "rsub", "__isub__": "sub_",
    "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_",
    "__truediv__": "div", "__rtruediv__": "div", "__itruediv__": "div_",
    "__floordiv__": "floor_divide", "__rfloordiv__": "floor_divide", "__ifloordiv__": "floor_divide_",
    "__mod__": "remainder", "__rmod__": "remainder", "__imod__": "remainder_",
    "__pow__": "pow", "__rpow__": "pow", "__ipow__": "pow_",
    "__matmul__": "matmul", "__rmatmul__": "matmul",
    "__neg__": "neg", "__abs__": "abs", "__invert__": "bitwise_not",
    "__and__": "__and__", "__rand__": "__and__", "__iand__": "__iand__",
    "__or__": "__or__", "__ror__": "__or__", "__ior__": "__ior__",
    "__xor__": "__xor__", "__rxor__": "__xor__", "__ixor__": "__ixor__",
    "__lshift__": "__lshift__", "__rlshift__": "bitwise_left_shift", "__ilshift__": "__ilshift__",
    "__rshift__": "__rshift__", "__rrshift__": "bitwise_right_shift", "__irshift__": "__irshift__",
    "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge",
    # Python's conversions and loops
    "__float__": "item", "__int__": "item", "__bool__": "is_nonzero",
}

# methods and torch functions PyTorch records under another operation's name
OTHER_NAMES = {"float": "to", "double": "to", "half": "to", "int": "to", "long": "to",
                "short": "to", "char": "to", "byte": "to", "bool": "to", "cpu": "to", "cuda": "to",
                "norm": "linalg_vector_norm", "unique": "_unique2"}

# tensor methods that are no operation for PyTorch's profiler: questions about the tensor,
# conversions to Python and numpy, autograd's own methods
NOT_OPERATIONS = {
    "size", "dim", "ndimension", "stride", "numel", "nelement", "element_size", "storage_offset",
    "data_ptr", "get_device", "tolist", "numpy", "backward", "retain_grad", "requires_grad_",
    "type", "apply_", "map_", "map2_", "share_memory_", "pin_memory", "dim_order",
    "has_names", "untyped_storage", "storage", "nbytes", "itemsize", "new", "new_tensor",
}
NOT_OPERATION_PREFIXES = ("is_", "register_", "_")

# functions of torch that are no operation for PyTorch's profiler
NOT_TORCH_OPERATIONS = {
    "tensor", "as_tensor", "asarray", "from_numpy", "manual_seed", "seed", "initial_seed", "typename",
    "save", "load", "compile", "broadcast_shapes", "promote_types", "can_cast", "numel",
    "use_deterministic_algorithms", "are_deterministic_algorithms_enabled", "vmap",
    "set_printoptions", "get_printoptions",
}
NOT_TORCH_OPERATION_PREFIXES = ("is_", "get_", "set_", "_")

# functions of torch.nn.functional, and the operation PyTorch records for each
FUNCTIONAL_OPERATIONS = {
    **{name: name for name in (
        "relu", "relu_", "relu6", "elu", "selu", "celu", "gelu", "silu", "mish", "leaky_relu",
        "hardtanh", "hardswish", "hardsigmoid", "softplus", "sigmoid", "tanh", "glu", "threshold",
        "prelu", "rrelu", "hardshrink", "softshrink", "softmax", "log_softmax", "dropout",
        "linear", "bilinear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d",
        "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
        "adaptive_max_pool1d", "adaptive_max_pool2d", "batch_norm", "layer_norm", "group_norm",
        "instance_norm", "embedding", "pad", "one_hot", "mse_loss", "l1_loss", "smooth_l1_loss",
        "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
        "cosine_similarity", "pairwise_distance", "pixel_shuffle", "pixel_unshuffle",
        "margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss", "triplet_margin_loss",
        "cosine_embedding_loss", "poisson_nll_loss", "ctc_loss", "pdist")},
    "cross_entropy": "cross_entropy_loss", "nll_loss": "nll_loss_nd", "logsigmoid": "log_sigmoid",
    "grid_sample": "grid_sampler", "affine_grid": "affine_grid_generator",
}


def indexing_name(args, kwargs=None):
    """``x[index]``: PyTorch records the operation the index asks for: ``aten::select`` for a
    number, ``aten::slice`` for a range, ``aten::index`` for a list, tensor or mask (the first
    such part of a tuple names it)."""
    index = args[1] if len(args) > 1 else None
    parts = index if isinstance(index, tuple) else (index,)
    for part in parts:
        if part is Ellipsis or (isinstance(part, slice) and part == slice(None)):
            continue
        if isinstance(part, (bool, np.bool_)):
            return "aten::index"
        if isinstance(part, (int, np.integer)):
            return "aten::select"
        if isinstance(part, slice):
            return "aten::slice"
        if part is None:
            return "aten::unsqueeze"
        return "aten::index"
    return "aten::alias"


def writing_name(args, kwargs):
    """``x[index] = value``: the operation that writes, ``aten::fill_`` for a number,
    ``aten::copy_`` for a tensor, ``aten::index_put_`` where the index holds a list, tensor or
    mask (PyTorch first records the selection of the part written, as for ``x[index]``)."""
    from .._tensor import Tensor
    if indexing_name(args) == "aten::index":
        return "aten::index_put_"
    return "aten::copy_" if len(args) > 2 and isinstance(args[2], Tensor) else "aten::fill_"


def contiguous_name(args, kwargs):
    """``x.contiguous()``: an operation (a copy) only for a tensor that is not contiguous yet."""
    return None if args[0].is_contiguous() else "aten::contiguous"


def in_place_name(name, position):
    """``F.relu(x, inplace=True)`` is ``aten::relu_``: the name of a function that takes
    ``inplace`` (as argument number ``position``), as the call asks."""
    def named(args, kwargs):
        in_place = kwargs.get("inplace", args[position] if len(args) > position else False)
        return f"aten::{name}_" if in_place else f"aten::{name}"
    return named


# functions that give the name of the operation from the arguments of the call
NAMED_BY_THEIR_ARGUMENTS = {"__getitem__": indexing_name, "__setitem__": writing_name,
                            "contiguous": contiguous_name}

# properties that are operations: x.T, x.mT, ...
PROPERTIES = {"T": "aten::numpy_T", "mT": "aten::mT", "H": "aten::matrix_H", "mH": "aten::mH",
              "real": "aten::real"}


def _is_function(value):
    """A Python function: a method when it sits in a class, as its timed version will be
    (a built-in function or a partial would not take ``self``, so neither is swapped)."""
    return isinstance(value, types.FunctionType)


@functools.cache
def doors():
    """(owner, attribute, PyTorch's name of the operation) for every door into an operation."""
    import minigrad
    from .. import autograd, linalg, special
    from .._tensor import Tensor
    from ..nn import functional
    found = []
    for name, value in vars(Tensor).items():
        if not _is_function(value):
            continue
        if name in OPERATORS:
            found.append((Tensor, name, "aten::" + OPERATORS[name]))
        elif name in NAMED_BY_THEIR_ARGUMENTS:
            found.append((Tensor, name, NAMED_BY_THEIR_ARGUMENTS[name]))
        elif name not in NOT_OPERATIONS and not name.startswith(NOT_OPERATION_PREFIXES):
            found.append((Tensor, name, "aten::" + OTHER_NAMES.get(name, name)))
    for name, value in vars(minigrad).items():
        if _is_function(value) and name not in NOT_TORCH_OPERATIONS \
                and not name.startswith(NOT_TORCH_OPERATION_PREFIXES):
            found.append((minigrad, name, "aten::" + OTHER_NAMES.get(name, name)))
    for name, aten_name in FUNCTIONAL_OPERATIONS.items():
        function = getattr(functional, name, None)
        if _is_function(function):
            parameters = list(inspect.signature(function).parameters)
            found.append((functional, name, in_place_name(aten_name, parameters.index("inplace"))
                          if "inplace" in parameters else "aten::" + aten_name))
    for module, prefix in ((linalg, "linalg_"), (special, "special_")):    # (linalg.inv: linalg_inv)
        found += [(module, name, f"aten::{prefix}{name}") for name, value in vars(module).items()
                  if _is_function(value) and not name.startswith("_")]
    # the starting gradient of backward() on a scalar: PyTorch makes it with ones_like
    found.append((autograd, "_implicit_gradient", "aten::ones_like"))
    return tuple(found)


_originals = []          # (owner, attribute, original) while the timed versions are in place


def swap_in():
    """Put a timed version in place of every door (the first profiler to start does)."""
    from .._tensor import Tensor
    for owner, attribute, name in doors():
        original = vars(owner)[attribute]
        _originals.append((owner, attribute, original))
        setattr(owner, attribute, timed(original, name))
    for attribute, name in PROPERTIES.items():       # (the property's getter is timed)
        original = vars(Tensor)[attribute]
        _originals.append((Tensor, attribute, original))
        setattr(Tensor, attribute, property(timed(original.fget, name), original.fset, original.fdel,
                                            original.__doc__))
    # MyFunction.apply(x): a range named after the custom Function, around its forward
    from .function import Function
    original = vars(Function)["apply"]
    _originals.append((Function, "apply", original))
    Function.apply = classmethod(timed(original.__func__, lambda args, kwargs: args[0].__name__))
    for optimizer, method in optimizer_methods():
        original = vars(optimizer)[method]
        _originals.append((optimizer, method, original))
        setattr(optimizer, method, in_optimizer_range(original, method))


def optimizer_methods():
    """(class, method) for the ``step`` and ``zero_grad`` of every optimizer class, those a
    program defines included (looked for at each start, as one may be defined since)."""
    from ..optim.optimizer import Optimizer
    classes, found = [Optimizer], []
    while classes:
        optimizer = classes.pop()
        classes += optimizer.__subclasses__()
        found += [(optimizer, method) for method in ("step", "zero_grad")
                  if _is_function(vars(optimizer).get(method))]
    return found


def in_optimizer_range(method, method_name):
    """An optimizer's ``step`` or ``zero_grad`` inside the range PyTorch's optimizers open for
    it, as a ``record_function``: ``Optimizer.step#SGD.step``."""
    from .profiler import record_function

    @functools.wraps(method)
    def recorded(self, *args, **kwargs):
        if not _Profiling.on:
            return method(self, *args, **kwargs)
        with record_function(f"Optimizer.{method_name}#{type(self).__name__}.{method_name}"):
            return method(self, *args, **kwargs)
    return recorded


def swap_out():
    """Put every original back (the last profiler to stop does)."""
    while _originals:
        owner, attribute, original = _originals.pop()
        setattr(owner, attribute, original)


def timed(function, name):
    """``function`` inside a range named ``name`` (or ``name(args, kwargs)``, when it depends on
    the call; None: no operation this time).

    A call made inside a range of the same name is not timed again: ``torch.sum(x)`` that calls
    ``x.sum()`` is one operation reached through two doors."""
    @functools.wraps(function)
    def timed_operation(*args, **kwargs):
        range_name = name if type(name) is str else name(args, kwargs)
        open_ranges = _Profiling.open_ranges
        if not _Profiling.on or range_name is None or (open_ranges and open_ranges[-1].name == range_name):
            return function(*args, **kwargs)
        opened = start_range(range_name, args, kwargs)
        try:
            result = function(*args, **kwargs)
            if _Profiling.profile_memory:
                opened.memory = new_memory(result, args + tuple(kwargs.values()))
            return result
        finally:
            opened.end()
    return timed_operation
