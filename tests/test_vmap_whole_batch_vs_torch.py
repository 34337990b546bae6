"""Under vmap, on the whole batch at once: transforms, convolutions and torch.linalg.

vjp, jvp, jacfwd and hessian called inside vmap, the convolutions and the torch.linalg
functions run once for the whole batch, as in PyTorch (one graph, no StackBackward0 of one
graph per sample). Each program runs in minigrad and in PyTorch: the outputs' shapes, the
graph recorded (node names and next_functions, where minigrad records PyTorch's), the values
and the gradients must agree; float64 programs are also checked with gradcheck.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch
from test_vmap_batched_vs_torch import graph


def _x(L, *shape, seed=0):
    values = np.random.default_rng(seed).standard_normal(shape)
    return L.tensor(values, requires_grad=True)


def _F(L):
    return L.nn.functional


def _nodes(tensor):
    """The names of every node below ``tensor``."""
    names, stack, seen = [], [tensor.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(type(node).__name__)
        stack.extend(child for child, _ in node.next_functions)
    return names


class _Program:
    """A program: its leaves (float64, random, of ``shapes``) and what it computes from them
    under vmap (``body(L, *leaves)``, or a ``vmap`` of ``body`` with ``vmap_options``).
    Calling it with a library returns (outputs, leaves)."""

    def __init__(self, body, shapes, make=None, **vmap_options):
        self.body, self.shapes, self.options = body, shapes, vmap_options
        self.make = make or _x

    def on(self, L, *leaves):
        """The outputs computed from ``leaves``."""
        if self.options.get("whole"):
            return self.body(L, *leaves)
        return L.func.vmap(lambda *a: self.body(L, *a), **self.options)(*leaves)

    def __call__(self, L):
        leaves = [self.make(L, *shape, seed=i) for i, shape in enumerate(self.shapes)]
        return self.on(L, *leaves), leaves


def _program(body, *shapes, **vmap_options):
    return _Program(body, shapes, **vmap_options)


def _with_weights(body, input_shape, weight_shapes, in_dims):
    """A program of an input and weights (batched or not, as ``in_dims`` says)."""
    return _Program(body, (input_shape,) + weight_shapes, in_dims=in_dims)


def _whole(body, *shapes, make=None):
    """A program that calls vmap itself: ``body(L, *leaves)``."""
    return _Program(body, shapes, make=make, whole=True)


def _conv(name, **options):
    return lambda L, *a: getattr(_F(L), name)(*a, **options)


def _ensemble(L):
    """Three models of two conv layers run as one, with their weights stacked."""
    L.manual_seed(0)
    models = [L.nn.Sequential(L.nn.Conv2d(2, 3, 3, padding=1), L.nn.ReLU(),
                              L.nn.Conv2d(3, 2, 2)).double() for _ in range(3)]
    params, buffers = L.func.stack_module_state(models)
    x = L.tensor(np.linspace(-1.0, 1.0, 100).reshape(2, 2, 5, 5))

    def run(p, b, x):
        return L.func.functional_call(models[0], (p, b), (x,))
    return L.func.vmap(run, in_dims=(0, 0, None))(params, buffers, x), list(params.values())


CONV_PROGRAMS = {
    # only the input batched: the batch joins N
    "conv1d": _with_weights(_conv("conv1d"), (3, 2, 4, 6), ((5, 4, 3), (5,)), (0, None, None)),
    "conv1d_unbatched_sample": _with_weights(_conv("conv1d", padding=1), (3, 4, 6), ((5, 4, 3),),
                                             (0, None)),
    "conv2d": _with_weights(_conv("conv2d", stride=2, padding=(1, 0)), (3, 2, 4, 5, 6),
                            ((5, 4, 3, 2), (5,)), (0, None, None)),
    "conv2d_in_dims_1": _with_weights(_conv("conv2d"), (2, 3, 4, 5, 5), ((5, 4, 3, 3),), (1, None)),
    "conv3d": _with_weights(_conv("conv3d", dilation=2), (2, 1, 2, 5, 5, 5), ((3, 2, 2, 2, 2),),
                            (0, None)),
    "conv2d_groups": _with_weights(_conv("conv2d", groups=2), (3, 2, 4, 5, 5), ((6, 2, 3, 3),),
                                   (0, None)),
    "conv_transpose1d": _with_weights(_conv("conv_transpose1d", stride=2), (3, 2, 4, 5),
                                      ((4, 3, 3), (3,)), (0, None, None)),
    "conv_transpose2d": _with_weights(_conv("conv_transpose2d", output_padding=1, stride=2),
                                      (3, 2, 4, 4, 4), ((4, 3, 3, 3),), (0, None)),
    "conv1d_same_even_kernel": _with_weights(_conv("conv1d", padding="same"), (3, 2, 4, 7),
                                             ((5, 4, 4),), (0, None)),
    "conv2d_same_unbatched_sample": _with_weights(_conv("conv2d", padding="same", dilation=2),
                                                  (3, 4, 5, 5), ((5, 4, 3, 2),), (0, None)),
    "conv1d_valid": _with_weights(_conv("conv1d", padding="valid"), (3, 2, 4, 7), ((5, 4, 3),),
                                  (0, None)),
    # only the weight batched: the batch joins the output channels
    "conv1d_weight": _with_weights(_conv("conv1d"), (2, 4, 6), ((3, 5, 4, 3),), (None, 0)),
    "conv1d_weight_bias": _with_weights(_conv("conv1d"), (2, 4, 6), ((3, 5, 4, 3), (5,)),
                                        (None, 0, None)),
    "conv2d_weight_groups": _with_weights(_conv("conv2d", groups=2), (2, 4, 5, 5),
                                          ((3, 6, 2, 3, 3),), (None, 0)),
    "conv2d_weight_groups_in_dims_1": _with_weights(_conv("conv2d", groups=2), (2, 4, 5, 5),
                                                    ((6, 3, 2, 3, 3),), (None, 1)),
    "conv_transpose1d_weight": _with_weights(_conv("conv_transpose1d"), (2, 4, 5),
                                             ((3, 4, 3, 3),), (None, 0)),
    "conv_transpose1d_weight_groups": _with_weights(_conv("conv_transpose1d", groups=2), (2, 4, 5),
                                                    ((3, 4, 3, 3),), (None, 0)),
    # both batched: the batch becomes groups
    "conv1d_both": _with_weights(_conv("conv1d"), (3, 2, 4, 6), ((3, 5, 4, 3),), (0, 0)),
    "conv2d_both_bias": _with_weights(_conv("conv2d"), (3, 2, 4, 5, 5), ((3, 5, 4, 3, 3), (3, 5)),
                                      (0, 0, 0)),
    "conv_transpose2d_both": _with_weights(_conv("conv_transpose2d"), (3, 2, 4, 4, 4),
                                           ((3, 4, 3, 3, 3),), (0, 0)),
    "conv1d_bias_batched": _with_weights(_conv("conv1d"), (3, 2, 4, 6), ((5, 4, 3), (3, 5)),
                                         (0, None, 0)),
    "conv1d_unbatched_input_bias_batched": _with_weights(_conv("conv1d"), (2, 4, 6),
                                                         ((5, 4, 3), (3, 5)), (None, None, 0)),
    # an ensemble of conv nets (stacked weights, one input), and a vmap inside a vmap
    "conv_ensemble": lambda L: _ensemble(L),
    "conv_nested": _whole(lambda L, x, w: L.func.vmap(L.func.vmap(lambda t: _F(L).conv1d(t, w)))(x),
                          (2, 3, 4, 6), (5, 4, 3)),
}


def _well_conditioned(L, *shape, seed=0):
    """Matrices far from singular (each a leaf), with the vmap's batch in front."""
    values = np.random.default_rng(seed).standard_normal(shape) + 3 * np.eye(shape[-1])
    return L.tensor(values, requires_grad=True)


