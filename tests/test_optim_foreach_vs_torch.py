"""The optimizers' foreach (multi-tensor) and fused paths, and torch._foreach_*, against PyTorch:
parameters, gradients and every state entry after several steps, bit for bit (nearly, where
PyTorch's CPU sqrt, which is not always correctly rounded, is on the way); state_dict
contents; the errors with PyTorch's classes and messages."""
import numpy as np
import pytest

import minigrad

# sizes on both sides of the vector width (8 float32 / 4 float64), with leftovers, and a 0-d one
SHAPES = [(3, 2), (4,), (), (13,), (37,), (2, 8)]
STEPS = 5

# optimizers whose step takes a square root with torch.sqrt: PyTorch's CPU sqrt is not always
# correctly rounded (numpy's is), so these agree to the last bit or two of each square root.
THROUGH_SQRT = {"Adam", "AdamW", "Adagrad", "Adadelta", "NAdam", "RAdam", "RMSprop"}

FOREACH_CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9, weight_decay=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, maximize=True)),
    ("SGD", dict(lr=0.1, momentum=0.8, dampening=0.3, weight_decay=0.1, maximize=True)),
    ("Adam", dict(lr=0.1)),
    ("Adam", dict(lr=0.1, amsgrad=True, weight_decay=0.1)),
    ("Adam", dict(lr=0.1, maximize=True, weight_decay=0.1, betas=(0.3, 0.9))),
    ("Adam", dict(lr=0.1, decoupled_weight_decay=True, weight_decay=0.1)),
    ("AdamW", dict(lr=0.1)),
    ("AdamW", dict(lr=0.1, amsgrad=True, maximize=True)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.2)),
    ("Adagrad", dict(lr=0.1, maximize=True)),
    ("Adadelta", dict(lr=0.5)),
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1, maximize=True)),
    ("Adamax", dict()),
    ("Adamax", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    ("Adamax", dict(maximize=True)),
    ("Adamax", dict(maximize=True, weight_decay=0.1)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.75, t0=2, weight_decay=0.1)),
    ("ASGD", dict(lr=0.05, t0=2, maximize=True)),
    ("ASGD", dict(lr=0.05, t0=2, maximize=True, weight_decay=0.2)),
    ("NAdam", dict()),
    ("NAdam", dict(lr=0.01, momentum_decay=0.01, weight_decay=0.1)),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    ("RAdam", dict()),
    ("RAdam", dict(lr=0.01, betas=(0.8, 0.9), weight_decay=0.1)),
    ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.01, momentum=0.5, maximize=True)),
    ("Rprop", dict()),
    ("Rprop", dict(lr=0.05, etas=(0.3, 1.7), step_sizes=(1e-3, 0.2))),
    ("Rprop", dict(maximize=True)),
]

FUSED_CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9, weight_decay=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, maximize=True)),
    ("SGD", dict(lr=0.1, momentum=0.8, dampening=0.3, weight_decay=0.1, maximize=True)),
    ("Adam", dict(lr=0.1)),
    ("Adam", dict(lr=0.1, amsgrad=True, weight_decay=0.1)),
    ("Adam", dict(lr=0.1, maximize=True, weight_decay=0.1, betas=(0.3, 0.9))),
    ("Adam", dict(lr=0.1, decoupled_weight_decay=True, weight_decay=0.1)),
    ("AdamW", dict(lr=0.1)),
    ("AdamW", dict(lr=0.1, amsgrad=True, maximize=True, betas=(0.2, 0.5))),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.2)),
    ("Adagrad", dict(lr=0.1, maximize=True, eps=1e-3)),
]


def _check(ours, theirs, exact, message):
    if exact:
        np.testing.assert_array_equal(ours, theirs, err_msg=message)
    else:
        # a few units in the last place of the numbers of size 1 the steps start from
        single = ours.dtype == np.float32
        np.testing.assert_allclose(ours, theirs, err_msg=message, atol=5e-7 if single else 1e-15,
                                   rtol=1e-5 if single else 1e-12)


