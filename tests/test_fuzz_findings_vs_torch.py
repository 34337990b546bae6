"""Differences the random-program test (test_fuzz_vs_torch.py) found, each checked against PyTorch.

Every test here runs the same small computation in both libraries and compares what a learner
sees: values, dtypes, flags, nodes, and the exception class and message when PyTorch refuses.
"""
import re
import warnings

import numpy as np
import pytest

import minigrad


def outcome(fn, lib):
    """What ``fn(lib)`` gives: ('ok', value, dtype name, requires_grad) or ('error', class, message)."""
    try:
        out = fn(lib)
    except Exception as error:          # the two libraries must fail alike
        first = str(error).splitlines()[0] if str(error) else ""
        return ("error", type(error).__name__, first)
    return ("ok", np.asarray(out.detach().tolist()), str(out.dtype).split(".")[-1], out.requires_grad)


def assert_same(fn, torch):
    mine, ref = outcome(fn, minigrad), outcome(fn, torch)
    assert mine[0] == ref[0], f"minigrad {mine} but torch {ref}"
    if ref[0] == "error":
        assert mine[1:] == ref[1:]
    else:
        np.testing.assert_allclose(mine[1], ref[1], rtol=1e-6)
        assert mine[2:] == ref[2:]


# add/sub with alpha: other is scaled in the result's dtype, and alpha must suit that dtype
@pytest.mark.parametrize("fn", [
    lambda L: L.tensor(1.5).sub(L.tensor(3), alpha=0.5),             # 0-d float32 - 0-d long
    lambda L: L.tensor([1.5, 2.0]).add(L.tensor(3), alpha=0.5),
    lambda L: L.tensor(1.5, requires_grad=True).sub(L.tensor([3, 4]), alpha=0.5),
    lambda L: L.tensor([1, 2]).add(L.tensor([1, 2]), alpha=0.5),     # integral result, float alpha
    lambda L: L.tensor([1, 2]).add(2, alpha=0.5),
    lambda L: L.tensor([True, False]).add(L.tensor([True, True]), alpha=0.5),
    lambda L: L.tensor([True, False]).add(L.tensor([False, True]), alpha=2),
    lambda L: L.tensor([1.0, 2.0]).add(L.tensor([1.0, 2.0]), alpha=False),
    lambda L: L.tensor([1, 2]).sub(L.tensor([0.5, 2.0]), alpha=2),
    lambda L: L.tensor([1, 2]).add(2.5, alpha=2),
])
def test_add_sub_with_alpha(torch, fn):
    assert_same(fn, torch)


# autograd.grad of an output with respect to itself hands back the caller's grad_output
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("grad_output_requires_grad", [False, True])
def test_grad_of_an_output_with_respect_to_itself_is_the_grad_output(torch, create_graph,
                                                                     grad_output_requires_grad):
    for L in (minigrad, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        given = L.tensor([0.5, -1.0], requires_grad=grad_output_requires_grad)
        for output in (x, y):
            (g,) = L.autograd.grad([output], [output], grad_outputs=[given], create_graph=create_graph,
                                   retain_graph=True)
            assert g is given, L.__name__
        # reached twice, the gradient is a new sum
        (g,) = L.autograd.grad([y, y], [y], grad_outputs=[given, given], retain_graph=True)
        assert g is not given and g.tolist() == [1.0, -2.0]
        with L.no_grad():
            (g,) = L.autograd.grad([x], [x], grad_outputs=[given])
        assert g is given and g.requires_grad == grad_output_requires_grad


# a grad_output of the wrong shape is reported before an output without history is
@pytest.mark.parametrize("fn", [
    lambda L: L.autograd.grad([L.ones(3)], [L.ones(1, requires_grad=True)], grad_outputs=[L.ones(2)]),
    lambda L: L.autograd.grad([L.ones(3)], [L.ones(1, requires_grad=True)]),
    lambda L: L.ones(3).backward(L.ones(())),
    lambda L: L.ones(3).backward(),
])
def test_grad_outputs_checked_before_requires_grad(torch, fn):
    assert_same(fn, torch)


# nll_loss and cross_entropy check a target's shape in PyTorch's order: the batch size first
# (a 0-d target's counts as 0), then one label per row, then the dtype; 0-d inputs fail in
# log_softmax; empty class probabilities give nan
@pytest.mark.parametrize("function", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("input_shape", [(), (3,), (2, 3), (1, 3), (2, 1, 3), (0,), (2, 0)])
@pytest.mark.parametrize("target_shape", [(), (1,), (2,), (3,), (2, 3), (1, 3), (2, 1), (0,)])
@pytest.mark.parametrize("target_dtype", ["int64", "float32"])
def test_class_target_checks(torch, function, input_shape, target_shape, target_dtype):
    def fn(L):
        loss = getattr(L.nn.functional, function)
        return loss(L.zeros(input_shape), L.zeros(target_shape, dtype=getattr(L, target_dtype)))
    assert_same(fn, torch)


@pytest.mark.parametrize("label_smoothing", [0.0, 0.3])
@pytest.mark.parametrize("shapes", [((), ()), ((), (2,)), ((0,), (0,)), ((2, 0), (2, 0))])
def test_cross_entropy_of_0d_and_empty_inputs(torch, shapes, label_smoothing):
    input_shape, target_shape = shapes
    assert_same(lambda L: L.nn.functional.cross_entropy(
        L.zeros(input_shape, requires_grad=True), L.zeros(target_shape),
        label_smoothing=label_smoothing), torch)


# clamp_ with tensor bounds that require grad records the change even when x does not (its
# gradient reached the bounds as zeros); pow_/clamp_ of a no_grad view by a tensor that requires
# grad: PyTorch's no_grad-view error comes before the expanded-memory one
@pytest.mark.parametrize("change", [
    lambda L, x, m: x.clamp_(min=m - 3, max=m * 1),
    lambda L, x, m: x.clamp_(max=m * 1),
    lambda L, x, m: x.clamp_(min=m),
    lambda L, x, m: x.clamp_(min=m.detach(), max=m + 1),
])
def test_clamp_in_place_by_bounds_that_require_grad(torch, change):
    grads = []
    for L in (minigrad, torch):
        m = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        x = L.zeros(3)
        change(L, x, m)
        assert x.requires_grad and type(x.grad_fn).__name__ == "ClampBackward0"
        (x * L.tensor([1.0, 2.0, 3.0])).sum().backward()
        grads.append((x.detach().tolist(), m.grad.tolist()))
    assert grads[0] == grads[1]


@pytest.mark.parametrize("change", [
    lambda g, x: g.clamp_(min=x), lambda g, x: g.clamp_(max=x), lambda g, x: g.pow_(x),
    lambda g, x: g.clamp_(min=0.5), lambda g, x: g.add_(x),
])
def test_in_place_change_of_an_expanded_gradient(torch, change):
    def fn(L):
        x = L.ones(2, 1, 3, requires_grad=True)
        (g,) = L.autograd.grad(x.sum(), [x])        # an expanded view, made with grad mode off
        change(g, x)
        return g
    assert_same(fn, torch)


def _graph(node):
    """A node's name and, recursively, its next functions'."""
    if node is None:
        return None
    return (node.name().split("::")[-1], tuple(_graph(n) for n, _ in node.next_functions))


# regression losses broadcast input and target first: the one that grows gets an ExpandBackward0
@pytest.mark.parametrize("loss", ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"])
@pytest.mark.parametrize("shapes", [((), (1, 1)), ((1, 1), ()), ((3,), (2, 1)), ((2, 3), (3,)),
                                    ((3,), (2,)), ((0,), (2, 1))])
@pytest.mark.parametrize("reduction", ["mean", "none", "bad"])
def test_regression_losses_broadcast_as_pytorch(torch, loss, shapes, reduction):
    seen = []
    for L in (minigrad, torch):
        a = L.tensor(np.linspace(-1, 1, int(np.prod(shapes[0]))).reshape(shapes[0]), requires_grad=True)
        b = L.tensor(np.linspace(2, -2, int(np.prod(shapes[1]))).reshape(shapes[1]), requires_grad=True)
        try:
            with pytest.warns(UserWarning, match="different to the input size"):
                out = getattr(L.nn.functional, loss)(a, b, reduction=reduction)
            out.sum().backward()
        except (RuntimeError, ValueError) as error:
            seen.append((type(error).__name__, str(error).splitlines()[0]))
            continue
        seen.append(repr((np.round(out.tolist(), 5).tolist(), _graph(out.grad_fn),     # (nan too)
                          np.round(a.grad.numpy(), 5).tolist(), np.round(b.grad.numpy(), 5).tolist())))
    assert seen[0] == seen[1]


# smooth_l1_loss and huber_loss record their backward (create_graph=True): second derivatives
@pytest.mark.parametrize("loss", [
    lambda F, x, t: F.huber_loss(x, t, delta=0.7),
    lambda F, x, t: F.huber_loss(x, t, delta=1.5, reduction="none"),
    lambda F, x, t: F.smooth_l1_loss(x, t, beta=0.5, reduction="sum"),
    lambda F, x, t: F.smooth_l1_loss(x, t),
])
@pytest.mark.parametrize("target_requires_grad", [False, True])
def test_second_derivatives_of_robust_losses(torch, loss, target_requires_grad):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([-1.0, 0.3, 2.0, 0.1], requires_grad=True)
        t = L.tensor([0.0, 0.5, 0.0, 0.9], requires_grad=target_requires_grad)
        out = loss(L.nn.functional, x, t)
        inputs = [x, t] if target_requires_grad else [x]
        grads = L.autograd.grad(out, inputs, grad_outputs=L.ones_like(out) * 1.5, create_graph=True)
        second = L.autograd.grad(sum((g * L.tensor([1.0, 2.0, 3.0, 4.0])).sum() for g in grads),
                                 inputs, allow_unused=True)
        seen.append(repr(([np.round(g.tolist(), 5).tolist() for g in grads], _graph(grads[0].grad_fn),
                          [None if s is None else np.round(s.tolist(), 5).tolist() for s in second])))
    assert seen[0] == seen[1]


# leaky_relu records its backward (LeakyReluBackwardBackward0): under create_graph the gradient
# depends on the input even when grad_output needs no gradient
@pytest.mark.parametrize("inplace", [False, True])
def test_leaky_relu_backward_is_recorded(torch, inplace):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([-1.0, 0.3, 2.0], requires_grad=True)
        y = L.nn.functional.leaky_relu(x * 1, 0.1, inplace=inplace)
        (g,) = L.autograd.grad(y, [x], grad_outputs=L.tensor([1.0, 2.0, 3.0]), create_graph=True)
        (second,) = L.autograd.grad(g.sum(), [x])
        seen.append(repr((g.tolist(), g.requires_grad, _graph(g.grad_fn), second.tolist())))
    assert seen[0] == seen[1]


# x[-3:] = v on a dimension of size 3 still slices (CopySlices), as PyTorch decides from the
# slice as written; x[0:] = v and x[:100] = v write into x itself
@pytest.mark.parametrize("size", [1, 3])
@pytest.mark.parametrize("item", [slice(0, None), slice(-1, None), slice(-3, None), slice(None, 3),
                                  slice(0, 100), slice(-5, 5), slice(-3, 3), slice(None, None, 1)])
@pytest.mark.parametrize("before", [(), (Ellipsis,)])
def test_slice_assignment_node(torch, size, item, before):
    names = []
    for L in (minigrad, torch):
        y = L.tensor([1.0, 2.0, 3.0][:size], requires_grad=True) * 1
        y[before + (item,)] = 0.25
        names.append(_graph(y.grad_fn))
    assert names[0] == names[1]


# binary_cross_entropy_with_logits computes in the target's dtype (PyTorch works in place from
# 1 - target), and refuses a bool target as 1 - target does
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"), ("float32", "bool"),
                                    ("float32", "int64")])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_bce_with_logits_dtype(torch, dtypes, reduction):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, -2.0, 0.5], dtype=getattr(L, dtypes[0]), requires_grad=True)
        t = L.tensor([0.2, 0.0, 1.0]).to(getattr(L, dtypes[1]))
        try:
            out = L.nn.functional.binary_cross_entropy_with_logits(x, t, reduction=reduction)
        except RuntimeError as error:
            seen.append(str(error).splitlines()[0])
            continue
        out.sum().backward()
        seen.append((str(out.dtype).split(".")[1], np.round(out.tolist(), 5).tolist(),
                     str(x.grad.dtype).split(".")[1], np.round(x.grad.tolist(), 5).tolist()))
    assert seen[0] == seen[1]


