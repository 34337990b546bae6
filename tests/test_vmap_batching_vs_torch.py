"""Inside vmap, which values are batched, compared with PyTorch.

A value is batched at a vmap level exactly when it was computed from a batched
input of that level. Only a batched value refuses ``.item()``, ``if t:``,
``.tolist()``, ``.numpy()`` and ``.data``; a tensor that is not batched may not
be changed in place by one that is. Each program runs in both libraries and the
outcomes (values, or exception class and message) must be the same.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

# expressions of x (one sample) and c (captured from outside the vmap)
EXPRESSIONS = [
    "x * 2", "c * 2", "c[0]", "x[0]", "c.sum()", "x.sum()", "x.shape[0] * c", "L.tensor(3.)",
    "L.arange(3)", "L.zeros_like(x)", "L.ones_like(c)", "L.full_like(x, 2.)", "L.rand_like(c)",
    "x.new_zeros(3)", "x.new_ones(3)", "x.new_full((2,), 1.)", "x.new_tensor([1.])", "x.clone()",
    "x.detach()", "x.to(L.float64)", "x.int()", "x.long()", "x.bool()", "x > 0", "c > 0",
    "(x > 0).any()", "(x > 0).all()", "x.all()", "x.any()", "~(x > 0)", "x.eq(c).all()",
    "x.argmax()", "c.argmin()", "x.max(0)[1]", "x.sort()[1]", "x.argsort()", "x.topk(2)[1]",
    "L.isclose(x, c)", "x.split(1)[0]", "x.unbind()[0]", "x.chunk(3)[0]", "c.unbind()[0]",
    "L.where(c > 1, c, 0.)", "L.where(x > 1, c, 0.)", "L.where(c > 1, x, c)", "L.stack([c, c])",
    "L.cat([c, x])", "c.gather(0, (x > 5).long())", "c[(x > 5).long()]", "c[[0, 1]]",
    "c.index_select(0, (x > 5).long())", "c.masked_fill(x > 1, 0.)", "x.masked_fill(c > 1, 0.)",
    "c.masked_fill(c > 1, x[0])", "c.add(x, alpha=2)", "x @ c", "c @ c", "L.einsum('i,i->', x, c)",
    "L.nn.functional.cross_entropy(c.unsqueeze(0), (x[:1] > 5).long())",
    "L.nn.functional.cross_entropy(c.unsqueeze(0), L.tensor([0]))", "x.softmax(0)", "c.softmax(0)",
    "x.reshape(3, 1)", "x.expand(2, 3)", "c.expand(2, 3)",
    # transforms inside vmap: grad starts from ones_like(output), jvp batches a tangent like its
    # primal, jacrev's basis is made like the output. (A derivative that depends on no batched
    # value, as grad(lambda z: (z * 2).sum())(c) or vjp_fn(c) of a function linear in x, is
    # not batched in PyTorch, batched in minigrad, which differentiates the whole batch: README)
    "L.func.grad(lambda z: (z * 2).sum())(x)", "L.func.grad(lambda z: (z * 0 + c).sum())(x)",
    "L.func.grad(lambda z: (z * x).sum())(c)",
    "L.func.jacrev(lambda z: z * 2)(x)", "L.func.jacrev(lambda z: z * x)(c)", "L.func.jacfwd(lambda z: z * 2)(x)",
    "L.func.vjp(lambda z: z * 2, x)[0]", "L.func.vjp(lambda z: z * 2, c)[1](x)[0]",
    "L.func.jvp(lambda z: z * 2, (x,), (c,))[1]", "L.func.jvp(lambda z: z, (x,), (c,))[1]",
    "L.func.jvp(lambda z: z * 2, (c,), (c,))[1]", "L.func.hessian(lambda z: (z ** 3).sum())(x)",
]


def _is_batched(L, torch, value):
    if L is torch:
        return torch._C._functorch.is_batchedtensor(value)
    try:
        value.tolist()
    except RuntimeError as error:
        assert str(error) == "Cannot access data pointer of Tensor that doesn't have storage"
        return True
    return False


def _batched_in_vmap(L, torch):
    c = L.tensor([1.0, 2.0, 3.0])
    seen = {}

    def f(x):
        for expression in EXPRESSIONS:
            value = eval(expression, {"L": L, "x": x, "c": c})
            seen[expression] = _is_batched(L, torch, value)
        return x
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # PyTorch's "performance drop" warnings
        L.func.vmap(f, randomness="same")(L.ones(4, 3))
    return seen


def test_batched_values_are_torchs():
    torch = import_torch()
    theirs = _batched_in_vmap(torch, torch)
    ours = _batched_in_vmap(minigrad, torch)
    differ = {e: (ours[e], theirs[e]) for e in EXPRESSIONS if ours[e] != theirs[e]}
    assert not differ, differ


RANDOM_EXPRESSIONS = [
    "L.randn(3)", "L.rand(3)", "L.randint(0, 5, (3,))", "L.randperm(3)", "L.normal(0., 1., (3,))",
    "L.rand_like(c)", "L.randn_like(x)", "L.bernoulli(c / 4)",
    "L.nn.functional.dropout(c, 0.5)", "L.nn.functional.dropout(x, 0.5)", "x.clone().normal_()",
    "x.clone().uniform_()", "x.clone().bernoulli_(0.5)",
]


def _random_batched_in_vmap(L, torch, randomness):
    c = L.tensor([1.0, 2.0, 3.0])
    seen = {}

    def f(x):
        for expression in RANDOM_EXPRESSIONS:
            seen[expression] = _is_batched(L, torch, eval(expression, {"L": L, "x": x, "c": c}))
        return x
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        L.func.vmap(f, randomness=randomness)(L.ones(4, 3))
    return seen


@pytest.mark.parametrize("randomness", ["same", "different"])
def test_random_values_are_batched_as_torchs(randomness):
    """With randomness="different" each sample draws its own numbers: they are batched."""
    torch = import_torch()
    theirs = _random_batched_in_vmap(torch, torch, randomness)
    ours = _random_batched_in_vmap(minigrad, torch, randomness)
    assert ours == theirs


def _outcome(run):
    """The values a program returns, or its exception class and message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")        # PyTorch's "performance drop" warnings
            out = run()
    except Exception as error:                     # noqa: BLE001 (the error is the outcome)
        return type(error).__name__, str(error)
    return "ok", np.asarray(out.detach().numpy() if hasattr(out, "numpy") else out).tolist()


