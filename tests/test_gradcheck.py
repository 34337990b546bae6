"""Every differentiable operation's derivative, checked against finite differences.

Three independent checks, over random shapes (with broadcasting) drawn by hypothesis:

* ``gradcheck``: the whole Jacobian from autograd equals the one from central
  differences (float64, so rounding stays far below the tolerance);
* the VJP dot-product test: for random u and v, <vjp(u), v> = <u, J v>, with
  J v taken from finite differences *and* from ``autograd.functional.jvp``;
* ``gradgradcheck`` on a representative subset: the backward formulas are
  themselves differentiable (create_graph=True), so second derivatives are right.

A case is a function of hypothesis' ``data`` that returns ``(func, arrays)``:
``func`` takes one tensor per array (all of them require grad); anything that
must not be differentiated (targets, indices, masks) is fixed inside ``func``.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
import minigrad.nn.functional as F
from minigrad.autograd import functional as AF
from minigrad.autograd import gradcheck, gradgradcheck

FEW = settings(max_examples=3, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --------------------------------------------------------------------------------------
# Drawing shapes and values
# --------------------------------------------------------------------------------------


def shape(data, min_dims=0, max_dims=3, min_side=1, max_side=3):
    return data.draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims,
                                      min_side=min_side, max_side=max_side))


def broadcast_shapes(data, count=2, min_dims=0, max_dims=3):
    drawn = data.draw(hnp.mutually_broadcastable_shapes(
        num_shapes=count, min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=3))
    return drawn.input_shapes


def values(data, shape_, domain="any"):
    """float64 numbers of ``shape_`` in a domain where the function is smooth.

    any: [-1, 1]; positive: [0.5, 2]; away: |x| in [0.1, 1.1] (away from the
    kinks of abs/relu and the pole of 1/x); unit: [0.05, 0.95] (probabilities).
    """
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    if domain == "any":
        return rng.uniform(-1, 1, shape_)
    if domain == "positive":
        return rng.uniform(0.5, 2, shape_)
    if domain == "away":
        return rng.choice([-1.0, 1.0], shape_) * rng.uniform(0.1, 1.1, shape_)
    if domain == "unit":
        return rng.uniform(0.05, 0.95, shape_)
    raise ValueError(domain)


def index_array(data, size, shape_):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    return rng.integers(0, size, shape_)


CASES = {}


def case(name):
    def register(make):
        CASES[name] = make
        return make
    return register


# --------------------------------------------------------------------------------------
# Pointwise
# --------------------------------------------------------------------------------------

UNARY = {
    "neg": (lambda x: -x, "any"),
    "pos_neg_method": (lambda x: x.neg(), "any"),
    "exp": (minigrad.exp, "any"),
    "log": (minigrad.log, "positive"),
    "log1p": (minigrad.log1p, "positive"),
    "sqrt": (minigrad.sqrt, "positive"),
    "rsqrt": (minigrad.rsqrt, "positive"),
    "sin": (minigrad.sin, "any"),
    "cos": (minigrad.cos, "any"),
    "tan": (minigrad.tan, "any"),
    "tanh": (minigrad.tanh, "any"),
    "sigmoid": (minigrad.sigmoid, "any"),
    "relu": (minigrad.relu, "away"),
    "abs": (minigrad.abs, "away"),
    "square": (minigrad.square, "any"),
    "reciprocal": (minigrad.reciprocal, "away"),
    "pow_2": (lambda x: x ** 2, "any"),
    "pow_3": (lambda x: x.pow(3), "any"),
    "pow_0": (lambda x: x ** 0, "any"),
    "pow_half": (lambda x: x ** 0.5, "positive"),
    "pow_negative": (lambda x: x ** -1.5, "positive"),
    "rpow": (lambda x: 2.5 ** x, "any"),
    "rsub": (lambda x: 1 - x, "any"),
    "radd": (lambda x: 3 + x, "any"),
    "rmul": (lambda x: 3 * x, "any"),
    "rdiv": (lambda x: 2 / x, "away"),
    "div_number": (lambda x: x / 4, "any"),
    "add_alpha_number": (lambda x: x.add(2, alpha=3), "any"),
    "clamp_both": (lambda x: x.clamp(-0.5, 0.5), "any"),
    "clamp_min": (lambda x: minigrad.clamp(x, min=0.2), "any"),
    "clamp_max": (lambda x: minigrad.clamp(x, max=-0.2), "any"),
    "softplus": (F.softplus, "any"),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.1), "away"),
    "clone": (lambda x: x.clone(), "any"),
}


def _unary_case(func, domain):
    def make(data):
        return func, [values(data, shape(data), domain)]
    return make


for _name, (_func, _domain) in UNARY.items():
    CASES[_name] = _unary_case(_func, _domain)


BINARY = {
    "add": (lambda a, b: a + b, "any", "any"),
    "add_alpha": (lambda a, b: minigrad.add(a, b, alpha=-2.5), "any", "any"),
    "sub": (lambda a, b: a - b, "any", "any"),
    "sub_alpha": (lambda a, b: a.sub(b, alpha=3), "any", "any"),
    "mul": (lambda a, b: a * b, "any", "any"),
    "div": (lambda a, b: a / b, "any", "away"),
    "pow_tensor": (lambda a, b: a ** b, "positive", "any"),
    "maximum": (minigrad.maximum, "any", "any"),
    "minimum": (minigrad.minimum, "any", "any"),
    "max_binary": (lambda a, b: minigrad.max(a, b), "any", "any"),
}


def _binary_case(func, domain_a, domain_b):
    def make(data):
        shape_a, shape_b = broadcast_shapes(data)
        return func, [values(data, shape_a, domain_a), values(data, shape_b, domain_b)]
    return make


for _name, (_func, _a, _b) in BINARY.items():
    CASES[_name] = _binary_case(_func, _a, _b)


@case("where")
def _(data):
    shape_c, shape_a, shape_b = broadcast_shapes(data, 3)
    condition = minigrad.tensor(values(data, shape_c) > 0)
    return (lambda a, b: minigrad.where(condition, a, b),
            [values(data, shape_a), values(data, shape_b)])


@case("masked_fill")
def _(data):
    shape_ = shape(data)
    mask = minigrad.tensor(values(data, shape_) > 0)
    return lambda x: x.masked_fill(mask, 0.5), [values(data, shape_)]


@case("masked_fill_tensor_value")
def _(data):
    shape_ = shape(data)
    mask = minigrad.tensor(values(data, shape_) > 0)
    return lambda x, v: x.masked_fill(mask, v), [values(data, shape_), values(data, ())]


@case("same_tensor_twice")
def _(data):
    return lambda x: x * x + x / (x * x + 1), [values(data, shape(data))]


# --------------------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------------------

def _dim_and_keepdim(data, ndim):
    dim = data.draw(st.integers(-ndim, ndim - 1))
    return dim, data.draw(st.booleans())


@case("sum_all")
def _(data):
    return lambda x: x.sum(), [values(data, shape(data))]


@case("sum_dim")
def _(data):
    s = shape(data, min_dims=1)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.sum(dim, keepdim=keepdim), [values(data, s)]


@case("sum_dims_tuple")
def _(data):
    s = shape(data, min_dims=2)
    return lambda x: minigrad.sum(x, dim=(0, -1)), [values(data, s)]


@case("mean_all")
def _(data):
    return lambda x: x.mean(), [values(data, shape(data))]


@case("mean_dim")
def _(data):
    s = shape(data, min_dims=1)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.mean(dim=dim, keepdim=keepdim), [values(data, s)]


@case("max_all")
def _(data):
    return lambda x: x.max(), [values(data, shape(data))]


@case("min_all")
def _(data):
    return lambda x: minigrad.min(x), [values(data, shape(data))]


@case("max_dim_values")
def _(data):
    s = shape(data, min_dims=1)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.max(dim, keepdim).values, [values(data, s)]


@case("min_dim_values")
def _(data):
    s = shape(data, min_dims=1)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.min(dim=dim, keepdim=keepdim)[0], [values(data, s)]


@case("amax")
def _(data):
    s = shape(data, min_dims=1)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.amax(dim, keepdim), [values(data, s)]


@case("amin_all")
def _(data):
    return lambda x: minigrad.amin(x), [values(data, shape(data))]


@case("norm_2")
def _(data):
    return lambda x: x.norm(), [values(data, shape(data), "away")]


@case("norm_dim")
def _(data):
    s = shape(data, min_dims=1)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.norm(dim=dim, keepdim=keepdim), [values(data, s, "away")]


@case("norm_1")
def _(data):
    return lambda x: x.norm(p=1), [values(data, shape(data), "away")]


@case("norm_3_dim")
def _(data):
    s = shape(data, min_dims=1)
    return lambda x: x.norm(p=3, dim=-1), [values(data, s, "away")]


@case("var_all")
def _(data):
    return lambda x: x.var(), [values(data, shape(data, min_dims=1, min_side=2))]


@case("var_dim_biased")
def _(data):
    s = shape(data, min_dims=1, min_side=2)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.var(dim, unbiased=False, keepdim=keepdim), [values(data, s)]


@case("std_all")
def _(data):
    return lambda x: x.std(), [values(data, shape(data, min_dims=1, min_side=2))]


@case("std_dim")
def _(data):
    s = shape(data, min_dims=1, min_side=2)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.std(dim=dim, keepdim=keepdim), [values(data, s)]


@case("logsumexp")
def _(data):
    s = shape(data, min_dims=1)
    dim, keepdim = _dim_and_keepdim(data, len(s))
    return lambda x: x.logsumexp(dim, keepdim), [values(data, s)]


# --------------------------------------------------------------------------------------
# Shapes: views, joins, splits
# --------------------------------------------------------------------------------------

@case("reshape")
def _(data):
    s = shape(data)
    return lambda x: x.reshape(-1), [values(data, s)]


@case("view")
def _(data):
    s = shape(data, min_dims=2)
    return lambda x: x.view(s[0], -1) * 1, [values(data, s)]


@case("flatten")
def _(data):
    s = shape(data, min_dims=2)
    return lambda x: x.flatten(1), [values(data, s)]


@case("t")
def _(data):
    return lambda x: x.t(), [values(data, shape(data, max_dims=2))]


@case("T")
def _(data):
    return lambda x: x.T, [values(data, shape(data, min_dims=2, max_dims=2))]


@case("transpose")
def _(data):
    s = shape(data, min_dims=2)
    return lambda x: x.transpose(0, -1), [values(data, s)]


@case("permute")
def _(data):
    s = shape(data, min_dims=3, max_dims=3)
    return lambda x: x.permute(2, 0, 1), [values(data, s)]


@case("squeeze_all")
def _(data):
    s = shape(data, max_side=2)
    return lambda x: x.squeeze(), [values(data, s)]


@case("squeeze_dim")
def _(data):
    s = (1,) + shape(data, max_dims=2)
    return lambda x: x.squeeze(0), [values(data, s)]


@case("unsqueeze")
def _(data):
    s = shape(data)
    dim = data.draw(st.integers(-len(s) - 1, len(s)))
    return lambda x: x.unsqueeze(dim), [values(data, s)]


@case("expand")
def _(data):
    s = shape(data, max_side=1) + (1,)
    target = (2,) + tuple(3 for _ in s)
    return lambda x: x.expand(*target), [values(data, s)]


@case("expand_as_minus_one")
def _(data):
    return lambda x: x.expand(3, -1), [values(data, (1, 2))]


@case("repeat")
def _(data):
    s = shape(data, max_dims=2, max_side=2)
    repeats = (2,) + tuple(data.draw(st.integers(1, 2)) for _ in s)
    return lambda x: x.repeat(*repeats), [values(data, s)]


@case("flip")
def _(data):
    s = shape(data, min_dims=1)
    return lambda x: x.flip(0), [values(data, s)]


@case("cat")
def _(data):
    s = shape(data, min_dims=1)
    dim = data.draw(st.integers(0, len(s) - 1))
    other = list(s)
    other[dim] = data.draw(st.integers(1, 3))
    return (lambda a, b: minigrad.cat([a, b], dim=dim),
            [values(data, s), values(data, tuple(other))])


@case("cat_same_tensor")
def _(data):
    s = shape(data, min_dims=1)
    return lambda a: minigrad.cat((a, a * 2), -1), [values(data, s)]


@case("stack")
def _(data):
    s = shape(data)
    dim = data.draw(st.integers(-len(s) - 1, len(s)))
    return (lambda a, b, c: minigrad.stack([a, b, c], dim),
            [values(data, s), values(data, s), values(data, s)])


@case("unbind")
def _(data):
    s = shape(data, min_dims=1)
    return lambda x: x.unbind(-1), [values(data, s)]


@case("split")
def _(data):
    s = (4,) + shape(data, max_dims=1)
    return lambda x: x.split(3), [values(data, s)]


@case("split_sections")
def _(data):
    s = shape(data, max_dims=1) + (5,)
    return lambda x: minigrad.split(x, [1, 4], dim=-1), [values(data, s)]


@case("chunk")
def _(data):
    s = (5,) + shape(data, max_dims=1)
    return lambda x: x.chunk(2), [values(data, s)]


@case("select")
def _(data):
    s = shape(data, min_dims=1)
    dim = data.draw(st.integers(0, len(s) - 1))
    return lambda x: x.select(dim, -1), [values(data, s)]


# --------------------------------------------------------------------------------------
# Indexing and writing into tensors
# --------------------------------------------------------------------------------------

@case("getitem_int")
def _(data):
    return lambda x: x[0], [values(data, shape(data, min_dims=1))]


@case("getitem_slices")
def _(data):
    s = shape(data, min_dims=2)
    return lambda x: x[1:, ::2], [values(data, s)]


@case("getitem_ellipsis_none")
def _(data):
    s = shape(data, min_dims=1)
    return lambda x: x[None, ..., -1], [values(data, s)]


@case("getitem_int_list_repeated")
def _(data):
    s = shape(data, min_dims=1)
    index = list(index_array(data, s[0], (4,)))
    return lambda x: x[index], [values(data, s)]


@case("getitem_int_tensor_2d")
def _(data):
    s = shape(data, min_dims=2)
    rows = minigrad.tensor(index_array(data, s[0], (2, 2)))
    return lambda x: x[rows, 0], [values(data, s)]


@case("getitem_mask")
def _(data):
    s = shape(data, min_dims=1)
    mask = minigrad.tensor(values(data, s) > 0)
    return lambda x: x[mask], [values(data, s)]


@case("setitem_copy_slices")
def _(data):
    s = shape(data, min_dims=2)

    def func(x, v):
        y = x * 1
        y[0] = v
        return y
    return func, [values(data, s), values(data, s[1:])]


@case("setitem_slice_broadcast_number")
def _(data):
    s = shape(data, min_dims=1)

    def func(x):
        y = x.clone()
        y[:1] = 2.0
        return y * x
    return func, [values(data, s)]


@case("setitem_mask")
def _(data):
    s = shape(data, min_dims=1)
    mask = minigrad.tensor(values(data, s) > 0)

    def func(x, v):
        y = x.sin()            # not exp: exp saves its result, which y[mask] = v would change
        y[mask] = v
        return y
    return func, [values(data, s), values(data, (1,))]


@case("copy_")
def _(data):
    s_target, s_source = shape(data, min_dims=1), None
    s_source = s_target[-1:]

    def func(x, source):
        y = x * 2
        y.copy_(source)
        return y
    return func, [values(data, s_target), values(data, s_source)]


@case("inplace_arithmetic")
def _(data):
    shape_a, shape_b = broadcast_shapes(data)
    shape_a = np.broadcast_shapes(shape_a, shape_b)   # in place: the result keeps a's shape

    def func(a, b):
        y = a * 1
        y.add_(b)
        y.mul_(b)
        y -= a
        y /= 2
        y.sub_(b, alpha=0.5)
        y.pow_(2)
        return y
    return func, [values(data, shape_a), values(data, shape_b)]


@case("inplace_clamp_and_div")
def _(data):
    shape_a, shape_b = broadcast_shapes(data)
    shape_a = np.broadcast_shapes(shape_a, shape_b)

    def func(a, b):
        y = a + 0
        y.div_(b)
        y.clamp_(-0.8, 0.8)
        y *= 3
        return y
    return func, [values(data, shape_a), values(data, shape_b, "away")]


# --------------------------------------------------------------------------------------
# Matrix products
# --------------------------------------------------------------------------------------

def _sides(data, count):
    return [data.draw(st.integers(1, 3)) for _ in range(count)]


@case("mm")
def _(data):
    n, k, m = _sides(data, 3)
    return minigrad.mm, [values(data, (n, k)), values(data, (k, m))]


@case("mv")
def _(data):
    n, k = _sides(data, 2)
    return minigrad.mv, [values(data, (n, k)), values(data, (k,))]


@case("dot")
def _(data):
    (k,) = _sides(data, 1)
    return minigrad.dot, [values(data, (k,)), values(data, (k,))]


@case("outer")
def _(data):
    n, m = _sides(data, 2)
    return minigrad.outer, [values(data, (n,)), values(data, (m,))]


@case("addmm")
def _(data):
    n, k, m = _sides(data, 3)
    bias_shape = data.draw(st.sampled_from([(m,), (n, m), (1, m), ()]))
    return minigrad.addmm, [values(data, bias_shape), values(data, (n, k)), values(data, (k, m))]


@case("matmul")
def _(data):
    """Every combination of dimensions matmul handles, batch dims broadcast."""
    k = data.draw(st.integers(1, 3))
    batch_a, batch_b = broadcast_shapes(data, 2, max_dims=2)
    kind_a = data.draw(st.sampled_from(["vector", "matrix", "batch"]))
    kind_b = data.draw(st.sampled_from(["vector", "matrix", "batch"]))
    n, m = _sides(data, 2)
    shape_a = {"vector": (k,), "matrix": (n, k), "batch": tuple(batch_a) + (n, k)}[kind_a]
    shape_b = {"vector": (k,), "matrix": (k, m), "batch": tuple(batch_b) + (k, m)}[kind_b]
    return lambda a, b: a @ b, [values(data, shape_a), values(data, shape_b)]


@case("linear")
def _(data):
    n, k, m = _sides(data, 3)
    batch = shape(data, min_dims=0, max_dims=2)
    use_batch = data.draw(st.booleans())
    input_shape = (tuple(batch) if use_batch else (n,)) + (k,)
    return F.linear, [values(data, input_shape), values(data, (m, k)), values(data, (m,))]


# --------------------------------------------------------------------------------------
# Losses and activations (nn.functional)
# --------------------------------------------------------------------------------------

REDUCTIONS = st.sampled_from(["mean", "sum", "none"])


@case("mse_loss")
def _(data):
    s = shape(data)
    reduction = data.draw(REDUCTIONS)
    return (lambda x, t: F.mse_loss(x, t, reduction=reduction),
            [values(data, s), values(data, s)])


@case("binary_cross_entropy")
def _(data):
    s = shape(data)
    target = minigrad.tensor(values(data, s, "unit"))
    reduction = data.draw(REDUCTIONS)
    return (lambda p: F.binary_cross_entropy(p, target, reduction=reduction),
            [values(data, s, "unit")])


@case("binary_cross_entropy_weight")
def _(data):
    s = shape(data, min_dims=1)
    target = minigrad.tensor(values(data, s, "unit"))
    weight = minigrad.tensor(values(data, s[-1:], "positive"))
    return (lambda p: F.binary_cross_entropy(p, target, weight=weight),
            [values(data, s, "unit")])


@case("bce_with_logits")
def _(data):
    s = shape(data)
    target = minigrad.tensor(values(data, s, "unit"))
    reduction = data.draw(REDUCTIONS)
    return (lambda x: F.binary_cross_entropy_with_logits(x, target, reduction=reduction),
            [values(data, s) * 4])


@case("bce_with_logits_weights")
def _(data):
    s = shape(data, min_dims=1)
    target = minigrad.tensor((values(data, s) > 0).astype(np.float64))
    weight = minigrad.tensor(values(data, s, "positive"))
    pos_weight = minigrad.tensor(values(data, s[-1:], "positive"))
    reduction = data.draw(REDUCTIONS)
    return (lambda x: F.binary_cross_entropy_with_logits(
        x, target, weight=weight, pos_weight=pos_weight, reduction=reduction),
        [values(data, s) * 4])


@case("bce_gradient_for_target_too")
def _(data):
    s = shape(data)
    weight = minigrad.tensor(values(data, s, "positive"))
    return (lambda p, t: F.binary_cross_entropy(p, t, weight=weight),
            [values(data, s, "unit"), values(data, s, "unit")])


@case("bce_with_logits_gradient_for_target_too")
def _(data):
    s = shape(data, min_dims=1)
    pos_weight = minigrad.tensor(values(data, s[-1:], "positive"))
    reduction = data.draw(REDUCTIONS)
    return (lambda x, t: F.binary_cross_entropy_with_logits(x, t, pos_weight=pos_weight,
                                                           reduction=reduction),
            [values(data, s) * 4, values(data, s, "unit")])


@case("softmax")
def _(data):
    s = shape(data, min_dims=1)
    dim = data.draw(st.integers(-len(s), len(s) - 1))
    return lambda x: F.softmax(x, dim=dim), [values(data, s) * 3]


@case("log_softmax")
def _(data):
    s = shape(data, min_dims=1)
    dim = data.draw(st.integers(-len(s), len(s) - 1))
    return lambda x: x.log_softmax(dim), [values(data, s) * 3]


def _classes(data, min_dims=1):
    batch = data.draw(st.integers(1, 3))
    classes = data.draw(st.integers(2, 4))
    return batch, classes


@case("nll_loss")
def _(data):
    batch, classes = _classes(data)
    target = minigrad.tensor(index_array(data, classes, (batch,)))
    reduction = data.draw(REDUCTIONS)
    return (lambda logp: F.nll_loss(logp, target, reduction=reduction),
            [values(data, (batch, classes))])


@case("nll_loss_weight_ignore_index")
def _(data):
    batch, classes = _classes(data)
    labels = index_array(data, classes, (batch + 1,))
    labels[0] = 1                                   # at least one label is kept
    labels[-1] = -100                               # and one is ignored
    target = minigrad.tensor(labels)
    weight = minigrad.tensor(values(data, (classes,), "positive"))
    reduction = data.draw(REDUCTIONS)
    return (lambda logp: F.nll_loss(logp, target, weight=weight, reduction=reduction),
            [values(data, (batch + 1, classes))])


@case("nll_loss_per_position")
def _(data):
    batch, classes = _classes(data)
    positions = shape(data, min_dims=1, max_dims=2, max_side=2)
    target = minigrad.tensor(index_array(data, classes, (batch,) + positions))
    reduction = data.draw(REDUCTIONS)
    return (lambda logp: F.nll_loss(logp, target, reduction=reduction),
            [values(data, (batch, classes) + positions)])


@case("cross_entropy_indices")
def _(data):
    batch, classes = _classes(data)
    target = minigrad.tensor(index_array(data, classes, (batch,)))
    reduction = data.draw(REDUCTIONS)
    return (lambda x: F.cross_entropy(x, target, reduction=reduction),
            [values(data, (batch, classes)) * 3])


@case("cross_entropy_single_example")
def _(data):
    _, classes = _classes(data)
    target = minigrad.tensor(int(index_array(data, classes, ())))
    return lambda x: F.cross_entropy(x, target), [values(data, (classes,))]


@case("cross_entropy_probabilities")
def _(data):
    batch, classes = _classes(data)
    probabilities = np.random.default_rng(1).dirichlet(np.ones(classes), size=batch)
    target = minigrad.tensor(probabilities)
    reduction = data.draw(REDUCTIONS)
    return (lambda x: F.cross_entropy(x, target, reduction=reduction),
            [values(data, (batch, classes)) * 3])


@case("cross_entropy_class_weights")
def _(data):
    batch, classes = _classes(data)
    target = minigrad.tensor(index_array(data, classes, (batch,)))
    weight = minigrad.tensor(values(data, (classes,), "positive"))
    return (lambda x: F.cross_entropy(x, target, weight=weight),
            [values(data, (batch, classes))])


@case("one_layer_net")
def _(data):
    """The computation of PyTorch's autograd tutorial: matmul, add, BCE with logits."""
    target = minigrad.zeros(3, dtype=minigrad.float64)
    x = minigrad.ones(5, dtype=minigrad.float64)
    return (lambda w, b: F.binary_cross_entropy_with_logits(minigrad.matmul(x, w) + b, target),
            [values(data, (5, 3)), values(data, (3,))])