# products check their operands in PyTorch's order: dot compares dtypes before sizes, mv asks a
# 0-d matrix for its first size
@pytest.mark.parametrize("op", ["matmul", "dot", "mv", "mm", "outer"])
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((3,), (1,)), ((2, 3), (3,)), ((), (3,)), ((3,), ()),
                                    ((2, 3), (2, 3)), ((1, 2, 3), (3, 2))])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float32", "float64"), ("int64", "float32")])
def test_product_checks(torch, op, shapes, dtypes):
    assert_same(lambda L: getattr(L, op)(L.ones(shapes[0], dtype=getattr(L, dtypes[0])),
                                         L.ones(shapes[1], dtype=getattr(L, dtypes[1]))), torch)


# activations and losses of integer or bool inputs: PyTorch has no kernel for them, and says so
@pytest.mark.parametrize("dtype", ["int64", "bool"])
@pytest.mark.parametrize("fn", [
    lambda F, x: F.gelu(x), lambda F, x: F.gelu(x, approximate="tanh"), lambda F, x: F.silu(x),
    lambda F, x: F.elu(x), lambda F, x: F.softplus(x), lambda F, x: F.leaky_relu(x, 0.1),
    lambda F, x: F.leaky_relu(x, 0.1, inplace=True), lambda F, x: F.silu(x, inplace=True),
    lambda F, x: F.nll_loss(x, x.shape[0] * 0 + x.new_zeros(2, dtype=x.dtype).long()),
    lambda F, x: F.binary_cross_entropy_with_logits(x, x.float()),
    lambda F, x: F.binary_cross_entropy_with_logits(x, x),
    lambda F, x: F.binary_cross_entropy_with_logits(x.float(), x),
])
def test_activations_of_integers(torch, dtype, fn):
    assert_same(lambda L: fn(L.nn.functional, L.tensor([[1, 0, 3], [0, 2, 1]]).to(getattr(L, dtype))),
                torch)


# mse_loss and smooth_l1_loss compute in PyTorch's promotion of input and target (an int64 input
# with a float32 target is float32, not float64; two integer tensors have no kernel); huber_loss
# writes into a tensor like its input
@pytest.mark.parametrize("loss", ["mse_loss", "smooth_l1_loss", "huber_loss"])
@pytest.mark.parametrize("dtypes", [("int64", "float32"), ("float32", "int64"), ("float64", "float32"),
                                    ("int64", "int64"), ("bool", "float32"), ("float32", "bool")])
def test_regression_loss_dtypes(torch, loss, dtypes):
    assert_same(lambda L: getattr(L.nn.functional, loss)(
        L.tensor([1, 2, 3]).to(getattr(L, dtypes[0])), L.tensor([0.5, 2.0, 1.0]).to(getattr(L, dtypes[1]))),
        torch)


# integers to negative tensor powers: PyTorch truncates (2 ** -1 is 0; 1 and -1 keep a value)
@pytest.mark.parametrize("base", [0, 1, -1, 2, -3])
@pytest.mark.parametrize("form", [lambda L, b, e: b ** e, lambda L, b, e: L.tensor(b) ** e,
                                  lambda L, b, e: L.full((6,), b) ** e, lambda L, b, e: L.pow(b, e)])
def test_integer_tensor_powers(torch, base, form):
    assert_same(lambda L: form(L, base, L.tensor([-3, -2, -1, 0, 1, 2])), torch)


# baddbmm's dtype message names the types as the C++ compiler does ('long int', 'c10::Half')
@pytest.mark.parametrize("dtypes", [("float32", "int64", "float32"), ("int64", "float32", "float32"),
                                    ("float32", "float16", "float32"), ("float64", "float32", "float32")])
def test_baddbmm_dtype_message(torch, dtypes):
    assert_same(lambda L: L.baddbmm(*(L.ones(1, 2, 2, dtype=getattr(L, d)) for d in dtypes)), torch)


# binary_cross_entropy_with_logits' backward multiplies by grad, then weight, then divides by N,
# as PyTorch's does: create_graph=True records the same nodes
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_bce_with_logits_backward_graph(torch, reduction, weighted):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        t = L.tensor([0.2, 0.7, 1.0], requires_grad=True)
        weight = {"weight": L.tensor([1.0, 2.0, 3.0])} if weighted else {}
        out = L.nn.functional.binary_cross_entropy_with_logits(x, t.sigmoid(), reduction=reduction,
                                                               **weight)
        grads = L.autograd.grad(out.sum(), [x, t], create_graph=True)
        seen.append(repr([(np.round(g.tolist(), 5).tolist(), _graph(g.grad_fn)) for g in grads]))
    assert seen[0] == seen[1]


# an empty slice of an expanded tensor has no elements that share memory: in-place changes are fine
@pytest.mark.parametrize("change", [lambda L, v: v.tanh_(), lambda L, v: v.add_(1), lambda L, v: v.zero_(),
                                    lambda L, v: v.copy_(L.ones(3)), lambda L, v: v.mul_(v)])
def test_in_place_change_of_an_empty_expanded_view(torch, change):
    def fn(L):
        x = L.ones(2, 1, 3, requires_grad=True)
        (g,) = L.autograd.grad(x.sum(), [x])        # expanded from one number
        empty = g[2:]
        change(L, empty)
        return empty
    assert_same(fn, torch)


# amax/amin over an empty dim say so before complaining about a repeated dim, as PyTorch does
@pytest.mark.parametrize("name", ["amax", "amin"])
@pytest.mark.parametrize("dim", [(0, -1), (0, 0), (1, 1), (0, 5), ()])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3), (2, 3)])
def test_amax_amin_checks(torch, name, dim, shape):
    assert_same(lambda L: getattr(L.ones(shape), name)(dim), torch)


# split with a list of sizes refuses negative sizes (x.split([4, -1]) gave pieces)
@pytest.mark.parametrize("sizes", [[1, -1], [4, -1], [-1, 4], [1, 1], [3, 0], [0, 3], [2, 1]])
def test_split_with_negative_sizes(torch, sizes):
    assert_same(lambda L: L.cat(L.arange(3.0).split(sizes)), torch)


# scatter_/scatter_add_ of a no_grad view (an expanded gradient) by a source that requires grad:
# PyTorch's no_grad-view error comes before the expanded-memory one
@pytest.mark.parametrize("change", [
    lambda L, g, x: g.scatter_(0, L.zeros(1, 1, 1, dtype=L.int64), x[:1, :1, :1]),
    lambda L, g, x: g.scatter_add_(0, L.zeros(1, 1, 1, dtype=L.int64), x[:1, :1, :1]),
    lambda L, g, x: g.scatter_(0, L.zeros(1, 1, 1, dtype=L.int64), 1.5),
])
def test_scatter_into_an_expanded_gradient(torch, change):
    def fn(L):
        x = L.ones(2, 1, 3, requires_grad=True)
        (g,) = L.autograd.grad(x.sum(), [x])
        change(L, g, x)
        return g
    assert_same(fn, torch)


# long_tensor.add_(float tensor): PyTorch reports shapes that do not fit before the dtype
@pytest.mark.parametrize("other", [lambda L: L.ones(0), lambda L: L.ones(3), lambda L: L.ones(1),
                                   lambda L: L.ones(4, 1, 1), lambda L: 2.5,
                                   lambda L: L.ones(3, dtype=L.int64)])
def test_integer_add_in_place_checks_shapes_first(torch, other):
    assert_same(lambda L: L.ones(2, 1, dtype=L.int64).add_(other(L)), torch)


# index_add_ into a view made under no_grad, of a source that requires grad: PyTorch refuses
def test_index_add_into_a_no_grad_view(torch):
    def fn(L):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with L.no_grad():
            piece = (x * 1).chunk(3)[-1]
        piece.index_add_(0, L.tensor([0]), x[:1])
        return piece
    assert_same(fn, torch)


# an in-place change whose result cannot be cast into the tensor's dtype is refused, as in
# PyTorch (x.pow_(0.5) of an int64 x was truncated to integers, x.div_(2) too)
@pytest.mark.parametrize("change", [
    lambda L: L.tensor([1, 2]).pow_(L.tensor([0.5, 1.0])), lambda L: L.tensor([1, 2]).pow_(0.5),
    lambda L: L.tensor([1, 2]).pow_(2), lambda L: L.tensor([1, 2]).clamp_(L.tensor([0.5, 0.5])),
    lambda L: L.tensor([1, 2]).copy_(L.tensor([0.5, 1.5])), lambda L: L.tensor([1, 2]).div_(2),
    lambda L: L.tensor([True, False]).add_(1), lambda L: L.tensor([True, False]).add_(1.5),
    lambda L: L.tensor([1, 2]).mul_(L.tensor([True, False])), lambda L: L.tensor([1.0, 2.0]).add_(L.tensor([1, 2])),
    lambda L: L.tensor([1, 2]).fill_(0.5), lambda L: L.tensor([1, 2]).exp_(),
    lambda L: L.tensor([True, False]).mul_(L.tensor([1, 2])),
])
def test_in_place_results_that_do_not_fit_the_dtype(torch, change):
    assert_same(change, torch)


# scatter of a number with an index wider than self: PyTorch's wording (no "Size does not match")
@pytest.mark.parametrize("shape", [(2, 0), (2, 1), (1, 3)])
@pytest.mark.parametrize("fn", [lambda L, x, i: x.scatter(0, i, 1.5), lambda L, x, i: x.scatter_(0, i, 2.0),
                                lambda L, x, i: x.gather(0, i), lambda L, x, i: x.scatter(0, i, L.ones(2, 2)),
                                lambda L, x, i: x.scatter_add(0, i, L.ones(1, 1))])
