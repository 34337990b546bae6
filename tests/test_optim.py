"""minigrad.optim against PyTorch: each optimizer step by step from the same values and gradients."""
import copy
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn

SHAPES = [(3, 2), (4,), ()]

CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.5, maximize=True)),
    ("Adam", dict()),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("Adam", dict(lr=0.01, amsgrad=True, maximize=True, weight_decay=0.05)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, weight_decay=0.5, amsgrad=True)),
    ("AdamW", dict(lr=0.02, betas=(0.5, 0.9), maximize=True)),
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.01, alpha=0.9, eps=1e-6, weight_decay=0.1, momentum=0.5)),
    ("RMSprop", dict(lr=0.01, centered=True, maximize=True)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9)),
]


def make_params(library, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return [library.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)
            for shape in SHAPES]


def gradients(step, dtype):
    """The gradients of step ``step``: varied in sign and size, some exactly zero."""
    rng = np.random.default_rng(100 + step)
    grads = [np.asarray(rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 2), dtype=dtype)
             for shape in SHAPES]
    grads[0][0] = 0
    return grads


def tolerance(dtype):
    return dict(rtol=1e-5, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options", CONFIGS)
def test_steps_match_torch(torch, name, options, dtype):
    ours = make_params(minigrad, dtype)
    theirs = make_params(torch, dtype)
    optimizer_ours = getattr(minigrad.optim, name)(ours, **options)
    optimizer_theirs = getattr(torch.optim, name)(theirs, **options)
    for step in range(6):
        for p, q, g in zip(ours, theirs, gradients(step, dtype)):
            p.grad = minigrad.tensor(g.copy())
            q.grad = torch.tensor(g.copy())
        if step == 3:                  # a parameter without a gradient is skipped
            ours[1].grad = theirs[1].grad = None
        optimizer_ours.step()
        optimizer_theirs.step()
        for p, q in zip(ours, theirs):
            assert p.dtype.name == str(q.dtype).replace("torch.", "")
            np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), **tolerance(dtype))
    for p, q in zip(ours, theirs):
        assert p.is_leaf and p.requires_grad and p.grad_fn is None
        state_ours, state_theirs = optimizer_ours.state[p], optimizer_theirs.state[q]
        assert list(state_ours) == list(state_theirs)
        for key in state_theirs:
            np.testing.assert_allclose(np.asarray(state_ours[key].numpy()),
                                       state_theirs[key].numpy(), **tolerance(dtype))
            assert state_ours[key].dtype.name == str(state_theirs[key].dtype).replace("torch.", "")


@pytest.mark.parametrize("name, options", [CONFIGS[2], CONFIGS[7], CONFIGS[10]])
def test_training_a_model_matches_torch(torch, name, options):
    """A whole loop: zero_grad, forward, backward, step, with a Linear model and a real loss."""
    def model(module):
        return module.Sequential(module.Linear(3, 8), module.Tanh(), module.Linear(8, 2))
    theirs = model(torch.nn).double()
    ours = model(nn).double()
    ours.load_state_dict({k: minigrad.tensor(v.numpy().copy())
                          for k, v in theirs.state_dict().items()})
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal((16, 3)), rng.integers(0, 2, size=16)
    optimizer_ours = getattr(minigrad.optim, name)(ours.parameters(), **options)
    optimizer_theirs = getattr(torch.optim, name)(theirs.parameters(), **options)
    for _ in range(10):
        for model_, optimizer, library in ((ours, optimizer_ours, minigrad),
                                           (theirs, optimizer_theirs, torch)):
            optimizer.zero_grad()
            loss = library.nn.CrossEntropyLoss()(model_(library.tensor(x)), library.tensor(y))
            loss.backward()
            optimizer.step()
    for p, q in zip(ours.parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_param_groups_with_their_own_settings(torch):
    results = []
    for library in (minigrad, torch):
        a, b = make_params(library, np.float64)[:2]
        optimizer = library.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.9}],
                                      lr=0.1)
        for step in range(3):
            a.grad = library.tensor(gradients(step, np.float64)[0])
            b.grad = library.tensor(gradients(step, np.float64)[1])
            optimizer.step()
        results.append((a.detach().numpy().copy(), b.detach().numpy().copy(), repr(optimizer)))
        assert optimizer.param_groups[1]["lr"] == 0.5 and optimizer.param_groups[0]["lr"] == 0.1
    (a1, b1, repr1), (a2, b2, repr2) = results
    np.testing.assert_allclose(a1, a2, rtol=1e-12)
    np.testing.assert_allclose(b1, b2, rtol=1e-12)
    assert repr1 == repr2


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop"])
def test_repr_and_defaults_match_torch(torch, name):
    ours = getattr(minigrad.optim, name)([nn.Parameter(minigrad.zeros(2))], lr=0.1)
    theirs = getattr(torch.optim, name)([torch.nn.Parameter(torch.zeros(2))], lr=0.1)
    assert repr(ours) == repr(theirs)
    assert ours.defaults == theirs.defaults
    assert isinstance(ours, minigrad.optim.Optimizer)