# --------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------

def _leaves(arrays):
    return [minigrad.tensor(np.asarray(a, dtype=np.float64), requires_grad=True) for a in arrays]


def _outputs(result):
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


@pytest.mark.parametrize("name", sorted(CASES))
@FEW
@given(data=st.data())
def test_gradcheck(name, data):
    func, arrays = CASES[name](data)
    assert gradcheck(func, _leaves(arrays), eps=1e-6, atol=1e-6, rtol=1e-4)


@pytest.mark.parametrize("name", sorted(CASES))
@FEW
@given(data=st.data())
def test_vjp_dot_product(name, data):
    """<u, J v> three ways: vjp(u) . v, u . (finite-difference J v), u . jvp(v)."""
    func, arrays = CASES[name](data)
    inputs = _leaves(arrays)
    outputs = _outputs(func(*inputs))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    us = [rng.standard_normal(o.shape) for o in outputs]
    vs = [rng.standard_normal(a.shape) for a in arrays]

    grads = minigrad.autograd.grad(outputs, inputs, [minigrad.tensor(u) for u in us],
                                   allow_unused=True)
    u_J_v = sum(float(np.sum(g.numpy() * v)) for g, v in zip(grads, vs) if g is not None)

    eps = 1e-6
    with minigrad.no_grad():
        plus = _outputs(func(*[minigrad.tensor(a + eps * v) for a, v in zip(arrays, vs)]))
        minus = _outputs(func(*[minigrad.tensor(a - eps * v) for a, v in zip(arrays, vs)]))
    finite = sum(float(np.sum(u * (p.numpy() - m.numpy()) / (2 * eps)))
                 for u, p, m in zip(us, plus, minus))
    assert u_J_v == pytest.approx(finite, rel=1e-5, abs=1e-6)

    _, jv = AF.jvp(lambda *xs: func(*xs), tuple(minigrad.tensor(a) for a in arrays),
                   tuple(minigrad.tensor(v) for v in vs))
    forward = sum(float(np.sum(u * j.numpy())) for u, j in zip(us, _outputs(jv)))
    assert u_J_v == pytest.approx(forward, rel=1e-9, abs=1e-9)