def test_scatter_index_wider_than_self(torch, shape, fn):
    assert_same(lambda L: fn(L, L.zeros(shape), L.zeros(1, 2, dtype=L.int64)), torch)


# add/sub with alpha of a no_grad view whose base changed in place: PyTorch's lost-history error
# comes first, even when the shapes do not broadcast
@pytest.mark.parametrize("fn", [lambda x, v: x.add(v, alpha=2), lambda x, v: x.sub(v, alpha=0.5),
                                lambda x, v: v.add(x, alpha=2), lambda x, v: v.add(v, alpha=2)])
def test_alpha_with_a_view_whose_history_is_lost(torch, fn):
    def run(L):
        x = L.ones(2, 3, requires_grad=True)
        with L.no_grad():
            view = x.diagonal()
            x.mul_(2)
        return fn(x, view)
    assert_same(run, torch)


# an N x C x H x W input wants an N x H x W target: PyTorch's nll_loss2d checks and words
@pytest.mark.parametrize("function", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("input_shape", [(2, 2, 1, 3), (2, 2, 3), (2, 2, 1, 1, 3)])
@pytest.mark.parametrize("target_shape", [(2, 3), (2, 1, 3), (2, 1, 2), (2, 1, 3, 1), (2,), (3, 1, 3),
                                          (2, 1, 1, 3)])
@pytest.mark.parametrize("target_dtype", ["int64", "float32"])
def test_spatial_class_targets(torch, function, input_shape, target_shape, target_dtype):
    assert_same(lambda L: getattr(L.nn.functional, function)(
        L.zeros(input_shape), L.zeros(target_shape, dtype=getattr(L, target_dtype))), torch)


# baddbmm's and addmm's (with beta/alpha) backward record PyTorch's nodes under create_graph:
# bmm, no multiplication by 1, a product with a plain number (MulBackward1) otherwise
@pytest.mark.parametrize("beta, alpha", [(1, 1), (2, 1), (1, 0.5), (0.5, 2)])
def test_scaled_products_backward_graph(torch, beta, alpha):
    seen = []
    for L in (minigrad, torch):
        a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = L.tensor([0.5, 1.0, 2.0], requires_grad=True)
        out = L.baddbmm(b.sum(), a.reshape(1, 1, -1), b.reshape(1, -1, 1), beta=beta, alpha=alpha)
        grads = L.autograd.grad(out.sum(), [a, b], create_graph=True)
        second = L.autograd.grad(sum(g.sum() for g in grads), [a, b])
        m1 = L.tensor([[1.0, 2.0]], requires_grad=True)
        m2 = L.tensor([[1.0], [3.0]], requires_grad=True)
        bias = L.tensor([[0.5]], requires_grad=True)
        grads2 = L.autograd.grad(L.addmm(bias, m1, m2, beta=beta, alpha=alpha).sum(), [bias, m1, m2],
                                 create_graph=True)
        seen.append(repr(([_graph(g.grad_fn) for g in grads + grads2],
                          [g.tolist() for g in grads + second + grads2])))
    assert seen[0] == seen[1]


# smooth_l1/huber's recorded backward with reduction='mean' divides the input's second-order
# gradient by the number of elements in place (version 1) and negates it for the target
@pytest.mark.parametrize("loss", ["smooth_l1_loss", "huber_loss"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_robust_loss_second_order_versions_and_bits(torch, loss, reduction, create_graph, seed):
    data = np.random.default_rng(seed).uniform(-2, 2, size=(3, 7)).astype(np.float32)
    results = []
    for L in (minigrad, torch):
        x = L.tensor(data[0], requires_grad=True)
        t = L.tensor(data[1], requires_grad=True)
        gg = L.tensor(data[2])
        y = getattr(L.nn.functional, loss)(x, t, reduction=reduction)
        g, = L.autograd.grad(y if reduction != "none" else y.sum(), [x], create_graph=True)
        dx, dt = L.autograd.grad(g, [x, t], grad_outputs=gg, create_graph=create_graph)
        results.append([(d._version, d.requires_grad, np.asarray(d.detach().tolist(), dtype=np.float32))
                        for d in (dx, dt)])
    for (v1, r1, a1), (v2, r2, a2) in zip(*results):
        assert (v1, r1) == (v2, r2)
        np.testing.assert_array_equal(a1, a2)


# autograd.grad with no inputs is refused, after the materialize_grads check and before any other
@pytest.mark.parametrize("fn", [
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(), []),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(), ()),
    lambda L: L.autograd.grad([(L.ones(2, requires_grad=True) * 2).sum()], [], grad_outputs=[L.ones(3)]),
    lambda L: L.autograd.grad(L.ones(2, requires_grad=True) * 2, []),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(), [], create_graph=True),
    lambda L: L.autograd.grad("no", []),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(), [], allow_unused=False,
                              materialize_grads=True),
    lambda L: L.autograd.grad("no", [L.ones(2, requires_grad=True)], allow_unused=False,
                              materialize_grads=True),
])
def test_grad_with_no_inputs(torch, fn):
    assert_same(fn, torch)


# a starting gradient of another dtype is cast to its output's dtype first (a new tensor)
@pytest.mark.parametrize("dtype", ["float64", "float16", "int64", "float32"])
def test_starting_gradient_of_another_dtype(torch, dtype):
    def run(L):
        go_dtype = getattr(L, dtype)
        x = L.ones(3, requires_grad=True)
        go = L.ones(3, dtype=go_dtype)
        (x * 2).backward(go)
        leaf = L.ones(3, requires_grad=True)
        leaf.backward(go)
        y = x * 2
        itself, = L.autograd.grad(y, [y], grad_outputs=go)
        go_with_grad = L.ones(3, dtype=go_dtype, requires_grad=go_dtype.is_floating_point)
        y = x * 2
        recorded, = L.autograd.grad(y, [x], grad_outputs=go_with_grad, create_graph=True)
        nodes = None if recorded.grad_fn is None else [
            (type(recorded.grad_fn).__name__,
             [type(n).__name__ for n, _ in recorded.grad_fn.next_functions])]
        return (str(x.grad.dtype).split(".")[-1], x.grad._version, leaf.grad._version,
                leaf.grad is go, itself is go, str(itself.dtype).split(".")[-1], nodes)
    assert run(minigrad) == run(torch)


# threshold_ is the in-place activation whose kernel writes memory seen twice (the others refuse)
@pytest.mark.parametrize("fn", [
    lambda L: L.nn.functional.threshold_(L.tensor([0.2]).expand(3, 1), 0.5, 2.0),
    lambda L: L.nn.functional.threshold_(L.tensor([0.2, 1.0]).expand(3, 2), 0.5, 2.0),
    lambda L: L.nn.functional.threshold(L.tensor([0.2, 1.0]).expand(3, 2), 0.5, 2.0, inplace=True),
    lambda L: L.nn.functional.relu_(L.tensor([0.2, -1.0]).expand(3, 2)),
    lambda L: L.nn.functional.threshold_((L.tensor([0.2, 1.0], requires_grad=True) * 1).expand(2, 2),
                                         0.5, 2.0),
    lambda L: L.nn.functional.threshold_(L.tensor([0.2, 1.0], requires_grad=True).expand(2, 2), 0.5, 2.0),
])
def test_threshold_of_memory_seen_twice(torch, fn):
    assert_same(fn, torch)


# logsumexp of integers and bools: PyTorch first converts them to its default dtype (float32)
@pytest.mark.parametrize("fn", [
    lambda L: L.tensor([[0, 2], [5, -1]]).logsumexp(-1),
    lambda L: L.tensor([[0, 2], [5, -1]], dtype=L.int32).logsumexp(0, keepdim=True),
    lambda L: L.tensor(3).logsumexp(0),
    lambda L: L.tensor([True, False]).logsumexp(0),
    lambda L: L.zeros(0, dtype=L.int64).logsumexp(0),
    lambda L: L.logsumexp(L.tensor([1, 2, 3], dtype=L.uint8), dim=(0,)),
    lambda L: L.tensor([[1, 2]]).logsumexp(()),
])
def test_logsumexp_of_integers(torch, fn):
    assert_same(fn, torch)


# a power that would be a bool (bools to a tensor of bools, True ** bools): PyTorch's pow kernel
# has no bool version; bools to a number's power, and 2 ** bools, are fine
@pytest.mark.parametrize("fn", [
    lambda L: L.tensor([True, False]).pow(L.tensor([True, True])),
    lambda L: L.tensor([True, False]) ** L.tensor(False),
    lambda L: L.tensor([True, False]).pow_(L.tensor([True, False])),
    lambda L: (lambda x: x.pow_(x))(L.tensor([True, False])),
    lambda L: (lambda x: x.pow_(x[:1]))(L.tensor([True, False])),
    lambda L: True ** L.tensor([True, False]),
    lambda L: L.pow(False, L.tensor([True, False])),
    lambda L: L.tensor([True, False]).pow(L.tensor([True, False, True])),    # shapes first
    lambda L: L.tensor([True, False]).pow(True),
    lambda L: L.tensor([True, False]).pow(L.tensor([2, 1])),
    lambda L: 2 ** L.tensor([True, False]),
    lambda L: L.tensor([2.0, 3.0], requires_grad=True).pow(L.tensor([True, False])),
])
def test_powers_of_bools(torch, fn):
    assert_same(fn, torch)


# float32 softmax and log_softmax over the last dim are PyTorch's to the last bit (its
# vectorised kernel's exp, log and order of additions), so kl_div of a distribution with itself
# is exactly 0 where PyTorch's is
@pytest.mark.parametrize("shape", [(3,), (1,), (4, 3), (2, 7), (2, 8), (3, 9), (2, 17), (128, 10),
                                   (2, 3, 100), (0, 3)])
@pytest.mark.parametrize("scale", [0.5, 5.0, 60.0])
def test_float32_softmax_bits(torch, shape, scale):
    rng = np.random.default_rng(int(scale * 10) + len(shape))
    data = (rng.standard_normal(shape) * scale).astype(np.float32)
    if data.size > 4:
        data.flat[1], data.flat[-2] = -np.inf, np.inf       # a row with inf: nan, as in PyTorch
    for function in ("softmax", "log_softmax"):
        mine = getattr(minigrad.tensor(data), function)(-1).numpy()
        ref = getattr(torch.tensor(data), function)(-1).numpy()
        np.testing.assert_array_equal(mine, ref, err_msg=function)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("shape", [(3,), (2, 3), (4, 5)])
def test_kl_div_of_softmax_with_itself_bits(torch, seed, shape):
    data = np.random.default_rng(seed).uniform(-2, 2, size=shape).astype(np.float32)

    def kl(L):
        x = L.tensor(data)
        return L.nn.functional.kl_div(x.log_softmax(-1), x.softmax(-1), reduction="batchmean").item()
    assert kl(minigrad) == kl(torch)


def _graph(node, depth=3):
    """A node's name and those below it, ``depth`` levels deep."""
    if node is None or depth == 0:
        return None
    return (node.name().split("::")[-1], tuple(_graph(n, depth - 1) for n, _ in node.next_functions))