# programs(L): f, inputs and vmap keywords; y is a fresh captured tensor for each run
PROGRAMS = {
    # values of captured tensors (and of tensors made from them) may be read
    "item_of_captured": lambda L, y: (lambda x: x + (y * 2).sum().item(), (L.ones(4, 3),)),
    "item_of_constant": lambda L, y: (lambda x: x + L.tensor(2.0).item(), (L.ones(4, 3),)),
    "if_on_captured": lambda L, y: (lambda x: x if (y > 1).any() else -x, (L.ones(4, 3),)),
    "tolist_of_captured": lambda L, y: (lambda x: x + sum((y * 2).tolist()), (L.ones(4, 3),)),
    "numpy_of_captured": lambda L, y: (lambda x: x + float((y * 2).numpy().sum()), (L.ones(4, 3),)),
    "data_of_captured": lambda L, y: (lambda x: x + y.data, (L.ones(4, 3),)),
    "in_dim_none_item": lambda L, y: (lambda x, w: x * w.sum().item(), (L.ones(4, 3), y), {"in_dims": (0, None)}),
    # ... those of batched ones may not
    "item_of_batched": lambda L, y: (lambda x: x.sum().item(), (L.ones(4, 3),)),
    "float_of_batched": lambda L, y: (lambda x: float(x.sum()), (L.ones(4, 3),)),
    "int_of_batched": lambda L, y: (lambda x: int(x[0]), (L.ones(4, 3),)),
    "if_on_batched": lambda L, y: (lambda x: x if (x > 0).any() else -x, (L.ones(4, 3),)),
    "if_on_comparison": lambda L, y: (lambda x: x if x.sum() > 0 else -x, (L.ones(4, 3),)),
    "tolist_of_batched": lambda L, y: (lambda x: x.tolist(), (L.ones(4, 3),)),
    "numpy_of_batched": lambda L, y: (lambda x: x.detach().numpy(), (L.ones(4, 3),)),
    "data_of_batched": lambda L, y: (lambda x: x.data, (L.ones(4, 3),)),
    "item_of_argmax": lambda L, y: (lambda x: x * x.argmax().item(), (L.ones(4, 3),)),
    "item_of_zeros_like": lambda L, y: (lambda x: x * L.zeros_like(x).sum().item(), (L.ones(4, 3),)),
    "mask_index_batched": lambda L, y: (lambda x: y[x > 0], (L.ones(4, 3),)),
    "mask_index_captured": lambda L, y: (lambda x: x[y > 1], (L.ones(4, 3),)),
    "where_of_batched": lambda L, y: (lambda x: L.where(x > 0), (L.ones(4, 3),)),
    "where_of_captured": lambda L, y: (lambda x: L.where(y > 1)[0] + x.sum(), (L.ones(4, 3),)),
    "nonzero_of_batched": lambda L, y: (lambda x: L.nonzero(x), (L.ones(4, 3),)),
    "nonzero_tuple_of_batched": lambda L, y: (lambda x: L.nonzero(x > 0, as_tuple=True), (L.ones(4, 3),)),
    "nonzero_of_captured": lambda L, y: (lambda x: L.nonzero(y).sum() + x, (L.ones(4, 3),)),
    "allclose_of_batched": lambda L, y: (lambda x: x + L.allclose(x, y), (L.ones(4, 3),)),
    "allclose_method_of_batched": lambda L, y: (lambda x: x + y.allclose(x), (L.ones(4, 3),)),
    "allclose_of_captured": lambda L, y: (lambda x: x + L.allclose(y, y), (L.ones(4, 3),)),
    "equal_of_batched": lambda L, y: (lambda x: x + L.equal(y, x), (L.ones(4, 3),)),
    "equal_method_of_batched": lambda L, y: (lambda x: x + x.equal(y), (L.ones(4, 3),)),
    "out_dims_none_batched": lambda L, y: (lambda x: x * 2, (L.ones(4, 3),), {"out_dims": None}),
    "out_dims_none_captured": lambda L, y: (lambda x: y * 2, (L.ones(4, 3),), {"out_dims": None}),
    # nested vmaps: the outer sample is batched inside the inner function too
    "nested_item_of_outer": lambda L, y: (
        lambda x: L.func.vmap(lambda z: z + x.sum().item())(L.ones(2)), (L.ones(4, 3),)),
    "nested_item_of_captured": lambda L, y: (
        lambda x: L.func.vmap(lambda z: z + y.sum().item())(L.ones(2)) + x.sum(), (L.ones(4, 3),)),
    # inside grad inside vmap PyTorch gives a message that covers .item() and if
    "grad_item_of_batched": lambda L, y: (
        lambda x: L.func.grad(lambda z: (z * z.sum().item()).sum())(x), (L.ones(4, 3),)),
    "grad_if_of_batched": lambda L, y: (
        lambda x: L.func.grad(lambda z: (z * bool(z.sum())).sum())(x), (L.ones(4, 3),)),
    "grad_item_of_captured": lambda L, y: (
        lambda x: L.func.grad(lambda z: (z * y.sum().item()).sum())(x), (L.ones(4, 3),)),
    "requires_grad_in_vmap": lambda L, y: (lambda x: x.clone().requires_grad_(), (L.ones(4, 3),)),
    "requires_grad_of_captured_in_vmap": lambda L, y: (
        lambda x: (y.clone().requires_grad_(False), x)[1], (L.ones(4, 3),)),
    "requires_grad_in_grad": lambda L, y: (
        lambda x: L.func.grad(lambda z: z.requires_grad_().sum())(x), (L.ones(4, 3),)),
    "backward_in_vmap": lambda L, y: (lambda x: ((x * y).sum().backward(), x)[1], (L.ones(4, 3),)),
    "backward_in_grad": lambda L, y: (
        lambda x: L.func.grad(lambda z: ((z * 2).sum().backward(), z.sum())[1])(x), (L.ones(4, 3),)),
    "jacrev_item": lambda L, y: (lambda x: L.func.jacrev(lambda z: z * 2)(x).sum().item() * x, (L.ones(4, 3),)),
    "jacfwd_item": lambda L, y: (lambda x: L.func.jacfwd(lambda z: z * 2)(x).sum().item() * x, (L.ones(4, 3),)),
    "grad_of_vmap_item": lambda L, y: (
        lambda x: L.func.grad(lambda w: L.func.vmap(lambda z: z * z.sum().item())(w).sum())(x),
        (L.ones(4, 2, 3),)),
}

