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
import warnings

import numpy as np

from .._tensor import Tensor, _wrap
from .._dtype import result_type
from .._memory_format import keep_zero_steps, with_pytorch_steps
from ..autograd.forward_ad import _DualLevel, _set_tangent, _tangent_of, _with_tangent_of
from ..autograd.graph import give_edges_their_node, needs_grad, refuse_dtype
from ..autograd.grad_mode import no_grad
from . import (bessel, binary_ops, blas, blend, gamma, gather_scatter, logarithms, pointwise, result, rounding,
               shape, special, trigonometry)
from .inplace import (_check_partial_overlap, _shares_memory_unversioned, _overlaps, memory_order, apply_inplace,
                      _reads_its_own_writes, arguments_before_overlap, refuse_reading_own_memory, bump_version,
                      check_inplace, check_result_fits, elementwise_in_loop_order, overlaps_itself, pointwise_one_by_one,
                      reading_its_own_writes, refuse_if_old_values_needed, refuse_integer_history)
from .inplace import div_ as inplace_div_
from .overlapping_writes import accumulated, index_reduced, scattered, scatter_reduced, SCATTER_REDUCTIONS
from . import overlapping_products
from .views import check_history_kept, node_is_current
from .._warnings import stacklevel_outside_minigrad
from ..autograd.function import _FuncTransforms
from .._functorch import check_inplace_batching, warn_no_batching_rule


def _castable_back(out, tensor):
    """``out``, to be written back into ``tensor``, checked first (inplace.check_result_fits), so
    that PyTorch's message comes before the operation's own later errors."""
    check_result_fits(tensor, out._array.shape, out._array.dtype)
    return out


# in-place operations PyTorch's vmap has no batching rule for (it splits them into ones that
# have a rule when a grad, jvp, ... runs inside the vmap)
_WITHOUT_BATCHING_RULE = ("square_", "negative_", "fix_")


def _unary_inplace(operation, name):
    def method(self, *args, **kwargs):
        if _FuncTransforms.vmaps and name in _WITHOUT_BATCHING_RULE:
            warn_no_batching_rule(name, (self,))
        if operation is pointwise.neg and self._array.dtype == np.bool_:
            # (neg's own check comes before the loop's check of self's memory: an expanded bool)
            raise RuntimeError(pointwise.NEGATIVE_BOOL_MESSAGE)
        def written(t):
            return _castable_back(operation(t, *args, **kwargs), t)
        if overlaps_itself(self._array):        # (unfold's windows): element by element
            return reading_its_own_writes(self, (), pointwise_one_by_one(written), written)
        return apply_inplace(self, written)
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
    "erf_": special.erf, "erfc_": special.erfc, "erfinv_": special.erfinv, "sinc_": special.sinc,
    "asin_": trigonometry.asin, "acos_": trigonometry.acos, "atan_": trigonometry.atan,
    "sinh_": trigonometry.sinh, "cosh_": trigonometry.cosh, "asinh_": trigonometry.asinh_in_place,
    "acosh_": trigonometry.acosh_in_place, "atanh_": trigonometry.atanh_in_place, "deg2rad_": trigonometry.deg2rad,
    "rad2deg_": trigonometry.rad2deg, "exp2_": logarithms.exp2, "lgamma_": gamma.lgamma,
    "digamma_": gamma.digamma, "logit_": logarithms.logit, "i0_": bessel.i0,
    "expm1_": logarithms.expm1, "log2_": logarithms.log2, "log10_": logarithms.log10,
    "sgn_": pointwise.sgn,
}
_ALIASES = {"negative_": "neg_", "absolute_": "abs_", "fix_": "trunc_", "arcsin_": "asin_",
            "arccos_": "acos_", "arctan_": "atan_", "arcsinh_": "asinh_", "arccosh_": "acosh_",
            "arctanh_": "atanh_"}

METHODS = {name: _unary_inplace(operation, name) for name, operation in _UNARY.items()}
METHODS.update({alias: _unary_inplace(_UNARY[name], alias) for alias, name in _ALIASES.items()})


def polygamma_(self, n):
    """In-place ``polygamma``: x.polygamma_(n) writes polygamma(n, x) into x."""
    refuse_integer_history(self)        # (autograd's copy of x's old values comes first)
    def written(t):
        return _castable_back(gamma.polygamma(n, t, gamma.PolygammaBackward1), t)
    if overlaps_itself(self._array):        # (unfold's windows): element by element
        return reading_its_own_writes(self, (), pointwise_one_by_one(written), written)
    return apply_inplace(self, written)


# --- in-place forms of the math functions with more inputs: p.addcdiv_(m, d, value=-lr), ... --