# matmul of two batches where one is a batch of one matrix that needs a gradient: PyTorch
# squeezes it into a matrix (mm) only when both are 3-D; with more batch dims it uses bmm
@pytest.mark.parametrize("shapes", [((1, 3, 1), (2, 1, 3)), ((2, 3, 1), (1, 1, 3)),
                                    ((1, 1, 3, 1), (2, 1, 1, 3)), ((2, 1, 3, 1), (1, 1, 1, 3)),
                                    ((1, 2, 3, 1), (1, 1, 1, 3)), ((1, 1, 1, 3, 1), (2, 1, 1, 1, 3))])
@pytest.mark.parametrize("requires_grad", [(True, False), (False, True), (True, True)])
def test_matmul_of_a_batch_of_one_matrix(torch, shapes, requires_grad):
    def run(L):
        a, b = (L.ones(*shape, requires_grad=flag) for shape, flag in zip(shapes, requires_grad))
        out = a @ b
        out.sum().backward()
        return _graph(out.grad_fn), [t.grad.tolist() for t in (a, b) if t.requires_grad]
    assert run(minigrad) == run(torch)


# bmm and baddbmm of bools: PyTorch's kernel (chosen by the first batch's dtype) refuses them
# before comparing the dtypes; with nothing to multiply it returns before both checks
@pytest.mark.parametrize("fn", [
    lambda L: L.bmm(L.ones(1, 2, 3, dtype=L.bool), L.ones(1, 3, 2)),
    lambda L: L.ones(1, 2, 3, dtype=L.bool).bmm(L.ones(1, 3, 2, dtype=L.int64)),
    lambda L: L.baddbmm(L.ones(1, 2, 2, dtype=L.bool), L.ones(1, 2, 3, dtype=L.bool), L.ones(1, 3, 2)),
    lambda L: L.bmm(L.ones(1, 2, 3), L.ones(1, 3, 2, dtype=L.bool)),
    lambda L: L.bmm(L.ones(1, 2, 3, dtype=L.bool), L.ones(1, 4, 2)),          # sizes first
    lambda L: L.bmm(L.ones(1, 2, 0, dtype=L.bool), L.ones(1, 0, 2)),
    lambda L: L.bmm(L.ones(0, 2, 3, dtype=L.bool), L.ones(0, 3, 2, dtype=L.bool)),
    lambda L: L.ones(1, 2, 3, dtype=L.bool) @ L.ones(1, 3, 2),
])
def test_batched_products_of_bools(torch, fn):
    assert_same(fn, torch)


# scatter/scatter_add compare self's and src's dtypes before the index's shape (after its dtype)
@pytest.mark.parametrize("fn", [
    lambda L: L.zeros(2, 0, dtype=L.float64).scatter_(0, L.zeros(1, 1, dtype=L.int64), L.ones(1, 1)),
    lambda L: L.zeros(2, 3, dtype=L.float64).scatter(0, L.zeros(1, 4, dtype=L.int64), L.ones(1, 1)),
    lambda L: L.zeros(2, 3).scatter_(0, L.zeros(1, dtype=L.int64), L.ones(1, 1, dtype=L.float64)),
    lambda L: L.zeros(2, 3).scatter_add(0, L.zeros(1, 4, dtype=L.int64), L.ones(1, 4, dtype=L.float64)),
    lambda L: L.zeros(2, 3).scatter_(0, L.zeros(1, 1, dtype=L.int32), L.ones(1, 1, dtype=L.float64)),
    lambda L: L.zeros(2, 3).scatter_(0, L.ones(1, 1), L.ones(1, 1, dtype=L.float64)),
    lambda L: L.zeros(2, 3).scatter_(2, L.zeros(1, 1, dtype=L.int64), L.ones(1, 1, dtype=L.float64)),
    lambda L: L.zeros(2, 3).scatter_(0, L.full((1, 1), 5), L.ones(1, 1, dtype=L.float64)),
    lambda L: L.zeros(2, 3).scatter_(0, L.zeros(1, 4, dtype=L.int64), L.ones(1, 1)),
])
def test_scatter_checks_dtypes_before_shapes(torch, fn):
    assert_same(fn, torch)


# nll_loss/cross_entropy with a label per position and no elements: PyTorch views the input as
# N x C x 0 x 0 (and the target as N x 0 x 0), as -1 could be any size
@pytest.mark.parametrize("input_shape", [(0, 1, 3), (0, 2, 3), (1, 0, 3), (2, 0, 3, 1),
                                         (0, 2, 1, 3, 1), (1, 2, 0, 3), (2, 3, 0)])
@pytest.mark.parametrize("reduction", ["sum", "mean", "none"])
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
def test_losses_per_position_without_elements(torch, input_shape, reduction, loss):
    target_shape = input_shape[:1] + input_shape[2:]

    def run(L):
        x = L.zeros(input_shape, requires_grad=True)
        out = getattr(L.nn.functional, loss)(x, L.zeros(target_shape, dtype=L.int64),
                                              reduction=reduction)
        out.sum().backward()
        return tuple(out.shape), out.grad_fn.name(), tuple(x.grad.shape)
    assert outcome_of(run, minigrad) == outcome_of(run, torch)


def outcome_of(run, L):
    """run(L), or the exception's class and first line."""
    try:
        return run(L)
    except Exception as error:          # the two libraries must fail alike
        return type(error).__name__, str(error).splitlines()[0]


# an integer index out of bounds: PyTorch's message counts its position among the index's items
# as written, the ellipsis as one item (x[..., 7] of a 3-D x names "dimension 1")
@pytest.mark.parametrize("shape, index", [
    ((0,), (Ellipsis, -1)), ((3,), (Ellipsis, 5)), ((2, 3, 4), (Ellipsis, 7)),
    ((2, 0), (0, Ellipsis, -1)), ((0, 2), (Ellipsis, -1, 1)), ((2, 3), (slice(None), Ellipsis, 5)),
    ((2, 3, 4), (0, Ellipsis, 7)), ((2, 3), (None, Ellipsis, 5)), ((2, 3), (Ellipsis, None, 5)),
    ((2, 3), (0, None, 5)), ((2, 3), (Ellipsis, [0], 5)), ((0,), -1),
])
def test_index_out_of_bounds_names_the_items_position(torch, shape, index):
    assert_same(lambda L: L.ones(shape, requires_grad=True)[index], torch)


# zeros(), ones(), empty(), rand(), randn() and new_zeros() without a size: PyTorch's TypeError
@pytest.mark.parametrize("fn", [
    lambda L: L.zeros(), lambda L: L.ones(requires_grad=True), lambda L: L.empty(),
    lambda L: L.rand(), lambda L: L.randn(requires_grad=True), lambda L: L.tensor(1.0).new_zeros(),
    lambda L: L.tensor(1.0).new_ones(), lambda L: L.zeros(()), lambda L: L.tensor(1.0).new_ones([]),
])
def test_factories_without_a_size(torch, fn):
    assert_same(fn, torch)


# clamp_min_/clamp_max_ with a bound sharing self's memory: PyTorch checks the no_grad view, then
# the overlap, before the shapes (as clamp_ does)
@pytest.mark.parametrize("method", ["clamp_max_", "clamp_min_"])
@pytest.mark.parametrize("fn", [
    lambda x, m: getattr(x, m)(x[1:]),
    lambda x, m: getattr(x[1:], m)(x[:-1]),
    lambda x, m: getattr(x[1:], m)(x),
    lambda x, m: getattr(x, m)(x[:1]),
    lambda x, m: getattr(x, m)(x[::2]),            # not dense: the shapes' error
    lambda x, m: getattr(x[::2], m)(x[1:2]),
    lambda x, m: getattr(x, m)(x),
    lambda x, m: getattr(x.view(2, 2), m)(x.view(2, 2).t()),
])
@pytest.mark.parametrize("no_grad_view", [False, True])
def test_clamp_one_side_with_a_bound_sharing_memory(torch, method, fn, no_grad_view):
    def run(L):
        leaf = L.arange(4.0, requires_grad=True)
        x = leaf * 1
        if no_grad_view:
            with L.no_grad():
                x = x[:]
        fn(x, method)
        return x
    assert_same(run, torch)


# add/sub with an alpha under create_graph: PyTorch's backward multiplies by the number
# (MulBackward1; sub negates first: NegBackward0)
@pytest.mark.parametrize("fn", [
    lambda L, a, b: L.add(a, b, alpha=2), lambda L, a, b: L.sub(a, b, alpha=2),
    lambda L, a, b: a.add(b, alpha=0.5), lambda L, a, b: L.sub(a, b, alpha=-1),
    lambda L, a, b: (a * 1).add_(b, alpha=3), lambda L, a, b: (a * 1).sub_(b, alpha=3),
    lambda L, a, b: L.add(a, b.double(), alpha=3), lambda L, a, b: L.sub(a, b),
])
def test_alpha_in_recorded_gradients(torch, fn):
    def run(L):
        x, y = L.ones(3, requires_grad=True), L.ones(3, requires_grad=True)
        out = fn(L, x, y)
        _, gy = L.autograd.grad(out, [x, y], grad_outputs=L.ones(3, dtype=out.dtype, requires_grad=True),
                                create_graph=True)
        return _graph(gy.grad_fn), gy.tolist(), str(gy.dtype).split(".")[-1]
    assert run(minigrad) == run(torch)


# number ** x saves its result, as PyTorch: a change of it in place makes backward refuse, and
# the recorded gradient is grad * (result * log(number)) (0 ** x: 0 where x >= 0)
@pytest.mark.parametrize("base", [2, 3.0, 0, 0.0, 1, 0.5, -2.0])
def test_number_to_a_tensor_power(torch, base):
    def run(L):
        x = L.tensor([0.5, -1.0, 0.0, 2.0], requires_grad=True)
        (gx,) = L.autograd.grad((base ** x).sum(), x, create_graph=True)
        (ggx,) = L.autograd.grad(gx.sum(), x)
        return _graph(gx.grad_fn, 4), np.round(gx.tolist(), 5).tolist(), np.round(ggx.tolist(), 5).tolist()
    assert str(run(minigrad)) == str(run(torch))

    def changed(L):
        y = base ** L.tensor([0.5], requires_grad=True)
        y.mul_(2)
        y.sum().backward()
        return y
    assert_same(changed, torch)


# clamp_ by numbers that the tensor's dtype cannot hold: PyTorch's kernel for numbers names the
# C++ type ('bool', 'long int'); bools between bools have no kernel at all
@pytest.mark.parametrize("fn", [
    lambda L: L.tensor([True]).clamp_(-0.5, 0.5), lambda L: L.tensor([True]).clamp_(max=2),
    lambda L: L.tensor([1]).clamp_(-0.5, 0.5), lambda L: L.tensor([1], dtype=L.int8).clamp_(0.5),
    lambda L: L.tensor([True]).clip_(-0.5, 0.5), lambda L: L.tensor([True]).clamp_(L.tensor(0.5)),
    lambda L: L.tensor([True]).clamp_(True, False), lambda L: L.tensor([True]).clamp_(min=True),
    lambda L: L.tensor([True]).clamp(max=False), lambda L: L.tensor([True]).clamp_min(True),
    lambda L: L.tensor([1]).clamp_(0, 2), lambda L: L.tensor([True]).clamp(0, 1),
])
def test_clamp_by_numbers_a_dtype_cannot_hold(torch, fn):
    assert_same(fn, torch)