def _run(library, name, options, dtype, steps):
    rng = np.random.default_rng(0)
    params = [library.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True)
              for s in SHAPES]
    optimizer = getattr(library.optim, name)(params, **options)
    history = []
    for step in range(steps):
        for param in params:
            param.grad = library.tensor(rng.standard_normal(param.shape).astype(dtype))
        if step == 3:                        # a parameter without a gradient is skipped
            params[1].grad = None
        optimizer.step()
        history.append([(p.detach().numpy().copy(),
                         None if p.grad is None else p.grad.numpy().copy()) for p in params])
    return optimizer, history


def _compare(torch, name, options, dtype, steps, exact):
    ours, our_history = _run(minigrad, name, options, dtype, steps)
    theirs, their_history = _run(torch, name, options, dtype, steps)
    for step, (mine, reference) in enumerate(zip(our_history, their_history)):
        for (p, g), (q, h) in zip(mine, reference):
            _check(p, q, exact, f"step {step}")
            # (foreach Nesterov SGD adds the momentum to .grad itself, as PyTorch does)
            assert (g is None) == (h is None) and (g is None or np.array_equal(g, h))
    saved_ours, saved_theirs = ours.state_dict(), theirs.state_dict()
    assert saved_ours["param_groups"] == saved_theirs["param_groups"]
    assert list(saved_ours["state"]) == list(saved_theirs["state"])
    for index, state in saved_theirs["state"].items():
        assert list(saved_ours["state"][index]) == list(state)
        for key, value in state.items():
            mine = saved_ours["state"][index][key]
            assert mine.dtype.name == str(value.dtype).replace("torch.", ""), key
            assert tuple(mine.shape) == tuple(value.shape), key
            _check(np.asarray(mine.numpy()), np.asarray(value.numpy()), exact, key)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options", FOREACH_CONFIGS)
def test_foreach_steps_match_torch(torch, name, options, dtype):
    steps = 8 if name == "RAdam" else STEPS     # (RAdam leaves its warm-up at step 6)
    _compare(torch, name, dict(options, foreach=True), dtype, steps,
             exact=name not in THROUGH_SQRT)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options", FUSED_CONFIGS)
def test_fused_steps_match_torch_bit_for_bit(torch, name, options, dtype):
    # the fused kernels take square roots with the CPU's own instruction: exact
    _compare(torch, name, dict(options, fused=True), dtype, STEPS, exact=True)


def test_fused_step_is_float32_whatever_the_default_dtype(torch):
    for library in (minigrad, torch):
        library.set_default_dtype(library.float64)
    try:
        for name in ("Adam", "Adagrad"):
            _compare(torch, name, dict(lr=0.1, fused=True), np.float64, 2, exact=True)
            _compare(torch, name, dict(lr=0.1, foreach=True), np.float64, 2, exact=False)
    finally:
        for library in (minigrad, torch):
            library.set_default_dtype(library.float32)


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Rprop"])
def test_foreach_none_is_the_loop_on_a_cpu(torch, name):
    for library in (minigrad, torch):
        param = library.zeros(2, requires_grad=True)
        optimizer = getattr(library.optim, name)([param], lr=0.1)
        assert optimizer.defaults["foreach"] is None
    ours, _ = _run(minigrad, name, dict(lr=0.1), np.float64, 3)
    loop, _ = _run(minigrad, name, dict(lr=0.1, foreach=False), np.float64, 3)
    for p, q in zip(ours.param_groups[0]["params"], loop.param_groups[0]["params"]):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())


def _error(function):
    try:
        function()
    except Exception as error:      # noqa: BLE001  (any class: it is compared with PyTorch's)
        return type(error).__name__, str(error)
    return None


def _param(library, dtype_name="float32"):
    param = library.zeros(2, dtype=getattr(library, dtype_name))
    param.grad = library.ones(2, dtype=getattr(library, dtype_name))
    return param


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "Adagrad"])
@pytest.mark.parametrize("case", ["fused and foreach", "fused and differentiable",
                                  "integer parameter"])