def _with_others_inplace(operation, name, tensor_arguments, in_own_memory=None):
    """x.name(*args) computes operation(x, *args) and writes it back into x; the first
    ``tensor_arguments`` arguments are inputs that may require grad (they go to apply_inplace).

    Where x sees a memory location at several positions (overlapping unfold windows), PyTorch's
    loop writes it several times: ``in_own_memory(x, *args, **kwargs)`` gives the values it
    leaves (``"elementwise"``: an elementwise operation, see inplace.elementwise_in_loop_order)."""
    def method(self, *args, **kwargs):
        others = tuple(a for a in args[:tensor_arguments] if isinstance(a, Tensor))
        if name == "float_power_" and self._array.dtype != np.float64:
            raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype.tensor_type_name[:-len('Tensor')]} "
                               "but the operation's result requires dtype Double")
        if self._array.dtype.kind not in "fc" and needs_grad((self,) + others):
            # an integer x with history: autograd's rules, then its copy of x's old values (if
            # the node saves them, refused), come before the operation's own checks
            check_inplace(self, overlap_ok=True, others=others)
            loop_inputs = others + tuple(v for v in kwargs.values() if isinstance(v, Tensor))
            refuse_if_old_values_needed(self, _with_these_others(operation, args, kwargs, tensor_arguments),
                                        loop_inputs)

        if name in _CHECKED_BEFORE_SHAPES:
            # (their dtype checks come before PyTorch's refusal to write into memory that x
            # sees at several positions, an expanded x: after autograd's rules only)
            check_inplace(self, overlap_ok=True, others=others)
            _CHECKED_BEFORE_SHAPES[name](self, *args[:tensor_arguments], **kwargs)
        if name == "index_reduce_" and _repeats_elements(self._array):
            # (an expanded x: the arguments are checked before the refusal to write into it)
            check_inplace(self, overlap_ok=True, others=others)
            from .scatter_reduce import check_index_reduce_arguments    # (it imports this module's users)
            check_index_reduce_arguments(self, *args, **kwargs)
        if name == "addmm_" and _repeats_elements(self._array):
            # (so too x's shape against the product's, before the refusal to write into it)
            check_inplace(self, overlap_ok=True, others=others)
            blas.check_addmm_in_place(self, *args[:2])
        if name == "scatter_reduce_" and _repeats_elements(self._array):
            # (so too scatter's checks of dim, the dtypes and the shapes; the reduction's name
            # and the positions come after the refusal)
            check_inplace(self, overlap_ok=True, others=others)
            _READ_AT_OTHER_POSITIONS[name](self, *args, **kwargs)
        shared = []                     # the others over self's memory that PyTorch lets through
        for other in others:            # x.hypot_(x[:1]): PyTorch refuses a partial overlap
            if name in _READ_AT_OTHER_POSITIONS:        # (any overlap, after the arguments)
                refuse_reading_own_memory(self, other, lambda: _READ_AT_OTHER_POSITIONS[name](self, *args, **kwargs))
            elif (other._version_counter is self._version_counter or _shares_memory_unversioned(self, other)) \
                    and name not in _OVERLAP_UNCHECKED:
                check_inplace(self, others=others)       # (autograd's rules come first,
                check_history_kept(*others)              # and a lost history of the others)
                if name in _CHECKED_BEFORE_SHAPES:
                    _CHECKED_BEFORE_SHAPES[name](self, *args[:tensor_arguments], **kwargs)
                _check_partial_overlap(self, other)
                shared.append(other)
        if in_own_memory == "elementwise" and len(others) == 1:
            # PyTorch's loop settles the result's shape before the kernel runs (heaviside_ and
            # lerp_ check their dtypes first: _CHECKED_BEFORE_SHAPES)
            _check_loop_shapes(self, others, _CHECKED_BEFORE_SHAPES.get(name),
                               _SAVES_CHECKED_BEFORE_SHAPES.get(name))
            if name in _CAST_CHECKED_BEFORE_KERNEL:
                check_result_fits(self, self._array.shape, result_type(self, *others))

        def written(t, *_):
            if name == "addr_":
                _check_addr_self(t, *args[:2])
            if name == "baddbmm_":
                blas.check_baddbmm_in_place(t, *args[:2])
            if name == "addmm_":
                blas.check_addmm_in_place(t, *args[:2])
            out = operation(t, *args, **kwargs)
            if name in _SHAPE_CHECKED_FIRST and out._array.shape != t._array.shape:
                raise RuntimeError(f"Bad in-place call: input tensor size {list(t._array.shape)} and output "
                                   f"tensor size {list(out._array.shape)} should match")
            if getattr(out._grad_fn, "_operation", None) == name[:-1]:
                out._grad_fn._operation = name      # (no derivative: PyTorch names aten::heaviside_)
            return _castable_back(out, t)
        if name == "baddbmm_" and len(args) > 1 and isinstance(args[1], Tensor) \
                and args[1]._array.dtype != self._array.dtype:
            # PyTorch checks the result's dtype (batch2's) after autograd's rules, before the overlap
            check_inplace(self, overlap_ok=True, others=others)
            blas.check_baddbmm_in_place(self, *args[:2])
        if in_own_memory is not None and (overlaps_itself(self._array) or (
                name in _READ_WHILE_WRITTEN and any(np.shares_memory(self._array, o._array) for o in others)) or (
                # (x.hypot_(a view of x that isn't dense): read where the loop wrote before)
                in_own_memory == "elementwise" and any(_reads_its_own_writes(self, o) for o in shared))):
            if in_own_memory == "elementwise":
                loop_inputs = others + tuple(v for v in kwargs.values() if isinstance(v, Tensor))
                return elementwise_in_loop_order(
                    self, _with_these_others(operation, args, kwargs, tensor_arguments), loop_inputs)
            else:
                check_inplace(self, others=others)      # autograd's rules, then PyTorch's errors
                written(_wrap(self._array), *(other.detach() for other in others))
                values = in_own_memory(self, *args, **kwargs)
                return apply_inplace(self, _with_values(written, values), *others)
        return apply_inplace(self, written, *others)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"In-place ``{operation.__name__}``: x.{name}(...) computes "
                      f"{operation.__name__}(x, ...) and writes it back into x (recorded with the "
                      "same node).")
    return method