# a gradient cast to its tensor's dtype is new memory: added into in place when a second
# gradient arrives (_version 1), adopted as a leaf's .grad (0), whatever its shape
@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 1, 3), (1, 1), (2, 0), (0,)])
def test_cast_gradients_are_new_memory(torch, shape):
    def run(L):
        x = L.ones(shape, requires_grad=True)
        (g,) = L.autograd.grad([x.double() + x], [x], grad_outputs=[L.ones(shape, dtype=L.float64)])
        leaf = L.ones(shape, requires_grad=True)
        leaf.double().backward(L.ones(shape, dtype=L.float64))
        return g._version, leaf.grad._version, leaf.grad.stride()
    assert run(minigrad) == run(torch)


# x[-1] of a 0-d result that PyTorch's kernel shrank from a tensor: its indexing reads the
# size that tensor's first dim had (1 for a reduction along a dim, which squeezes its kept dim
# away; the number of rows for a loss reduced in the same tensor), so it says "select() cannot
# be applied to a 0-dim tensor." for an index within that size, and names that size otherwise
# (found by random programs: a chain ending in x[-1], after max(0), then nanquantile)
@pytest.mark.parametrize("index", [-1, 1, 2, 3, -4, 0])
@pytest.mark.parametrize("fn", [
    lambda L, x: x.max(0)[0], lambda L, x: x.min(0)[1], lambda L, x: x.kthvalue(1)[0],
    lambda L, x: x.mode(0)[0], lambda L, x: x.aminmax(dim=0)[1], lambda L, x: x.quantile(0.5),
    lambda L, x: x.nanquantile(0.5, dim=0), lambda L, x: x[0].max(0)[0],
    lambda L, x: L.nn.functional.mse_loss(x, x * 2), lambda L, x: L.nn.functional.smooth_l1_loss(x, x * 2),
    lambda L, x: L.nn.functional.soft_margin_loss(x, x.sign()),
    lambda L, x: L.nn.functional.binary_cross_entropy(x.sigmoid(), x.sigmoid(), reduction="sum"),
    lambda L, x: L.nn.functional.mse_loss(x[0], x[1]), lambda L, x: x.max(), lambda L, x: x.median(0)[0],
])
def test_indexing_a_0d_result_shrunk_from_a_tensor(torch, index, fn):
    assert_same(lambda L: fn(L, L.tensor([1.0, 2.0, 3.0]))[index], torch)


@pytest.mark.parametrize("index", [-1, 1, 5, 0])
def test_indexing_other_zero_dim_tensors(torch, index):
    assert_same(lambda L: L.tensor([1.0, 2.0, 3.0], requires_grad=True).sum()[index], torch)


# a Python number given for a tensor input (x * 2) is saved as PyTorch's wrapped number, a
# 0-d tensor: grad_fn._saved_other shows tensor(2) (int64), tensor(2., dtype=float64), tensor(True)
@pytest.mark.parametrize("fn", [
    lambda L, x: (x * 2).grad_fn._saved_other, lambda L, x: (x * 2.5).grad_fn._saved_other,
    lambda L, x: (x * True).grad_fn._saved_other, lambda L, x: (x / 2).grad_fn._saved_other,
    lambda L, x: (2 * x).grad_fn._saved_other, lambda L, x: L.mul(x, 3).grad_fn._saved_other,
    lambda L, x: (x ** 2).grad_fn._saved_exponent, lambda L, x: x.mul(2.0).grad_fn._saved_self,
])
def test_numbers_saved_as_wrapped_numbers(torch, fn):
    def run(L):
        value = fn(L, L.tensor([1.0, 2.0], requires_grad=True))
        if isinstance(value, L.Tensor):
            return "tensor", value.tolist(), str(value.dtype).split(".")[-1], value.dim()
        return value
    assert run(minigrad) == run(torch)


# SelectBackward0 and SliceBackward0 show PyTorch's settings: dim, index, start, end and step
# as given (negative ones as the unsigned 64-bit number of the same bits, a slice without an
# end as the largest int64), and dir() of a node lists only PyTorch's _saved_* names
@pytest.mark.parametrize("view", [
    lambda x: x[1], lambda x: x[:, 2], lambda x: x[-1], lambda x: x[1:3], lambda x: x[:, 1:],
    lambda x: x[::2], lambda x: x[:, -3:-1], lambda x: x[1:100], lambda x: x.narrow(1, 1, 2),
    lambda x: x[..., 1], lambda x: x.select(-1, 1), lambda x: x.select(-1, -2),
    lambda x: x.narrow(-1, -3, 2), lambda x: x[1:-1], lambda x: x[-100:2], lambda x: x[None, 1:2],
    lambda x: x[1, 2:], lambda x: x[:, 0:5], lambda x: x.exp(), lambda x: x * 2,
])
def test_select_and_slice_settings(torch, view):
    def run(L):
        node = view(L.zeros(4, 5, requires_grad=True)).grad_fn
        shown = {name: getattr(node, name) for name in dir(node) if name.startswith("_saved")}
        return node.name(), {name: (value.tolist() if isinstance(value, L.Tensor) else value)
                             for name, value in shown.items()}
    assert run(minigrad) == run(torch)


# mode sorts each row with C++'s std::sort (not stable; NaN neither smaller nor larger than
# anything), then takes the first longest run of equal neighbours, at its last element: which
# position wins among equal values, and whether NaNs split a run, follow that sort
@pytest.mark.parametrize("row", [
    [1.0, "nan", 1.0], [1.0, "nan", "nan"], [1.0, "nan"], [2.0, "nan", 1.0, "nan", 2.0],
    [[0.0, 1.0, 2.0], ["nan", 1.0, "nan"]], [1.0, 1.0, 1.0], [3.0, 1.0, 3.0, 1.0],
])
@pytest.mark.parametrize("dim", [0, -1])
def test_mode_with_nans_and_ties(torch, row, dim):
    def run(L):
        values, indices = L.tensor(np.array(row, dtype=np.float32)).mode(dim)
        return str(values.tolist()), indices.tolist()       # (str: NaN == NaN)
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("seed", range(6))
def test_mode_of_long_rows_with_many_ties(torch, seed):
    """Rows longer than 16 elements are quicksorted first, which moves equal values about."""
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 4, size=(3, 17 + 40 * seed)).astype(np.float64)
    data[rng.random(data.shape) < 0.2 * (seed % 3)] = np.nan
    ours, theirs = minigrad.tensor(data).mode(1), torch.tensor(data).mode(1)
    assert ours.indices.tolist() == theirs.indices.tolist()
    np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
    ints = rng.integers(0, 3, size=(2, 30))
    assert minigrad.tensor(ints).mode().indices.tolist() == torch.tensor(ints).mode().indices.tolist()


# an in-place change of overlapping unfold windows: PyTorch cannot tell cheaply that the
# windows share memory, lets the change through and works element by element, so a location
# seen in three windows is changed three times (and its gradient follows those values)
@pytest.mark.parametrize("change", [
    lambda L, w: w.add_(1), lambda L, w: w.mul_(2), lambda L, w: w.exp_(), lambda L, w: w.neg_(),
    lambda L, w: w.div_(2), lambda L, w: w.pow_(2), lambda L, w: w.sin_(), lambda L, w: w.t().add_(1),
    lambda L, w: w.sub_(L.ones(3), alpha=2), lambda L, w: w.pow_(L.tensor([2.0, 1.0, 2.0])),
    lambda L, w: w.mul_(L.tensor([1.0, 2.0, 3.0])), lambda L, w: w.zero_(), lambda L, w: w.fill_(2),
    lambda L, w: w.clamp_(0, 1), lambda L, w: w.relu_(),
])
@pytest.mark.parametrize("recorded", [False, True])
def test_in_place_changes_of_overlapping_unfold_windows(torch, change, recorded):
    def run(L):
        x = L.arange(5.0, requires_grad=recorded)
        y = x.clone() if recorded else x
        change(L, y.unfold(0, 3, 1))
        if not recorded:
            return y.tolist(), None, []
        y.sum().backward()
        return y.tolist(), y.grad_fn.name(), x.grad.tolist()
    (ours, node, grad), (theirs, torch_node, torch_grad) = run(minigrad), run(torch)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)     # (exp of exp: float32's last bits)
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-6)
    assert node == torch_node


@pytest.mark.parametrize("fn", [
    lambda L: L.arange(5).unfold(0, 3, 1).add_(1.5), lambda L: L.arange(5).unfold(0, 3, 1).sin_(),
    lambda L: L.arange(5).unfold(0, 3, 1).add_(2, alpha=3),
    lambda L: L.arange(12.0).view(3, 4).unfold(0, 2, 1).mul_(3),
    lambda L: L.arange(5.0).unfold(0, 3, 2).add_(1),
])
def test_in_place_changes_of_unfold_windows_of_other_dtypes_and_steps(torch, fn):
    assert_same(fn, torch)


# count_nonzero has no keepdim: PyTorch's parser matches neither of its two signatures
# (dim an int or a tuple of ints) and lists what it got, keywords last given first, without the
# tensor for the method; the method also takes dims one by one
@pytest.mark.parametrize("fn", [
    lambda L, x: x.count_nonzero(keepdim=True), lambda L, x: x.count_nonzero(0, keepdim=True),
    lambda L, x: L.count_nonzero(x, keepdim=True), lambda L, x: L.count_nonzero(x, 0, keepdim=True),
    lambda L, x: L.count_nonzero(x, dim=0, keepdim=True), lambda L, x: x.count_nonzero(foo=1, dim=0, keepdim=True),
    lambda L, x: x.count_nonzero(0, 1), lambda L, x: L.count_nonzero(x, 0, 1), lambda L, x: x.count_nonzero(0, dim=1),
    lambda L, x: x.count_nonzero(True), lambda L, x: x.count_nonzero(dim=1.5), lambda L, x: x.count_nonzero((1.5, 0)),
    lambda L, x: x.count_nonzero((0, 1.5)), lambda L, x: L.count_nonzero(x, (0, 0, "a")),
    lambda L, x: x.count_nonzero(0, None), lambda L, x: x.count_nonzero(dim=(0, 1)), lambda L, x: x.count_nonzero(-1),
])
def test_count_nonzero_arguments(torch, fn):
    assert_same(lambda L: fn(L, L.tensor([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]])), torch)