def test_fused_refusals_match_torch(torch, name, case):
    def attempt(library):
        optimizer_class = getattr(library.optim, name)
        if case == "fused and foreach":
            return _error(lambda: optimizer_class([_param(library)], lr=0.1, fused=True,
                                                  foreach=True))
        if case == "fused and differentiable":
            return _error(lambda: optimizer_class([_param(library)], lr=0.1, fused=True,
                                                  differentiable=True, foreach=True))
        return _error(lambda: optimizer_class([_param(library, "int64")], lr=0.1,
                                              fused=True).step())
    ours, theirs = attempt(minigrad), attempt(torch)
    assert theirs is not None and ours == theirs


@pytest.mark.parametrize("name", ["RMSprop", "Adadelta", "Adamax", "ASGD", "NAdam", "RAdam",
                                  "Rprop"])
def test_optimizers_without_a_fused_kernel_refuse_fused(torch, name):
    ours = _error(lambda: getattr(minigrad.optim, name)([_param(minigrad)], fused=True))
    theirs = _error(lambda: getattr(torch.optim, name)([_param(torch)], fused=True))
    assert theirs is not None and ours == theirs


def test_foreach_refusals_match_torch(torch):
    cases = [
        lambda L: L.optim.Adam([_param(L)], lr=L.tensor(0.1), foreach=True),
        lambda L: L.optim.Adam([_param(L)], lr=0.1, foreach=True, differentiable=True).step(),
        lambda L: L.optim.NAdam([_param(L)], foreach=True, differentiable=True).step(),
    ]
    for case in cases:
        ours, theirs = _error(lambda: case(minigrad)), _error(lambda: case(torch))
        assert theirs is not None and ours == theirs


# ----- torch._foreach_* -----

def _lists(library, dtype, seed=0, positive=False):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s).astype(dtype) for s in [(3,), (2, 5), (), (17,)]]
    if positive:
        arrays = [np.abs(a) + dtype(0.5) for a in arrays]
    return [library.tensor(a) for a in arrays]