# elementwise in-place forms whose operation checks the dtypes before the loop checks the shapes
# and overlaps
_CHECKED_BEFORE_SHAPES = {"heaviside_": binary_ops.check_heaviside_dtypes, "lerp_": blend.check_lerp_dtypes,
                          "addcdiv_": blend.check_addcdiv_integers}

# elementwise in-place forms whose autograd saves the other input (which inputs each input's
# gradient saves, as for check_history_kept) before the loop checks the shapes: an inference
# tensor given as the other is refused first ("Inference tensors cannot be saved for backward").
# Where a gradient needs x's old values, it saves a copy of them (never an inference tensor).
_SAVES_CHECKED_BEFORE_SHAPES = {"xlogy_": ((1,), (1,)), "float_power_": ((1,), (1,))}

# elementwise in-place forms whose loop checks that the promoted dtype can be written back into
# x before its kernel looks at that dtype (bools.hypot_(ints): the cast is refused, not the kernel)
_CAST_CHECKED_BEFORE_KERNEL = ("hypot_",)

# kernels that read the other tensor at other positions than they write (so refuse even the
# very same elements), after these checks of their arguments
_READ_AT_OTHER_POSITIONS = {
    "scatter_reduce_": lambda self, dim, index, src, *_, **__: gather_scatter._scatter_checks(
        "scatter", self, dim, index, src),
    "index_reduce_": lambda self, *args, **kwargs: _index_reduce_checks(self, *args, **kwargs),
}


def _repeats_elements(array):
    """True when a dim of more than one element steps by 0 (an expanded tensor)."""
    return any(step == 0 and size > 1 for step, size in zip(array.strides, array.shape))


def _index_reduce_checks(self, *args, **kwargs):
    """index_reduce_'s checks of its arguments: index_reduce on a copy (it computes little),
    without its warning (PyTorch's kernel gives it after the overlap check)."""
    from . import scatter_reduce        # (scatter_reduce imports this module's users)
    warned = scatter_reduce._Warned.beta
    try:
        with no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scatter_reduce.index_reduce(self.detach(), *args, **kwargs)
    finally:
        scatter_reduce._Warned.beta = warned

# matrix products whose kernels check no overlap of self with the other operands (PyTorch lets
# x.addmm_(x.t(), x) through)
_OVERLAP_UNCHECKED = ("addmm_", "addmv_", "addbmm_", "baddbmm_")
# ... and whose loop, replayed in self's memory (overlapping_products.py), reads an operand that
# shares it as PyTorch does: baddbmm_'s own loop for small products
_READ_WHILE_WRITTEN = ("baddbmm_",)

# structured in-place kernels: a self of another shape than the result is refused in these
# words (before the write, which would name the broadcast shape)
_SHAPE_CHECKED_FIRST = ("addmm_", "baddbmm_", "addmv_")


def _check_addr_self(self, vec1, vec2):
    """x.addr_(vec1, vec2): x itself (not broadcast) must be the outer product's matrix."""
    if not (isinstance(vec1, Tensor) and isinstance(vec2, Tensor) and vec1.ndim == 1 and vec2.ndim == 1):
        return                    # (addr's own errors follow)
    if self.ndim != 2:
        raise RuntimeError(f"2D tensor expected, got {self.ndim}D tensor for input")
    if tuple(self._array.shape) != (vec1._array.shape[0], vec2._array.shape[0]):
        raise RuntimeError(f"size mismatch, input: {list(self._array.shape)}, v1: {list(vec1._array.shape)}, "
                           f"v2: {list(vec2._array.shape)}")