# Python numbers stored in an integer dtype: an unsigned one takes a negative int down to minus
# its largest value and wraps it around (ByteTensor([-1]) is 255); anything else out of range,
# and floats out of range (NaN, inf, -0.5 for uint8), are refused
@pytest.mark.parametrize("fn", [
    lambda L: L.ByteTensor([-1]), lambda L: L.ByteTensor([-255]), lambda L: L.ByteTensor([-256]),
    lambda L: L.ByteTensor([256]), lambda L: L.ByteTensor([-0.5]), lambda L: L.ByteTensor([255.9]),
    lambda L: L.ByteTensor([[1, -2]]), lambda L: L.CharTensor([200]), lambda L: L.IntTensor([2**40]),
    lambda L: L.ShortTensor([70000]), lambda L: L.tensor(-1, dtype=L.uint8),
    lambda L: L.tensor([True, -1], dtype=L.uint8), lambda L: L.tensor([-1, 0.5], dtype=L.uint8),
    lambda L: L.tensor([float("nan")], dtype=L.uint8), lambda L: L.tensor([float("inf")], dtype=L.int32),
    lambda L: L.tensor([2**63]), lambda L: L.tensor(2**64, dtype=L.uint8), lambda L: L.tensor([-2**63]),
    lambda L: L.as_tensor([-1], dtype=L.uint8), lambda L: L.full((2,), -1, dtype=L.uint8),
    lambda L: L.full((2,), 256, dtype=L.uint8), lambda L: L.full((2,), -1.5, dtype=L.uint8),
    lambda L: L.full((2,), 2**63), lambda L: L.tensor([1.5], dtype=L.int64),
])
def test_numbers_out_of_an_integer_dtype_range(torch, fn):
    assert_same(fn, torch)


# clamp by numbers: the result's dtype comes from the tensor and both bounds
@pytest.mark.parametrize("bounds", [(True, 1), (1, True), (True, 1.0), (1.0, True), (False, 1), (0, 1)])
@pytest.mark.parametrize("values", [[True, False], [1, 2]])
def test_clamp_by_numbers_takes_both_bounds_dtypes(torch, bounds, values):
    assert_same(lambda L: L.tensor(values).clamp(*bounds), torch)


# x[..., :1] = v into an expanded gradient (a view made by the engine, outside recording):
# when v requires grad, PyTorch's no_grad-view error comes before the expanded-memory one
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("value_requires_grad", [False, True])
@pytest.mark.parametrize("shape", [(2, 1, 3), (3,), (1, 3)])
def test_writing_into_an_expanded_gradient(torch, create_graph, value_requires_grad, shape):
    def fn(L):
        x = L.ones(shape, requires_grad=True)
        (g,) = L.autograd.grad(x.sum(), [x], create_graph=create_graph)
        g[..., :1] = L.tensor([2.0], requires_grad=value_requires_grad)
        return g
    assert_same(fn, torch)


# movedim of a 0-d tensor (dim 0 or -1): nothing to move, PyTorch gives an alias
@pytest.mark.parametrize("fn", [
    lambda L, x: x.movedim(-1, 0), lambda L, x: x.movedim(0, -1), lambda L, x: x.moveaxis((0,), (-1,)),
    lambda L, x: x.movedim(1, 0), lambda L, x: x.movedim((0, 0), (0, 0)),
])
def test_movedim_of_a_zero_dim_tensor(torch, fn):
    assert_same(lambda L: fn(L, L.tensor(1.5, requires_grad=True)), torch)

    def node(L):
        try:
            return fn(L, L.tensor(1.5, requires_grad=True)).grad_fn.name()
        except Exception as error:
            return type(error).__name__
    assert node(minigrad) == node(torch)


# the in-place forms of the functions with more inputs (hypot_, lerp_, addcmul_, copysign_, ...)
# refuse an input that partly overlaps the memory they write, as PyTorch's kernels do
@pytest.mark.parametrize("fn", [
    lambda L, x: x.hypot_(x[:1]), lambda L, x: x.lerp_(x[:1], 0.5), lambda L, x: x.addcmul_(x[1:], x[1:]),
    lambda L, x: x.addcmul_(x, x), lambda L, x: x.hypot_(x), lambda L, x: x[:2].copysign_(x[1:]),
    lambda L, x: x.addcdiv_(x, x[:1] + 1),
])
def test_in_place_functions_with_more_inputs_and_overlapping_memory(torch, fn):
    def run(L):
        x = L.arange(3.0)
        fn(L, x)
        return x
    assert_same(run, torch)


# register_hook looks at grad_fn at the first hook only (PyTorch's Tensor.register_hook): a
# no_grad view whose base changed in place since then takes another hook without the
# lost-history error; a first hook after the change is refused
@pytest.mark.parametrize("first_hook", [True, False])
@pytest.mark.parametrize("view", [lambda x: x.chunk(3)[-1], lambda x: x.swapaxes(0, -1), lambda x: x[1:]])
def test_hooks_on_a_no_grad_view_whose_base_changed(torch, first_hook, view):
    def run(L):
        x = L.ones(3, requires_grad=True)
        with L.no_grad():
            v = view(x)
            if first_hook:
                v.register_hook(lambda g: None)
            x.relu_()
        v.register_hook(lambda g: None)
        return v
    assert_same(run, torch)


# lerp names the C++ types in its dtype errors ('long int'), and reads a 0-d weight as a number
# of any dtype (still an input: its gradient comes back in its own dtype)
@pytest.mark.parametrize("fn", [
    lambda L: L.lerp(L.ones(3), L.tensor(1), 0.3), lambda L: L.lerp(L.ones(3), L.tensor([1], dtype=L.int16), 0.3),
    lambda L: L.lerp(L.ones(3), L.ones(3), L.tensor([1])), lambda L: L.lerp(L.ones(3), L.ones(3), L.tensor(2)),
    lambda L: L.lerp(L.ones(3), L.zeros(3), L.tensor(True)), lambda L: L.ones(3).lerp_(L.zeros(3), L.tensor(2)),
    lambda L: L.lerp(L.ones(3, dtype=L.float64), L.zeros(3, dtype=L.float64), L.tensor(0.25)),
])
def test_lerp_dtypes(torch, fn):
    assert_same(fn, torch)


def test_lerp_by_a_zero_dim_weight_of_another_dtype_is_differentiable(torch):
    def run(L):
        a, w = L.ones(3, requires_grad=True), L.tensor(0.5, dtype=L.float64, requires_grad=True)
        out = L.lerp(a, L.zeros(3), w)
        out.sum().backward()
        return out.grad_fn.name(), w.grad.item(), str(w.grad.dtype).split(".")[-1], a.grad.tolist()
    assert run(minigrad) == run(torch)


# prod of an empty tensor (or over an empty dim): the gradient is PyTorch's grad * (result /
# input), recorded under create_graph=True; gradients of empty leaves used twice are laid out
# and versioned as PyTorch's
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
@pytest.mark.parametrize("dim", [None, 0, -1])
def test_gradient_of_an_empty_product(torch, shape, dim):
    def run(L):
        x = L.ones(shape, requires_grad=True)
        y = x.prod() if dim is None else x.prod(dim)
        (g,) = L.autograd.grad(y.sum(), [x], create_graph=True)
        node = g.grad_fn
        return tuple(g.shape), g.requires_grad, node.name() if node else None, g.stride()
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("made", ["numpy data", "zeros"])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
def test_empty_leaf_used_twice_through_a_cast(torch, made, shape):
    def run(L):
        x = (L.tensor(np.zeros(shape, np.float32), requires_grad=True) if made == "numpy data"
             else L.zeros(shape, requires_grad=True))
        (x.double().sum() + x.double().sum()).backward()
        (g,) = L.autograd.grad(x.double().sum() + x.double().sum(), [x])
        return x.grad.stride(), x.grad._version, g.stride(), g._version
    assert run(minigrad) == run(torch)


# addcmul/addcdiv broadcast input with tensor1 first, then the two with tensor2: the first
# pair that does not fit is the one PyTorch's message names
@pytest.mark.parametrize("shapes", [((3,), (2,), (3,)), ((3,), (3,), (2,)), ((2,), (3,), (3,)),
                                    ((3,), (2,), (4,)), ((2, 3), (3, 1), (4,)), ((2, 3), (3,), (4, 1))])
@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
def test_addcmul_addcdiv_broadcast_errors(torch, shapes, name):
    assert_same(lambda L: getattr(L, name)(*(L.ones(shape) for shape in shapes)), torch)


# index_fill along a dim of size 0 with positions to fill: PyTorch's kernel views the empty
# tensor with a step of 0 along dim and fails for want of memory (before checking positions)
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(0).index_fill_(0, L.tensor([0]), 1.0), lambda L: L.ones(0).index_fill(0, L.tensor([-1]), 1.0),
    lambda L: L.ones(0, 3).index_fill(0, L.tensor([0]), 1.0), lambda L: L.ones(2, 0).index_fill(1, L.tensor([0]), 1.0),
    lambda L: L.ones(2, 0).index_fill(0, L.tensor([0]), 1.0), lambda L: L.ones(0).index_fill(0, L.tensor([], dtype=L.long), 1.0),
    lambda L: L.ones(0, dtype=L.float64).index_fill(0, L.tensor([0]), L.tensor(1.0)),
    lambda L: L.ones(0, 3).t().index_fill(1, L.tensor([0]), 1.0),
])
def test_index_fill_along_an_empty_dim(torch, fn):
    assert_same(fn, torch)


# index_fill_ of an expanded tensor (an expanded gradient) warns and writes, as PyTorch does:
# a location becomes the value if any of its positions is filled
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(()).expand(3).index_fill_(0, L.tensor([0]), 2.0),
    lambda L: L.ones(3)[:1].expand(2, 3).index_fill_(1, L.tensor([0]), 2.0),
    lambda L: L.ones(3)[:1].expand(2, 3).index_fill_(0, L.tensor([0]), 0.0),
    lambda L: L.arange(3.0)[None].expand(2, 3).index_fill_(1, L.tensor([1]), 0.0),
    lambda L: L.ones(()).expand(3).index_fill_(0, L.tensor([5]), 2.0),
])
def test_index_fill_of_an_expanded_tensor(torch, fn):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert_same(fn, torch)
    assert all("index_fill_ on expanded tensors is deprecated" in str(w.message) for w in caught)


# linear of a 0-d input or weight: PyTorch's message names linear (not the matmul inside it),
# with a bias too
@pytest.mark.parametrize("fn", [
    lambda L: L.nn.functional.linear(L.ones(()), L.ones(1, 3)),
    lambda L: L.nn.functional.linear(L.ones(3), L.ones(())),
    lambda L: L.nn.functional.linear(L.ones(()), L.ones(1), L.ones(1)),
    lambda L: L.nn.functional.linear(L.ones(3, requires_grad=True), L.ones(()), L.ones(1)),
])
def test_linear_of_a_0d_tensor(torch, fn):
    assert_same(fn, torch)


# copysign: the gradient for other is zeros of other's shape and dtype, zeroed in place
# (PyTorch's zeros_like): version 1, or 2 once another gradient is added into it
@pytest.mark.parametrize("shapes", [((3,), (3,), "float32"), ((2, 3), (3,), "float64"), ((3,), (), "float32"),
                                    ((), (3,), "float64")])