# in-place changes: a captured y (or a new tensor) changed by the batched x
INPLACE = {
    "add_": lambda L, y, x: y.add_(x), "iadd": lambda L, y, x: y.__iadd__(x),
    "add_alpha": lambda L, y, x: y.add_(x, alpha=2), "add_0d": lambda L, y, x: y.add_(x[0]),
    "sub_": lambda L, y, x: y.sub_(x), "isub": lambda L, y, x: y.__isub__(x),
    "mul_": lambda L, y, x: y.mul_(x), "imul": lambda L, y, x: y.__imul__(x),
    "div_": lambda L, y, x: y.div_(x), "itruediv": lambda L, y, x: y.__itruediv__(x),
    "pow_": lambda L, y, x: y.pow_(x), "clamp_": lambda L, y, x: y.clamp_(min=x),
    "clamp_both": lambda L, y, x: y.clamp_(x - 5, x), "clip_": lambda L, y, x: y.clip_(min=x),
    "clamp_min_": lambda L, y, x: y.clamp_min_(x), "clamp_max_": lambda L, y, x: y.clamp_max_(x),
    "copy_": lambda L, y, x: y.copy_(x), "copy_0d": lambda L, y, x: y.copy_(x[0]),
    "fill_": lambda L, y, x: y.fill_(x[0]), "masked_fill_mask": lambda L, y, x: y.masked_fill_(x > 0, 1.0),
    "masked_fill_value": lambda L, y, x: y.masked_fill_(y > 0, x[0]),
    "scatter_src": lambda L, y, x: y.scatter_(0, L.tensor([0]), x[:1]),
    "scatter_index": lambda L, y, x: y.scatter_(0, (x[:1] * 0).long(), 2.0),
    "scatter_add_": lambda L, y, x: y.scatter_add_(0, L.tensor([0]), x[:1]),
    "index_add_": lambda L, y, x: y.index_add_(0, L.tensor([0]), x[:1]),
    "setitem_int": lambda L, y, x: y.__setitem__(0, x[0]),
    "setitem_slice": lambda L, y, x: y.__setitem__(slice(0, 2), x[:2]),
    "setitem_slice_0d": lambda L, y, x: y.__setitem__(slice(0, 2), x[0]),
    "setitem_mask": lambda L, y, x: y.__setitem__(x > 0, 1.0),
    "setitem_index_tensor": lambda L, y, x: y.__setitem__((x[:1] * 0).long(), 1.0),
    "setitem_list_index": lambda L, y, x: y.__setitem__([0, 1], x[:2]),
    "view_of_captured": lambda L, y, x: y[:2].add_(x[:2]),
    "new_tensor_add_": lambda L, y, x: L.zeros(3).add_(x),
    "new_tensor_mul_": lambda L, y, x: L.zeros(3).mul_(x),
    # allowed: a batched tensor changed by a captured one, a captured one by a captured one
    "batched_by_captured": lambda L, y, x: x.clone().mul_(y),
    "captured_by_captured": lambda L, y, x: (y.add_(y * 0), x)[1],
    "zeros_like_add_": lambda L, y, x: L.zeros_like(x).add_(x),
    "new_zeros_add_": lambda L, y, x: x.new_zeros(3).add_(x),
}
for _name, _change in INPLACE.items():
    PROGRAMS["inplace_" + _name] = (lambda change: lambda L, y: (
        lambda x: change(L, y, x), (L.ones(4, 3),)))(_change)