# (name, how to call it given the library L, the lists x, y, z (z positive))
FOREACH_CALLS = [
    ("add number", lambda L, x, y, z: L._foreach_add(x, 0.3)),
    ("add numbers", lambda L, x, y, z: L._foreach_add(x, [0.1, 2, -3.5, 0.25])),
    ("add tensor", lambda L, x, y, z: L._foreach_add(x, L.tensor(0.7), alpha=2)),
    ("add tensors alpha", lambda L, x, y, z: L._foreach_add(x, y, alpha=-0.37)),
    ("add_ tensors", lambda L, x, y, z: L._foreach_add_(x, y)),
    ("sub tensors", lambda L, x, y, z: L._foreach_sub(x, y, alpha=0.3)),
    ("sub_ number", lambda L, x, y, z: L._foreach_sub_(x, 0.3)),
    ("mul number", lambda L, x, y, z: L._foreach_mul(x, 0.999)),
    ("mul_ numbers", lambda L, x, y, z: L._foreach_mul_(x, [0.1, 2.0, -3.0, 0.9])),
    ("mul tensor", lambda L, x, y, z: L._foreach_mul(x, L.tensor(1.5))),
    ("mul_ tensors", lambda L, x, y, z: L._foreach_mul_(x, y)),
    ("div number", lambda L, x, y, z: L._foreach_div(x, 0.3872983346207417)),
    ("div_ numbers", lambda L, x, y, z: L._foreach_div_(x, [0.1, 3.0, -7.0, 0.9])),
    ("div tensors", lambda L, x, y, z: L._foreach_div(x, z)),
    ("addcmul value", lambda L, x, y, z: L._foreach_addcmul(x, y, z, value=0.001)),
    ("addcmul_ numbers", lambda L, x, y, z: L._foreach_addcmul_(x, y, z, [0.1, 2.0, 3.0, 0.5])),
    ("addcmul tensor", lambda L, x, y, z: L._foreach_addcmul(x, y, z, L.tensor([0.1, 2.0, 3.0, 0.5]))),
    ("addcdiv value", lambda L, x, y, z: L._foreach_addcdiv(x, y, z, -0.0123)),
    ("addcdiv_ numbers", lambda L, x, y, z: L._foreach_addcdiv_(x, y, z, [-0.1, 2.0, 3.0, 0.5])),
    ("lerp number", lambda L, x, y, z: L._foreach_lerp(x, y, 0.1)),
    ("lerp_ number big", lambda L, x, y, z: L._foreach_lerp_(x, y, 0.7)),
    ("lerp numbers", lambda L, x, y, z: L._foreach_lerp(x, y, [0.1, 0.9, 0.5, 0.2])),
    ("lerp tensors", lambda L, x, y, z: L._foreach_lerp(x, y, [t * 0 + 0.3 for t in z])),
    ("maximum number", lambda L, x, y, z: L._foreach_maximum(x, 0.1)),
    ("maximum_ tensors", lambda L, x, y, z: L._foreach_maximum_(x, y)),
    ("minimum numbers", lambda L, x, y, z: L._foreach_minimum(x, [0.1, 0.0, -1.0, 2.0])),
    ("clamp_min_ number", lambda L, x, y, z: L._foreach_clamp_min_(x, 0.0)),
    ("pow number", lambda L, x, y, z: L._foreach_pow(z, 2.0)),
    ("pow_ numbers", lambda L, x, y, z: L._foreach_pow_(z, [2.0, 3.0, 0.75, 1.0])),
    ("pow from number", lambda L, x, y, z: L._foreach_pow(0.9, [t * 0 + 3.0 for t in z])),
    ("pow tensors", lambda L, x, y, z: L._foreach_pow(z, y)),
    ("neg", lambda L, x, y, z: L._foreach_neg(x)),
    ("neg_", lambda L, x, y, z: L._foreach_neg_(x)),
    ("exp", lambda L, x, y, z: L._foreach_exp(x)),
    ("exp_", lambda L, x, y, z: L._foreach_exp_(x)),
    ("sign", lambda L, x, y, z: L._foreach_sign(x)),
    ("sign_", lambda L, x, y, z: L._foreach_sign_(x)),
    ("abs", lambda L, x, y, z: L._foreach_abs(x)),
    ("reciprocal_", lambda L, x, y, z: L._foreach_reciprocal_(z)),
    ("sqrt of squares", lambda L, x, y, z: L._foreach_sqrt([t * t for t in x])),
    ("zero_", lambda L, x, y, z: L._foreach_zero_(x)),
    ("copy_", lambda L, x, y, z: L._foreach_copy_(x, y)),
    ("norm", lambda L, x, y, z: L._foreach_norm(x)),
    ("norm inf", lambda L, x, y, z: L._foreach_norm(x, float("inf"))),
    ("norm 3 float64", lambda L, x, y, z: L._foreach_norm(x, 3, dtype=L.float64)),
]


# each function is the tensor operation applied to every tensor; where that operation itself
# still differs from PyTorch's in the last bit (float32 exp of vectors; a 0-d tensor's vector_norm
# with dtype=float64), so does the function
NOT_EXACT_OPS = {"exp", "exp_", "norm 3 float64"}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, call", FOREACH_CALLS, ids=[c[0] for c in FOREACH_CALLS])
def test_foreach_functions_match_torch(torch, name, call, dtype):
    results = {}
    for library in (minigrad, torch):
        x, y, z = (_lists(library, dtype, 0), _lists(library, dtype, 1),
                   _lists(library, dtype, 2, positive=True))
        out = call(library, x, y, z)
        results[library] = (out, x, z)
    (ours, our_x, our_z), (theirs, their_x, their_z) = results[minigrad], results[torch]
    assert type(ours) is type(theirs)
    if name.split()[0].endswith("_"):       # in place: the very list given back
        assert ours is our_x or ours is our_z
    for mine, reference in zip(list(ours) + our_x + our_z, list(theirs) + their_x + their_z):
        assert mine.dtype.name == str(reference.dtype).replace("torch.", "")
        _check(mine.numpy(), reference.numpy(), name not in NOT_EXACT_OPS, name)


