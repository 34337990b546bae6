"""minigrad.func (torch.func) and autograd.functional's forward mode, against PyTorch.

Each case is a small program run twice, with ``lib = minigrad`` and with
``lib = torch``, on the same numpy data. Results are compared as nested
structures of arrays (same structure, same container types, same values);
a case that raises must raise the same exception class with the same message.
"""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _data(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _to_plain(value, lib):
    """Nested containers of tensors -> the same containers of numpy arrays."""
    if isinstance(value, lib.Tensor):
        assert not value.requires_grad or True
        return ("tensor", value.detach().numpy().copy(), value.requires_grad)
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [_to_plain(v, lib) for v in value])
    if isinstance(value, dict):
        return ("dict", {k: _to_plain(v, lib) for k, v in value.items()})
    return ("value", value)


def _assert_same(ours, theirs, path="result"):
    assert ours[0] == theirs[0], f"{path}: {ours[0]} != {theirs[0]}"
    if ours[0] == "tensor":
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-7, err_msg=path)
        assert ours[1].shape == theirs[1].shape, path
        assert ours[2] == theirs[2], f"{path}: requires_grad {ours[2]} != {theirs[2]}"
    elif ours[0] in ("tuple", "list"):
        assert len(ours[1]) == len(theirs[1]), path
        for i, (a, b) in enumerate(zip(ours[1], theirs[1])):
            _assert_same(a, b, f"{path}[{i}]")
    elif ours[0] == "dict":
        assert list(ours[1]) == list(theirs[1]), path
        for k in ours[1]:
            _assert_same(ours[1][k], theirs[1][k], f"{path}[{k!r}]")
    else:
        assert ours[1] == theirs[1], path


def _run(program, lib):
    try:
        return "ok", _to_plain(program(lib), lib)
    except Exception as error:     # the exception itself is what is compared
        return "error", (type(error).__name__, str(error))


def check(program):
    torch = import_torch()
    ours = _run(program, minigrad)
    theirs = _run(program, torch)
    assert ours[0] == theirs[0], f"minigrad: {ours}, torch: {theirs}"
    if ours[0] == "error":
        assert ours[1] == theirs[1]
    else:
        _assert_same(ours[1], theirs[1])


def T(lib, *shape, seed=0, requires_grad=False):
    return lib.tensor(_data(*shape, seed=seed), requires_grad=requires_grad)


def f_cubic(lib):
    return lambda x: (x ** 3).sum() + (x[0] * x[1]).sin()


def _linear_loss(lib):
    def loss(w, b, x, y):
        prediction = x @ w + b
        return ((prediction - y) ** 2).mean()
    return loss