SECOND_ORDER = [
    "mul", "div", "pow_3", "pow_tensor", "exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt",
    "rpow", "sum_dim", "mean_all", "norm_2", "var_dim_biased", "std_all", "logsumexp",
    "matmul", "mm", "mv", "dot", "linear", "softmax", "log_softmax", "mse_loss",
    "bce_with_logits", "bce_with_logits_weights", "binary_cross_entropy", "cross_entropy_indices",
    "cross_entropy_probabilities", "getitem_slices", "getitem_mask", "cat", "stack",
    "setitem_copy_slices", "where", "reciprocal", "max_dim_values", "transpose", "expand",
    "norm_dim", "norm_3_dim", "std_dim", "var_all", "nll_loss", "cross_entropy_single_example",
    "amax", "inplace_arithmetic", "softplus", "nll_loss_per_position",
]


@pytest.mark.parametrize("name", SECOND_ORDER)
@settings(FEW, max_examples=2)
@given(data=st.data())
def test_gradgradcheck(name, data):
    func, arrays = CASES[name](data)
    assert gradgradcheck(func, _leaves(arrays), eps=1e-6, atol=1e-5, rtol=1e-3)


def test_every_case_is_second_order_listed_only_once():
    assert len(set(SECOND_ORDER)) == len(SECOND_ORDER)
    assert set(SECOND_ORDER) <= set(CASES)