def _check_loop_shapes(self, others, checked_first=None, saves=None):
    """An elementwise x.op_(y): PyTorch's loop checks the shapes (y broadcast to x's shape)
    before the dtypes and its kernel (x.hypot_(y) of integers of another shape says the shape);
    ``checked_first(self, *others)`` is what the operation checks before it builds the loop,
    ``saves`` what its autograd saves before that (see _SAVES_CHECKED_BEFORE_SHAPES)."""
    check_inplace(self, others=others)          # (autograd's rules come first)
    if saves is not None:
        check_history_kept(self, *others, saves=saves)
    if checked_first is not None:
        checked_first(self, *others)
    try:
        shape = np.broadcast_shapes(self._array.shape, *(o._array.shape for o in others))
    except ValueError:
        raise pointwise._broadcast_error(self, others[0]) from None
    check_result_fits(self, shape, self._array.dtype)     # (the shape; the dtype once computed)


def _with_these_others(operation, args, kwargs, tensor_arguments):
    """x.name(*args, **kwargs) as a function of x and the tensor arguments and keywords (one
    value each, for elementwise_in_loop_order): the other arguments stay as given."""
    def written(t, *others):
        given = iter(others)       # (the tensor arguments, then the tensor keywords: lerp_'s weight=)
        changed = [next(given) if isinstance(a, Tensor) else a for a in args[:tensor_arguments]]
        keywords = {k: next(given) if isinstance(v, Tensor) else v for k, v in kwargs.items()}
        return _castable_back(operation(t, *changed, *args[tensor_arguments:], **keywords), t)
    return written


def in_place_form(operation, name, tensor_arguments):
    """The in-place method of ``operation`` (x.scatter_reduce_(...)): see _with_others_inplace."""
    if name == "scatter_reduce_":
        return _with_others_inplace(operation, name, tensor_arguments, _scatter_reduced_in_own_memory)
    if name == "index_reduce_":
        return _with_others_inplace(operation, name, tensor_arguments, _index_reduced_in_own_memory)
    return _with_others_inplace(operation, name, tensor_arguments)


def _index_reduced_in_own_memory(self, dim, index, source, reduce, *, include_self=True):
    """The values index_reduce_ leaves in a tensor whose elements share memory (see
    overlapping_writes.index_reduced)."""
    return index_reduced(self._array, shape._normalize_dim(dim, max(self.ndim, 1)),
                         index._array.reshape(-1), source._array, reduce, include_self)


def _scatter_reduced_in_own_memory(self, dim, index, src, reduce, *, include_self=True):
    """The values scatter_reduce_ leaves in a tensor whose elements share memory (see
    overlapping_writes.scatter_reduced)."""
    return scatter_reduced(self._array, shape._normalize_dim(dim, max(self.ndim, 1)), index._array,
                           src._array, reduce, include_self)


def _true_divide_(self, other):
    """``x.true_divide_(y)``: PyTorch's other name for ``x.div_(y)`` (it runs div_ itself)."""
    return inplace_div_(self, other)


METHODS.update(
    polygamma_=polygamma_,
    mvlgamma_=gamma.mvlgamma_,
    addcmul_=_with_others_inplace(blend.addcmul, "addcmul_", 2, "elementwise"),
    addcdiv_=_with_others_inplace(blend.addcdiv, "addcdiv_", 2, "elementwise"),
    lerp_=_with_others_inplace(blend.lerp, "lerp_", 2, "elementwise"),
    hypot_=_with_others_inplace(binary_ops.hypot, "hypot_", 1, "elementwise"),
    copysign_=_with_others_inplace(binary_ops.copysign, "copysign_", 1, "elementwise"),
    heaviside_=_with_others_inplace(binary_ops.heaviside, "heaviside_", 1, "elementwise"),
    float_power_=_with_others_inplace(binary_ops.float_power, "float_power_", 1, "elementwise"),
    xlogy_=_with_others_inplace(logarithms.xlogy, "xlogy_", 1, "elementwise"),
    true_divide_=_true_divide_,
    addmv_=_with_others_inplace(blas.addmv, "addmv_", 2),
    addr_=_with_others_inplace(blas.addr, "addr_", 2, overlapping_products.addr_written),
)


# x.clamp_min_(0) records the node of clamp_min (PyTorch gives both the same name)
ClampMinBackward0, ClampMaxBackward0 = pointwise.ClampMinBackward0, pointwise.ClampMaxBackward0


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
    if isinstance(min, Tensor):     # an input too (recorded if it requires grad): ClampMinBackward1
        _check_bound_memory(self, min)
        return apply_inplace(self, pointwise.clamp_min, min)
    # (a result self's dtype cannot hold is refused before an expanded self: see clamp_)
    arguments_before_overlap(self, _clamp_one_side(ClampMinBackward0, low=min))
    return apply_inplace(self, _clamp_one_side(ClampMinBackward0, low=min))