def _matrices(body, shape=(3, 4, 4), in_dims=0):
    def run(L, a):
        batch = a.movedim(0, in_dims) if in_dims else a
        return L.func.vmap(lambda t: body(L, t), in_dims=in_dims)(batch)
    return _whole(run, shape, make=_well_conditioned)


def _well_conditioned_or_vector(L, *shape, seed=0):
    """Matrices far from singular when square, else random values."""
    if shape[-1] == shape[-2]:
        return _well_conditioned(L, *shape, seed=seed)
    return _x(L, *shape, seed=seed)


def _symmetric(L, t):
    return t @ t.mT


LINALG_PROGRAMS = {
    "det": _matrices(lambda L, t: L.linalg.det(t)),
    "det_in_dims_1": _matrices(lambda L, t: L.linalg.det(t), in_dims=1),
    "det_of_a_stack": _matrices(lambda L, t: L.linalg.det(t), shape=(3, 2, 4, 4)),
    "slogdet": _matrices(lambda L, t: tuple(L.linalg.slogdet(t))),
    "inv": _matrices(lambda L, t: L.linalg.inv(t)),
    "inv_ex": _matrices(lambda L, t: L.linalg.inv_ex(t).inverse),
    "cholesky": _matrices(lambda L, t: L.linalg.cholesky(_symmetric(L, t))),
    "cholesky_upper": _matrices(lambda L, t: L.linalg.cholesky(_symmetric(L, t), upper=True)),
    "eigvalsh": _matrices(lambda L, t: L.linalg.eigvalsh(_symmetric(L, t))),
    "svdvals": _matrices(lambda L, t: L.linalg.svdvals(t)),
    "lu_factor": _matrices(lambda L, t: L.linalg.lu_factor(t).LU),
    "matrix_exp": _matrices(lambda L, t: L.linalg.matrix_exp(t / 4)),
    "matrix_power": _matrices(lambda L, t: L.linalg.matrix_power(t, 3)),
    "pinv": _matrices(lambda L, t: L.linalg.pinv(t)),
    "matrix_norm": _matrices(lambda L, t: L.linalg.matrix_norm(t)),
    "matrix_norm_ord": _matrices(lambda L, t: L.linalg.matrix_norm(t, ord=1, dim=(-1, -2))),
    "vector_norm": _matrices(lambda L, t: L.linalg.vector_norm(t)),
    "vector_norm_dim": _matrices(lambda L, t: L.linalg.vector_norm(t, ord=3, dim=0, keepdim=True)),
    "vector_norm_in_dims_1": _matrices(lambda L, t: L.linalg.vector_norm(t, dim=-1), in_dims=1),
    "solve_vector": _whole(lambda L, a, b: L.func.vmap(L.linalg.solve)(a, b), (3, 4, 4), (3, 4),
                           make=_well_conditioned_or_vector),
    "solve_matrix_not_batched": _whole(
        lambda L, a, b: L.func.vmap(L.linalg.solve, in_dims=(None, 0))(a[0], b), (3, 4, 4), (3, 4, 2),
        make=_well_conditioned_or_vector),
    "solve_right_side_not_batched": _whole(
        lambda L, a, b: L.func.vmap(L.linalg.solve, in_dims=(0, None))(a, b[0]), (3, 4, 4), (3, 4),
        make=_well_conditioned_or_vector),
    "solve_triangular": _whole(lambda L, a, b: L.func.vmap(
        lambda t, u: L.linalg.solve_triangular(t, u, upper=True))(a, b), (3, 4, 4), (3, 4, 2),
        make=_well_conditioned_or_vector),
    "cross": _whole(lambda L, a, b: L.func.vmap(L.linalg.cross)(a, b), (3, 2, 3), (3, 2, 3)),
    "det_nested": _whole(lambda L, a: L.func.vmap(L.func.vmap(L.linalg.det))(a), (2, 3, 4, 4),
                         make=_well_conditioned),
}