CASES = {
    # grad
    "grad": lambda L: L.func.grad(f_cubic(L))(T(L, 3)),
    "grad_argnums_tuple": lambda L: L.func.grad(lambda a, b: (a * b.exp()).sum(), argnums=(0, 1))(T(L, 3), T(L, 3, seed=1)),
    "grad_argnums_negative": lambda L: L.func.grad(lambda a, b: (a * b.exp()).sum(), argnums=-1)(T(L, 3), T(L, 3, seed=1)),
    "grad_has_aux": lambda L: L.func.grad(lambda a: ((a ** 2).sum(), {"double": a * 2}), has_aux=True)(T(L, 3)),
    "grad_dict": lambda L: L.func.grad(lambda p: (p["w"] * p["b"]).sum())({"w": T(L, 3), "b": T(L, 3, seed=1)}),
    "grad_unused": lambda L: L.func.grad(lambda a: L.ones(()))(T(L, 3)),
    "grad_and_value": lambda L: L.func.grad_and_value(f_cubic(L))(T(L, 3)),
    "grad_of_grad": lambda L: L.func.grad(lambda x: L.func.grad(lambda y: y.sin().sum())(x).sum())(T(L, 3)),
    "grad_keeps_user_graph": lambda L: L.func.grad(lambda a: (a ** 3).sum())(T(L, 3, requires_grad=True)),
    "grad_nonscalar": lambda L: L.func.grad(lambda a: a ** 2)(T(L, 3)),
    "grad_shape_1": lambda L: L.func.grad(lambda a: a.sum().reshape(1))(T(L, 3)),
    "grad_not_tensor": lambda L: L.func.grad(lambda a: [a.sum()])(T(L, 3)),
    "grad_int_input": lambda L: L.func.grad(lambda a: a.sum())(L.tensor([1, 2])),
    "grad_number_input": lambda L: L.func.grad(lambda a: a.sum())(3.0),
    "grad_bad_argnum": lambda L: L.func.grad(lambda a: a.sum(), argnums=1)(T(L, 3)),
    "grad_empty_argnums": lambda L: L.func.grad(lambda a: a.sum(), argnums=())(T(L, 3)),
    "grad_float_argnums": lambda L: L.func.grad(lambda a: a.sum(), argnums=1.0)(T(L, 3)),
    "grad_aux_missing": lambda L: L.func.grad(lambda a: a.sum(), has_aux=True)(T(L, 3)),
    # vjp / jvp / linearize
    "vjp": lambda L: L.func.vjp(lambda a: a.sin() * 2, T(L, 3))[1](T(L, 3, seed=1)),
    "vjp_two_primals": lambda L: L.func.vjp(lambda a, b: a * b, T(L, 3), T(L, 3, seed=1))[1](L.ones(3)),
    "vjp_tuple_output": lambda L: L.func.vjp(lambda a: (a.exp(), a.sum()), T(L, 3))[1]((L.ones(3), L.ones(()))),
    "vjp_value": lambda L: L.func.vjp(lambda a: a.sin(), T(L, 3))[0],
    "vjp_aux_missing": lambda L: L.func.vjp(lambda a: a ** 2, T(L, 3), has_aux=True),
    "jvp": lambda L: L.func.jvp(lambda a: a.sin() * a, (T(L, 3),), (T(L, 3, seed=1),)),
    "jvp_two_inputs": lambda L: L.func.jvp(lambda a, b: a @ b, (T(L, 2, 3), T(L, 3, seed=1)), (T(L, 2, 3, seed=2), T(L, 3, seed=3))),
    "jvp_has_aux": lambda L: L.func.jvp(lambda a: (a.exp(), a.sum()), (T(L, 3),), (L.ones(3),), has_aux=True),
    "jvp_not_tuple": lambda L: L.func.jvp(lambda a: a ** 2, T(L, 3), L.ones(3)),
    "jvp_structure": lambda L: L.func.jvp(lambda a: a ** 2, (T(L, 3),), (L.ones(3), L.ones(3))),
    "jvp_size": lambda L: L.func.jvp(lambda a: a ** 2, (T(L, 3),), (L.ones(2),)),
    "linearize": lambda L: L.func.linearize(lambda a: a.sin(), T(L, 3))[1](L.ones(3, dtype=L.float64)),
    "linearize_dtype": lambda L: L.func.linearize(lambda a: a.sin(), T(L, 3))[1](L.ones(3)),
    "linearize_shape": lambda L: L.func.linearize(lambda a: a.sin(), T(L, 3))[1](L.ones(2, dtype=L.float64)),
    "reverse_over_forward": lambda L: L.func.grad(lambda x: L.func.jvp(lambda a: (a ** 3).sum(), (x,), (L.ones(3),))[1])(T(L, 3)),
    # jacobians and hessians
    "jacrev": lambda L: L.func.jacrev(lambda a: a.sin() * a.sum())(T(L, 3)),
    "jacfwd": lambda L: L.func.jacfwd(lambda a: a.sin() * a.sum())(T(L, 3)),
    "jacrev_matrix": lambda L: L.func.jacrev(lambda a: a.t() @ a)(T(L, 2, 2)),
    "jacfwd_matrix": lambda L: L.func.jacfwd(lambda a: a.t() @ a)(T(L, 2, 2)),
    "jacrev_argnums": lambda L: L.func.jacrev(lambda a, b: (a * b, a.sum()), argnums=(0, 1))(T(L, 3), T(L, 3, seed=1)),
    "jacfwd_argnums": lambda L: L.func.jacfwd(lambda a, b: (a * b, a.sum()), argnums=(0, 1))(T(L, 3), T(L, 3, seed=1)),
    "jacrev_chunk_size": lambda L: L.func.jacrev(lambda a: a.exp(), chunk_size=1)(T(L, 2)),
    "jacrev_chunk_zero": lambda L: L.func.jacrev(lambda a: a, chunk_size=0)(T(L, 2)),
    "jacrev_has_aux": lambda L: L.func.jacrev(lambda a: (a ** 2, a.sum()), has_aux=True)(T(L, 3)),
    "jacfwd_has_aux": lambda L: L.func.jacfwd(lambda a: (a ** 2, a.sum()), has_aux=True)(T(L, 3)),
    "hessian": lambda L: L.func.hessian(f_cubic(L))(T(L, 3)),
    "hessian_argnums": lambda L: L.func.hessian(lambda a, b: (a.exp() * b ** 2).sum(), argnums=(0, 1))(T(L, 2), T(L, 2, seed=1)),
    "jacfwd_jacrev": lambda L: L.func.jacfwd(L.func.jacrev(f_cubic(L)))(T(L, 3)),
    "jacrev_jacrev": lambda L: L.func.jacrev(L.func.jacrev(f_cubic(L)))(T(L, 3)),
    "jacrev_jacfwd": lambda L: L.func.jacrev(L.func.jacfwd(f_cubic(L)))(T(L, 3)),
    "jacfwd_jacfwd": lambda L: L.func.jacfwd(L.func.jacfwd(f_cubic(L)))(T(L, 3)),
    "hvp_forward_over_reverse": lambda L: L.func.jvp(L.func.grad(f_cubic(L)), (T(L, 3),), (T(L, 3, seed=1),))[1],
    # vmap
    "vmap": lambda L: L.func.vmap(lambda a: a.sum())(T(L, 2, 3)),
    "vmap_in_dims": lambda L: L.func.vmap(lambda a, b: a * b, in_dims=(0, None))(T(L, 2, 3), T(L, 3, seed=1)),
    "vmap_in_dim_1": lambda L: L.func.vmap(lambda a: a.sum(), in_dims=1)(T(L, 2, 3)),
    "vmap_out_dims": lambda L: L.func.vmap(lambda a: a * 2, out_dims=1)(T(L, 2, 3)),
    "vmap_tuple_out": lambda L: L.func.vmap(lambda a: (a, a.sum()))(T(L, 2, 3)),
    "vmap_out_dims_none": lambda L: L.func.vmap(lambda a, b: (a * 2, b), in_dims=(0, None), out_dims=(0, None))(T(L, 2, 3), T(L, 3)),
    "vmap_nested": lambda L: L.func.vmap(L.func.vmap(lambda a: a.sum()))(T(L, 2, 3, 4)),
    "vmap_nested_in_dims": lambda L: L.func.vmap(L.func.vmap(lambda a, b: a @ b, in_dims=(None, 1)), in_dims=(0, None))(T(L, 2, 3), T(L, 3, 4, seed=1)),
    "vmap_chunk_size": lambda L: L.func.vmap(lambda a: a.exp(), chunk_size=1)(T(L, 3, 2)),
    "vmap_dict": lambda L: L.func.vmap(lambda d: d["a"].sum() * d["b"])({"a": T(L, 2, 3), "b": T(L, 2, seed=1)}),
    "vmap_size_mismatch": lambda L: L.func.vmap(lambda a, b: a * b)(T(L, 2, 3), T(L, 3, 3)),
    "vmap_bad_in_dim": lambda L: L.func.vmap(lambda a: a.sum(), in_dims=2)(T(L, 2, 3)),
    "vmap_in_dims_structure": lambda L: L.func.vmap(lambda a: a.sum(), in_dims=(0, 0))(T(L, 2, 3)),
    "vmap_in_dims_none": lambda L: L.func.vmap(lambda a: a.sum(), in_dims=None)(T(L, 2, 3)),
    "vmap_returns_float": lambda L: L.func.vmap(lambda a: 1.0)(T(L, 2, 3)),
    "vmap_chunk_zero": lambda L: L.func.vmap(lambda a: a.sum(), chunk_size=0)(T(L, 2, 3)),
    "vmap_all_none": lambda L: L.func.vmap(lambda a: a.sum(), in_dims=(None,))(T(L, 2)),
    "vmap_0d": lambda L: L.func.vmap(lambda a: a.sum())(L.ones(())),
    "vmap_number": lambda L: L.func.vmap(lambda a: a.sum())(3.0),
    "vmap_out_dims_structure": lambda L: L.func.vmap(lambda a: a * 2, out_dims=(0, 1))(T(L, 2, 3)),
    # per-sample gradients of a small linear model: one gradient per row of x
    "per_sample_grads": lambda L: L.func.vmap(L.func.grad(_linear_loss(L), argnums=(0, 1)), in_dims=(None, None, 0, 0))(
        T(L, 3, 2), T(L, 2, seed=1), T(L, 5, 3, seed=2), T(L, 5, 2, seed=3)),
    "vmap_jacrev": lambda L: L.func.vmap(L.func.jacrev(lambda a: a.sin() * a.sum()))(T(L, 2, 3)),
    "vmap_hessian": lambda L: L.func.vmap(L.func.hessian(lambda a: (a ** 4).sum()))(T(L, 2, 3)),
    "vmap_jvp": lambda L: L.func.vmap(lambda x, v: L.func.jvp(lambda a: a.exp(), (x,), (v,))[1])(T(L, 2, 3), T(L, 2, 3, seed=1)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_func_matches_torch(name):
    check(CASES[name])


def _functional(L):
    return L.autograd.functional


def _cubic_pair(L):
    return lambda a, b: (a * b, (a ** 3).sum() * b)


FUNCTIONAL = {
    "jacobian_forward_mode": lambda L: _functional(L).jacobian(lambda a: a.sin() * a.sum(), T(L, 3), strategy="forward-mode", vectorize=True),
    "jacobian_forward_tuple": lambda L: _functional(L).jacobian(_cubic_pair(L), (T(L, 2), T(L, 2, seed=1)), strategy="forward-mode", vectorize=True),
    "jacobian_vectorize": lambda L: _functional(L).jacobian(_cubic_pair(L), (T(L, 2), T(L, 2, seed=1)), vectorize=True),
    "jacobian_tuple_out": lambda L: _functional(L).jacobian(lambda a: (a * 2, a.sum()), T(L, 2)),
    "jacobian_forward_no_vectorize": lambda L: _functional(L).jacobian(lambda a: a ** 2, T(L, 2), strategy="forward-mode"),
    "jacobian_bad_strategy": lambda L: _functional(L).jacobian(lambda a: a ** 2, T(L, 2), strategy="fwd", vectorize=True),
    "jacobian_forward_strict": lambda L: _functional(L).jacobian(lambda a: a ** 2, T(L, 2), strategy="forward-mode", strict=True, vectorize=True),
    "jacobian_forward_create_graph": lambda L: _functional(L).jacobian(lambda a: a ** 2, T(L, 2), strategy="forward-mode", create_graph=True, vectorize=True),
    "jacobian_strict_constant": lambda L: _functional(L).jacobian(lambda a: L.ones(2), T(L, 2), strict=True),
    "jacobian_strict_unused_input": lambda L: _functional(L).jacobian(lambda a, b: a * 2, (T(L, 2), T(L, 2)), strict=True),
    "jacobian_strict_create_graph": lambda L: _functional(L).jacobian(lambda a: a * 2, T(L, 2), strict=True, create_graph=True),
    "jacobian_strict_vectorize": lambda L: _functional(L).jacobian(lambda a: a * 2, T(L, 2), strict=True, vectorize=True),
    "jacobian_strict_ok": lambda L: _functional(L).jacobian(lambda a: a.exp(), T(L, 2), strict=True),
    "hessian_strict_ok": lambda L: _functional(L).hessian(lambda a: (a ** 3).sum(), T(L, 2), strict=True),
    "hessian_strict_linear": lambda L: _functional(L).hessian(lambda a: a.sum(), T(L, 2), strict=True),
    "hessian_strict_constant": lambda L: _functional(L).hessian(lambda a: L.ones(()), T(L, 2), strict=True),
    "hessian_not_scalar": lambda L: _functional(L).hessian(lambda a: a ** 2, T(L, 2)),
    "hessian_tuple_output": lambda L: _functional(L).hessian(lambda a: (a, a), T(L, 2)),
    "hessian_forward_over_reverse": lambda L: _functional(L).hessian(lambda a: (a ** 3).sum() * a[0], T(L, 3), outer_jacobian_strategy="forward-mode", vectorize=True).detach(),
    "hessian_bad_strategy": lambda L: _functional(L).hessian(lambda a: a.sum(), T(L, 2), outer_jacobian_strategy="x"),
    "jvp_strict_constant": lambda L: _functional(L).jvp(lambda a: L.ones(2), T(L, 2), L.ones(2), strict=True),
    "vjp_strict_constant": lambda L: _functional(L).vjp(lambda a: L.ones(2), T(L, 2), L.ones(2), strict=True),
    "vjp_strict_unused": lambda L: _functional(L).vjp(lambda a, b: a * 2, (T(L, 2), T(L, 2)), L.ones(2), strict=True),
    "vjp_strict_create_graph": lambda L: _functional(L).vjp(lambda a, b: a * 2, (T(L, 2), T(L, 2)), L.ones(2), strict=True, create_graph=True),
    "jvp_strict_unused": lambda L: _functional(L).jvp(lambda a, b: a * 2, (T(L, 2), T(L, 2)), (L.ones(2), L.ones(2)), strict=True),
    "jvp_strict_linear_ok": lambda L: _functional(L).jvp(lambda a: a * 2, T(L, 2), L.ones(2), strict=True),
    "hvp_strict_linear": lambda L: _functional(L).hvp(lambda a: a.sum(), T(L, 2), L.ones(2), strict=True),
    "hvp_strict_unused": lambda L: _functional(L).hvp(lambda a, b: (a ** 2).sum(), (T(L, 2), T(L, 2)), (L.ones(2), L.ones(2)), strict=True),
    "vhp_strict_linear": lambda L: _functional(L).vhp(lambda a: a.sum(), T(L, 2), L.ones(2), strict=True),
    "hessian_strict_unused": lambda L: _functional(L).hessian(lambda a, b: (a ** 2).sum(), (T(L, 2), T(L, 2)), strict=True),
    "hvp_strict_ok": lambda L: _functional(L).hvp(lambda a: (a ** 3).sum(), T(L, 2), L.ones(2), strict=True),
    "functional_jvp": lambda L: _functional(L).jvp(lambda a: a.sin() * a, T(L, 3), T(L, 3, seed=1)),
    "functional_hvp": lambda L: _functional(L).hvp(lambda a: (a ** 3).sum(), T(L, 3), T(L, 3, seed=1)),
}


@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_functional_matches_torch(name):
    check(FUNCTIONAL[name])


class Affine:
    """A stand-in for a module: parameters as attributes, called like a function."""

    def __init__(self, lib):
        self.weight = lib.tensor([[1.0, 2.0], [0.5, -1.0]], requires_grad=True)
        self.bias = lib.tensor([0.1, 0.2], requires_grad=True)

    def named_parameters(self):
        return [("weight", self.weight), ("bias", self.bias)]

    def __call__(self, x):
        return x @ self.weight.t() + self.bias


def _affine(L):
    """Affine for minigrad; the same as a real nn.Module for PyTorch (its functional_call needs one)."""
    if L is minigrad:
        return Affine(L)
    plain = Affine(L)

    class Affine(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = L.nn.Parameter(plain.weight.detach())
            self.bias = L.nn.Parameter(plain.bias.detach())

        def forward(self, x):
            return x @ self.weight.t() + self.bias
    return Affine()


def _functional_call_grad(L):
    model = _affine(L)
    params = {name: p.detach() for name, p in model.named_parameters()}
    x = L.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]])

    def loss(params, sample):
        return (L.func.functional_call(model, params, (sample,)) ** 2).sum()
    per_sample = L.func.vmap(L.func.grad(loss), in_dims=(None, 0))(params, x)
    return per_sample, model.weight.detach()     # the model keeps its own parameter afterwards