def clamp_max_(self, max):
    """In-place clamp from above: x = min(x, max) (ClampMaxBackward0)."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("clamp_max_", self, (max,))
    if isinstance(max, Tensor):     # an input too (recorded if it requires grad): ClampMaxBackward1
        _check_bound_memory(self, max)
        return apply_inplace(self, pointwise.clamp_max, max)
    # (a result self's dtype cannot hold is refused before an expanded self: see clamp_)
    arguments_before_overlap(self, _clamp_one_side(ClampMaxBackward0, high=max))
    return apply_inplace(self, _clamp_one_side(ClampMaxBackward0, high=max))


def _check_bound_memory(self, bound):
    """A bound that shares self's memory (x.clamp_max_(x[1:])): PyTorch refuses an overlap
    before it compares the shapes, as for clamp_."""
    if bound._version_counter is self._version_counter or _shares_memory_unversioned(self, bound):
        check_inplace(self, others=(bound,))
        _check_partial_overlap(self, bound)


METHODS["clamp_min_"] = clamp_min_
METHODS["clamp_max_"] = clamp_max_


# --- writing at positions in place: x.scatter_(1, index, 1.0) (one-hot vectors), ... ------------

def _reads_own_memory(self, source):
    """Does ``source`` read memory that writing into ``self`` changes?"""
    return (isinstance(source, Tensor) and source._version_counter is self._version_counter
            and np.shares_memory(self._array, source._array))


def _with_values(operation, values):
    """``operation``, whose result's values are replaced by ``values`` (computed in PyTorch's order)."""
    def with_those_values(t, *others):
        new = operation(t, *others)
        new._array[...] = values
        return new
    return with_those_values


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    """In-place scatter: self[index[i][j]][j] = src[i][j] (dim=0); src may be a number.

    From a view of self's own memory (that PyTorch lets through), in PyTorch's order:
    see ``overlapping_writes.scattered``."""
    if _FuncTransforms.vmaps:
        overload = ("src" if isinstance(src, Tensor) else "value") if reduce is None else (
            "reduce" if isinstance(src, Tensor) else "value_reduce")
        warn_no_batching_rule("scatter_." + overload, (self, index, src), "scatter_." + overload)
        check_inplace_batching("scatter_", self, (index, src, value))
    scatter = lambda t, s: gather_scatter.scatter_into_copy(t, dim, index, s, value, reduce, "scatter_")  # noqa: E731
    arguments_before_overlap(self, lambda t, s: gather_scatter.scatter_argument_checks(t, dim, index, s),
                             src if src is not None else value)
    refuse_reading_own_memory(self, src, lambda: gather_scatter.scatter_argument_checks(self, dim, index, src))
    if (reduce is None and _reads_own_memory(self, src)) or overlaps_itself(self._array):
        return _scatter_in_own_memory(self, scatter, dim, index, src if src is not None else value,
                                      SCATTER_REDUCTIONS[reduce] if reduce in ("add", "multiply") else None)
    # src goes in as an input: a view made under no_grad may not take one that requires grad
    return apply_inplace(self, scatter, src)


def _scatter_in_own_memory(self, scatter, dim, index, src, combine):
    """``scatter`` (scatter_, scatter_add_) done in self's own memory in PyTorch's order, when
    src reads that memory or self sees a location at several positions (windows that overlap):
    see ``overlapping_writes.scattered``. ``src``: a tensor or a number."""
    check_inplace(self, others=(src,))                   # autograd's rules first
    scatter(_wrap(self._array), src.detach() if isinstance(src, Tensor) else src)   # then PyTorch's errors
    source = src._array if isinstance(src, Tensor) else np.broadcast_to(
        np.asarray(src, dtype=self._array.dtype), index.shape)
    values = scattered(self._array, shape._normalize_dim(dim, max(self.ndim, 1)), index._array, source, combine)
    return apply_inplace(self, _with_values(scatter, values), src)


def scatter_add_(self, dim, index, src):
    """In-place scatter_add: src[i][j] is added to self[index[i][j]][j] (dim=0)."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("scatter_add_", self, (index, src))
    scatter = lambda t, s: gather_scatter.scatter_add(t, dim, index, s)     # noqa: E731
    arguments = lambda t, s: gather_scatter.scatter_argument_checks(t, dim, index, s, "scatter_add")  # noqa: E731
    arguments_before_overlap(self, arguments, src)
    refuse_reading_own_memory(self, src, lambda: arguments(self, src))
    if _reads_own_memory(self, src) or overlaps_itself(self._array):
        return _scatter_in_own_memory(self, scatter, dim, index, src, np.add)
    return apply_inplace(self, scatter, src)