def _g(L, t, w):
    return (t.sin() * w).cos()


def _vjp_of(L, t, w, cotangent):
    out, vjp_fn = L.func.vjp(lambda a, b: _g(L, a, b), t, w)
    return vjp_fn(cotangent)


TRANSFORM_PROGRAMS = {
    "vjp": _program(lambda L, t, w: _vjp_of(L, t, w, t * 2), (4, 3), (3,), in_dims=(0, None)),
    "vjp_value": _program(lambda L, t: L.func.vjp(lambda a: a.exp() * a, t)[0], (4, 3)),
    "vjp_cotangent_batched": _program(lambda L, t, c: _vjp_of(L, t, t, c), (4, 3), (4, 3)),
    "vjp_in_dims_1": _program(lambda L, t: _vjp_of(L, t, t.flip(0), t), (3, 4), in_dims=1),
    "vjp_nested": _whole(lambda L, x, w: L.func.vmap(L.func.vmap(lambda t: _vjp_of(L, t, w, t)))(x),
                         (2, 3, 4), (4,)),
    # grad of arguments not batched (f uses batched tensors it captured, or none)
    "grad_captured_batch": _program(
        lambda L, x, w: L.func.grad(lambda p: (p.sin() * x).sum())(w), (4, 3), (3,),
        in_dims=(0, None)),
    "grad_no_batched_value": _program(
        lambda L, x, w: L.func.grad(lambda p: (p.exp() * p).sum())(w) + x, (4, 3), (3,),
        in_dims=(0, None)),
    "grad_and_value_captured": _program(
        lambda L, x, w: L.func.grad_and_value(lambda p: (p * x).tanh().sum())(w), (4, 3), (3,),
        in_dims=(0, None)),
    "grad_in_dims_1": _program(lambda L, t: L.func.grad(lambda a: (a.sin() * a).sum())(t), (3, 4),
                               in_dims=1),
    "jvp": _program(lambda L, t: L.func.jvp(lambda a: _g(L, a, a), (t,), (t * 2,)), (4, 3)),
    "jvp_tangent_not_batched": _program(
        lambda L, t, v: L.func.jvp(lambda a: a.exp() * a, (t,), (v,))[1], (4, 3), (3,),
        in_dims=(0, None)),
    "jvp_primal_not_batched": _program(
        lambda L, t, v: L.func.jvp(lambda a: a.exp() * a, (t,), (v,))[1], (3,), (4, 3),
        in_dims=(None, 0)),
    "jvp_in_dims_1": _program(lambda L, t: L.func.jvp(L.sin, (t,), (t.cos(),))[1], (3, 4), in_dims=1),
    "jvp_nested": _whole(lambda L, x: L.func.vmap(L.func.vmap(
        lambda t: L.func.jvp(L.exp, (t,), (t,))[1]))(x), (2, 3, 4)),
    "linearize": _program(lambda L, x, c: L.func.linearize(L.sin, c.detach())[1](x * 2), (4, 3),
                          (3,), in_dims=(0, None)),
    "jacfwd": _program(lambda L, t, w: L.func.jacfwd(lambda a: _g(L, a, w))(t), (4, 3), (3,),
                       in_dims=(0, None)),
    "jacfwd_argnums": _program(lambda L, t, w: L.func.jacfwd(lambda a, b: _g(L, a, b), argnums=(0, 1))(t, w),
                               (4, 3), (4, 3)),
    "hessian": _program(lambda L, t: L.func.hessian(lambda a: (a.exp() * a.sin()).sum())(t), (4, 3)),
    "hessian_nested": _whole(lambda L, x: L.func.vmap(L.func.vmap(
        L.func.hessian(lambda a: (a ** 3).sum())))(x), (2, 3, 4)),
}
# minigrad's jvp (outside vmap too) records make_dual as a view where PyTorch records an alias
# of each primal (and linearize runs jvp where PyTorch runs a traced graph), and jacfwd and hessian compute their columns by reverse mode (README): the
# values and gradients are PyTorch's, the deeper graph is not
GRAPH_DIFFERS = {"linearize", "jvp", "jvp_tangent_not_batched", "jvp_primal_not_batched", "jvp_in_dims_1",
                 "jvp_nested", "jacfwd", "jacfwd_argnums", "hessian", "hessian_nested"}