FUNCTIONAL_CALL = {
    "functional_call_per_sample_grads": _functional_call_grad,
    "functional_call_duplicate": lambda L: L.func.functional_call(
        _affine(L), ({"weight": L.ones(2, 2)}, {"weight": L.ones(2, 2)}), (L.ones(2),)),
    "functional_call_strict": lambda L: L.func.functional_call(
        _affine(L), {"weight": L.ones(2, 2), "nope": L.ones(1)}, (L.ones(2),), strict=True),
}


@pytest.mark.parametrize("name", list(FUNCTIONAL_CALL))
def test_functional_call_matches_torch(name):
    check(FUNCTIONAL_CALL[name])


# --- the programs of PyTorch's tutorials (forward-mode AD; Jacobians, Hessians, hvp, vhp) --------

def _tutorial_forward_ad(L):
    fw = L.autograd.forward_ad
    primal, tangent = T(L, 4, 4), T(L, 4, 4, seed=1)

    def fn(x, y):
        return x ** 2 + y ** 2

    with fw.dual_level():
        dual_input = fw.make_dual(primal, tangent)
        same_object = fw.unpack_dual(dual_input).tangent is tangent
        plain_tensor = T(L, 4, 4, seed=2)
        dual_output = fn(dual_input, plain_tensor)
        jvp = fw.unpack_dual(dual_output).tangent
    gone = fw.unpack_dual(dual_output).tangent is None
    return same_object, jvp, gone


