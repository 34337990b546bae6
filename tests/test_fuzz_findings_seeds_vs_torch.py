"""More differences the random-program test (test_fuzz_vs_torch.py) found, each checked against PyTorch.

Every test runs the same small computation in both libraries and compares what a learner sees:
the values (and the memory a view shares), dtypes, flags, and the exception class and the first
line of its message when PyTorch refuses.
"""
import warnings

import numpy as np
import pytest

import minigrad


def outcome(fn, lib):
    """What ``fn(lib)`` gives: ('ok', values, dtype name, requires_grad) or ('error', class, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
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
        np.testing.assert_array_equal(mine[1], ref[1])
        assert mine[2:] == ref[2:]


def _base_after(change, make, view):
    """The memory of ``make(L)`` after ``change`` was applied in place to ``view`` of it."""
    def fn(L):
        base = make(L)
        change(view(base))
        return base
    return fn


# tril_/triu_ of a view whose batch dimensions do not step over whole matrices in order (4 or
# more dimensions): PyTorch computes the triangle in new memory and copies it back, so where
# windows overlap, the position the copy writes last wins (an expanded view is refused)
@pytest.mark.parametrize("view", [
    lambda x: x.reshape(2, 1, 3).unfold(-1, 2, 1),
    lambda x: x.reshape(2, 3).unfold(-1, 2, 1),
    lambda x: x.as_strided((2, 2, 2, 2), (2, 1, 1, 1)),
    lambda x: x.as_strided((2, 2, 2, 2), (4, 1, 1, 1)),
    lambda x: x.as_strided((2, 1, 2, 2, 2), (2, 2, 1, 2, 1)),
    lambda x: x[:9].reshape(3, 3).expand(2, 2, 3, 3),
    lambda x: x[:9].reshape(3, 3).expand(2, 1, 3, 3),
    lambda x: x[:9].reshape(3, 3).expand(2, 3, 3),
])
@pytest.mark.parametrize("change", [lambda t: t.tril_(), lambda t: t.triu_(), lambda t: t.tril_(-1)])
def test_triangle_in_place_of_overlapping_views(torch, view, change):
    assert_same(_base_after(change, lambda L: L.arange(1.0, 13.0), view), torch)


# add_/sub_ with a float alpha into an integer tensor: the loop's own checks (partial overlap of
# self and other, shapes) come before alpha's
@pytest.mark.parametrize("fn", [
    lambda L: (lambda x: x.add_(x.as_strided((2,), (1,), 1), alpha=1.5))(L.arange(3)),
    lambda L: (lambda x: x[1:].add_(x[:2], alpha=1.5))(L.arange(3)),
    lambda L: (lambda x: x.sub_(x.as_strided((2,), (1,), 1), alpha=1.5))(L.arange(3)),
    lambda L: (lambda x: x.add_(x, alpha=1.5))(L.arange(3)),
    lambda L: L.arange(3).add_(L.arange(2), alpha=1.5),
    lambda L: L.arange(3).add_(L.arange(6).reshape(2, 3), alpha=1.5),
    lambda L: L.arange(3).sub_(L.arange(6).reshape(2, 3), alpha=1.5),
    lambda L: L.arange(3).add_(L.ones(6).reshape(2, 3), alpha=1.5),
    lambda L: L.arange(3).add_(L.ones(3), alpha=1.5),
    lambda L: L.arange(3).add_(2, alpha=1.5),
    lambda L: L.arange(3.0).add_(L.arange(3), alpha=True),
])
def test_add_sub_alpha_checked_after_the_loop(torch, fn):
    assert_same(fn, torch)


# scatter_reduce "mean" and index_reduce of bool tensors: PyTorch's kernels are missing, and
# its message names the kernel that was asked for
@pytest.mark.parametrize("fn", [
    lambda L: L.tensor([True, False, True]).scatter_reduce(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "mean"),
    lambda L: L.tensor([True, False, True]).scatter_reduce(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "mean",
                                                           include_self=False),
    lambda L: L.tensor([True, False, True]).scatter_reduce_(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "mean"),
    lambda L: L.zeros(0, dtype=L.bool).scatter_reduce(0, L.zeros(0, dtype=L.long), L.zeros(0, dtype=L.bool), "mean"),
    lambda L: L.tensor([True, False, True]).scatter_reduce(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "amax"),
    lambda L: L.tensor([True, False, True]).index_reduce(0, L.tensor([0]), L.ones(1, dtype=L.bool), "amax"),
    lambda L: L.tensor([True, False, True]).index_reduce(0, L.tensor([], dtype=L.long), L.ones(0, dtype=L.bool),
                                                         "prod"),
    lambda L: L.ones(3, 2, dtype=L.bool).index_reduce(0, L.tensor([0]), L.ones(1, 2, dtype=L.bool), "prod",
                                                      include_self=False),
    lambda L: L.ones(3, 2, dtype=L.bool).index_reduce(0, L.tensor([0, 2]), L.zeros(2, 2, dtype=L.bool), "mean"),
    lambda L: L.ones(3, 2, dtype=L.bool).index_reduce(0, L.tensor([0, 2]), L.zeros(2, 2, dtype=L.bool), "amin"),
])
def test_bool_scatter_and_index_reduce(torch, fn):
    assert_same(fn, torch)


# linalg.vecdot checks that x is floating before it compares the dtypes of x and y
@pytest.mark.parametrize("fn", [
    lambda L: L.linalg.vecdot(L.arange(3, dtype=L.int32), L.ones(3)),
    lambda L: L.linalg.vecdot(L.ones(2, 3, dtype=L.int64), L.ones(3)),
    lambda L: L.linalg.vecdot(L.ones(3), L.arange(3, dtype=L.int32)),
    lambda L: L.linalg.vecdot(L.ones(3), L.ones(3, dtype=L.float64)),
    lambda L: L.linalg.vecdot(L.ones(2, dtype=L.int64), L.ones(3, dtype=L.int64)),
])
def test_vecdot_checks_x_first(torch, fn):
    assert_same(fn, torch)


def _bits(t):
    """The bits of a float tensor's numbers (NaN's sign and payload show), as a list."""
    import torch as _torch_or_not      # noqa: F401  (the module of t decides the int dtype)
    lib = minigrad if isinstance(t, minigrad.Tensor) else __import__("torch")
    return t.detach().reshape(-1).view(lib.int32 if t.dtype == lib.float32 else lib.int64).tolist()


# maximum, minimum and clamp by a tensor write PyTorch's NaN: the C library's quiet NaN from the
# one-number formula, all bits set from the vector formula (whole steps of 16 float32 or 8 float64)
@pytest.mark.parametrize("n", [1, 3, 8, 9, 16, 17, 40])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", [
    lambda L, a, b: L.maximum(a, b),
    lambda L, a, b: L.minimum(a, b[:1]),
    lambda L, a, b: a.clamp_min(b),
    lambda L, a, b: a.clamp_max(b),
    lambda L, a, b: L.maximum(a.reshape(1, -1), b.reshape(-1, 1)),
])
def test_maximum_nan_bits(torch, n, dtype, op):
    rng = np.random.default_rng(n)
    a = -np.abs(rng.standard_normal(n))
    a[rng.random(n) < 0.4] = np.nan
    a = -a                          # (NaN with the sign bit set, as x86 makes them)
    b = rng.standard_normal(n)
    b[rng.random(n) < 0.2] = np.nan
    seen = [_bits(op(L, L.tensor(a, dtype=getattr(L, dtype)), L.tensor(b, dtype=getattr(L, dtype))))
            for L in (minigrad, torch)]
    assert seen[0] == seen[1]


# cosine_similarity clamps the lengths by a tensor (a NaN length becomes maximum's NaN), in the
# inputs' dtype
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cosine_similarity_nan_and_small_lengths(torch, dtype):
    nan_first = -np.array([-0.5, np.nan, -1.0])
    seen = []
    for L in (minigrad, torch):
        x = L.tensor(nan_first, dtype=getattr(L, dtype))
        small = L.tensor([1e-10, 0.0, 0.0], dtype=getattr(L, dtype), requires_grad=True)
        out = L.nn.functional.cosine_similarity(small, L.tensor([1.0, 0.0, 0.0], dtype=getattr(L, dtype)), dim=0)
        out.backward()
        seen.append((_bits(L.nn.functional.cosine_similarity(x, x, dim=-1)), out.item(), small.grad.tolist()))
    assert seen[0] == seen[1]


# linalg.cross: PyTorch's loop computes a[i] * b[j] - a[j] * b[i] with the first product fused
# into the subtraction (float32 and float64), so x.cross(x) is not always 0
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("shape, dim", [((3,), -1), ((4, 3), -1), ((3, 2), 0), ((2, 3, 3), 1)])
def test_cross_fuses_one_product(torch, dtype, shape, dim):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape) * 3
    b = rng.standard_normal(shape) * 3
    for other in (a, b):
        seen = [L.linalg.cross(L.tensor(a).to(getattr(L, dtype)), L.tensor(other).to(getattr(L, dtype)),
                               dim=dim).tolist() for L in (minigrad, torch)]
        assert seen[0] == seen[1]


def _nodes(node):
    """A node and everything behind it, by name, as nested tuples."""
    if node is None:
        return None
    return (node.name().split("::")[-1], tuple(_nodes(n) for n, _ in node.next_functions))


# index_put's gradient for self is grad.index_put(indices, zeros_like(values)): recorded as
# IndexPutBackward0 under create_graph, and 0 where values went even where grad is NaN
def test_index_put_gradient_for_self(torch):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.index_put((L.tensor([0]),), x.sum())
        g, = L.autograd.grad(L.nn.functional.adaptive_avg_pool1d(y.reshape(1, -1), 2).sum(), x, create_graph=True)
        z = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        w = z.index_put((L.tensor([0, 1]), L.tensor([2, 0])), L.tensor([5.0, 6.0]))
        w.backward(L.full((2, 3), float("nan")))
        seen.append((g.tolist(), _nodes(g.grad_fn), np.isnan(z.grad.numpy()).tolist()))
    assert seen[0] == seen[1]


# rms_norm makes its result contiguous in the input's suggested memory format, after the weight
# and before going back to float16: the copy is recorded (CloneBackward0) when it is made
@pytest.mark.parametrize("make", [
    lambda L: L.arange(6.0).reshape(2, 3).t(),
    lambda L: L.arange(6.0).reshape(2, 3),
    lambda L: L.arange(6.0).reshape(2, 3)[:, :2],
    lambda L: L.arange(6.0).reshape(1, 2, 3).permute(2, 0, 1),
    lambda L: L.arange(6.0).reshape(2, 3).t().half(),
    lambda L: L.arange(36.0).reshape(1, 4, 3, 3).to(memory_format=L.channels_last),
    lambda L: L.arange(36.0).reshape(1, 4, 3, 3).transpose(2, 3),
])
@pytest.mark.parametrize("with_weight", [False, True])
def test_rms_norm_contiguous_result(torch, make, with_weight):
    seen = []
    for L in (minigrad, torch):
        x = make(L).requires_grad_()
        weight = L.ones(x.shape[-1], dtype=x.dtype, requires_grad=True) if with_weight else None
        out = L.nn.functional.rms_norm(x, [x.shape[-1]], weight=weight)
        seen.append((_nodes(out.grad_fn), out.stride(), str(out.dtype), out.tolist()))
    assert seen[0] == seen[1]


# x.to(memory_format=..., copy=...): itself only when no copy is asked for and the layout is the
# one x suggests (a transposed matrix suggests row-major, so it is kept); else a ToCopyBackward0
@pytest.mark.parametrize("fn", [
    lambda L: L.arange(6.0).reshape(2, 3).requires_grad_().t().to(memory_format=L.contiguous_format),
    lambda L: L.arange(6.0).reshape(2, 3).requires_grad_().to(copy=True),
    lambda L: L.arange(6.0).reshape(2, 3).requires_grad_().t().to(copy=True),
    lambda L: L.arange(36.0).reshape(1, 4, 3, 3).requires_grad_().to(memory_format=L.channels_last),
    lambda L: L.arange(36.0).reshape(1, 4, 3, 3).requires_grad_().to(memory_format=L.channels_last)
    .to(memory_format=L.channels_last),
    lambda L: L.arange(36.0).reshape(1, 4, 3, 3).requires_grad_().to(memory_format=L.channels_last).to(L.float64),
    lambda L: L.arange(36.0).reshape(1, 4, 3, 3).requires_grad_().to(memory_format=L.channels_last)
    .to(memory_format=L.contiguous_format),
    lambda L: L.arange(36.0).reshape(1, 4, 3, 3).requires_grad_().to(L.float64, memory_format=L.channels_last),
    lambda L: L.arange(6).reshape(2, 3).to(memory_format=L.channels_last),
    lambda L: L.arange(6).reshape(2, 3).to(L.float32, memory_format=L.channels_last),
    lambda L: L.arange(6.0).reshape(2, 3).to(dtype=L.float32, copy=True),
])
def test_to_memory_format_and_copy(torch, fn):
    seen = []
    for L in (minigrad, torch):
        try:
            out = fn(L)
        except RuntimeError as error:
            seen.append(str(error))
            continue
        seen.append((out.stride(), _nodes(out.grad_fn), str(out.dtype).split(".")[-1], out.tolist()))
    assert seen[0] == seen[1]


# isclose as PyTorch computes it: == first, then NaNs (equal_nan) and the finite errors ORed into
# the result in place (its version counts them), in the inputs' dtype; its checks and messages
_A = np.array([np.nan, np.inf, -np.inf, 1.0, 2.0, 1e-9], dtype=np.float32)
_B = np.array([np.nan, np.inf, np.inf, 1.00001, 2.1, 0.0], dtype=np.float32)


@pytest.mark.parametrize("fn", [
    lambda L: L.isclose(L.tensor(_A), L.tensor(_B)),
    lambda L: L.isclose(L.tensor(_A), L.tensor(_B), equal_nan=True),
    lambda L: L.isclose(L.tensor(_A), L.tensor(_B), rtol=0, atol=0),
    lambda L: L.isclose(L.tensor(_A), L.tensor(_B), 0, 0, True),
    lambda L: L.isclose(L.tensor(_A).double(), L.tensor(_B).double(), rtol=1e-6),
    lambda L: L.isclose(L.tensor([1, 2, 3]), L.tensor([2, 2, 5]), atol=1),
    lambda L: L.isclose(L.tensor([True, False]), L.tensor([False, False]), atol=1),
    lambda L: L.isclose(L.tensor(_A), 1.0),
    lambda L: L.isclose(L.tensor(_A).double(), L.tensor(_B)),
    lambda L: L.isclose(L.zeros(0), L.ones(3)),
    lambda L: L.isclose(L.ones(3), L.ones(3), rtol=-1),
    lambda L: L.tensor(_A).isclose(L.tensor(_B).reshape(-1, 1)),
])
def test_isclose_as_pytorch(torch, fn):
    seen = []
    for L in (minigrad, torch):
        try:
            out = fn(L)
        except Exception as error:
            seen.append((type(error).__name__, str(error).splitlines()[0]))
            continue
        seen.append((out._version, out.tolist()))
    assert seen[0] == seen[1]


# an in-place operation without a derivative names itself: aten::heaviside_
def test_heaviside_in_place_backward_message(torch):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 0.0, -1.0], requires_grad=True)
        z = x * 1
        z.heaviside_(L.tensor([1.0, 2.0, 3.0]))
        with pytest.raises(RuntimeError) as error:
            z.sum().backward()
        seen.append(str(error.value))
    assert seen[0] == seen[1]


# index_put into a dim of size 0: the index is out of bounds, said before the dtypes' mismatch
@pytest.mark.parametrize("fn", [
    lambda L: L.zeros(0, dtype=L.float64).index_put_((L.tensor([0]),), L.tensor(1.0)),
    lambda L: L.zeros(0, dtype=L.float64).index_put((L.tensor([0]),), L.tensor(1.0)),
    lambda L: L.index_put(L.zeros(0, dtype=L.float64), (L.tensor([0]),), L.tensor(1.0)),
    lambda L: L.zeros(0).index_put_((L.tensor([], dtype=L.long),), L.tensor(1.0, dtype=L.float64)),
    lambda L: L.zeros(2, 0).index_put_((L.tensor([0]), L.tensor([0])), L.tensor(1.0, dtype=L.float64)),
    lambda L: L.zeros(2, 0).index_put_((L.tensor([0]),), L.tensor(1.0, dtype=L.float64)),
])
def test_index_put_into_empty_dims(torch, fn):
    assert_same(fn, torch)


# a float operation converts each operand to the result's dtype first: int32 - float32 is
# float32 - float32 (numpy would compute it in float64), also in the regression losses
_BIG = [1057767343, -1083458296, -1075116667]


@pytest.mark.parametrize("fn", [
    lambda L: L.tensor(_BIG, dtype=L.int32) - L.tensor(_BIG, dtype=L.int32).float(),
    lambda L: L.tensor(_BIG, dtype=L.int32) - L.tensor(_BIG, dtype=L.float32) * 1.0001,
    lambda L: L.tensor(_BIG, dtype=L.int32) * 1.5,
    lambda L: L.tensor(_BIG) + L.tensor(0.5, dtype=L.float64) + L.tensor([0.25]),
    lambda L: L.tensor(_BIG, dtype=L.int32) / L.tensor([3.0, 7.0, 9.0]),
    lambda L: L.nn.functional.mse_loss(L.tensor(_BIG, dtype=L.int32), L.tensor(_BIG, dtype=L.int32).float() + 1),
    lambda L: L.nn.functional.smooth_l1_loss(L.tensor(_BIG, dtype=L.int32), L.tensor(_BIG, dtype=L.int32).float()),
    lambda L: L.nn.functional.l1_loss(L.tensor(_BIG, dtype=L.int32), L.tensor(_BIG, dtype=L.int32).float()),
])
def test_mixed_dtypes_converted_first(torch, fn):
    assert_same(fn, torch)


def test_mse_loss_backward_converted_first(torch):
    seen = []
    for L in (minigrad, torch):
        target = L.tensor(_BIG, dtype=L.int32).float().requires_grad_()
        L.nn.functional.mse_loss(L.tensor(_BIG, dtype=L.int32), target).backward()
        seen.append(target.grad.tolist())
    assert seen[0] == seen[1]


# hinge_embedding_loss computes margin - input as PyTorch's C++ does: a tensor like input
# filled with margin (an integer input cuts 1.5 to 1; bools may not be subtracted)
@pytest.mark.parametrize("fn", [
    lambda L: L.nn.functional.hinge_embedding_loss(L.tensor([1, 2, 0, -3]), L.tensor([1, -1, -1, -1]), margin=1.5,
                                                   reduction="none"),
    lambda L: L.nn.functional.hinge_embedding_loss(L.tensor([1, 2, 0, -3], dtype=L.int32),
                                                   L.tensor([1.0, -1, -1, -1]).double(), margin=2.5, reduction="sum"),
    lambda L: L.nn.functional.hinge_embedding_loss(L.tensor([1, 2, 0]), L.tensor([1, -1, 1])),
    lambda L: L.nn.functional.hinge_embedding_loss(L.tensor([True, False]), L.tensor([1.0, -1]), margin=2.5),
    lambda L: L.nn.functional.hinge_embedding_loss(L.tensor([1.0, 2, 0, -3]), L.tensor([1.0, -1, -1, -1]).double(),
                                                   margin=2.5, reduction="none"),
])
def test_hinge_embedding_loss_of_integers(torch, fn):
    assert_same(fn, torch)


# the in-place comparisons' gradients are PyTorch's zeros_like: zeroed in place (version 1)
@pytest.mark.parametrize("compare", [lambda a, y: a.ge_(y), lambda a, y: a.lt_(y), lambda a, y: a.ne_(y[:1]),
                                     lambda a, y: a.gt_(1.5)])
def test_comparison_in_place_gradient_versions(torch, compare):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = L.tensor([2.0, 2.0, 2.0], requires_grad=True)
        a = x.clone()
        compare(a, y)
        a.sum().backward()
        seen.append((x.grad._version, x.grad.tolist(), None if y.grad is None else (y.grad._version, y.grad.tolist())))
    assert seen[0] == seen[1]


# cosine_similarity converts only integer inputs: a float32 one next to a float64 one keeps its
# dtype (its length and quotient in float32), and its two gradients add up in place
@pytest.mark.parametrize("pair", [
    lambda L, x, y: (x, y), lambda L, x, y: (y, x), lambda L, x, y: (x, y[:1]),
    lambda L, x, y: (L.tensor([1, 2, 3]), y), lambda L, x, y: (y.double(), y),
])
def test_cosine_similarity_mixed_dtypes(torch, pair):
    seen = []
    for L in (minigrad, torch):
        y = L.tensor([1.0, 2.0, 3.1], requires_grad=True)
        x = L.tensor([1.3, 2.0, 3.0], dtype=L.float64, requires_grad=True)
        a, b = pair(L, x, y)
        out = L.nn.functional.cosine_similarity(a, b, dim=-1)
        out.backward()
        seen.append((_nodes(out.grad_fn), str(out.dtype).split(".")[-1], out.item(),
                     [(t.grad._version, t.grad.tolist()) for t in (x, y) if t.grad is not None]))
    assert seen[0] == seen[1]


# integer inputs, as the random programs' integer leaves meet them: softmax of an empty integer
# tensor runs no kernel, max_pool1d without indices and softshrink have no integer kernels,
# cumulative_trapezoid has no shortcut for an empty dim, the median of nothing is the integer
# PyTorch gets from NaN
@pytest.mark.parametrize("fn", [
    lambda L: L.zeros(0, dtype=L.long).softmax(-1),
    lambda L: L.zeros(0, dtype=L.long).softmax(0),
    lambda L: L.zeros(0, dtype=L.long).log_softmax(-1),
    lambda L: L.nn.functional.softmin(L.zeros(0, dtype=L.long), -1),
    lambda L: L.tensor([1, -2, 3]).softmax(-1),
    lambda L: L.nn.functional.cross_entropy(L.zeros(0, dtype=L.long), L.zeros((), dtype=L.long)),
    lambda L: L.nn.functional.max_pool1d(L.tensor([[1, -2, 3]]), 2, 1),
    lambda L: L.nn.functional.max_pool1d(L.tensor([[1, -2, 3]], dtype=L.uint8), 2),
    lambda L: L.nn.functional.max_pool1d(L.tensor([[1, -2, 3]]), 2, 1, return_indices=True)[0],
    lambda L: L.nn.functional.softshrink(L.tensor([1, -2, 3]), 0.3),
    lambda L: L.nn.functional.softshrink(L.tensor(True)),
    lambda L: L.cumulative_trapezoid(L.zeros(0, dtype=L.long)),
    lambda L: L.cumulative_trapezoid(L.zeros(2, 0, dtype=L.long), dx=0.5),
    lambda L: L.cumulative_trapezoid(L.tensor([1, 2, 4]), dx=0.5),
    lambda L: L.zeros(0, dtype=L.long).median(),
    lambda L: L.zeros(0, dtype=L.int32).nanmedian(),
    lambda L: L.zeros(0, dtype=L.int16).median(),
])
def test_integer_inputs(torch, fn):
    assert_same(fn, torch)


def test_cumulative_trapezoid_of_an_empty_dim_is_recorded(torch):
    seen = []
    for L in (minigrad, torch):
        y = L.zeros(2, 0, requires_grad=True)
        out = L.cumulative_trapezoid(y, dx=0.5)
        seen.append((_nodes(out.grad_fn), tuple(out.shape)))
    assert seen[0] == seen[1]


# an in-place change of an inference tensor outside inference mode: PyTorch's kernel writes the
# new values, then its version counter refuses to count the change (the error comes last, and
# nothing is recorded); errors of the operation itself come first
@pytest.mark.parametrize("change", [
    lambda L, y, w: L.nn.functional.celu_(y, 0.5),
    lambda L, y, w: y.neg_(),
    lambda L, y, w: y.mul_(2),
    lambda L, y, w: L.nn.functional.relu(y, inplace=True),
    lambda L, y, w: y.mul_(w),
    lambda L, y, w: y.add_(w[:2]),
    lambda L, y, w: y.__setitem__(0, w.sum()),
])
@pytest.mark.parametrize("no_grad", [False, True])
def test_inference_tensor_changed_outside_inference_mode(torch, change, no_grad):
    seen = []
    for L in (minigrad, torch):
        w = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        with L.inference_mode():
            y = L.tensor([-0.4, -2.0, 1.0]) * 1
        with (L.no_grad() if no_grad else L.enable_grad()):
            try:
                change(L, y, w)
                outcome_ = "ok"
            except RuntimeError as error:
                outcome_ = str(error).splitlines()[0]
        seen.append((outcome_, y.tolist(), y.requires_grad, y.grad_fn is None))
    assert seen[0] == seen[1]


# the pieces of unsafe_split and unsafe_chunk share memory without sharing a version counter:
# PyTorch's overlap checks and its loop reading its own writes go by the memory
@pytest.mark.parametrize("fn", [
    lambda L, x: x.add_(x.unsafe_split(2)[1][:1].expand(4), alpha=2),
    lambda L, x: x[:2].add_(x.unsafe_split(1)[1].expand(2)),
    lambda L, x: x[1:3].add_(x.unsafe_chunk(2)[0]),
    lambda L, x: x[1:3].mul_(x.unsafe_chunk(2)[0]),
    lambda L, x: x[1:3].hypot_(x.unsafe_chunk(2)[0]),
    lambda L, x: x[1:3].atan2_(x.unsafe_chunk(2)[0]),
    lambda L, x: x[1:3].clamp_(max=x.unsafe_chunk(2)[0]),
    lambda L, x: x[1:3].clamp_max_(x.unsafe_chunk(2)[0]),
    lambda L, x: x.clamp_(min=x.unsafe_split(2)[1][:1].expand(4)),
    lambda L, x: x.unsafe_chunk(2)[0].add_(x.unsafe_chunk(2)[0], alpha=1.5),
    lambda L, x: x.add_(x.unsafe_split(3)[1], alpha=1.5),
])
def test_unsafe_split_pieces_overlap(torch, fn):
    seen = []
    for L in (minigrad, torch):
        x = L.arange(4.0)
        try:
            fn(L, x)
            seen.append(x.tolist())
        except RuntimeError as error:
            seen.append(str(error).splitlines()[0])
    assert seen[0] == seen[1]


# the average pools have integer kernels for int64 only (lp_pool1d goes through avg_pool2d)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("pool", [
    lambda L, t: L.nn.functional.avg_pool2d(t.reshape(1, 2, 2), 2),
    lambda L, t: L.nn.functional.avg_pool1d(t.reshape(1, 4), 2),
    lambda L, t: L.nn.functional.avg_pool3d(t.reshape(1, 1, 2, 2).expand(1, 2, 2, 2), 2),
    lambda L, t: L.nn.functional.lp_pool1d(t.reshape(1, 4), 2, 2),
])
def test_integer_average_pools(torch, dtype, pool):
    assert_same(lambda L: pool(L, L.tensor([1, 2, 3, 4]).to(getattr(L, dtype))), torch)


# unsafe_split's pieces of an inference tensor are inference tensors (outside inference mode too)
def test_unsafe_split_of_an_inference_tensor(torch):
    seen = []
    for L in (minigrad, torch):
        with L.inference_mode():
            x = L.ones(4)
        seen.append([piece.is_inference() for piece in x.unsafe_split(2) + x.unsafe_chunk(2)])
    assert seen[0] == seen[1]


# kron views its inputs with _unsafe_view: a view of an inference tensor is one too, so the
# product refuses to save it for backward
@pytest.mark.parametrize("fn", [lambda L, x, w: L.kron(x, w), lambda L, x, w: L.kron(w, x),
                                lambda L, x, w: L.kron(x, x)])
def test_kron_of_an_inference_tensor(torch, fn):
    seen = []
    for L in (minigrad, torch):
        w = L.tensor([1.0, 2.0], requires_grad=True)
        with L.inference_mode():
            x = L.ones(1, 2) * 1
        try:
            out = fn(L, x, w)
            seen.append((out.tolist(), out.requires_grad))
        except RuntimeError as error:
            seen.append(str(error).splitlines()[0])
    assert seen[0] == seen[1]


# an elementwise x.op_(y) checks the shapes first (PyTorch's loop), then dtypes and its kernel
@pytest.mark.parametrize("fn", [
    lambda L: L.tensor([1, 2, 3]).hypot_(L.ones(2, 3, dtype=L.long)),
    lambda L: L.tensor([1.0, 2, 3]).hypot_(L.ones(2, 3)),
    lambda L: L.tensor([1, 2, 3]).hypot_(L.ones(2, dtype=L.long)),
    lambda L: L.tensor([1.0, 2, 3]).copysign_(L.ones(2, 3)),
    lambda L: L.tensor([1, 2, 3]).xlogy_(L.ones(2, 3)),
    lambda L: L.tensor([1, 2, 3]).xlogy_(L.ones(3)),
    lambda L: L.tensor([1.0, 2, 3], requires_grad=True).hypot_(L.ones(2, 3)),
    lambda L: L.tensor([1.0, 2, 3]).hypot_(L.ones(1)),
    lambda L: L.tensor([1.0, 2, 3]).heaviside_(L.ones(2, 3)),
])
def test_elementwise_in_place_checks_shapes_first(torch, fn):
    assert_same(fn, torch)


# dot, vdot, mv and linalg.cross record the product first, saving each input for the other's
# gradient: an inference tensor is refused before the kernel checks sizes, dims and dtypes
@pytest.mark.parametrize("fn", [
    lambda L, x, w: L.dot(w, x.reshape(-1)), lambda L, x, w: L.dot(x.reshape(-1), w),
    lambda L, x, w: L.dot(w, x), lambda L, x, w: L.dot(w, x.reshape(-1).double()),
    lambda L, x, w: L.vdot(w, x.reshape(-1)), lambda L, x, w: L.vdot(x, w),
    lambda L, x, w: L.mv(x, w), lambda L, x, w: L.mv(w.reshape(1, 3), x.reshape(-1)),
    lambda L, x, w: L.mv(w.sum(), x.reshape(-1)),
    lambda L, x, w: L.linalg.cross(w, x.reshape(-1)), lambda L, x, w: L.linalg.cross(x, w),
    lambda L, x, w: L.linalg.cross(w, x.reshape(-1).double()),
    lambda L, x, w: L.linalg.cross(w, w.detach(), dim=2),
    lambda L, x, w: L.dot(w, w.detach()),
])
def test_products_save_an_inference_factor_before_checking(torch, fn):
    def run(L):
        w = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with L.inference_mode():
            x = L.ones(1, 2) * 1
        return fn(L, x, w)
    assert_same(run, torch)


# multi_margin_loss and multilabel_margin_loss of a batch of no rows: PyTorch's kernels return
# before they look at the dtypes or compute anything, so a reduced loss is new memory whose value
# is undefined (compared here by shape, dtype and node only), and backward has nothing to do
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("loss", [
    lambda F, L, x, r: F.multi_margin_loss(x, L.empty(0, dtype=L.long), reduction=r),
    lambda F, L, x, r: F.multi_margin_loss(x, L.empty(0, dtype=L.long), p=2, weight=L.ones(2), reduction=r),
    lambda F, L, x, r: F.multilabel_margin_loss(x, L.empty(0, 2, dtype=L.long), reduction=r),
    lambda F, L, x, r: F.multi_margin_loss(x.detach().long(), L.empty(0, dtype=L.long), reduction=r),
    lambda F, L, x, r: F.multi_margin_loss(x, L.empty(0), reduction=r),
    lambda F, L, x, r: F.multi_margin_loss(x, L.empty(0, dtype=L.long), weight=L.ones(2).double(), reduction=r),
    lambda F, L, x, r: F.multilabel_margin_loss(x.detach().long(), L.empty(0, 2, dtype=L.long), reduction=r),
    lambda F, L, x, r: F.multilabel_margin_loss(x, L.empty(0, 2), reduction=r),
])
def test_margin_losses_of_no_rows(torch, loss, reduction):
    seen = []
    for L in (minigrad, torch):
        x = L.empty(0, 2, requires_grad=True)
        try:
            out = loss(L.nn.functional, L, x, reduction)
            if out.requires_grad:
                out.sum().backward()
            seen.append((tuple(out.shape), str(out.dtype), type(out.grad_fn).__name__,
                         None if x.grad is None else tuple(x.grad.shape)))
        except Exception as error:
            seen.append((type(error).__name__, str(error).splitlines()[0]))
    assert seen[0] == seen[1]


# two-input elementwise operations (and their in-place forms) settle the result's shape before
# they pick a kernel for the dtype or check that the result casts into self: shapes that don't
# broadcast are refused first; gcd_ and lcm_ run gcd's and lcm's kernels
@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                                  "bitwise_right_shift", "gcd", "lcm", "igamma", "igammac", "nextafter",
                                  "hypot", "logaddexp", "fmod", "remainder"])
@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("dtypes", [("long", "float"), ("float", "long"), ("bool", "bool"),
                                    ("long", "long"), ("bool", "double")])
def test_binary_operations_refuse_shapes_before_dtypes(torch, name, in_place, dtypes):
    def run(L):
        x = L.tensor([1, 0]).to(getattr(L, dtypes[0]))
        y = L.ones(2, 3).to(getattr(L, dtypes[1]))
        return getattr(x, name + "_")(y) if in_place else getattr(L, name)(x, y)
    assert_same(run, torch)


@pytest.mark.parametrize("fn", [lambda L: L.ones(2).gcd_(L.ones(1)), lambda L: L.ones(2).lcm_(L.ones(1)),
                                lambda L: L.tensor([True]).gcd_(L.tensor([True]))])
def test_gcd_and_lcm_in_place_name_their_kernels(torch, fn):
    assert_same(fn, torch)


# linspace and logspace of no value or one are filled without PyTorch's kernel, which has no
# bool version: a bool result is allowed there (True for a start that isn't 0)
@pytest.mark.parametrize("fn", [
    lambda L: L.linspace(0.5, 1.5, 1, dtype=L.bool), lambda L: L.linspace(0, 1, 1, dtype=L.bool),
    lambda L: L.linspace(0, 1, 0, dtype=L.bool), lambda L: L.linspace(0, 1, 2, dtype=L.bool),
    lambda L: L.logspace(0, 1, 1, dtype=L.bool), lambda L: L.logspace(0, 1, 0, dtype=L.bool),
    lambda L: L.logspace(0, 1, 3, dtype=L.bool), lambda L: L.linspace(-3, 1, 1, dtype=L.bool),
])
def test_linspace_of_one_bool(torch, fn):
    assert_same(fn, torch)


# a view of an inference tensor (in or out of inference mode) shares the memory but is no view:
# PyTorch keeps no view relation for a tensor without an autograd layer, so an in-place change
# of it checks the shapes (or refuses an inference tensor) as for any inference tensor
def _views_of_inference(L):
    with L.inference_mode():
        base = L.ones(1, 3)
        inside = base[:, :2]
    return base, inside, base.squeeze(0)


def test_views_of_an_inference_tensor_are_not_views(torch):
    seen = []
    for L in (minigrad, torch):
        base, inside, outside = _views_of_inference(L)
        with L.inference_mode():
            nested = outside[1:]
        seen.append([(v._is_view(), v._base is None, v.is_inference()) for v in (inside, outside, nested)])
    assert seen[0] == seen[1]


@pytest.mark.parametrize("other", [lambda L: L.ones(3, requires_grad=True), lambda L: L.ones(2),
                                   lambda L: L.ones(3)])
def test_in_place_change_of_a_view_of_an_inference_tensor(torch, other):
    def fn(L):
        _, inside, _ = _views_of_inference(L)
        return inside.add_(other(L), alpha=1.5)
    assert_same(fn, torch)


# an input without a gradient edge (a view made under no_grad, or before its base required
# grad) says requires_grad=True but gets no gradient: PyTorch saves nothing for it, so the other
# operand is not saved (and may be an inference tensor)
def _edgeless_view(L, how):
    x = L.tensor([[1.0, 2, 3]] * 3, requires_grad=how == "no_grad")
    if how == "no_grad":
        with L.no_grad():
            return x[:]
    view = x[:]
    x.requires_grad_()
    return view


_PRODUCTS = {
    "mul": lambda L, a, b: a * b, "div": lambda L, a, b: a / b, "mm": lambda L, a, b: a @ b,
    "cross": lambda L, a, b: L.linalg.cross(a, b), "addmm": lambda L, a, b: L.addmm(a, a, b),
    "dot": lambda L, a, b: L.dot(a[0], b[0]),
}


@pytest.mark.parametrize("how", ["no_grad", "requires_grad_later"])
@pytest.mark.parametrize("name", sorted(_PRODUCTS))
@pytest.mark.parametrize("first", [True, False])
def test_nothing_saved_for_an_input_without_an_edge(torch, how, name, first):
    seen = []
    for L in (minigrad, torch):
        view, other = _edgeless_view(L, how), L.ones(3, 3) + 1
        node = (_PRODUCTS[name](L, view, other) if first else _PRODUCTS[name](L, other, view)).grad_fn
        saved = {}
        for attribute in ("_saved_self", "_saved_other", "_saved_mat2", "_saved_mat1", "_saved_tensor"):
            if hasattr(node, attribute):
                value = getattr(node, attribute)
                saved[attribute] = None if value is None else tuple(value.shape)
        seen.append(saved)
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name", ["mul", "mm", "div"])
def test_inference_operand_of_an_input_without_an_edge(torch, name):
    def fn(L):
        view = _edgeless_view(L, "no_grad")
        with L.inference_mode():
            other = L.ones(3, 3) + 1
        return _PRODUCTS[name](L, other, view)
    assert_same(fn, torch)


# ... but it still shares its source's storage: its offset in it, and memory it sees twice
# (expand) refused before the change reaches the inference tensor's version
def test_views_of_an_inference_tensor_share_its_storage(torch):
    seen = []
    for L in (minigrad, torch):
        with L.inference_mode():
            base = L.arange(6.0).reshape(2, 3)       # (the arange result itself is let go)
            inside = base[:, 1:]
        outside = base[1:]
        seen.append([(v.storage_offset(), v.data_ptr() - base.data_ptr(), v.as_strided((2,), (1,)).tolist())
                     for v in (inside, outside, outside.t(), inside[0])])
    assert seen[0] == seen[1]


@pytest.mark.parametrize("change", [lambda L, t: t.add_(1), lambda L, t: t.exp_(), lambda L, t: t.zero_(),
                                    lambda L, t: L.nn.functional.celu_(t), lambda L, t: t.fill_(1),
                                    lambda L, t: t.copy_(L.ones(3, 2))])
def test_in_place_change_of_an_expanded_inference_tensor(torch, change):
    def fn(L):
        with L.inference_mode():
            small = L.ones(1, 2)
        return change(L, small.expand(3, 2))
    assert_same(fn, torch)


# x.add_(other, alpha=...) and sub_ look up other's history (lost: a view made in no_grad whose
# base changed in place) before they check the shapes, as without an alpha
@pytest.mark.parametrize("change", [lambda s, h: s.add_(h, alpha=1.5), lambda s, h: s.sub_(h, alpha=2),
                                    lambda s, h: s.add_(h)])
def test_alpha_reports_a_lost_history_first(torch, change):
    def fn(L):
        x = L.rand(2, 3, requires_grad=True)
        with L.no_grad():
            view, total = x.H, x.sum()
            x.mul_(2)
        return change(total, view)
    assert_same(fn, torch)


# ... and an elementwise x.op_(view of x) reports the view's lost history before the memory the
# two share
@pytest.mark.parametrize("change", [lambda x, v: x.addcmul_(v, v), lambda x, v: x.addcdiv_(v, v),
                                    lambda x, v: x.hypot_(v), lambda x, v: x.lerp_(v, 0.5),
                                    lambda x, v: x.atan2_(v), lambda x, v: x.fmod_(v)])
def test_lost_history_before_the_shared_memory(torch, change):
    def fn(L):
        x = L.rand(1, 2, requires_grad=True) * 1
        with L.no_grad():
            view = x.mT
            x.mul_(2)
        return change(x, view)
    assert_same(fn, torch)


# F.bilinear keeps an integer dtype (products wrap as PyTorch's bmm), refuses bools where its
# bmm would run, and checks that every tensor has the same dtype first (seed 5141)
@pytest.mark.parametrize("fn", [
    lambda L: L.nn.functional.bilinear(*(lambda x: (x, x, x.reshape(1, -1, 1) * x.reshape(1, 1, -1)))(
        L.tensor([[1.5, -2.25, 3.0]]).view(L.int32))),
] + [
    (lambda d: lambda L: L.nn.functional.bilinear(*(L.tensor([[100, 100, 7]], dtype=getattr(L, d)),) * 2,
                                                  L.ones(2, 3, 3, dtype=getattr(L, d)) * 3))(d)
    for d in ("int8", "uint8", "int16", "int64")
] + [
    lambda L: L.nn.functional.bilinear(L.ones(1, 3, dtype=L.bool), L.ones(1, 3, dtype=L.bool),
                                       L.ones(2, 3, 3, dtype=L.bool)),
    lambda L: L.nn.functional.bilinear(L.ones(0, 3, dtype=L.bool), L.ones(0, 3, dtype=L.bool),
                                       L.ones(2, 3, 3, dtype=L.bool)),
    lambda L: L.nn.functional.bilinear(L.ones(1, 3), L.ones(1, 3, dtype=L.float64), L.ones(2, 3, 3)),
    lambda L: L.nn.functional.bilinear(L.ones(1, 3), L.ones(1, 4, dtype=L.float64), L.ones(2, 3, 3)),
    lambda L: L.nn.functional.bilinear(L.ones(1, 3, dtype=L.int32), L.ones(1, 3, dtype=L.int32),
                                       L.ones(2, 3, 3, dtype=L.int32), L.ones(2, dtype=L.int64)),
])
def test_bilinear_dtypes(torch, fn):
    assert_same(fn, torch)


# the pieces of an inference tensor (chunk, split, unbind, ...) are no views either: an
# in-place change outside inference mode checks the shapes, not the rules for multiple views
# made without history (seed 305)
@pytest.mark.parametrize("piece", [lambda t: t.chunk(3, -1)[0], lambda t: t.split(1, -1)[0],
                                   lambda t: t.unbind(0)[0], lambda t: t.tensor_split(2, -1)[0],
                                   lambda t: t.unsafe_chunk(2, -1)[0]])
@pytest.mark.parametrize("other", [lambda x: x.double(), lambda x: x[:1].double(), lambda x: x[:1].detach()])
def test_in_place_change_of_a_piece_of_an_inference_tensor(torch, piece, other):
    def fn(L):
        x = L.ones(3, requires_grad=True)
        with L.inference_mode():
            pooled = L.nn.functional.adaptive_avg_pool1d(x.reshape(1, -1), 2)
        return piece(pooled).add_(other(x))
    assert_same(fn, torch)


# _trilinear (bilinear and its gradients) sums in PyTorch's steps: x1 times the weight summed
# over x1's features, then times x2 summed over x2's, each rounded once (float16 added in
# float32), so small float32 and float16 results agree to the bit; summing every dim gives a
# 0-d tensor
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("which", range(4))
def test_bilinear_rounds_as_pytorch(torch, dtype, which):
    def fn(L):
        rng = np.random.default_rng(3)
        x1, x2, w = (L.tensor(rng.standard_normal(s)).to(getattr(L, dtype)).requires_grad_()
                     for s in ((2, 3), (2, 4), (2, 3, 4)))
        out = L.nn.functional.bilinear(x1, x2, w)
        if which == 3:
            return out
        grad_out = L.linspace(-1, 1, 4, dtype=out.dtype).reshape(2, 2)
        return L.autograd.grad(out, (x1, x2, w), grad_out)[which]
    assert_same(fn, torch)


def test_trilinear_over_every_dim_is_0d(torch):
    assert_same(lambda L: L._trilinear(L.ones(2, 3), L.ones(2, 3), L.ones(2, 3), [], [], [], [0, 1], 0), torch)


# an operation on inference tensors outside inference mode counts its kernel's in-place steps
# (autograd/kernel_writes.py): signbit of a type without a sign fills its result with False
# (seed 5143); _trilinear fills zeros, adds each slice of its unrolled dim and squeezes each
# summed dim, so bilinear's count grows with its outputs
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32"])
@pytest.mark.parametrize("shape", [(3,), (), (0,)])
def test_signbit_of_inference_tensors(torch, dtype, shape):
    seen = []
    for L in (minigrad, torch):
        with L.inference_mode():
            x = L.ones(shape, dtype=getattr(L, dtype))
        seen.append(x.signbit()._version)
    assert seen[0] == seen[1]


@pytest.mark.parametrize("fn", [
    lambda L, x: L.nn.functional.bilinear(x[:2].reshape(2, 1), x[:2].reshape(2, 1), x.reshape(3, 1, 1)),
    lambda L, x: L.nn.functional.bilinear(x[:0].reshape(0, 1), x[:0].reshape(0, 1), x.reshape(3, 1, 1)),
    lambda L, x: L.nn.functional.bilinear(x.reshape(1, 3), x.reshape(1, 3), x.reshape(1, 3, 1).expand(5, 3, 3)),
    lambda L, x: L._trilinear(x, x, x, [], [], [], [0], 0),
    lambda L, x: L._trilinear(x.reshape(3, 1), x.reshape(3, 1), x.reshape(3, 1), [], [], [], [0, 1], 1),
])
def test_versions_of_results_of_inference_tensors(torch, fn):
    seen = []
    for L in (minigrad, torch):
        with L.inference_mode():
            x = L.tensor([-1.0, 0.0, 2.0])
        seen.append(fn(L, x)._version)
    assert seen[0] == seen[1]


# ... as do the answers PyTorch gives without looking at integer and bool tensors (isinf,
# isposinf, isneginf, isfinite: a filled result; floor, ceil, round, trunc, fix: a clone), and
# unique of no elements writes nothing but an inverse shaped like an input of 2+ dims
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32"])
@pytest.mark.parametrize("shape", [(3,), (), (0,), (0, 2)])
@pytest.mark.parametrize("fn", [
    lambda L, x: x.isinf(), lambda L, x: x.isposinf(), lambda L, x: L.isneginf(x), lambda L, x: x.isfinite(),
    lambda L, x: x.isnan(), lambda L, x: x.floor(), lambda L, x: x.ceil(), lambda L, x: x.round(),
    lambda L, x: x.trunc(), lambda L, x: L.fix(x),
    lambda L, x: L.unique(x, return_inverse=True, return_counts=True),
    lambda L, x: L.unique_consecutive(x, return_inverse=True, return_counts=True),
])
def test_versions_of_answers_known_without_looking(torch, dtype, shape, fn):
    seen = []
    for L in (minigrad, torch):
        with L.inference_mode():
            x = L.ones(shape, dtype=getattr(L, dtype))
        try:
            out = fn(L, x)
        except NotImplementedError as error:       # floor and the like of bools
            seen.append(str(error))
            continue
        seen.append([t._version for t in (out if isinstance(out, tuple) else (out,))])
    assert seen[0] == seen[1]


# ... and logical_and/or/xor (an empty result, then their out= variant), isin (returned at
# once when there are no elements to look up), amin (no step for int64, PyTorch's own way)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float32"])
@pytest.mark.parametrize("shape", [(3,), (), (0,), (2, 3)])
@pytest.mark.parametrize("fn", [
    lambda L, x, y: x.logical_and(x), lambda L, x, y: L.logical_or(x, x), lambda L, x, y: x.logical_xor(x),
    lambda L, x, y: x.logical_and(y.sum() > 0), lambda L, x, y: x.amin(), lambda L, x, y: x.amax(),
    lambda L, x, y: L.amin(x, 0) if x.ndim else x.amin(0), lambda L, x, y: L.isin(x, y),
    lambda L, x, y: L.isin(y, x), lambda L, x, y: L.isin(2, x), lambda L, x, y: L.isin(x, 2),
])
def test_versions_of_logical_isin_amin(torch, dtype, shape, fn):
    seen = []
    for L in (minigrad, torch):
        with L.inference_mode():
            x, y = L.ones(shape, dtype=getattr(L, dtype)), L.ones(3, dtype=getattr(L, dtype))
        try:
            out = fn(L, x, y)
        except (RuntimeError, IndexError) as error:
            seen.append(str(error).splitlines()[0])
            continue
        seen.append(out._version)
    assert seen[0] == seen[1]


# searchsorted and bucketize of bool values in bool boundaries: PyTorch's kernel has no bool
# version (it returns first when there are no values); other dtypes are searched as promoted
# (seed 309)
@pytest.mark.parametrize("fn", [
    lambda L, b, s: L.searchsorted(s, b), lambda L, b, s: L.searchsorted(s, True),
    lambda L, b, s: L.bucketize(b, s), lambda L, b, s: L.bucketize(True, s),
    lambda L, b, s: L.searchsorted(s, b[:0]), lambda L, b, s: L.searchsorted(s[:0], b),
    lambda L, b, s: L.searchsorted(L.tensor([1.0, 2.0]), b), lambda L, b, s: L.searchsorted(s, L.tensor([1.0])),
    lambda L, b, s: L.searchsorted(s, 1), lambda L, b, s: L.searchsorted(s, b, sorter=L.tensor([0, 1])),
    lambda L, b, s: L.searchsorted(s.reshape(2, 1), b),
])
def test_searchsorted_of_bools(torch, fn):
    assert_same(lambda L: fn(L, L.tensor([True, False]), L.tensor([False, True])), torch)


# a view made under no_grad of a view made in inference mode keeps inference mode's name in
# the messages about in-place changes (PyTorch's views inherit that creation mode) (seed 347)
@pytest.mark.parametrize("ask", ["grad_fn", "mul_"])
@pytest.mark.parametrize("nested_no_grad", [False, True])
def test_view_of_an_inference_mode_view_made_under_no_grad(torch, ask, nested_no_grad):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with L.no_grad():
            with L.inference_mode():
                v = x.reshape(-1)[:2]
            w = v[:1][:1] if nested_no_grad else v[:1]
            x.mul_(2)
        try:
            w.grad_fn if ask == "grad_fn" else w.mul_(2)
            seen.append("ok")
        except RuntimeError as error:
            seen.append(str(error))
    assert seen[0] == seen[1]


# cdist records _cdist_forward (or, by a matrix product, _euclidean_dist) before its kernel's
# checks: an inference tensor among the inputs it saves is refused before their dtypes (seed 359)
@pytest.mark.parametrize("rows", [1, 30])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("p", [2.0, 1.0, -1.0])
def test_cdist_saves_before_checking(torch, rows, dtype, first, p):
    def fn(L):
        x = L.ones(rows, 3, requires_grad=True)
        with L.inference_mode():
            y = L.ones(2, 3, dtype=getattr(L, dtype))
        return L.cdist(x, y, p=p) if first else L.cdist(y, x, p=p)
    assert_same(fn, torch)


def _assert_same_bits(torch, fn, values):
    """fn of the same numbers in both libraries: the same dtype and the same bits."""
    mine = fn(minigrad, minigrad.tensor(values)).numpy()
    ref = fn(torch, torch.tensor(values)).numpy()
    assert mine.dtype == ref.dtype
    assert mine.tobytes() == ref.tobytes()


# digamma in PyTorch's own steps: in float32 for float32, float16 and integers (the C library's
# logf, a multiply-add a term of the series), in float64 for float64; x.cross(x) of its float32
# result showed a one-bit difference as a sign (seed 358)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
@pytest.mark.parametrize("fn", [lambda L, x: x.digamma(), lambda L, x: L.polygamma(0, x),
                                lambda L, x: x.clone().digamma_() if x.is_floating_point() else x.digamma()])
def test_digamma_bits(torch, dtype, fn):
    rng = np.random.default_rng(358)
    values = np.concatenate([rng.uniform(-20, 20, 3000), rng.standard_normal(3000) * np.exp(rng.uniform(-10, 30, 3000)),
                             [0, -0.0, np.inf, -np.inf, np.nan, -1, -2, 10, 9, 1e17, 1e-40, -1e-40, -9.5, -10.5]])
    if dtype == "int64":
        values = np.rint(np.clip(values, -50, 50))
    with np.errstate(over="ignore"):
        values = values.astype(dtype)
    _assert_same_bits(torch, fn, values)


def test_heaviside_of_cross_after_digamma(torch):
    def fn(L):
        x = L.tensor(np.random.default_rng(0).uniform(-2, 2, size=(3,)).astype(np.float32), requires_grad=True)
        with L.no_grad():
            x.digamma_()
            return L.linalg.cross(x, x).heaviside_(x)
    assert_same(fn, torch)


# ... and a piece of unbind, split or chunk (with grad mode on) of such a view: PyTorch's rule for
# views made in inference mode outlives the one for several views made at once (seed 347)
@pytest.mark.parametrize("made_in", ["inference_mode", "no_grad"])
@pytest.mark.parametrize("pieces", ["chunk", "unbind", "split"])
@pytest.mark.parametrize("ask", ["grad_fn", "mul_"])
def test_piece_of_an_inference_mode_view(torch, made_in, pieces, ask):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with L.no_grad():
            if made_in == "no_grad":
                v = x[:3]
            else:
                with L.inference_mode():
                    v = x.reshape(-1)[:3]
        w = {"chunk": lambda: v.chunk(3)[-1], "unbind": lambda: v.unbind()[0], "split": lambda: v.split(2)[0]}[pieces]()
        with L.no_grad():
            x.mul_(2)
        try:
            w.grad_fn if ask == "grad_fn" else w.mul_(2)
            seen.append("ok")
        except RuntimeError as error:
            seen.append(str(error))
    assert seen[0] == seen[1]


# lerp of integers (or bools) that do not broadcast: PyTorch reports the shapes before it finds
# no integer kernel (seed 6095); dtypes that differ are still reported first
@pytest.mark.parametrize("fn", [
    lambda L: L.lerp(L.arange(3), L.arange(2), 0.5),
    lambda L: L.arange(3).lerp(L.arange(2), 0.5),
    lambda L: L.arange(3).lerp_(L.arange(2), 0.5),
    lambda L: L.lerp(L.arange(3), L.arange(2), L.arange(3)),
    lambda L: L.lerp(L.arange(3), L.arange(3), L.arange(2)),
    lambda L: L.lerp(L.arange(3), L.arange(2), L.tensor(0.5)),
    lambda L: L.lerp(L.arange(3).bool(), L.arange(2).bool(), 0.5),
    lambda L: L.lerp(L.arange(3), L.arange(3), 0.5),
    lambda L: L.lerp(L.arange(3).reshape(3, 1), L.arange(2), 0.5),
    lambda L: L.lerp(L.arange(3), L.arange(2), L.ones(3)),
    lambda L: L.lerp(L.arange(3), L.ones(2), 0.5),
])
def test_lerp_of_integers_checks_shapes_first(torch, fn):
    assert_same(fn, torch)


# trigamma (polygamma(1, x)) in PyTorch's steps: the C library's sinf for float32's reflection,
# and its series with fused multiply-adds; a last-bit difference near a pole grew into another
# remainder (seed 6079)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("fn", [lambda L, x: x.polygamma(1), lambda L, x: L.special.polygamma(1, x),
                                lambda L, x: x.clone().polygamma_(1) if x.is_floating_point() else x.polygamma(1)])
def test_trigamma_bits(torch, dtype, fn):
    rng = np.random.default_rng(6079)
    values = np.concatenate([rng.uniform(-20, 20, 3000), rng.uniform(0.5, 3, 3000), np.exp(rng.uniform(-5, 12, 3000)),
                             [0, -0.0, np.inf, -np.inf, np.nan, -1, -2, 0.5, -0.5, 1e-30, 1e30, -1.0290304]])
    if dtype == "int64":
        values = np.rint(np.clip(values, -50, 50))
    values = values.astype(dtype)
    _assert_same_bits(torch, fn, values)


def test_remainder_after_trigamma_in_place(torch):
    def fn(L):
        x = L.tensor(np.random.default_rng(34).uniform(-2, 2, size=(3,)).astype(np.float32))
        with L.no_grad():
            return x.polygamma_(1).remainder_(-0.7)
    assert_same(fn, torch)


# addcdiv_ of integers, lerp_ and heaviside_ of other dtypes, into an expanded x: the dtype
# checks come before the refusal to write into memory x sees at several positions (seed 6039)
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(1).expand(3).addcdiv_(L.arange(3), L.arange(3) * L.arange(3) + 1),
    lambda L: L.ones(1).expand(3).addcdiv_(L.arange(2), L.arange(2)),
    lambda L: L.ones(1, dtype=L.long).expand(3).addcdiv_(L.arange(3), L.arange(3)),
    lambda L: L.ones(1).expand(3).addcdiv_(L.arange(3).float(), L.arange(3).float()),
    lambda L: L.ones(4).unfold(0, 2, 1).addcdiv_(L.ones(3, 2, dtype=L.long), L.ones(3, 2, dtype=L.long)),
    lambda L: L.ones(1).expand(3).lerp_(L.arange(3), 0.5),
    lambda L: L.ones(1).expand(3).lerp_(L.ones(3), L.arange(3)),
    lambda L: L.ones(1).expand(3).heaviside_(L.arange(3)),
    lambda L: L.ones(1).expand(3).heaviside_(L.ones(3)),
    lambda L: L.ones(3, requires_grad=True).addcdiv_(L.arange(3), L.arange(3)),
])
def test_dtype_checks_before_the_overlap_of_x(torch, fn):
    assert_same(fn, torch)


# index_reduce_ into an expanded x: its arguments (reduce, index, source's dtype and shape) are
# checked before the refusal to write there; the positions in index only after it (seed 6047)
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(1).expand(3).index_reduce_(0, L.tensor([0]), L.ones(1, dtype=L.long), "amin"),
    lambda L: L.ones(1, 2).expand(3, 2).index_reduce_(0, L.tensor([0]), L.ones(1, 2, dtype=L.long), "prod"),
    lambda L: L.ones(1).expand(3).index_reduce_(0, L.tensor([0]), L.ones(1), "foo"),
    lambda L: L.ones(1).expand(3).index_reduce_(0, L.tensor([0.0]), L.ones(1), "amin"),
    lambda L: L.ones(1).expand(3).index_reduce_(0, L.tensor([0]), L.ones(2), "amin"),
    lambda L: L.ones(1).expand(3).index_reduce_(0, L.tensor([5]), L.ones(1), "amin"),
    lambda L: L.ones(1).expand(3).index_reduce_(0, L.tensor([0]), L.ones(1), "amax"),
    lambda L: L.ones(4).unfold(0, 2, 1).index_reduce_(0, L.tensor([0]), L.ones(1, 2, dtype=L.long), "amin"),
])
def test_index_reduce_checks_arguments_before_the_overlap_of_x(torch, fn):
    assert_same(fn, torch)