def test_copysign_gradient_for_other(torch, shapes):
    x_shape, y_shape, y_dtype = shapes
    seen = []
    for L in (minigrad, torch):
        x = L.ones(x_shape, requires_grad=True)
        y = L.ones(y_shape, dtype=getattr(L, y_dtype), requires_grad=True)
        (L.copysign(x, y) + y).sum().backward()
        seen.append((y.grad._version, str(y.grad.dtype), tuple(y.grad.shape), y.grad.tolist(), x.grad._version))
    assert seen[0] == seen[1]


# a node's post-hook sees the gradients for its inputs already summed to their shapes and cast
# to their dtypes (PyTorch checks them before the hooks run)
def test_node_post_hook_sees_fitted_gradients(torch):
    seen = []
    for L in (minigrad, torch):
        x = L.ones(2, 3, requires_grad=True)
        y = L.ones(3, dtype=L.float64, requires_grad=True)
        z = x * y
        z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
            [(tuple(g.shape), str(g.dtype), g.tolist()) for g in grad_inputs]))
        z.sum().backward()
    assert seen[0] == seen[1]


# index_copy along a dim of size 0 with positions: PyTorch's kernel fails for want of memory
# before it checks the positions (as index_fill does)
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(0).index_copy(0, L.tensor([0]), L.ones(1)),
    lambda L: L.ones(0, 3).index_copy_(0, L.tensor([5]), L.ones(1, 3)),
    lambda L: L.ones(2, 0).index_copy(0, L.tensor([1]), L.ones(1, 0)),
    lambda L: L.ones(0).index_copy(0, L.tensor([], dtype=L.long), L.ones(0)),
])
def test_index_copy_along_an_empty_dim(torch, fn):
    assert_same(fn, torch)


# as_strided_scatter keeps input's dtype: a bool or integer result of an input or source that
# requires grad cannot carry a gradient, and PyTorch refuses to record it
@pytest.mark.parametrize("fn", [
    lambda L: L.as_strided_scatter(L.tensor([True, False]), L.ones(1, requires_grad=True), (1,), (1,), 0),
    lambda L: L.as_strided_scatter(L.tensor([1, 2]), L.ones(3, requires_grad=True)[:1], (1,), (1,), 0),
    lambda L: L.as_strided_scatter(L.tensor([1, 2]), L.ones(1), (1,), (1,), 0),
    lambda L: L.as_strided_scatter(L.ones(2, dtype=L.float64), L.ones(1, requires_grad=True), (1,), (1,), 1),
])
def test_as_strided_scatter_into_a_dtype_without_gradients(torch, fn):
    assert_same(fn, torch)


# binary_cross_entropy refuses targets outside [0, 1] (NaN too); element by element, the input's
# value is checked before the target's
@pytest.mark.parametrize("fn", [
    lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5]), L.tensor([float("nan")])),
    lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5, 0.2]), L.tensor([0.5, 1.5])),
    lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5, 1.5]), L.tensor([-0.1, 0.5])),
    lambda L: L.nn.functional.binary_cross_entropy(L.tensor([1.5, 0.5]), L.tensor([0.5, float("nan")])),
    lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.3, 0.9]), L.tensor([0.0, 1.0])),
])
def test_binary_cross_entropy_target_outside_0_1(torch, fn):
    assert_same(fn, torch)


# the gradient of mish and silu (float32, nothing recorded) of a 0-d leaf is new memory .grad
# adopts as it is, at version 0 (numpy had made it a scalar, which was copied)
@pytest.mark.parametrize("name", ["mish", "silu"])
def test_gradient_of_a_0d_activation_is_adopted(torch, name):
    for L in (minigrad, torch):
        x = L.tensor(0.7, requires_grad=True)
        getattr(L.nn.functional, name)(x).backward()
        assert x.grad._version == 0 and x.grad.shape == ()


# mm's gradient computed transposed (for a column-major factor, as every 1x1 matrix is) is a
# view in PyTorch: a second gradient for the same tensor is added out of place
@pytest.mark.parametrize("shape, product", [
    (shape, product) for shape in [(1, 1), (2, 2), (1, 3)]
    for product in ["c@c", "c@c.t", "c.t@c", "c.t@c.t"]
    if shape[0] == shape[1] or product in ("c@c.t", "c.t@c")])
def test_version_of_gradients_added_to_a_transposed_product(torch, shape, product):
    versions = []
    for L in (minigrad, torch):
        c = L.ones(shape, requires_grad=True) * 1
        left = c.t() if product.startswith("c.t") else c
        right = c.t() if product.endswith("c.t") else c
        seen = []
        c.grad_fn.register_prehook(lambda grads: seen.append(grads[0]._version))
        left.mm(right).sum().backward()
        versions.append(seen)
    assert len(set(map(tuple, versions))) <= 1, versions


# an in-place binary operation whose other is a view of self's memory of another shape or
# offset: PyTorch refuses the partial overlap before it compares shapes or dtypes
@pytest.mark.parametrize("name", ["logical_and_", "logical_xor_", "eq_", "lt_", "ge_", "nextafter_",
                                  "igamma_", "gcd_", "bitwise_and_", "add_", "atan2_"])
@pytest.mark.parametrize("view", ["unflatten", "offset"])
def test_in_place_with_a_partly_overlapping_other(torch, name, view):
    def fn(L):
        x = L.tensor([1.0, 0.0, 3.0])
        other = x.unflatten(0, (1, 3)) if view == "unflatten" else x.as_strided((2,), (1,), 1)
        return getattr(x, name)(other)
    assert_same(fn, torch)


# aminmax over an empty dim names the dim wrapped (0, not -1); addbmm names batch1 'mat1' when
# it is the one whose dtype differs
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(0).aminmax(dim=-1)[0], lambda L: L.ones(2, 0).aminmax(dim=-1, keepdim=True)[1],
    lambda L: L.addbmm(L.ones((), dtype=L.float64), L.ones(1, 1, 3), L.ones(1, 3, 1, dtype=L.float64)),
    lambda L: L.addbmm(L.ones(()), L.ones(1, 1, 3), L.ones(1, 3, 1, dtype=L.float64)),
    lambda L: L.addbmm(L.ones((), dtype=L.float64), L.ones(1, 1, 3), L.ones(1, 3, 1))])
def test_aminmax_and_addbmm_messages(torch, fn):
    assert_same(fn, torch)


# index_put and index_put_ want values of self's dtype, as x[i] = v does
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(3).index_put((L.tensor([0]),), L.tensor(1.5, dtype=L.float64)),
    lambda L: L.ones(3, dtype=L.float64).index_put((L.tensor([0, 0]),), L.tensor(1.5), accumulate=True),
    lambda L: L.ones(3).index_put_((L.tensor([0]),), L.tensor(2)),
    lambda L: L.ones(3).index_put_((L.tensor([0]),), 1.5),
    lambda L: L.ones(3, requires_grad=True).index_put_((L.tensor([0]),), L.tensor(2))])
def test_index_put_value_dtype(torch, fn):
    assert_same(fn, torch)


# copy_ (and x[i] = v) of a value that requires grad into an integer tensor: integers have no
# gradient, so PyTorch records nothing and the tensor stays a leaf
@pytest.mark.parametrize("change", [lambda L, i, x: i.__setitem__(0, x[1]), lambda L, i, x: i.copy_(x),
                                    lambda L, i, x: i[:2].copy_(x[1:]), lambda L, i, x: i.bool().copy_(x)])
def test_copy_into_integers_records_nothing(torch, change):
    seen = []
    for L in (minigrad, torch):
        x, i = L.tensor([1.5, 2.0, -3.0], requires_grad=True), L.tensor([1, 2, 3])
        change(L, i, x)
        seen.append((i.tolist(), i.requires_grad, i.grad_fn is None, i.is_leaf, i._version))
    assert seen[0] == seen[1]


# dist of an integer and a float tensor: the difference is float, so PyTorch has a norm for it
@pytest.mark.parametrize("fn", [
    lambda L: L.dist(L.tensor(2), L.ones(3)), lambda L: L.dist(L.ones(3, dtype=L.int64), L.tensor(1.5)),
    lambda L: L.dist(L.tensor([1, 2]), L.ones(2, dtype=L.float64)),
    lambda L: L.dist(L.ones(2, dtype=L.int64), L.ones(2, dtype=L.int32))])
def test_dist_of_integers_and_floats(torch, fn):
    assert_same(fn, torch)


# adaptive pooling of an input empty in a pooled dim: PyTorch refuses it (max pooling in every
# non-batch dim, before the output size; average pooling in the pooled dims, after it)
@pytest.mark.parametrize("fn", [
    lambda L: L.nn.functional.adaptive_avg_pool1d(L.zeros(1, 0), 2),
    lambda L: L.nn.functional.adaptive_avg_pool1d(L.zeros(0, 1, 0), 2),
    lambda L: L.nn.functional.adaptive_avg_pool1d(L.zeros(1, 0), -1),
    lambda L: L.nn.functional.adaptive_avg_pool1d(L.zeros(1, 0), 1),
    lambda L: L.nn.functional.adaptive_avg_pool1d(L.zeros(0, 3), 2),
    lambda L: L.nn.functional.adaptive_avg_pool2d(L.zeros(1, 0, 3, dtype=L.long), 2),
    lambda L: L.nn.functional.adaptive_avg_pool2d(L.zeros(2, 0, 3, 3), 2),
    lambda L: L.nn.functional.adaptive_max_pool1d(L.zeros(1, 0, requires_grad=True), 2),
    lambda L: L.nn.functional.adaptive_max_pool1d(L.zeros(0, 0), -1),
    lambda L: L.nn.functional.adaptive_max_pool1d(L.zeros(0, 3), 2),
    lambda L: L.nn.functional.adaptive_max_pool2d(L.zeros(2, 0, 3, 3), 2),
    lambda L: L.nn.functional.adaptive_max_pool2d(L.zeros(1, 0, 3), (-1, 2)),
    lambda L: L.nn.functional.adaptive_max_pool2d(L.zeros(0, 3, 3), (None, 2)),
])
def test_adaptive_pooling_of_empty_inputs(torch, fn):
    assert_same(fn, torch)


# adaptive_max_pool1d gives a view of its kernel's result (version 0), unlike max_pool1d
@pytest.mark.parametrize("shape", [(1, 3), (2, 1, 3)])
@pytest.mark.parametrize("grad", [False, True])
def test_adaptive_max_pool1d_is_a_view(torch, shape, grad):
    seen = []
    for L in (minigrad, torch):
        with L.set_grad_enabled(grad):
            out = L.nn.functional.adaptive_max_pool1d(L.rand(shape, requires_grad=True), 2)
        seen.append((out._version, out._base is not None, out.stride(), type(out.grad_fn).__name__))
    assert seen[0] == seen[1]


# addmv of an empty matrix: PyTorch writes beta * input into the result, which takes input's
# shape (a 0-d input gives a 0-d result, with the resize warning when the result had elements)
@pytest.mark.parametrize("shapes, beta", [
    (((), (1, 0), (0,)), 0.5), (((1,), (2, 0), (0,)), 0.5), (((), (0, 3), (3,)), 0.5),
    (((), (1, 0), (0,)), 0), (((2,), (2, 0), (0,)), 1)])