# the derivatives of an argument batched at in_dims 1 keep the batch where it was (one
# PermuteBackward0 when vmap returns them) where PyTorch's binary operations move it in front
# as they go (README)
OUT_PERMUTED = {"vjp_in_dims_1", "jvp_in_dims_1", "grad_in_dims_1"}

def _nested(body, *shapes, in_dims=0):
    """A vmap inside a vmap of ``body``."""
    return _whole(lambda L, *a: L.func.vmap(L.func.vmap(lambda *s: body(L, *s), in_dims=in_dims),
                                            in_dims=in_dims)(*a), *shapes)


# in a vmap inside a vmap, einsum's bmm runs PyTorch's matmul steps at the outer level too
NESTED_PROGRAMS = {
    "einsum_nested": _nested(lambda L, t, u: L.einsum("ij,jk->ik", t, u), (2, 3, 4, 5), (5, 6),
                             in_dims=(0, None)),
    "einsum_nested_both": _nested(lambda L, t, u: L.einsum("ij,jk->ik", t, u), (2, 3, 4, 5),
                                  (2, 3, 5, 6)),
    "einsum_nested_batch": _nested(lambda L, t, u: L.einsum("bij,jk->bik", t, u), (2, 3, 7, 4, 5),
                                   (5, 6), in_dims=(0, None)),
    "einsum_nested_dot": _nested(lambda L, t: L.einsum("ij,ij->", t, t), (2, 3, 4, 5)),
    "bmm_nested": _nested(lambda L, t, u: L.bmm(t, u), (2, 3, 7, 4, 5), (7, 5, 6), in_dims=(0, None)),
}

