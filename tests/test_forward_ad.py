"""Forward-mode AD (minigrad.autograd.forward_ad) against PyTorch.

The table OPS lists every differentiable operation with inputs that keep it
smooth. For each one the tangent computed by the op's forward rule must equal

* J v, with J built by reverse mode (autograd.functional.jacobian): the
  forward rule agrees with the op's own backward, and
* the tangent that torch.autograd.forward_ad computes for the same program.
"""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import forward_ad as fwAD

from conftest import import_torch  # noqa: F401  (tests/ is on sys.path under pytest)


def _positive(*shape, seed=0):
    return np.random.default_rng(seed).uniform(0.5, 2.0, shape)


def _any(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _distinct(*shape, seed=0):
    """Values far from each other (max/min/sort have no ties to break)."""
    values = np.random.default_rng(seed).permutation(int(np.prod(shape))).astype(float)
    return (values * 0.37 + 0.1).reshape(shape)


def _setitem(a, index, values):
    copy = a.clone()
    copy[index] = values
    return copy


# name, function of (lib, *tensors), input arrays
OPS = [
    ("add", lambda L, a, b: a + b, [_any(2, 3), _any(3, seed=1)]),
    ("add_alpha", lambda L, a, b: L.add(a, b, alpha=2.5), [_any(2, 3), _any(2, 3, seed=1)]),
    ("sub", lambda L, a, b: a - b, [_any(2, 3), _any(2, 3, seed=1)]),
    ("sub_alpha", lambda L, a, b: L.sub(a, b, alpha=0.5), [_any(2, 3), _any(2, 3, seed=1)]),
    ("rsub", lambda L, a: 1 - a, [_any(4)]),
    ("neg", lambda L, a: -a, [_any(4)]),
    ("mul", lambda L, a, b: a * b, [_any(2, 3), _any(2, 3, seed=1)]),
    ("mul_scalar", lambda L, a: a * 3.0, [_any(4)]),
    ("div", lambda L, a, b: a / b, [_any(2, 3), _positive(2, 3, seed=1)]),
    ("rdiv", lambda L, a: 2.0 / a, [_positive(4)]),
    ("reciprocal", lambda L, a: a.reciprocal(), [_positive(4)]),
    ("pow_number", lambda L, a: a ** 3, [_any(4)]),
    ("pow_tensor", lambda L, a, b: a ** b, [_positive(4), _any(4, seed=1)]),
    ("rpow", lambda L, a: 2.0 ** a, [_any(4)]),
    ("square", lambda L, a: a.square(), [_any(4)]),
    ("sqrt", lambda L, a: a.sqrt(), [_positive(4)]),
    ("rsqrt", lambda L, a: a.rsqrt(), [_positive(4)]),
    ("exp", lambda L, a: a.exp(), [_any(4)]),
    ("log", lambda L, a: a.log(), [_positive(4)]),
    ("log1p", lambda L, a: a.log1p(), [_positive(4)]),
    ("sin", lambda L, a: a.sin(), [_any(4)]),
    ("cos", lambda L, a: a.cos(), [_any(4)]),
    ("tan", lambda L, a: a.tan(), [_any(4) * 0.5]),
    ("tanh", lambda L, a: a.tanh(), [_any(4)]),
    ("sigmoid", lambda L, a: a.sigmoid(), [_any(4)]),
    ("relu", lambda L, a: a.relu(), [_any(6)]),
    ("abs", lambda L, a: a.abs(), [_any(6)]),
    ("sign", lambda L, a: a.sign(), [_any(6)]),
    ("clamp", lambda L, a: a.clamp(-0.5, 0.5), [_any(6)]),
    ("maximum", lambda L, a, b: L.maximum(a, b), [_any(6), _any(6, seed=1)]),
    ("minimum", lambda L, a, b: L.minimum(a, b), [_any(6), _any(6, seed=1)]),
    ("where", lambda L, a, b: L.where(a > 0, a, b), [_any(6), _any(6, seed=1)]),
    ("sum", lambda L, a: a.sum(), [_any(2, 3)]),
    ("sum_dim", lambda L, a: a.sum(dim=1, keepdim=True), [_any(2, 3)]),
    ("mean", lambda L, a: a.mean(), [_any(2, 3)]),
    ("mean_dim", lambda L, a: a.mean(dim=0), [_any(2, 3)]),
    ("max", lambda L, a: a.max(), [_distinct(2, 3)]),
    ("max_dim", lambda L, a: a.max(dim=1)[0], [_distinct(2, 3)]),
    ("min_dim_keepdim", lambda L, a: a.min(dim=0, keepdim=True).values, [_distinct(2, 3)]),
    ("amax", lambda L, a: a.amax(dim=1), [_distinct(2, 3)]),
    ("amin", lambda L, a: a.amin(dim=0), [_distinct(2, 3)]),
    ("norm", lambda L, a: a.norm(), [_any(2, 3)]),
    ("norm_dim", lambda L, a: a.norm(dim=1), [_any(2, 3)]),
    ("norm_p1", lambda L, a: a.norm(p=1), [_any(2, 3)]),
    ("norm_p3", lambda L, a: a.norm(p=3), [_any(2, 3)]),
    ("var", lambda L, a: a.var(dim=1), [_any(2, 3)]),
    ("std", lambda L, a: a.std(), [_any(2, 3)]),
    ("logsumexp", lambda L, a: a.logsumexp(dim=1), [_any(2, 3)]),
    ("view", lambda L, a: a.view(3, 2), [_any(2, 3)]),
    ("reshape", lambda L, a: a.reshape(-1), [_any(2, 3)]),
    ("flatten", lambda L, a: a.flatten(), [_any(2, 3)]),
    ("t", lambda L, a: a.t(), [_any(2, 3)]),
    ("transpose", lambda L, a: a.transpose(0, 2), [_any(2, 3, 4)]),
    ("permute", lambda L, a: a.permute(2, 0, 1), [_any(2, 3, 4)]),
    ("T", lambda L, a: a.T, [_any(2, 3)]),
    ("squeeze", lambda L, a: a.squeeze(), [_any(2, 1, 3)]),
    ("squeeze_dim", lambda L, a: a.squeeze(1), [_any(2, 1, 3)]),
    ("unsqueeze", lambda L, a: a.unsqueeze(1), [_any(2, 3)]),
    ("expand", lambda L, a: a.expand(4, 3), [_any(1, 3)]),
    ("repeat", lambda L, a: a.repeat(2, 1, 2), [_any(2, 3)]),
    ("flip", lambda L, a: a.flip(0), [_any(2, 3)]),
    ("cat", lambda L, a, b: L.cat([a, b], dim=1), [_any(2, 3), _any(2, 2, seed=1)]),
    ("stack", lambda L, a, b: L.stack([a, b], dim=1), [_any(2, 3), _any(2, 3, seed=1)]),
    ("unbind", lambda L, a: a.unbind(1)[2], [_any(2, 3)]),
    ("split", lambda L, a: a.split(2, dim=1)[1], [_any(2, 3)]),
    ("chunk", lambda L, a: a.chunk(2)[0], [_any(4, 3)]),
    ("to_double", lambda L, a: a.double(), [_any(4)]),
    ("clone", lambda L, a: a.clone(), [_any(4)]),
    ("select", lambda L, a: a.select(1, 2), [_any(2, 3)]),
    ("masked_fill", lambda L, a: a.masked_fill(a > 0, 0.5), [_any(2, 3)]),
    ("masked_fill_tensor", lambda L, a, v: a.masked_fill(a > 0, v), [_any(2, 3), _any()]),
    ("getitem_int", lambda L, a: a[1], [_any(2, 3)]),
    ("getitem_slice", lambda L, a: a[:, 1:], [_any(2, 3)]),
    ("getitem_list", lambda L, a: a[[0, 2, 2]], [_any(3, 2)]),
    ("getitem_mask", lambda L, a: a[a > 0], [_any(3, 2)]),
    ("getitem_mixed", lambda L, a: a[1:, [0, 2]], [_any(3, 3)]),
    ("setitem", lambda L, a, v: _setitem(a, [0, 2], v), [_any(3, 2), _any(2, 2, seed=1)]),
    ("matmul_mm", lambda L, a, b: a @ b, [_any(2, 3), _any(3, 4, seed=1)]),
    ("matmul_mv", lambda L, a, b: a @ b, [_any(2, 3), _any(3, seed=1)]),
    ("matmul_dot", lambda L, a, b: a @ b, [_any(3), _any(3, seed=1)]),
    ("matmul_vm", lambda L, a, b: a @ b, [_any(3), _any(3, 2, seed=1)]),
    ("matmul_batched", lambda L, a, b: a @ b, [_any(2, 2, 3), _any(2, 3, 2, seed=1)]),
    ("matmul_batch_by_matrix", lambda L, a, b: a @ b, [_any(2, 2, 3), _any(3, 2, seed=1)]),
    ("mm", lambda L, a, b: a.mm(b), [_any(2, 3), _any(3, 4, seed=1)]),
    ("mv", lambda L, a, b: a.mv(b), [_any(2, 3), _any(3, seed=1)]),
    ("dot", lambda L, a, b: a.dot(b), [_any(3), _any(3, seed=1)]),
    ("outer", lambda L, a, b: a.outer(b), [_any(3), _any(2, seed=1)]),
    ("linear", lambda L, x, w, b: L.nn.functional.linear(x, w, b), [_any(2, 3), _any(4, 3, seed=1), _any(4, seed=2)]),
    ("linear_3d", lambda L, x, w, b: L.nn.functional.linear(x, w, b), [_any(2, 2, 3), _any(4, 3, seed=1), _any(4, seed=2)]),
    ("softmax", lambda L, a: L.softmax(a, dim=1), [_any(2, 3)]),
    ("log_softmax", lambda L, a: L.log_softmax(a, dim=0), [_any(2, 3)]),
    ("softplus", lambda L, a: L.nn.functional.softplus(a, beta=2.0), [_any(6)]),
    ("leaky_relu", lambda L, a: L.nn.functional.leaky_relu(a, 0.1), [_any(6)]),
    ("mse_loss", lambda L, a, b: L.nn.functional.mse_loss(a, b), [_any(2, 3), _any(2, 3, seed=1)]),
    ("mse_loss_sum", lambda L, a, b: L.nn.functional.mse_loss(a, b, reduction="sum"), [_any(2, 3), _any(2, 3, seed=1)]),
    ("binary_cross_entropy", lambda L, p: L.nn.functional.binary_cross_entropy(p, L.tensor([[0., 1., 1.], [1., 0., 0.]], dtype=p.dtype)), [_positive(2, 3) / 2.5]),
    ("bce_with_logits", lambda L, x, y: L.nn.functional.binary_cross_entropy_with_logits(x, y), [_any(2, 3), _positive(2, 3, seed=1) / 2.5]),
    ("cross_entropy", lambda L, x: L.nn.functional.cross_entropy(x, L.tensor([0, 2])), [_any(2, 3)]),
    ("nll_loss", lambda L, x: L.nn.functional.nll_loss(x, L.tensor([1, 0])), [_any(2, 3)]),
]


def _jvp_minigrad(fn, arrays, tangents):
    with fwAD.dual_level():
        duals = [fwAD.make_dual(minigrad.tensor(a), minigrad.tensor(t)) for a, t in zip(arrays, tangents)]
        out = fn(minigrad, *duals)
        primal, tangent = fwAD.unpack_dual(out)
    return primal, tangent


def _jvp_torch(torch, fn, arrays, tangents):
    import torch.autograd.forward_ad as tfw
    with tfw.dual_level():
        duals = [tfw.make_dual(torch.tensor(a), torch.tensor(t)) for a, t in zip(arrays, tangents)]
        out = fn(torch, *duals)
        primal, tangent = tfw.unpack_dual(out)
    return primal, tangent


@pytest.mark.parametrize("name, fn, arrays", OPS, ids=[op[0] for op in OPS])
def test_forward_rule_matches_backward_and_torch(name, fn, arrays):
    torch = import_torch()
    rng = np.random.default_rng(42)
    tangents = [rng.standard_normal(np.shape(a)) for a in arrays]
    primal, tangent = _jvp_minigrad(fn, arrays, tangents)
    assert tangent is not None, name
    assert tangent.shape == primal.shape
    # J v from reverse mode: the forward rule agrees with the op's backward
    inputs = tuple(minigrad.tensor(a) for a in arrays)
    jac = minigrad.autograd.functional.jacobian(lambda *xs: fn(minigrad, *xs), inputs)
    expected = sum(np.tensordot(block.numpy(), t, axes=t.ndim) for block, t in zip(jac, tangents))
    np.testing.assert_allclose(tangent.numpy(), np.broadcast_to(expected, tangent.shape), rtol=1e-6, atol=1e-9)
    # ... and with PyTorch's forward mode
    torch_primal, torch_tangent = _jvp_torch(torch, fn, arrays, tangents)
    np.testing.assert_allclose(primal.numpy(), torch_primal.detach().numpy(), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(tangent.numpy(), torch_tangent.detach().numpy(), rtol=1e-6, atol=1e-9)


def _node_classes():
    """Every Node subclass defined in minigrad's operation modules, by name."""
    import importlib
    import pkgutil
    import minigrad._ops
    from minigrad.autograd.graph import Node
    modules = [importlib.import_module(f"minigrad._ops.{info.name}")
               for info in pkgutil.iter_modules(minigrad._ops.__path__)]
    modules.append(importlib.import_module("minigrad.nn.functional"))
    modules.append(importlib.import_module("minigrad.nn._binary_cross_entropy"))
    classes = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Node) and value.__module__ == module.__name__:
                classes[value.__name__] = value
    return classes


# The nodes whose forward rule is written next to their backward. (Others - in-place
# fills, and any op added later without a rule - get their tangent from their backward,
# see forward_ad.jvp_from_backward; the OPS table checks their values.)
WITH_OWN_RULE = """
AddBackward0 SubBackward0 RsubBackward1 NegBackward0 MulBackward0 DivBackward0 DivBackward1
ReciprocalBackward0 PowBackward0 PowBackward1 PowBackward2 SqrtBackward0 RsqrtBackward0
ExpBackward0 LogBackward0 Log1PBackward0 SinBackward0 CosBackward0 TanBackward0 TanhBackward0
SigmoidBackward0 ReluBackward0 AbsBackward0 SignBackward0 ClampBackward1 MaximumBackward0
MinimumBackward0 WhereBackward0
SumBackward0 SumBackward1 MeanBackward0 MeanBackward1 MaxBackward0 MaxBackward1 MinBackward0
MinBackward1 AmaxBackward0 AminBackward0 LinalgVectorNormBackward0 VarBackward0 StdBackward0
LogsumexpBackward0
ViewBackward0 TBackward0 TransposeBackward0 PermuteBackward0 SqueezeBackward0 SqueezeBackward1
SqueezeBackward2 SqueezeBackward4 UnsqueezeBackward0 ExpandBackward0 RepeatBackward0
FlipBackward0 CatBackward0 StackBackward0 UnbindBackward0 SplitBackward0 SplitWithSizesBackward0
ToCopyBackward0 CloneBackward0 CopyBackwards SelectBackward0 MaskedFillBackward0
MaskedFillBackward1
SliceBackward0 IndexBackward0 IndexPutBackward0
MmBackward0 MvBackward0 DotBackward0 BmmBackward0 AddmmBackward0
MseLossBackward0 BinaryCrossEntropyBackward0 BinaryCrossEntropyWithLogitsBackward0
SoftmaxBackward0 LogSoftmaxBackward0 SoftplusBackward0 LeakyReluBackward0
""".split()


def test_forward_rules_sit_next_to_their_backward():
    classes = _node_classes()
    missing = [name for name in WITH_OWN_RULE if getattr(classes.get(name), "jvp", None) is None]
    assert missing == []


# --- dual tensors: levels, printing, errors -------------------------------------------------------

from test_func import check, T  # noqa: E402  (the same differential helper as torch.func's tests)


def _fw(L):
    return L.autograd.forward_ad


def _dual_program(body):
    """Run ``body(L, fw)`` inside a dual level and return what it returns (unpacked)."""
    def program(L):
        fw = _fw(L)
        with fw.dual_level():
            out = body(L, fw)
            if isinstance(out, L.Tensor):
                return tuple(fw.unpack_dual(out))
            return out
    return program


DUAL = {
    "make_dual_unpack": lambda L, fw: fw.make_dual(T(L, 3), T(L, 3, seed=1)),
    "unpack_plain": lambda L, fw: tuple(fw.unpack_dual(T(L, 3)))[1] is None,
    "chain": lambda L, fw: (fw.make_dual(T(L, 3), T(L, 3, seed=1)).sin() * 2).exp().sum(),
    "one_dual_one_plain": lambda L, fw: fw.make_dual(T(L, 2, 3), T(L, 2, 3, seed=1)) @ T(L, 3, 2, seed=2),
    "requires_grad_primal": lambda L, fw: fw.make_dual(T(L, 3, requires_grad=True), T(L, 3, seed=1)).exp() * 3,
    "tangent_requires_grad": lambda L, fw: fw.make_dual(T(L, 3), T(L, 3, seed=1, requires_grad=True)).exp(),
    "grad_through_tangent": lambda L, fw: _grad_through_tangent(L, fw),
    "float64_tangent_on_float32": lambda L, fw: fw.make_dual(L.ones(2), L.ones(2, dtype=L.float64)),
    "view_of_dual": lambda L, fw: fw.make_dual(T(L, 2, 3), T(L, 2, 3, seed=1)).t()[1],
    "inplace_add": lambda L, fw: _inplace(L, fw),
    "setitem_dual": lambda L, fw: _setitem_dual(L, fw),
    "inplace_on_base_reaches_view_tangent": lambda L, fw: _inplace_base_then_view(L, fw),
    "copy_into_view_gives_base_a_tangent": lambda L, fw: _copy_into_view(L, fw),
    "inplace_does_not_leak_to_input": lambda L, fw: _inplace_after_add(L, fw),
    "no_grad_keeps_forward_mode": lambda L, fw: _under_no_grad(L, fw),
    "copy_dual": lambda L, fw: L.zeros(3).copy_(fw.make_dual(T(L, 3), T(L, 3, seed=1))),
    "detach_drops_tangent": lambda L, fw: tuple(fw.unpack_dual(fw.make_dual(T(L, 3), T(L, 3, seed=1)).detach()))[1] is None,
    "split": lambda L, fw: [tuple(fw.unpack_dual(p)) for p in fw.make_dual(T(L, 5), T(L, 5, seed=1)).split(2)],
    "unbind": lambda L, fw: [tuple(fw.unpack_dual(p)) for p in fw.make_dual(T(L, 2, 3), T(L, 2, 3, seed=1)).unbind(1)],
    "max_dim": lambda L, fw: [tuple(fw.unpack_dual(p)) for p in fw.make_dual(T(L, 2, 3), T(L, 2, 3, seed=1)).max(dim=1)],
    "forward_over_reverse": lambda L, fw: _forward_over_reverse(L, fw),
    "wrong_size": lambda L, fw: fw.make_dual(L.ones(2), L.ones(3)),
    "int_tangent": lambda L, fw: fw.make_dual(L.ones(2), L.tensor([1, 2])),
    "int_primal": lambda L, fw: fw.make_dual(L.tensor([1, 2]), L.tensor([1, 2])),
    "dual_of_dual": lambda L, fw: fw.make_dual(fw.make_dual(L.ones(2), L.ones(2)), L.ones(2)),
    "nested_level": lambda L, fw: fw.enter_dual_level(),
    "wrong_level": lambda L, fw: fw.make_dual(L.ones(2), L.ones(2), level=5),
    "unpack_number": lambda L, fw: fw.unpack_dual(3),
    "custom_function_without_jvp": lambda L, fw: _custom(L, with_jvp=False).apply(fw.make_dual(T(L, 3), L.ones(3))),
    "custom_function_jvp": lambda L, fw: _custom(L, with_jvp=True).apply(fw.make_dual(T(L, 3), T(L, 3, seed=1))),
    # filling a dual tensor with constants zeroes its tangent (in the tangent's own memory)
    "fill_number": lambda L, fw: fw.make_dual(T(L, 3), T(L, 3, seed=1)).fill_(2.0),
    "zero_": lambda L, fw: fw.make_dual(T(L, 3), T(L, 3, seed=1)).zero_(),
    "fill_plain_tensor": lambda L, fw: fw.make_dual(T(L, 3), T(L, 3, seed=1)).fill_(L.tensor(3.0)),
    "fill_dual_tensor": lambda L, fw: fw.make_dual(T(L, 3), T(L, 3, seed=1)).fill_(
        fw.make_dual(L.tensor(3.0), L.tensor(5.0))),
    "plain_filled_with_dual": lambda L, fw: L.ones(3).fill_(fw.make_dual(L.tensor(2.0), L.tensor(9.0))),
    "view_of_plain_filled_with_dual": lambda L, fw: _fill_view_with_dual(L, fw),
    "fill_view_of_dual": lambda L, fw: _fill_view_of_dual(L, fw),
    "zero_changes_the_given_tangent": lambda L, fw: _zero_given_tangent(L, fw),
    "random_fills_zero_the_tangent": lambda L, fw: [
        fw.unpack_dual(getattr(fw.make_dual(L.ones(3), T(L, 3, seed=1)), name)()).tangent
        for name in ("normal_", "uniform_", "bernoulli_")],
    "copy_plain_into_dual": lambda L, fw: fw.make_dual(T(L, 3), T(L, 3, seed=1)).copy_(L.ones(3)),
    "setitem_number_into_dual": lambda L, fw: _setitem(fw.make_dual(T(L, 3), T(L, 3, seed=1)), 0, 5.0),
    # unpack_dual's primal is always a new view (node torch::autograd::Identity when recording)
    "primal_is_an_alias": lambda L, fw: _primal_alias(L, fw),
    # a tangent laid out differently from the primal is copied into the primal's layout
    "transposed_tangent_is_copied": lambda L, fw: _transposed_tangent(L, fw),
    "unpack_at_another_level": lambda L, fw: fw.unpack_dual(fw.make_dual(L.ones(1), L.ones(1)), level=3),
}


def _primal_alias(L, fw):
    plain, leaf = T(L, 3), T(L, 3, requires_grad=True)
    seen = []
    for x in (plain, leaf, fw.make_dual(leaf, T(L, 3, seed=1))):
        primal = fw.unpack_dual(x).primal
        node = primal.grad_fn
        seen.append((primal is x, primal._base is not None, None if node is None else node.name(),
                     None if node is None else [f is not None and f.name() for f, _ in node.next_functions]))
    return seen, repr(fw.unpack_dual(leaf).primal).replace("minigrad.", "torch.")


def _transposed_tangent(L, fw):
    tangent = T(L, 3, 2, seed=1).t()
    dual = fw.make_dual(T(L, 2, 3), tangent)
    kept = fw.unpack_dual(dual).tangent
    return kept is tangent, kept.is_contiguous(), kept


def _fill_view_with_dual(L, fw):
    base = L.ones(3)
    base[:2].fill_(fw.make_dual(L.tensor(2.0), L.tensor(9.0)))
    return base


def _fill_view_of_dual(L, fw):
    base = fw.make_dual(T(L, 3), T(L, 3, seed=1))
    base[:2].fill_(0.0)
    return base


def _zero_given_tangent(L, fw):
    """make_dual keeps the given tangent itself, so zero_ on the dual zeroes it too."""
    tangent = T(L, 3, seed=1)
    fw.make_dual(T(L, 3), tangent).zero_()
    return tangent


def _grad_through_tangent(L, fw):
    """A tangent that requires grad: the JVP is differentiable, here J^T 1 (and d/dx of J v)."""
    x = T(L, 3, requires_grad=True)
    v = T(L, 3, seed=1, requires_grad=True)
    out = (fw.make_dual(x, v).sin() * 2).exp().sum()
    jvp = fw.unpack_dual(out).tangent
    return L.autograd.grad(jvp, (x, v))


def _inplace(L, fw):
    y = fw.make_dual(T(L, 3), T(L, 3, seed=1)).clone()
    y.add_(fw.make_dual(T(L, 3, seed=2), T(L, 3, seed=3)))
    y.mul_(2)
    return y


def _inplace_base_then_view(L, fw):
    dual = fw.make_dual(T(L, 2, 3), T(L, 2, 3, seed=1))
    row = dual[1]
    dual.mul_(3)
    return [tuple(fw.unpack_dual(row)), tuple(fw.unpack_dual(dual))]


def _copy_into_view(L, fw):
    base = L.zeros(2, 3)
    base[0].copy_(fw.make_dual(T(L, 3), T(L, 3, seed=1)))
    return tuple(fw.unpack_dual(base))


def _inplace_after_add(L, fw):
    x = fw.make_dual(T(L, 3), T(L, 3, seed=1))
    y = x + 1
    y.mul_(2)
    return [tuple(fw.unpack_dual(x)), tuple(fw.unpack_dual(y))]


def _under_no_grad(L, fw):
    with L.no_grad():
        return fw.make_dual(T(L, 3, requires_grad=True), T(L, 3, seed=1)).exp() * 2


def _setitem_dual(L, fw):
    w = L.zeros(4)
    w[1:3] = fw.make_dual(T(L, 2), T(L, 2, seed=1))
    return w


def _forward_over_reverse(L, fw):
    """Hessian-vector product: the gradient, computed on dual inputs, carries H v as its tangent."""
    x = T(L, 3, requires_grad=True)
    dual = fw.make_dual(x, T(L, 3, seed=1))
    y = (dual ** 3).sum() + dual[0] * dual[1]
    (g,) = L.autograd.grad(y, x)
    return tuple(fw.unpack_dual(g))


def _custom(L, with_jvp):
    class Cube(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            # forward itself never sees tangents
            assert L.autograd.forward_ad.unpack_dual(x).tangent is None
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    if with_jvp:
        def jvp(ctx, tangent):
            (x,) = ctx.saved_tensors
            return tangent * 3 * x ** 2
        Cube.jvp = staticmethod(jvp)
    return Cube


@pytest.mark.parametrize("name", list(DUAL))
def test_dual_tensors_match_torch(name):
    check(_dual_program(DUAL[name]))


def _no_level(L):
    return L.autograd.forward_ad.make_dual(L.ones(2), L.ones(2))


def _exit_without_level(L):
    L.autograd.forward_ad.exit_dual_level()


def _exit_wrong_level(L):
    fw = _fw(L)
    level = fw.enter_dual_level()
    try:
        fw.exit_dual_level(level=level + 3)
    finally:
        fw.exit_dual_level(level=level)


def _levels_reused(L):
    fw = _fw(L)
    first = fw.enter_dual_level()
    fw.exit_dual_level(level=first)
    with fw.dual_level() as second:
        return first, second


def _tangent_gone_after_level(L):
    fw = _fw(L)
    with fw.dual_level():
        dual = fw.make_dual(L.ones(2), L.ones(2))
    return fw.unpack_dual(dual).tangent is None, fw.unpack_dual(dual * 2).tangent is None


def _decorator(L):
    fw = _fw(L)

    @fw.dual_level()
    def doubled(x):
        return tuple(fw.unpack_dual(fw.make_dual(x, L.ones(2)) * 2))
    return doubled(L.ones(2))


def _unpack_with_level_but_none_open(L):
    x = L.ones(1, requires_grad=True)
    primal, tangent = L.autograd.forward_ad.unpack_dual(x, level=0)
    return primal is x, primal._base is x, tangent, primal.grad_fn.name()


@pytest.mark.parametrize("program", [_unpack_with_level_but_none_open, _decorator, _no_level, _exit_without_level, _exit_wrong_level, _levels_reused,
                                     _tangent_gone_after_level])
def test_levels_match_torch(program):
    check(program)


PRINTED = [
    lambda L, fw: fw.make_dual(L.tensor([1., 2.]), L.tensor([0.5, 1.])),
    lambda L, fw: fw.make_dual(L.tensor([1., 2.]), L.tensor([0.5, 1.])).sin() * 2,
    lambda L, fw: fw.make_dual(L.tensor([1., 2.], requires_grad=True), L.tensor([0.5, 1.])),
    lambda L, fw: fw.make_dual(L.tensor([1., 2.]), L.tensor([0.5, 1.])).sum(),
    lambda L, fw: fw.make_dual(L.tensor([[1., 2.], [3., 4.]]), L.ones(2, 2)).view(4, 1),
    lambda L, fw: fw.make_dual(L.ones(2), L.ones(2, dtype=L.float64)),
]


@pytest.mark.parametrize("index", range(len(PRINTED)))
def test_dual_tensors_print_like_torch(index):
    torch = import_torch()
    texts = []
    for lib in (minigrad, torch):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            texts.append(repr(PRINTED[index](lib, fw)))
    assert texts[0] == texts[1]


def test_no_dual_level_costs_one_flag_check():
    """With no level open, ops never look at tangents (the flag stays False)."""
    from minigrad.autograd.forward_ad import _DualLevel
    assert _DualLevel.open is False
    x = minigrad.ones(3, requires_grad=True)
    y = (x * 2).exp().sum()
    assert "_fw_tangent" not in y.__dict__
    assert _DualLevel.open is False


def test_gradcheck_forward_ad_matches_torch():
    def program(L):
        x = L.tensor(_data_for_gradcheck(), requires_grad=True)
        return L.autograd.gradcheck(lambda a: (a.sin() * a).sum(dim=0), (x,), check_forward_ad=True)
    check(program)


def test_gradcheck_forward_ad_catches_a_wrong_jvp():
    def program(L):
        class Wrong(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_forward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                return grad * 0

            @staticmethod
            def jvp(ctx, tangent):
                (x,) = ctx.saved_tensors
                return 3 * x * tangent
        x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)
        quiet = L.autograd.gradcheck(Wrong.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                                     raise_exception=False)
        assert quiet is False
        return L.autograd.gradcheck(Wrong.apply, (x,), check_forward_ad=True, check_backward_ad=False)
    check(program)          # the same GradcheckError text as PyTorch's


def _data_for_gradcheck():
    return np.random.default_rng(0).standard_normal((2, 3))


def test_draw_forward_is_the_same_picture_for_torch():
    torch = import_torch()
    viz = pytest.importorskip("minigrad.viz")
    sources = []
    for lib in (minigrad, torch):
        graph = viz.draw_forward(lambda x, y: (x.sin() * y).exp(), (lib.tensor(1.0), lib.tensor(2.0)),
                                 (lib.tensor(1.0), lib.tensor(0.0)), names=["x", "y"])
        sources.append(graph.source)
    assert sources[0] == sources[1]
    assert "tangent&#160;5.8151" in sources[0]     # d/dx exp(sin(x) y) = exp(.) cos(x) y at (1, 2)
    assert sources[0].count("shape=ellipse") == 3  # sin, mul, exp


def test_an_op_without_a_forward_rule_gets_its_tangent_from_backward():
    """Ops added without a jvp still work: the tangent is obtained from their backward."""
    from minigrad.autograd.graph import Node
    from minigrad._ops import result

    class CubeBackward0(Node):                  # backward written with tensor operations
        def backward(self, grad):
            (a,) = self.saved_tensors
            return (grad * 3 * a ** 2,)

    class NumpyCubeBackward0(Node):             # backward written with numpy (not differentiable)
        def backward(self, grad):
            (a,) = self.saved_tensors
            return (minigrad.tensor(grad._array * 3 * a._array ** 2),)

    for node_class in (CubeBackward0, NumpyCubeBackward0):
        with fwAD.dual_level():
            x = fwAD.make_dual(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 0.5]))
            out = result(x._array ** 3, node_class, (x,), saved=(x,))
            tangent = fwAD.unpack_dual(out).tangent
        assert tangent.tolist() == [3.0, 6.0]
        assert not tangent.requires_grad