@pytest.mark.parametrize("which", [0, 1, 2])
def test_addmv_of_an_empty_matrix(torch, shapes, beta, which):
    seen = []
    for L in (minigrad, torch):
        args = [L.full(shape, 2.0, requires_grad=which == n) for n, shape in enumerate(shapes)]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = L.addmv(*args, beta=beta, alpha=3)
        try:
            out.sum().backward()
            grads = [None if a.grad is None else a.grad.tolist() for a in args]
        except RuntimeError as error:
            grads = str(error)
        seen.append((out.tolist(), tuple(out.shape), type(out.grad_fn).__name__, grads,
                     [str(w.message).split(" (Triggered")[0] for w in caught]))
    assert seen[0] == seen[1]


# linalg.cross: PyTorch's kernel takes other only of input's dtype (no promotion), and checks
# the length 3 before the broadcast
@pytest.mark.parametrize("fn", [
    lambda L: L.linalg.cross(L.ones(3), L.ones(3, dtype=L.float64)),
    lambda L: L.linalg.cross(L.ones(3, dtype=L.float64, requires_grad=True), L.ones(3)),
    lambda L: L.linalg.cross(L.ones(0, 3), L.ones(0, 3, dtype=L.float64)),
    lambda L: L.linalg.cross(L.ones(1, 3), L.ones(2, 3, dtype=L.float64)),
    lambda L: L.linalg.cross(L.ones(3, dtype=L.int64), L.ones(3)),
    lambda L: L.linalg.cross(L.ones(3, dtype=L.int32), L.ones(3, dtype=L.int64)),
    lambda L: L.linalg.cross(L.ones(3, dtype=L.bool), L.ones(3)),
    lambda L: L.linalg.cross(L.ones(3), L.ones(3, dtype=L.bool)),
    lambda L: L.linalg.cross(L.ones(3, dtype=L.float16), L.ones(3)),
    lambda L: L.linalg.cross(L.ones(3), L.ones(4, dtype=L.float64)),
    lambda L: L.linalg.cross(L.ones(2, 3), L.ones(3, 2)),
    lambda L: L.linalg.cross(L.ones(2, 3), L.ones(3, 3)),
    lambda L: L.cross(L.ones(3), L.ones(3, dtype=L.float64), dim=0),
    lambda L: L.linalg.cross(L.ones(3, dtype=L.int64), L.ones(3, dtype=L.int64)),
])
def test_cross_of_mixed_dtypes(torch, fn):
    assert_same(fn, torch)


# cdist of empty inputs (no rows, no columns, an empty batch): PyTorch's shortcut gives an empty
# result (or zeros) before its kernels look at the dtypes; otherwise each kernel refuses
# mixed dtypes with its own message
@pytest.mark.parametrize("fn", [
    lambda L: L.cdist(L.ones(0, 1), L.ones(3, 1, dtype=L.float64)),
    lambda L: L.cdist(L.ones(3, 1, dtype=L.float64), L.ones(0, 1)),
    lambda L: L.cdist(L.ones(3, 0), L.ones(2, 0, dtype=L.float64), p=1.0),
    lambda L: L.cdist(L.ones(30, 1), L.ones(0, 1, dtype=L.float64)),
    lambda L: L.cdist(L.ones(3, 0), L.ones(2, 0, dtype=L.float64), compute_mode="use_mm_for_euclid_dist"),
    lambda L: L.cdist(L.ones(0, 30, 1), L.ones(0, 3, 1, dtype=L.float64)),
    lambda L: L.cdist(L.ones(0, 2, 1), L.ones(2, 3, 1, dtype=L.float64)),
    lambda L: L.cdist(L.ones(0, 1), L.ones(3, 1, dtype=L.float64), p=-1.0),
    lambda L: L.cdist(L.ones(2, 1), L.ones(3, 1, dtype=L.float64)),
    lambda L: L.cdist(L.ones(30, 1), L.ones(2, 1, dtype=L.float64)),
    lambda L: L.cdist(L.ones(2, 30, 1), L.ones(2, 3, 1, dtype=L.float64)),
    lambda L: L.cdist(L.ones(3, 1), L.ones(3, 1, dtype=L.float64), p=float("inf")),
])
def test_cdist_of_empty_inputs_and_mixed_dtypes(torch, fn):
    assert_same(fn, torch)


@pytest.mark.parametrize("shapes", [((0, 1), (3, 1)), ((3, 0), (2, 0)), ((2, 3, 0), (1, 2, 0))])
def test_cdist_of_empty_inputs_gradients(torch, shapes):
    seen = []
    for L in (minigrad, torch):
        x1 = L.ones(shapes[0], requires_grad=True)
        x2 = L.ones(shapes[1], dtype=L.float64, requires_grad=True)
        out = L.cdist(x1, x2)
        out.sum().backward()
        seen.append((out.tolist(), str(out.dtype), type(out.grad_fn).__name__, x1.grad.tolist(),
                     str(x1.grad.dtype), x2.grad.tolist(), str(x2.grad.dtype)))
    assert seen[0] == seen[1]


# sign's gradient is zeros_like(grad), laid out as grad: the empty gradient a sum expands keeps
# its zero steps, so a leaf with other steps gets a copy (version 1) and one with the same
# steps adopts it (version 0); sgn's are new row-major zeros
@pytest.mark.parametrize("op", ["sign", "sgn"])
@pytest.mark.parametrize("make", [
    lambda L: L.tensor(np.zeros((0,), np.float32), requires_grad=True),
    lambda L: L.ones(0, requires_grad=True), lambda L: L.ones(2, 0, requires_grad=True),
    lambda L: L.tensor(np.zeros((2, 0), np.float32), requires_grad=True),
    lambda L: L.ones(3, requires_grad=True)])
def test_gradient_of_sign_of_empty_tensors(torch, op, make):
    seen = []
    for L in (minigrad, torch):
        x, hooked = make(L), []
        x.register_hook(lambda g: hooked.append((g.stride(), g._version)))
        getattr(x, op)().sum().backward()
        seen.append((hooked, x.grad._version, x.grad.stride()))
    assert seen[0] == seen[1]


def _nodes_behind(node):
    """(name, the names of its next functions) of node and every node behind it."""
    if node is None:
        return []
    found = [(type(node).__name__, [type(n).__name__ if n else None for n, _ in node.next_functions])]
    for n, _ in node.next_functions:
        found += _nodes_behind(n)
    return found


# linalg.vecdot of two vectors is PyTorch's vdot (VdotBackward0), whatever dim; of other
# shapes a product and a sum
@pytest.mark.parametrize("shapes, dim", [
    (((3,), (3,)), -1), (((3,), (3,)), 0), (((3,), (3,)), 5), (((2, 3), (3,)), -1),
    (((), ()), -1), (((0,), (0,)), -1)])
@pytest.mark.parametrize("grads", [(True, True), (True, False), (False, True)])
def test_vecdot_of_vectors(torch, shapes, dim, grads):
    seen = []
    for L in (minigrad, torch):
        a = L.linspace(-1, 2, int(np.prod(shapes[0])), dtype=L.float64).reshape(shapes[0]).requires_grad_(grads[0])
        b = L.linspace(0, 3, int(np.prod(shapes[1])), dtype=L.float64).reshape(shapes[1]).requires_grad_(grads[1])
        out = L.linalg.vecdot(a, b, dim=dim)
        out.sum().backward()
        seen.append((out.tolist(), _nodes_behind(out.grad_fn), None if a.grad is None else a.grad.tolist(),
                     None if b.grad is None else b.grad.tolist()))
    assert seen[0] == seen[1]


def test_vecdot_of_vectors_message(torch):
    assert_same(lambda L: L.linalg.vecdot(L.ones(3), L.ones(4)), torch)


# prod(dtype=...) differentiated with create_graph: PyTorch's formula reads self converted to
# the result's dtype (ToCopyBackward0), and the engine converts the gradient back (another)
@pytest.mark.parametrize("values", [[1.5, -2.0, 0.5], [1.5, 0.0, 0.5], [[1.5, 2.0], [0.0, 3.0]]])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kwargs", [{}, {"dim": 0}, {"dim": -1, "keepdim": True}])
def test_prod_with_dtype_under_create_graph(torch, values, dtype, kwargs):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor(values, requires_grad=True)
        g, = L.autograd.grad(x.prod(dtype=getattr(L, dtype), **kwargs).sum(), x, create_graph=True)
        gg, = L.autograd.grad(g.sum(), x)
        seen.append((g.tolist(), str(g.dtype), _nodes_behind(g.grad_fn), gg.tolist()))
    assert seen[0] == seen[1]


# poisson_nll_loss computes target * input before exp(input), as PyTorch's C++ evaluates the
# operands of its `-`: so the two gradients reach input in PyTorch's order (create_graph)
@pytest.mark.parametrize("kwargs", [{}, {"log_input": False}, {"full": True}, {"reduction": "sum"}])
@pytest.mark.parametrize("target_grad", [False, True])
def test_poisson_nll_loss_under_create_graph(torch, kwargs, target_grad):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.5, 2.0, 0.5], dtype=L.float64, requires_grad=True)
        target = L.tensor([0.5, 2.0, 3.0], dtype=L.float64, requires_grad=target_grad)
        loss = L.nn.functional.poisson_nll_loss(x, target, **kwargs)
        inputs = (x, target) if target_grad else (x,)
        grads = L.autograd.grad(loss, inputs, create_graph=True)
        seen.append((loss.tolist(), _nodes_behind(loss.grad_fn), [g.tolist() for g in grads],
                     [_nodes_behind(g.grad_fn) for g in grads]))
    assert seen[0] == seen[1]


# searchsorted with nan in the boundaries or the values follows PyTorch's binary search
def test_searchsorted_with_nan_as_pytorch(torch):
    rng = np.random.default_rng(5)
    for _ in range(100):
        n = int(rng.integers(0, 7))
        row = np.sort(rng.standard_normal(n)).astype(np.float32)
        if n and rng.random() < 0.6:
            row[rng.integers(0, n):] = np.nan
        values = rng.standard_normal(5).astype(np.float32)
        values[rng.integers(0, 5)] = np.nan
        for right in (False, True):
            ours = minigrad.searchsorted(minigrad.tensor(row), minigrad.tensor(values), right=right)
            theirs = torch.searchsorted(torch.tensor(row), torch.tensor(values), right=right)
            assert ours.tolist() == theirs.tolist()
    empty = np.zeros((2, 0), dtype=np.float32)
    assert minigrad.searchsorted(minigrad.tensor(empty), minigrad.ones(2, 3)).tolist() == \
        torch.searchsorted(torch.tensor(empty), torch.ones(2, 3)).tolist()


# nextafter's gradient for other: zeros_like(other), at version 1, in other's shape
def test_nextafter_gradient_for_other_version(torch):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = L.tensor(3.0, requires_grad=True)
        L.nextafter(x, y).sum().backward()
        seen.append((y.grad._version, tuple(y.grad.shape), y.grad.tolist()))
    assert seen[0] == seen[1]