def plain(value):
    """state_dict contents with tensors turned into lists, to compare the two libraries."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    if hasattr(value, "tolist") and not isinstance(value, (int, float)):
        # 5 significant digits: float32 results may differ in the last bit
        return np.vectorize(lambda v: float(f"{v:.5g}"))(np.asarray(value.tolist(), float)).tolist()
    return value


@pytest.mark.parametrize("name, options", [CONFIGS[1], CONFIGS[7], CONFIGS[10], CONFIGS[15]])
def test_state_dict_matches_torch_and_resumes(torch, name, options):
    dicts = []
    for library in (minigrad, torch):
        params = make_params(library, np.float32)
        optimizer = getattr(library.optim, name)(params, **options)
        for p, g in zip(params, gradients(0, np.float32)):
            p.grad = library.tensor(g)
        optimizer.step()
        dicts.append(optimizer.state_dict())
    assert plain(dicts[0]) == plain(dicts[1])

    # a new optimizer loaded from the state continues exactly as the old one
    params = make_params(minigrad, np.float64)
    first = getattr(minigrad.optim, name)(params, **options)
    for p, g in zip(params, gradients(0, np.float64)):
        p.grad = minigrad.tensor(g)
    first.step()
    twin = [p.detach().clone().requires_grad_() for p in params]
    second = getattr(minigrad.optim, name)(twin, **options)
    second.load_state_dict(first.state_dict())
    for p, q, g in zip(params, twin, gradients(1, np.float64)):
        p.grad, q.grad = minigrad.tensor(g), minigrad.tensor(g)
    first.step()
    second.step()
    for p, q in zip(params, twin):
        assert p.tolist() == q.tolist()
    assert second.state[twin[0]] is not first.state[params[0]]


def test_load_state_dict_errors_match_torch(torch):
    def two_groups(library):
        a, b = make_params(library, np.float32)[:2]
        return library.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1)

    def one_group(library, count=1):
        return library.optim.SGD(make_params(library, np.float32)[:count], lr=0.1)
    for make_target, make_source in ((one_group, two_groups),
                                     (one_group, lambda library: one_group(library, 2))):
        with pytest.raises(ValueError) as theirs:
            make_target(torch).load_state_dict(make_source(torch).state_dict())
        with pytest.raises(ValueError) as ours:
            make_target(minigrad).load_state_dict(make_source(minigrad).state_dict())
        assert str(ours.value) == str(theirs.value)


def test_zero_grad_sets_none_or_zeros(torch):
    p = nn.Parameter(minigrad.ones(3))
    optimizer = minigrad.optim.SGD([p], lr=0.1)
    (p * 2).sum().backward()
    optimizer.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0, 0.0]
    optimizer.zero_grad()
    assert p.grad is None
    optimizer.zero_grad()           # nothing to reset: fine
    optimizer.step()                # no gradient: the parameter stays
    assert p.tolist() == [1.0, 1.0, 1.0]


def test_step_is_not_recorded_and_returns_closure_loss():
    p = nn.Parameter(minigrad.tensor([1.0, -2.0]))
    optimizer = minigrad.optim.SGD([p], lr=0.1, momentum=0.9)

    def closure():
        optimizer.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss
    loss = optimizer.step(closure)
    assert loss.item() == 5.0
    assert p.grad_fn is None and p.is_leaf and p.requires_grad
    assert p.tolist() == pytest.approx([0.8, -1.6])


ERROR_CASES = [
    ("SGD", dict(lr=-1)), ("SGD", dict(lr=0.1, momentum=-1)),
    ("SGD", dict(lr=0.1, weight_decay=-1)), ("SGD", dict(lr=0.1, nesterov=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)),
    ("Adam", dict(lr=-1)), ("Adam", dict(eps=-1)), ("Adam", dict(betas=(1.0, 0.9))),
    ("Adam", dict(betas=(0.9, -0.1))), ("Adam", dict(weight_decay=-1)),
    ("AdamW", dict(lr=-0.5)), ("RMSprop", dict(lr=-1)), ("RMSprop", dict(eps=-1)),
    ("RMSprop", dict(momentum=-1)), ("RMSprop", dict(weight_decay=-1)), ("RMSprop", dict(alpha=-1)),
]


@pytest.mark.parametrize("name, options", ERROR_CASES)
def test_invalid_settings_match_torch(torch, name, options):
    with pytest.raises(ValueError) as theirs:
        getattr(torch.optim, name)([torch.nn.Parameter(torch.zeros(1))], **options)
    with pytest.raises(ValueError) as ours:
        getattr(minigrad.optim, name)([nn.Parameter(minigrad.zeros(1))], **options)
    assert str(ours.value) == str(theirs.value)


def test_invalid_parameters_match_torch(torch):
    def cases(library):
        leaf = library.ones(2, requires_grad=True)
        return [[], leaf, [1.0], [leaf * 2], (p for p in [])]
    for ours_params, theirs_params in zip(cases(minigrad), cases(torch)):
        with pytest.raises(Exception) as theirs:
            torch.optim.SGD(theirs_params, lr=0.1)
        with pytest.raises(type(theirs.value)) as ours:
            minigrad.optim.SGD(ours_params, lr=0.1)
        assert str(ours.value).replace("minigrad.", "torch.") == str(theirs.value)


def test_duplicate_and_overlapping_parameters_match_torch(torch):
    for library in (torch, minigrad):
        p = library.ones(2, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            library.optim.SGD([p, p], lr=0.1)
        assert len(caught) == 1 and caught[0].category is UserWarning
        assert "duplicate parameters" in str(caught[0].message)
        with pytest.raises(ValueError, match="some parameters appear in more than one parameter"):
            library.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)


def test_state_dict_does_not_share_tensors_after_deepcopy():
    p = nn.Parameter(minigrad.ones(2))
    optimizer = minigrad.optim.Adam([p])
    p.grad = minigrad.ones(2)
    optimizer.step()
    saved = copy.deepcopy(optimizer.state_dict())
    p.grad = minigrad.ones(2)
    optimizer.step()
    assert saved["state"][0]["step"].item() == 1.0
    assert optimizer.state[p]["step"].item() == 2.0


def learning_pytorch_with_examples(library, optimizer_name, steps=50):
    """The polynomial fit of PyTorch's "Learning PyTorch with Examples" (nn and optim parts)."""
    x = library.linspace(-3.0, 3.0, 200)
    y = library.sin(x)
    xx = x.unsqueeze(-1).pow(library.tensor([1, 2, 3]))
    model = library.nn.Sequential(library.nn.Linear(3, 1), library.nn.Flatten(0, 1))
    with library.no_grad():
        model[0].weight.copy_(library.tensor([[0.1, -0.2, 0.3]]))
        model[0].bias.fill_(0.05)
    loss_fn = library.nn.MSELoss(reduction="sum")
    if optimizer_name is None:                    # the nn part: the update by hand
        for _ in range(steps):
            loss = loss_fn(model(xx), y)
            model.zero_grad()
            loss.backward()
            with library.no_grad():
                for param in model.parameters():
                    param -= 1e-6 * param.grad
    else:
        lr = 1e-6 if optimizer_name == "SGD" else 1e-3      # a sum of 200 squares: small steps
        optimizer = getattr(library.optim, optimizer_name)(model.parameters(), lr=lr)
        for _ in range(steps):
            loss = loss_fn(model(xx), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    layer = model[0]
    return [layer.bias.item()] + [layer.weight[:, i].item() for i in range(3)] + [loss.item()]


@pytest.mark.parametrize("optimizer_name", [None, "SGD", "RMSprop", "Adam"])
def test_learning_pytorch_with_examples_tutorial(torch, optimizer_name):
    ours = learning_pytorch_with_examples(minigrad, optimizer_name)
    theirs = learning_pytorch_with_examples(torch, optimizer_name)
    assert np.all(np.isfinite(theirs))
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-6)
