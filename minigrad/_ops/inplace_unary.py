"""In-place forms of one-input operations: x.exp_(), x.relu_(), x.clamp_min_(0), x.unsqueeze_(0), ...

Each is the out-of-place operation followed by writing its result back into
``x`` (``inplace.apply_inplace``), so PyTorch's in-place rules hold for all of
them: a leaf that requires grad refuses, the version counter goes up, and a
recorded change gives ``x`` the operation's node (``x.exp_()`` -> ExpBackward0).
``torch.exp_(x)`` is the same call written as a function.

Where PyTorch gives the in-place form a node of its own name (``clamp_min_`` ->
ClampMinBackward0, ``unsqueeze_`` -> UnsqueezeBackward1, ``elu(inplace=True)`` ->
EluBackward1 in nn/functional.py), that node class is a subclass of the
out-of-place one (same backward) and is handed to ``result`` when recording:
the node is created with its final name.
"""
import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.forward_ad import _DualLevel, _set_tangent, _tangent_of, _with_tangent_of
from ..autograd.graph import needs_grad
from . import gather_scatter, pointwise, result, rounding, shape, special
from .inplace import apply_inplace, bump_version, check_inplace
from ..autograd.function import _FuncTransforms
from .._functorch import check_inplace_batching


def _castable_back(out, tensor):
    """``out`` is written back into ``tensor``: PyTorch refuses float results in an integer or
    bool tensor, and integer results in a bool tensor (the values would be cut)."""
    into, result_kind = tensor._array.dtype.kind, out._array.dtype.kind
    if (result_kind == "f" and into in "iub") or (result_kind in "iu" and into == "b"):
        raise RuntimeError(f"result type {out.dtype.tensor_type_name[:-len('Tensor')]} can't be cast "
                           f"to the desired output type {tensor.dtype.tensor_type_name[:-len('Tensor')]}")
    return out


def _unary_inplace(operation, name):
    def method(self, *args, **kwargs):
        return apply_inplace(self, lambda t: _castable_back(operation(t, *args, **kwargs), t))
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"In-place ``{operation.__name__}``: x.{name}() computes {operation.__name__}(x) "
                      "and writes it back into x (recorded with the same node). Gradient: "
                      f"that of {operation.__name__}, at the old value of x.")
    return method


# name of the in-place method -> the out-of-place operation it writes back
_UNARY = {
    "exp_": pointwise.exp, "log_": pointwise.log, "log1p_": pointwise.log1p,
    "sin_": pointwise.sin, "cos_": pointwise.cos, "tan_": pointwise.tan,
    "sqrt_": pointwise.sqrt, "rsqrt_": pointwise.rsqrt, "tanh_": pointwise.tanh,
    "sigmoid_": pointwise.sigmoid, "relu_": pointwise.relu, "abs_": pointwise.abs,
    "neg_": pointwise.neg, "reciprocal_": pointwise.reciprocal, "square_": pointwise.square,
    "sign_": pointwise.sign, "floor_": rounding.floor, "ceil_": rounding.ceil,
    "round_": rounding.round, "trunc_": rounding.trunc, "frac_": rounding.frac,
    "erf_": special.erf,
}
_ALIASES = {"negative_": "neg_", "absolute_": "abs_", "fix_": "trunc_"}

METHODS = {name: _unary_inplace(operation, name) for name, operation in _UNARY.items()}
METHODS.update({alias: METHODS[name] for alias, name in _ALIASES.items()})


class ClampMinBackward0(pointwise.ClampBackward1):
    """result = self.clamp_min_(min)   ->   grad_self = grad where self >= min, else 0"""

    _saved_names = ("self",)       # grad_fn._saved_self; _saved_min is the number


class ClampMaxBackward0(pointwise.ClampBackward1):
    """result = self.clamp_max_(max)   ->   grad_self = grad where self <= max, else 0"""

    _saved_names = ("self",)       # grad_fn._saved_self; _saved_max is the number


# the C++ type names PyTorch's clamp_ messages use for integer and bool tensors
_CPP_TYPE_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                   "uint8": "unsigned char", "bool": "bool"}


def _check_bound_fits(t, bound, side):
    """An in-place clamp keeps t's dtype: a float bound can't clamp an int tensor (nor an int a bool)."""
    kind = t._array.dtype.kind
    if kind == "b" and type(bound) is bool:
        raise NotImplementedError(f'"clamp_{side}_scalar_cpu" not implemented for \'Bool\'')
    if kind in "iub" and isinstance(bound, float) or kind == "b" and type(bound) is int:
        result_name = "Float" if isinstance(bound, float) else "Long"
        raise RuntimeError(f"result type {result_name} can't be cast to the desired output type "
                           f"{_CPP_TYPE_NAMES[t._array.dtype.name]}")


def _clamp_one_side(node_class, low=None, high=None):
    """clamp with a number bound, recorded as ``node_class`` (PyTorch names each side's node)."""
    def operation(t):
        if isinstance(low, Tensor) or isinstance(high, Tensor):
            return pointwise.clamp(t, min=low, max=high)     # a tensor bound: clamp's own node
        _check_bound_fits(t, *((low, "min") if high is None else (high, "max")))
        values = pointwise.clip_keeping_input_on_ties(t._array, low, high).astype(
            t._array.dtype, copy=False)
        bound = {"min": low} if high is None else {"max": high}
        return result(values, node_class, (t,), saved=(t,), low=low, high=high, **bound)
    return operation