def test_second_derivative_of_cube_is_6x():
    x = minigrad.tensor([-2.0, 0.5, 3.0], dtype=minigrad.float64, requires_grad=True)
    (first,) = minigrad.autograd.grad((x ** 3).sum(), x, create_graph=True)
    np.testing.assert_allclose(first.detach().numpy(), 3 * x.detach().numpy() ** 2)
    assert first.requires_grad and first.grad_fn is not None
    (second,) = minigrad.autograd.grad(first.sum(), x)
    np.testing.assert_allclose(second.numpy(), 6 * x.detach().numpy())


def test_third_derivative_through_backward_with_create_graph():
    x = minigrad.tensor(2.0, dtype=minigrad.float64, requires_grad=True)
    y = x.sin() * x ** 4
    (d1,) = minigrad.autograd.grad(y, x, create_graph=True)
    (d2,) = minigrad.autograd.grad(d1, x, create_graph=True)
    (d3,) = minigrad.autograd.grad(d2, x)
    a = 2.0
    expected = (-np.cos(a) * a ** 4 - 12 * np.sin(a) * a ** 3 + 36 * np.cos(a) * a ** 2
                + 24 * np.sin(a) * a)
    assert d3.item() == pytest.approx(expected, rel=1e-12)


def test_gradcheck_catches_a_wrong_derivative():
    class WrongSquare(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x           # should be 2 x

    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    with pytest.raises(minigrad.autograd.GradcheckError, match="Jacobian mismatch"):
        gradcheck(WrongSquare.apply, (x,))
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False


def test_gradcheck_warns_for_float32_inputs():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="double precision"):
        gradcheck(lambda t: t * 2, (x,), eps=1e-3, atol=0.1, rtol=0.1)


def test_gradcheck_needs_an_input_that_requires_grad():
    with pytest.raises(ValueError, match="requires_grad=True"):
        gradcheck(lambda t: t * 2, (minigrad.tensor([1.0], dtype=minigrad.float64),))