def index_add_(self, dim, index, source, *, alpha=1):
    """In-place index_add: alpha * source[k] is added to slice index[k] of self along dim.

    Where ``source`` is a view of self's memory that isn't dense (PyTorch lets it through:
    an expanded element of self, every other row), an element written earlier is read with
    its new value, so the order of the work shows: minigrad takes PyTorch's (see
    ``_index_add_in_loop_order``)."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("index_add_", self, (index, source))
    add = lambda t, s=source: gather_scatter.index_add(t, dim, index, s, alpha=alpha)  # noqa: E731
    arguments_before_overlap(self, add, source)
    refuse_reading_own_memory(self, source, lambda: gather_scatter.check_index_add_arguments(
        self, shape._normalize_dim(dim, max(self.ndim, 1)), index, source))
    if not _reads_own_memory(self, source) and not overlaps_itself(self._array):
        return apply_inplace(self, add, source)     # (source is an input)
    # (source reads self's memory, or self sees a location at several positions (windows
    # that overlap): an element written earlier is read with its new value)
    add(_wrap(self._array), source.detach())         # PyTorch's errors, before anything is written
    dim = shape._normalize_dim(dim, max(self.ndim, 1))
    positions = index._array.reshape(-1)
    if self.ndim > 1 and not _index_add_is_scatter_add(self._array, dim, positions, source._array, alpha):
        # slice after slice: PyTorch's loop over slices first compares slice 0 of self with
        # slice 0 of source, as any in-place addition compares its operands
        _check_partial_overlap(_wrap(self._array[(slice(None),) * dim + (0,)]),
                               _wrap(source._array[(slice(None),) * dim + (0,)]))
    values = _index_add_in_loop_order(self._array, dim, positions, source._array, alpha)
    return apply_inplace(self, _with_values(add, values), source)


def _index_add_is_scatter_add(target, dim, positions, source, alpha):
    """Does PyTorch do index_add_ of a matrix or more as a scatter_add_? Along the first or the
    last dim, with alpha 1, an int64 index and a source of self's sizes apart from dim."""
    return dim in (0, target.ndim - 1) and alpha == 1 and positions.dtype == np.int64 and all(
        n == m for d, (n, m) in enumerate(zip(target.shape, source.shape)) if d != dim)