def clamp_min_(self, min):
    """In-place clamp from below: x = max(x, min) (ClampMinBackward0)."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("clamp_min_", self, (min,))
    return apply_inplace(self, _clamp_one_side(ClampMinBackward0, low=min))


def clamp_max_(self, max):
    """In-place clamp from above: x = min(x, max) (ClampMaxBackward0)."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("clamp_max_", self, (max,))
    return apply_inplace(self, _clamp_one_side(ClampMaxBackward0, high=max))


METHODS["clamp_min_"] = clamp_min_
METHODS["clamp_max_"] = clamp_max_


# --- writing at positions in place: x.scatter_(1, index, 1.0) (one-hot vectors), ... ------------

def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    """In-place scatter: self[index[i][j]][j] = src[i][j] (dim=0); src may be a number."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("scatter_", self, (index, src, value))
    # src goes in as an input: a view made under no_grad may not take one that requires grad
    return apply_inplace(self, lambda t, source: gather_scatter.scatter_into_copy(
        t, dim, index, source, value, reduce, "scatter_"), src)


def scatter_add_(self, dim, index, src):
    """In-place scatter_add: src[i][j] is added to self[index[i][j]][j] (dim=0)."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("scatter_add_", self, (index, src))
    return apply_inplace(self, lambda t, source: gather_scatter.scatter_add(t, dim, index, source), src)


def index_add_(self, dim, index, source, *, alpha=1):
    """In-place index_add: alpha * source[k] is added to slice index[k] of self along dim."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("index_add_", self, (index, source))
    return apply_inplace(self, lambda t, added: gather_scatter.index_add(t, dim, index, added, alpha=alpha),
                         source)


def masked_fill_(self, mask, value):
    """In-place masked_fill: ``value`` wherever the bool tensor ``mask`` is True."""
    if _FuncTransforms.vmaps:       # (PyTorch batches a mask and a value differently)
        check_inplace_batching("masked_fill_", self, (mask,))
        check_inplace_batching("masked_fill_value", self, (value,))
    return apply_inplace(self, lambda t: shape.masked_fill(t, mask, value))


METHODS.update(scatter_=scatter_, scatter_add_=scatter_add_, index_add_=index_add_,
               masked_fill_=masked_fill_)


# --- shape changes in place: the tensor object gets a new shape, its memory stays ----------------

class UnsqueezeBackward1(shape.UnsqueezeBackward0):
    """result = self.unsqueeze_(dim)   ->   grad_self = grad.squeeze(dim)"""


class SqueezeBackward3(shape.SqueezeBackward0):
    """result = self.squeeze_()   ->   grad_self = grad unsqueezed at every squeezed dim"""


class SqueezeBackward4(shape.SqueezeBackward0):
    """result = self.squeeze_(dim)   ->   grad_self = grad.unsqueeze(dim) if it was squeezed"""


def _reshape_inplace(tensor, new_array, node_class, **attributes):
    """Let ``tensor`` show its memory as ``new_array``; record ``node_class`` if needed
    (PyTorch's rules for in-place changes were checked by the caller).

    The node is recorded directly with its in-place name (UnsqueezeBackward1,
    SqueezeBackward3/4); its backward is the out-of-place one it inherits.
    """
    old = _with_tangent_of(tensor, _wrap(tensor._array))
    if needs_grad((tensor,)):
        # the node must point where the tensor pointed before the change
        old._grad_fn, old._output_nr = tensor._grad_fn, tensor._output_nr
        old._requires_grad = tensor._requires_grad
    new = result(new_array, node_class, (old,), **attributes)
    tensor._array = new._array
    if new._grad_fn is not None:
        tensor._grad_fn, tensor._output_nr = new._grad_fn, 0
    bump_version(tensor)                 # views of the tensor regenerate their history ...
    if new._grad_fn is not None:         # ... but the tensor itself keeps the operation's node
        tensor._grad_fn, tensor._output_nr = new._grad_fn, 0
    if _DualLevel.open and _tangent_of(new) is not None:     # forward mode: the tangent is reshaped too
        _set_tangent(tensor, _tangent_of(new))
    return tensor


def unsqueeze_(self, dim):
    """Add a size-1 dimension at ``dim`` to this tensor itself (UnsqueezeBackward1)."""
    # PyTorch's rules for in-place changes come before the operation's own checks;
    # only the shape changes, not the memory, so memory seen twice is fine
    check_inplace(self, overlap_ok=True)
    dim = shape._normalize_dim(dim, self.ndim + 1)
    return _reshape_inplace(self, shape._unsqueezed(self._array, dim), UnsqueezeBackward1, dim=dim)


def squeeze_(self, dim=None):
    """Remove size-1 dimensions of this tensor itself (SqueezeBackward3, or 4 with a dim)."""
    check_inplace(self, overlap_ok=True)         # first, as for unsqueeze_
    array = self._array
    if dim is None:
        return _reshape_inplace(self, np.squeeze(array), SqueezeBackward3, input_shape=array.shape)
    dim = shape._normalize_dim(dim, array.ndim) if array.ndim else 0
    squeezes = bool(array.ndim) and array.shape[dim] == 1
    squeezed = np.squeeze(array, axis=dim) if squeezes else array.view()
    return _reshape_inplace(self, squeezed, SqueezeBackward4, input_shape=array.shape,
                            squeezed_dims=(dim,) if squeezes else ())


METHODS["unsqueeze_"] = unsqueeze_
METHODS["squeeze_"] = squeeze_