def _tutorial_custom_function(L):
    fw = L.autograd.forward_ad

    class Fn(L.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            result = L.exp(foo)
            ctx.result = result          # tensors kept on ctx can be used by jvp
            return result

        @staticmethod
        def jvp(ctx, gI):
            gO = gI * ctx.result
            del ctx.result
            return gO

    primal = L.tensor(_data(3, 3), dtype=L.float64, requires_grad=True)
    tangent = L.tensor(_data(3, 3, seed=1), dtype=L.float32)
    with fw.dual_level():
        dual_output = Fn.apply(fw.make_dual(primal, tangent))
        jvp = fw.unpack_dual(dual_output).tangent
    checked = L.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False,
                                   check_undefined_grad=False, check_batched_grad=False)
    return jvp, checked


def _predict(L):
    def predict(weight, bias, x):
        return L.nn.functional.linear(x, weight, bias).tanh()
    return predict


def _tutorial_jacobians(L):
    predict = _predict(L)
    weight, bias, x = T(L, 4, 4), T(L, 4, seed=1), T(L, 4, seed=2)
    jac_x = L.func.jacrev(predict, argnums=2)(weight, bias, x)
    jac_fwd = L.func.jacfwd(predict, argnums=2)(weight, bias, x)
    jac_weight_bias = L.func.jacrev(predict, argnums=(0, 1))(weight, bias, x)
    batch = T(L, 3, 4, seed=3)
    batched = L.func.vmap(L.func.jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, batch)
    hess = L.func.hessian(predict, argnums=2)(weight, bias, x)
    return jac_x, jac_fwd, jac_weight_bias, batched, hess