def _index_add_in_loop_order(target, dim, positions, source, alpha):
    """The values index_add_ leaves when done in ``target``'s own memory in PyTorch's order,
    where ``source`` reads that memory too (``target`` is put back as it was: the caller
    records the change). PyTorch has three ways:

    * a vector (or a number): element after element, in the order of ``positions``;
    * along the first or the last dim of a matrix or more, with alpha 1, an int64 index and
      a source of self's sizes apart from dim: it is ``scatter_add_`` of source with the
      index repeated along the other dims (``overlapping_writes.scattered``);
    * otherwise slice after slice (slice positions[k] of target gets slice k of source),
      each slice element after element in memory order (``memory_order``), fastest last."""
    if target.ndim > 1 and _index_add_is_scatter_add(target, dim, positions, source, alpha):
        along_dim = [1] * target.ndim
        along_dim[dim] = positions.size
        index = np.broadcast_to(positions.reshape(along_dim), source.shape)
        return scattered(target, dim, index, source, np.add)
    before = target.copy()
    written = np.moveaxis(target, dim, 0) if target.ndim else target.reshape(1)
    read = np.moveaxis(source, dim, 0) if source.ndim else source.reshape(1)
    for k, position in enumerate(positions):
        into = written[position, ...]                         # (views, 0-d ones too)
        added = np.broadcast_to(read[k, ...], into.shape)     # (PyTorch broadcasts a slice)
        steps = [[step // array.itemsize for step in array.strides] for array in (into, into, added)]
        slowest_first = list(reversed(memory_order(steps, into.shape)))
        for place in np.ndindex(*[into.shape[d] for d in slowest_first]):
            at = [0] * into.ndim
            for d, i in zip(slowest_first, place):
                at[d] = i
            at = tuple(at)
            into[at] += added[at] * alpha if alpha != 1 else added[at]
    values = target.copy()
    target[...] = before
    return values


# PyTorch's words (it stops with " (Triggered internally at <its C++ file>:<line>.)", a place in
# its own sources that says nothing about the learner's program, so minigrad leaves that out)
EXPANDED_MASKED_FILL_WARNING = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar")


def masked_fill_(self, mask, value):
    """In-place masked_fill: ``value`` wherever the bool tensor ``mask`` is True.

    An expanded ``self`` (one memory location seen at several positions) is still written,
    with PyTorch's deprecation warning: a location becomes ``value`` if the mask is True at
    any of its positions (PyTorch writes element after element, so a False position after
    a True one keeps the value just written). So too for overlapping windows, without the
    warning."""
    if _FuncTransforms.vmaps:       # (PyTorch batches a mask and a value differently)
        if isinstance(value, Tensor):
            warn_no_batching_rule("masked_fill_.Tensor", (self, mask, value), "masked_fill_.Tensor")
        check_inplace_batching("masked_fill_", self, (mask,))
        check_inplace_batching("masked_fill_value", self, (value,))
    expanded = _overlaps(self._array)
    shared = expanded or overlaps_itself(self._array)       # (or windows that overlap: no warning)
    check_inplace(self, overlap_ok=expanded, others=(value,))       # autograd's rules first
    fill = lambda t, m=mask: shape.masked_fill_copy(t, m, value)     # noqa: E731 (raises PyTorch's errors)
    if not isinstance(mask, Tensor) or mask._array.dtype.kind != "b" or (
            isinstance(value, Tensor) and value.ndim != 0):
        return apply_inplace(self, fill, overlap_ok=expanded)     # (before the warning, as in PyTorch)
    if expanded:
        warnings.warn(EXPANDED_MASKED_FILL_WARNING, UserWarning, stacklevel=stacklevel_outside_minigrad())
    try:
        fits = np.broadcast_shapes(mask._array.shape, self._array.shape) == self._array.shape
    except ValueError:
        raise pointwise._broadcast_error(self, mask) from None      # (self is tensor a here)
    if not shared or not fits:
        return apply_inplace(self, fill, overlap_ok=expanded)
    number = value.item() if isinstance(value, Tensor) else value
    return reading_its_own_writes(self, mask, lambda old, masked: number if masked else old, fill,
                                  overlap_ok=expanded)


METHODS.update(scatter_=scatter_, scatter_add_=scatter_add_, index_add_=index_add_,
               masked_fill_=masked_fill_)


# --- shape changes in place: the tensor object gets a new shape, its memory stays ----------------

class UnsqueezeBackward1(shape.UnsqueezeBackward0):
    """result = self.unsqueeze_(dim)   ->   grad_self = grad.squeeze(dim)"""


class SqueezeBackward3(shape.SqueezeBackward0):
    """result = self.squeeze_()   ->   grad_self = grad unsqueezed at every squeezed dim"""


class SqueezeBackward4(shape.SqueezeBackward0):
    """result = self.squeeze_(dim)   ->   grad_self = grad.unsqueeze(dim) if it was squeezed"""


class SqueezeBackward5(shape.SqueezeBackward0):
    """result = self.squeeze_(dims)   ->   grad_self = grad unsqueezed at every squeezed dim"""


def _reshape_inplace(tensor, new_array, node_class, **attributes):
    """Let ``tensor`` show its memory as ``new_array``; record ``node_class`` if needed
    (PyTorch's rules for in-place changes were checked by the caller).

    The node is recorded directly with its in-place name (UnsqueezeBackward1,
    SqueezeBackward3/4); its backward is the out-of-place one it inherits.
    """
    if tensor._requires_grad and tensor._grad_fn is None and tensor._base is None:
        give_edges_their_node(tensor)       # a leaf's graphs keep the shape they had (graph.py)
    old = _with_tangent_of(tensor, _wrap(tensor._array))
    recording = needs_grad((tensor,))
    if recording:
        # the node must point where the tensor pointed before the change
        old._grad_fn = tensor._graph_grad_fn     # (a view's node is made again first, if out of date)
        old._output_nr = tensor._output_nr
        old._requires_grad = tensor._requires_grad
    # (an integer tensor that an in-place change gave history: PyTorch changes its layout and
    # counts a version, then refuses to record the change)
    refused = recording and new_array.dtype.kind not in "fc"
    new = _wrap(new_array) if refused else result(new_array, node_class, (old,), **attributes)
    tensor._array = new._array
    if not new_array.size:           # (its steps were computed from PyTorch's, 0s included)
        keep_zero_steps(tensor)
    bump_version(tensor)
    if refused:
        refuse_dtype(new_array.dtype)
    if new._grad_fn is not None:
        tensor._grad_fn, tensor._output_nr = new._grad_fn, 0
        if tensor._base is not None:     # other views are out of date; this one has its node
            node_is_current(tensor)
    if _DualLevel.open and _tangent_of(new) is not None:     # forward mode: the tangent is reshaped too
        _set_tangent(tensor, _tangent_of(new))
    return tensor


def unsqueeze_(self, dim):
    """Add a size-1 dimension at ``dim`` to this tensor itself (UnsqueezeBackward1)."""
    # PyTorch's rules for in-place changes come before the operation's own checks;
    # only the shape changes, not the memory, so memory seen twice is fine
    check_inplace(self, overlap_ok=True, layout_only=True)
    dim_as_given, dim = dim, shape._normalize_dim(dim, self.ndim + 1)     # (grad_fn._saved_dim shows it)
    unsqueezed = shape._unsqueezed(with_pytorch_steps(self), dim)
    return _reshape_inplace(self, unsqueezed, UnsqueezeBackward1, dim=dim, dim_as_given=dim_as_given)


def squeeze_(self, dim=None):
    """Remove size-1 dimensions of this tensor itself (SqueezeBackward3; 4 with a dim, 5 with a
    tuple of dims)."""
    check_inplace(self, overlap_ok=True, layout_only=True)         # first, as for unsqueeze_
    array = with_pytorch_steps(self)
    if dim is None:
        return _reshape_inplace(self, np.squeeze(array), SqueezeBackward3, input_shape=array.shape)
    if isinstance(dim, (tuple, list)):           # several dims at once (SqueezeBackward5)
        dims = [shape._normalize_dim(d, array.ndim) for d in dim]      # (0-d: each -1 or 0)
        for d in dims:
            if dims.count(d) > 1:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        squeezed = tuple(sorted(d for d in dims if array.ndim and array.shape[d] == 1))
        return _reshape_inplace(self, np.squeeze(array, axis=squeezed) if squeezed else array.view(),
                                SqueezeBackward5, input_shape=array.shape, squeezed_dims=squeezed,
                                dim_as_given=tuple(dim))
    dim_as_given, dim = dim, shape._normalize_dim(dim, array.ndim)     # (0-d: -1 or 0)
    squeezes = bool(array.ndim) and array.shape[dim] == 1
    squeezed = np.squeeze(array, axis=dim) if squeezes else array.view()
    return _reshape_inplace(self, squeezed, SqueezeBackward4, input_shape=array.shape,
                            squeezed_dims=(dim,) if squeezes else (), dim_as_given=dim_as_given)


METHODS["unsqueeze_"] = unsqueeze_
METHODS["squeeze_"] = squeeze_


class TBackward1(shape.TBackward0):
    """result = self.t_()   ->   grad_self = grad.t()"""


class TransposeBackward1(shape.TransposeBackward0):
    """result = self.transpose_(dim0, dim1)   ->   grad_self = grad.transpose(dim0, dim1)"""


def t_(self):
    """Transpose this matrix itself (TBackward1): only its strides change, not its memory."""
    check_inplace(self, overlap_ok=True, layout_only=True)
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return _reshape_inplace(self, with_pytorch_steps(self).T, TBackward1)


def transpose_(self, dim0, dim1):
    """Swap dims ``dim0`` and ``dim1`` of this tensor itself (TransposeBackward1)."""
    check_inplace(self, overlap_ok=True, layout_only=True)
    ndim = self.ndim
    dims_as_given = (dim0, dim1)          # (grad_fn._saved_dim0 / _saved_dim1 show them)
    dim0, dim1 = shape._normalize_dim(dim0, ndim), shape._normalize_dim(dim1, ndim)
    array = with_pytorch_steps(self)
    swapped = np.swapaxes(array, dim0, dim1) if ndim else array.view()
    return _reshape_inplace(self, swapped, TransposeBackward1, dim0=dim0, dim1=dim1,
                            dims_as_given=dims_as_given)


def _check_same_dtype(self, dtype):
    """x.cumsum_(dim, dtype=...) may not change x's dtype."""
    if dtype is not None and dtype != self.dtype:
        from .._dtype import cpp_type_name
        raise RuntimeError(f"Bad in-place call: input tensor dtype {cpp_type_name(self.dtype)} and output "
                           f"tensor dtype {cpp_type_name(dtype)} should match")


def cumsum_(self, dim, *, dtype=None):
    """In-place cumsum: the running sum along ``dim`` written back (CumsumBackward0)."""
    from .scan import cumsum          # lazy: scan imports shape, which this module imports
    _check_same_dtype(self, dtype)
    return _accumulate_in_place(self, lambda t: _castable_back(cumsum(t, dim, dtype=self.dtype), t),
                                dim, np.add, 0)


def cumprod_(self, dim, *, dtype=None):
    """In-place cumprod: the running product along ``dim`` written back (CumprodBackward0)."""
    from .scan import cumprod
    refuse_integer_history(self)        # (autograd's copy of x's old values comes first)
    _check_same_dtype(self, dtype)
    return _accumulate_in_place(self, lambda t: _castable_back(cumprod(t, dim, dtype=self.dtype), t),
                                dim, np.multiply, 1)


def _accumulate_in_place(self, operation, dim, combine, start):
    """cumsum_/cumprod_: where self sees a memory location at several positions (overlapping
    windows), PyTorch's kernel reads and writes that memory row by row, so a running total
    reads what an earlier row wrote (``overlapping_writes.accumulated``)."""
    arguments_before_overlap(self, operation)
    if self.ndim == 0 or not overlaps_itself(self._array):
        return apply_inplace(self, operation)
    check_inplace(self)                         # autograd's rules first
    operation(_wrap(self._array))               # then PyTorch's errors
    values = accumulated(self._array, shape._normalize_dim(dim, self.ndim), combine, start)
    return apply_inplace(self, _with_values(operation, values))


METHODS.update(t_=t_, transpose_=transpose_, swapdims_=transpose_, swapaxes_=transpose_,
               cumsum_=cumsum_, cumprod_=cumprod_)