# random numbers: drawn "different" per sample they are batched (so their values can't be
# read, nor written into a captured tensor); "the same" for all samples they are not
for _randomness in ("same", "different"):
    PROGRAMS.update({
        f"random_{_randomness}_item": (lambda r: lambda L, y: (
            lambda x: x * L.randn(()).item() * 0, (L.ones(4, 3),), {"randomness": r}))(_randomness),
        f"random_{_randomness}_written_into_captured": (lambda r: lambda L, y: (
            lambda x: (y.mul_(L.rand(3) * 0), x)[1], (L.ones(4, 3),), {"randomness": r}))(_randomness),
        f"random_{_randomness}_normal_in_place": (lambda r: lambda L, y: (
            lambda x: x + L.zeros(3).normal_() * 0, (L.ones(4, 3),), {"randomness": r}))(_randomness),
        f"random_{_randomness}_bernoulli_in_place": (lambda r: lambda L, y: (
            lambda x: x + L.zeros(3).bernoulli_(0.5) * 0, (L.ones(4, 3),), {"randomness": r}))(_randomness),
        f"random_{_randomness}_bernoulli_of_batched": (lambda r: lambda L, y: (
            lambda x: x + L.bernoulli(x / 4) * 0, (L.ones(4, 3),), {"randomness": r}))(_randomness),
        f"random_{_randomness}_bernoulli_p_of_batched": (lambda r: lambda L, y: (
            lambda x: x + L.bernoulli(x / 4, 0.3) * 0, (L.ones(4, 3),), {"randomness": r}))(_randomness),
        f"random_{_randomness}_in_place_of_batched": (lambda r: lambda L, y: (
            lambda x: x + x.clone().uniform_() * 0, (L.ones(4, 3),), {"randomness": r}))(_randomness),
    })