def _tutorial_hvp_vhp(L):
    def f(x):
        return x.sin().sum()

    def hvp(f, primals, tangents):
        return L.func.jvp(L.func.grad(f), primals, tangents)[1]

    def vhp(f, x, v):
        return L.func.vjp(L.func.grad(f), x)[1](v)

    x, tangent = T(L, 4), T(L, 4, seed=1)
    return hvp(f, (x,), (tangent,)), vhp(f, x, tangent), L.func.hessian(f)(x) @ tangent


TUTORIALS = {
    "forward_ad_tutorial": _tutorial_forward_ad,
    "forward_ad_custom_function": _tutorial_custom_function,
    "jacobians_hessians_tutorial": _tutorial_jacobians,
    "hvp_vhp_tutorial": _tutorial_hvp_vhp,
}


@pytest.mark.parametrize("name", list(TUTORIALS))
def test_tutorial_programs_match_torch(name):
    check(TUTORIALS[name])


def test_vmap_refusal_messages_are_torchs(torch):
    """The texts refuse_inside_vmap raises are PyTorch's, word for word."""
    from minigrad.func._vmap import refuse_inside_vmap, _REFUSALS
    x = torch.randn(3, 2)
    for kind, call in [("item", lambda t: t.sum().item()), ("item", lambda t: float(t.sum())),
                       ("bool", lambda t: bool(t.sum() > 0)), ("data", lambda t: t.tolist())]:
        with pytest.raises(RuntimeError) as theirs:
            torch.func.vmap(call)(x)
        assert str(theirs.value) == _REFUSALS[kind]
    refuse_inside_vmap("item", x)        # outside vmap: nothing happens
    seen = []
    # (the function runs once: vmap hands it the whole batch)
    from minigrad.autograd.function import _FuncTransforms
    minigrad.func.vmap(lambda t: seen.append(_FuncTransforms.vmaps) or t)(minigrad.ones(2, 1))
    assert seen == [1] and _FuncTransforms.vmaps == 0 and _FuncTransforms.depth == 0