FOREACH_ERRORS = [
    lambda L: L._foreach_add([L.ones(2), L.ones(3)], [L.ones(2)]),
    lambda L: L._foreach_add([], []),
    lambda L: L._foreach_sqrt([]),
    lambda L: L._foreach_add([L.ones(2), L.ones(3)], [1.0]),
    lambda L: L._foreach_add([L.ones(2), L.ones(3)], [L.ones(2), L.ones(4)]),
    lambda L: L._foreach_mul([L.ones(2)], L.ones(2)),
    lambda L: L._foreach_addcmul([L.ones(2), L.ones(3)], [L.ones(2), L.ones(3)], [L.ones(2)]),
    lambda L: L._foreach_addcdiv([L.ones(2)], [L.ones(2)], [L.ones(2)], [1.0, 2.0]),
    lambda L: L._foreach_addcdiv([L.ones(2)], [L.ones(2)], [L.ones(2)], L.tensor([1.0, 2.0])),
    lambda L: L._foreach_lerp([L.ones(2), L.ones(3)], [L.ones(2), L.ones(3)], [0.5]),
    lambda L: L._foreach_copy_([L.ones(2), L.ones(3)], [L.ones(2)]),
    lambda L: L._foreach_norm([L.ones(2, dtype=L.int64)]),
    lambda L: L._foreach_add([L.ones(2)], 1, alpha=2),
    lambda L: L._foreach_add(1, [L.ones(2)]),
    lambda L: L._foreach_add([L.ones(2)]),
    lambda L: L._foreach_maximum([L.ones(2)], L.ones(2)),
    lambda L: L._foreach_sqrt([L.ones(2)], 2),
    lambda L: L._foreach_add_([L.ones(2, dtype=L.int64)], 1.5),
    lambda L: L._foreach_sub([L.ones(2, dtype=L.bool)], [L.ones(2, dtype=L.bool)]),
    lambda L: L._foreach_add([L.ones(2), L.ones(3)], [L.ones(2), 1.0]),
    lambda L: L._foreach_add([1.0, L.ones(2)], 1.0),
    lambda L: L._foreach_sqrt([L.ones(2), 1.0]),
    lambda L: L._foreach_lerp([L.ones(2)] * 2, [L.ones(2)] * 2, [L.ones(2), 0.5]),
    lambda L: L._foreach_addcmul([L.ones(2)] * 2, [L.ones(2)] * 2, [L.ones(2), 0.5]),
]


@pytest.mark.parametrize("case", range(len(FOREACH_ERRORS)))
def test_foreach_errors_match_torch(torch, case):
    ours, theirs = _error(lambda: FOREACH_ERRORS[case](minigrad)), _error(lambda: FOREACH_ERRORS[case](torch))
    assert theirs is not None and ours == theirs


def test_foreach_in_place_on_a_leaf_that_requires_grad_is_refused(torch):
    for library in (minigrad, torch):
        leaf = library.ones(2, requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            library._foreach_mul_([leaf], 2.0)


@pytest.mark.parametrize("options", [dict(foreach=True), dict(foreach=True, nesterov=True),
                                     dict(fused=True)])
def test_sgd_parameter_whose_gradient_comes_later_matches_torch(torch, options):
    """foreach SGD starts that parameter's momentum buffer on its own; PyTorch's fused SGD
    refuses the list with a missing buffer."""
    def run(library):
        rng = np.random.default_rng(0)
        params = [library.tensor(rng.standard_normal(s), requires_grad=True) for s in [(5,), (9,)]]
        optimizer = library.optim.SGD(params, lr=0.1, momentum=0.9, **options)
        for step in range(3):
            for i, param in enumerate(params):
                param.grad = (library.tensor(rng.standard_normal(param.shape))
                              if step or i == 0 else None)
            failure = _error(optimizer.step)
            if failure:
                return failure
        return [p.detach().numpy() for p in params]
    ours, theirs = run(minigrad), run(torch)
    if isinstance(theirs, tuple):
        assert ours == theirs
    else:
        for p, q in zip(ours, theirs):
            np.testing.assert_array_equal(p, q)
