"""In-place forms of one-input operations: x.exp_(), x.relu_(), x.clamp_min_(0), x.unsqueeze_(0), ...

Each is the out-of-place operation followed by writing its result back into
``x`` (``inplace.apply_inplace``), so PyTorch's in-place rules hold for all of
them: a leaf that requires grad refuses, the version counter goes up, and a
recorded change gives ``x`` the operation's node (``x.exp_()`` -> ExpBackward0).
``torch.exp_(x)`` is the same call written as a function.
"""
from .._tensor import _wrap
from ..autograd.graph import needs_grad
from . import gather_scatter, pointwise, rounding, shape, special
from .inplace import apply_inplace, bump_version, check_inplace


def _unary_inplace(operation, name):
    def method(self, *args, **kwargs):
        return apply_inplace(self, lambda t: operation(t, *args, **kwargs))
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"In-place ``{operation.__name__}``: x.{name}() computes {operation.__name__}(x) "
                      "and writes it back into x (recorded with the same node).")
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


def clamp_min_(self, min):
    """In-place clamp from below: x = max(x, min)."""
    return apply_inplace(self, lambda t: pointwise.clamp(t, min=min))


def clamp_max_(self, max):
    """In-place clamp from above: x = min(x, max)."""
    return apply_inplace(self, lambda t: pointwise.clamp(t, max=max))


METHODS["clamp_min_"] = clamp_min_
METHODS["clamp_max_"] = clamp_max_


# --- writing at positions in place: x.scatter_(1, index, 1.0) (one-hot vectors), ... ------------

def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    """In-place scatter: self[index[i][j]][j] = src[i][j] (dim=0); src may be a number."""
    return apply_inplace(self, lambda t: gather_scatter.scatter(t, dim, index, src, value=value,
                                                                  reduce=reduce))


def scatter_add_(self, dim, index, src):
    """In-place scatter_add: src[i][j] is added to self[index[i][j]][j] (dim=0)."""
    return apply_inplace(self, lambda t: gather_scatter.scatter_add(t, dim, index, src))


def index_add_(self, dim, index, source, *, alpha=1):
    """In-place index_add: alpha * source[k] is added to slice index[k] of self along dim."""
    return apply_inplace(self, lambda t: gather_scatter.index_add(t, dim, index, source, alpha=alpha))


def masked_fill_(self, mask, value):
    """In-place masked_fill: ``value`` wherever the bool tensor ``mask`` is True."""
    return apply_inplace(self, lambda t: shape.masked_fill(t, mask, value))


METHODS.update(scatter_=scatter_, scatter_add_=scatter_add_, index_add_=index_add_,
               masked_fill_=masked_fill_)


# --- shape changes in place: the tensor object gets a new shape, its memory stays ----------------

class UnsqueezeBackward1(shape.UnsqueezeBackward0):
    """x.unsqueeze_(dim)   ->   remove that dim from the gradient"""


class SqueezeBackward3(shape.SqueezeBackward0):
    """x.squeeze_()   ->   reshape the gradient back"""


class SqueezeBackward4(shape.SqueezeBackward0):
    """x.squeeze_(dim)   ->   reshape the gradient back"""


def _reshape_inplace(tensor, operation, node_class):
    """Give ``tensor`` the shape of ``operation(tensor)``; record ``node_class`` if needed."""
    check_inplace(tensor, overlap_ok=True)      # only the shape changes, not the memory
    old = _wrap(tensor._array)
    if needs_grad((tensor,)):
        # the node must point where the tensor pointed before the change
        old._grad_fn, old._output_nr = tensor._grad_fn, tensor._output_nr
        old._requires_grad = tensor._requires_grad
    new = operation(old)
    tensor._array = new._array
    if new._grad_fn is not None:
        new._grad_fn.__class__ = node_class     # same backward, PyTorch's in-place name
        tensor._grad_fn, tensor._output_nr = new._grad_fn, 0
    bump_version(tensor)                 # views of the tensor regenerate their history ...
    if new._grad_fn is not None:         # ... but the tensor itself keeps the operation's node
        tensor._grad_fn, tensor._output_nr = new._grad_fn, 0
    return tensor


def unsqueeze_(self, dim):
    """Add a size-1 dimension at ``dim`` to this tensor itself (UnsqueezeBackward1)."""
    return _reshape_inplace(self, lambda t: shape.unsqueeze(t, dim), UnsqueezeBackward1)


def squeeze_(self, dim=None):
    """Remove size-1 dimensions of this tensor itself (SqueezeBackward3, or 4 with a dim)."""
    if dim is None:
        return _reshape_inplace(self, shape.squeeze, SqueezeBackward3)
    return _reshape_inplace(self, lambda t: shape.squeeze(t, dim), SqueezeBackward4)


METHODS["unsqueeze_"] = unsqueeze_
METHODS["squeeze_"] = squeeze_