def _conv_loss(L, w, b, x, y):
    out = _F(L).conv1d(x.unsqueeze(0), w, b).squeeze(0)
    return _F(L).mse_loss(out.tanh(), y)


# per-sample gradients of a conv layer: the convolution's backward runs below the batch in
# minigrad (ConvolutionBackward0's own formulas) where PyTorch runs its batching rules for
# convolution_backward; a function asking an argument not batched for .item() runs once per
# sample (README): the values and gradients are PyTorch's, the graph not
VALUES_ONLY = {
    "grad_item_of_argument_not_batched": _program(
        lambda L, x, w: L.func.grad(lambda p, y: (p.sin() * y).sum() * (2.0 if p.sum().item() > 0
                                                                      else 3.0))(w, x),
        (4, 3), (3,), in_dims=(0, None)),
    "conv_per_sample_grads": _whole(lambda L, w, b, x, y: L.func.vmap(
        L.func.grad(lambda *a: _conv_loss(L, *a), argnums=(0, 1)), in_dims=(None, None, 0, 0))(
        w, b, x, y), (4, 2, 3), (4,), (5, 2, 7), (5, 4, 5)),
}

PROGRAMS = dict(CONV_PROGRAMS, **LINALG_PROGRAMS, **TRANSFORM_PROGRAMS, **NESTED_PROGRAMS,
                **VALUES_ONLY)