# nested vmaps: the level that is missing is named, and add_'s shapes follow PyTorch's
PROGRAMS.update({
    "nested_pow_inner_level": lambda L, y: (
        lambda x: L.func.vmap(lambda z: x.pow_(z))(L.ones(2, 3)), (L.ones(4, 3),)),
    "nested_pow_outer_level": lambda L, y: (
        lambda x: L.func.vmap(lambda z: L.zeros(3).pow_(x) + z)(L.ones(2, 3)), (L.ones(4, 3),)),
    "nested_add_outer_into_inner": lambda L, y: (
        lambda x: L.func.vmap(lambda z: x.add_(z))(L.ones(2, 3)), (L.ones(4, 3),)),
    "nested_add_inner_into_outer": lambda L, y: (
        lambda x: L.func.vmap(lambda z: z.add_(x))(L.ones(2, 3)), (L.ones(4, 3),)),
    "nested_mul_both_batched": lambda L, y: (
        lambda x: L.func.vmap(lambda z: (x * z).mul_(x))(L.ones(2, 3)), (L.ones(4, 3),)),
    "grad_inside_pow_": lambda L, y: (
        lambda x: L.func.grad(lambda z: L.zeros(3).pow_(z).sum())(x), (L.ones(4, 3),)),
    "grad_inside_mul_": lambda L, y: (
        lambda x: L.func.grad(lambda z: L.zeros(3).mul_(z).sum())(x), (L.ones(4, 3),)),
})


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_vmap_program_matches_torch(name):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        program = PROGRAMS[name](L, L.tensor([0.5, 2.0, 3.0]))
        f, inputs = program[0], program[1]
        keywords = program[2] if len(program) > 2 else {}
        outcomes.append(_outcome(lambda: L.func.vmap(f, **keywords)(*inputs)))
    ours, theirs = outcomes
    assert ours == theirs


def test_outputs_and_captured_tensors_are_plain_after_vmap():
    """After vmap, its outputs and the tensors it captured answer .item() as usual."""
    y = minigrad.tensor([1.0, 2.0])
    out = minigrad.func.vmap(lambda x: x * y)(minigrad.ones(3, 2))
    assert out.sum().item() == 9.0 and y.sum().item() == 3.0
    outer = minigrad.func.vmap(lambda x: minigrad.func.vmap(lambda z: z * x)(minigrad.ones(2)).sum())(
        minigrad.ones(3))
    assert outer.sum().item() == 6.0
    empty = minigrad.func.vmap(lambda x: x * 2)(minigrad.ones(0, 2))
    assert empty.shape == (0, 2) and empty.tolist() == []