def _outcome(L, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out, leaves = PROGRAMS[name](L)
    outs = tuple(_flat(out))
    shown = [(tuple(o.shape), graph(o)) for o in outs]
    values = [o.detach().numpy() for o in outs]
    sum(o.pow(2).sum() for o in outs).backward()
    grads = [None if x.grad is None else x.grad.numpy() for x in leaves]
    return shown, values, grads, [_nodes(o) for o in outs]


def _flat(tree):
    if isinstance(tree, (tuple, list)):
        return [leaf for item in tree for leaf in _flat(item)]
    return [tree]


def _assert_close(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_whole_batch_program_matches_torch(name):
    torch = import_torch()
    theirs = _outcome(torch, name)
    ours = _outcome(minigrad, name)
    if name in VALUES_ONLY:
        assert [shape for shape, _ in ours[0]] == [shape for shape, _ in theirs[0]]
    elif name in OUT_PERMUTED:
        assert ours[0][0][1][0] == "PermuteBackward0"
    elif name in GRAPH_DIFFERS:
        assert [shape for shape, _ in ours[0]] == [shape for shape, _ in theirs[0]]
        assert [g and g[0] for _, g in ours[0]] == [g and g[0] for _, g in theirs[0]]
    else:
        assert ours[0] == theirs[0]       # shapes and graphs
    _assert_close(ours[1], theirs[1])     # values
    _assert_close(ours[2], theirs[2])     # gradients
    if name not in GRAPH_DIFFERS and name not in VALUES_ONLY:     # (jacfwd stacks its columns)
        assert not any("StackBackward0" in nodes for nodes in ours[3])     # one graph for the batch


def _calls(L, transform):
    """How many times a function given to ``transform`` inside vmap runs (over 4 samples)."""
    calls = []

    def f(a):
        calls.append(1)
        return (a.exp() * a).sum() if transform == "hessian" else a.exp() * a
    x = L.tensor(np.linspace(-1.0, 1.0, 12).reshape(4, 3))
    if transform == "vjp":
        L.func.vmap(lambda t: L.func.vjp(f, t)[1](t))(x)
    elif transform == "jvp":
        L.func.vmap(lambda t: L.func.jvp(f, (t,), (t,)))(x)
    else:
        L.func.vmap(getattr(L.func, transform)(f))(x)
    return len(calls)


@pytest.mark.parametrize("transform", ["vjp", "jvp", "jacfwd", "hessian", "jacrev", "grad"])
def test_transform_inside_vmap_calls_the_function_once(transform):
    torch = import_torch()
    if transform == "grad":
        assert _calls(minigrad, "hessian") == _calls(torch, "hessian") == 1
    else:
        assert _calls(minigrad, transform) == _calls(torch, transform) == 1


def _printed_inside(L):
    """What a function prints inside vjp and jvp inside vmap (PyTorch shows the whole batch,
    once, inside the wrappers of each level)."""
    import contextlib
    import io
    x = L.tensor(np.linspace(-1.0, 1.0, 6).reshape(2, 3), requires_grad=True)

    def f(a):
        print("input", a)
        b = a.sin()
        print("output", b)
        return b

    def inner(t):
        out, vjp_fn = L.func.vjp(f, t)
        print("vjp value", out)
        print("vjp_fn", vjp_fn(t * 2)[0])
        value, tangent = L.func.jvp(f, (t,), (t,))
        print("jvp", value, tangent)
        return tangent
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        print("result", L.func.vmap(inner)(x))
    return shown.getvalue()


def test_printed_inside_vjp_and_jvp_in_vmap_is_torchs():
    torch = import_torch()
    assert _printed_inside(minigrad) == _printed_inside(torch)


@pytest.mark.parametrize("name", ["conv2d_both_bias", "conv_transpose1d_weight_groups", "inv",
                                  "solve_matrix_not_batched",
                                  "vector_norm_dim", "vjp", "jvp", "hessian", "grad_captured_batch"])
def test_whole_batch_gradcheck(name):
    """The gradients of the whole-batch programs, checked against finite differences."""
    program = PROGRAMS[name]
    _, leaves = program(minigrad)
    inputs = [leaf.detach().clone().requires_grad_() for leaf in leaves]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert minigrad.autograd.gradcheck(lambda *a: tuple(_flat(program.on(minigrad, *a))), inputs)


def _ones(L, *shape):
    return L.ones(*shape, dtype=L.float64)


# programs that fail: PyTorch's exception and message (a convolution's, with the sizes of the
# folded convolution; a linalg function's, as its rule or the function it runs says it)
FAILING = {
    "conv_channels": lambda L: L.func.vmap(lambda t: _F(L).conv1d(t, _ones(L, 5, 4, 2)))(_ones(L, 4, 2, 3, 5)),
    "conv_both_channels": lambda L: L.func.vmap(lambda t, u: _F(L).conv1d(t, u))(
        _ones(L, 4, 2, 3, 5), _ones(L, 4, 5, 4, 2)),
    "conv_weight_channels": lambda L: L.func.vmap(lambda u: _F(L).conv1d(_ones(L, 2, 3, 5), u))(
        _ones(L, 4, 5, 4, 2)),
    "conv_kernel_too_large": lambda L: L.func.vmap(lambda t: _F(L).conv1d(t, _ones(L, 5, 3, 9)))(
        _ones(L, 4, 2, 3, 5)),
    "conv_transpose_channels": lambda L: L.func.vmap(
        lambda t: _F(L).conv_transpose1d(t, _ones(L, 2, 3, 2)))(_ones(L, 4, 2, 3, 5)),
    "conv_same_strided": lambda L: L.func.vmap(
        lambda t: _F(L).conv1d(t, _ones(L, 5, 3, 2), padding="same", stride=2))(_ones(L, 4, 2, 3, 5)),
    "inv_vector": lambda L: L.func.vmap(L.linalg.inv)(_ones(L, 4, 3)),
    "eigvalsh_not_square": lambda L: L.func.vmap(L.linalg.eigvalsh)(_ones(L, 4, 2, 3)),
    "lu_factor_vector": lambda L: L.func.vmap(L.linalg.lu_factor)(_ones(L, 4, 3)),
    "pinv_vector": lambda L: L.func.vmap(L.linalg.pinv)(_ones(L, 4, 3)),
    "linearize_batched_primal": lambda L: L.func.vmap(lambda t: L.func.linearize(L.sin, t)[1](t))(
        _ones(L, 4, 3)),
    "vjp_cotangent_shape": lambda L: L.func.vmap(lambda t: L.func.vjp(L.sin, t)[1](t[:2]))(
        _ones(L, 4, 3)),
}


def _failure(L, name):
    with pytest.raises(Exception) as caught:
        FAILING[name](L)
    return type(caught.value).__name__, str(caught.value)


@pytest.mark.parametrize("name", list(FAILING))
def test_failure_under_vmap_is_torchs(name):
    torch = import_torch()
    assert _failure(minigrad, name) == _failure(torch, name)


def _random_inside(L):
    """Random numbers drawn inside grad and jvp inside vmap ("different": one batched draw)."""
    L.manual_seed(0)
    w, xs = L.ones(3, dtype=L.float64), L.ones(4, 3, dtype=L.float64)

    def noise():
        return L.rand(3, dtype=L.float64)
    return [L.func.vmap(lambda x: L.func.grad(lambda p: (p * noise()).sum())(w),
                        randomness="different")(xs),
            L.func.vmap(lambda x: L.func.grad(lambda p: (p * noise()).sum())(w),
                        randomness="same")(xs),
            L.func.vmap(lambda x: L.func.jvp(lambda p: p * noise(), (x,), (x,))[1],
                        randomness="different")(xs)]


def test_random_numbers_inside_transforms_in_vmap_are_torchs():
    torch = import_torch()
    for ours, theirs in zip(_random_inside(minigrad), _random_inside(torch)):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
