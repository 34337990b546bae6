"""optim.LBFGS against PyTorch: the same parameters after every step, to the last bit where
the operations it uses are PyTorch's to the last bit (see README), the same evaluation counts,
state_dict and messages."""
import numpy as np
import pytest

import minigrad


def rosenbrock(lib, dtype, steps=6, **options):
    """The banana-shaped valley (minimum at (1, 1)): a classic test of quasi-Newton methods."""
    x = lib.tensor([-1.5, 2.0], dtype=dtype, requires_grad=True)
    optimizer = lib.optim.LBFGS([x], **options)

    def closure():
        optimizer.zero_grad()
        loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
        loss.backward()
        return loss
    path = []
    for _ in range(steps):
        loss = optimizer.step(closure)
        path.append((loss.item(), x.detach().numpy().copy()))
    return path, optimizer


def line_fit(lib, dtype, steps=6, **options):
    """A straight line y = w x + b through 4 noisy points (least squares), w and b as two
    parameters (so that the optimizer's memory spans several tensors). (Few points and
    parameters: minigrad's sums of more numbers, dot products of more than two, may differ
    from PyTorch's in the last bit, see README.)"""
    rng = np.random.default_rng(0)
    xs = rng.standard_normal(4)
    ys = 3 * xs + 1 + 0.1 * rng.standard_normal(4)
    x, y = lib.tensor(xs, dtype=dtype), lib.tensor(ys, dtype=dtype)
    w = lib.zeros(1, dtype=dtype, requires_grad=True)
    b = lib.zeros(1, dtype=dtype, requires_grad=True)
    optimizer = lib.optim.LBFGS([w, b], **options)

    def closure():
        optimizer.zero_grad()
        loss = ((w * x + b - y) ** 2).mean()
        loss.backward()
        return loss
    path = []
    for _ in range(steps):
        loss = optimizer.step(closure)
        path.append((loss.item(), np.concatenate([w.detach().numpy(), b.detach().numpy()])))
    return path, optimizer


def assert_same_path(path, expected):
    assert len(path) == len(expected)
    for (loss, x), (expected_loss, expected_x) in zip(path, expected):
        assert loss == expected_loss
        assert x.dtype == expected_x.dtype and np.array_equal(x, expected_x)


def counts(optimizer):
    state = optimizer.state_dict()["state"][0]
    return state["func_evals"], state["n_iter"], len(state["old_dirs"]), list(state)


# float32 with the line search takes square roots, which PyTorch's CPU rounds its own way
# in float32 (see README): compared to a tolerance below.
BIT_EXACT = [
    (rosenbrock, "float64", {}), (rosenbrock, "float32", {}),
    (rosenbrock, "float64", {"line_search_fn": "strong_wolfe"}),
    (rosenbrock, "float64", {"history_size": 2, "max_iter": 7}),
    (rosenbrock, "float64", {"lr": 0.5, "max_eval": 9, "line_search_fn": "strong_wolfe"}),
    (line_fit, "float64", {}), (line_fit, "float32", {}),
    (line_fit, "float64", {"line_search_fn": "strong_wolfe", "history_size": 1}),
    (line_fit, "float32", {"line_search_fn": "strong_wolfe"}),
    (line_fit, "float64", {"max_iter": 3, "tolerance_change": 1e-3}),
    (line_fit, "float32", {"max_iter": 1}), (line_fit, "float64", {"max_iter": 2, "history_size": 1}),
    (rosenbrock, "float64", {"max_iter": 1}),
    (line_fit, "float64", {"max_iter": 1, "line_search_fn": "strong_wolfe"}),
]


@pytest.mark.parametrize("problem,dtype,options", BIT_EXACT)
def test_same_path_to_the_last_bit(torch, problem, dtype, options):
    path, optimizer = problem(minigrad, getattr(minigrad, dtype), **options)
    expected, torch_optimizer = problem(torch, getattr(torch, dtype), **options)
    assert_same_path(path, expected)
    assert counts(optimizer) == counts(torch_optimizer)


def test_float32_line_search_close(torch):
    path, optimizer = rosenbrock(minigrad, minigrad.float32, line_search_fn="strong_wolfe")
    expected, _ = rosenbrock(torch, torch.float32, line_search_fn="strong_wolfe")
    for (_, x), (_, expected_x) in zip(path, expected):
        np.testing.assert_allclose(x, expected_x, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(path[-1][1], [1.0, 1.0], atol=1e-4)


def test_state_dict_and_resuming(torch):
    """The memory lives as the first parameter's state; saved and loaded into a new optimizer,
    the next steps go on exactly as without the interruption."""
    results = []
    for lib in (minigrad, torch):
        path, optimizer = rosenbrock(lib, lib.float64, steps=2, line_search_fn="strong_wolfe")
        saved = optimizer.state_dict()
        state = saved["state"][0]
        summary = (sorted(saved["param_groups"][0].items()), list(state),
                   [float(v) for v in (state["t"], state["H_diag"], state["prev_loss"])],
                   state["d"].tolist(), [s.tolist() for s in state["old_stps"]],
                   [float(r) for r in state["ro"]], len(state["al"]))
        x = optimizer.param_groups[0]["params"][0]
        again = lib.optim.LBFGS([x], line_search_fn="strong_wolfe")
        again.load_state_dict(saved)

        def closure():
            again.zero_grad()
            loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
            loss.backward()
            return loss
        again.step(closure)
        results.append((summary, x.tolist(), again.state_dict()["state"][0]["func_evals"]))
    assert results[0] == results[1]


def test_already_at_the_minimum_returns_at_once(torch):
    for lib in (minigrad, torch):
        x = lib.ones(2, dtype=lib.float64, requires_grad=True)
        optimizer = lib.optim.LBFGS([x])

        def closure():
            optimizer.zero_grad()
            loss = ((x - 1) ** 2).sum()
            loss.backward()
            return loss
        assert optimizer.step(closure).item() == 0.0
        assert dict(optimizer.state_dict()["state"][0]) == {"func_evals": 1, "n_iter": 0}


def test_a_parameter_without_gradient(torch):
    outs = []
    for lib in (minigrad, torch):
        x = lib.tensor([3.0, -2.0], dtype=lib.float64, requires_grad=True)
        unused = lib.zeros(3, dtype=lib.float64, requires_grad=True)
        optimizer = lib.optim.LBFGS([x, unused])

        def closure():
            optimizer.zero_grad()
            loss = (x ** 2).sum()
            loss.backward()
            return loss
        optimizer.step(closure)
        outs.append((x.tolist(), unused.tolist(), optimizer.state_dict()["state"][0]["d"].tolist()))
    assert outs[0] == outs[1]


def test_repr(torch):
    reprs = [repr(lib.optim.LBFGS([lib.zeros(1, requires_grad=True)], history_size=5))
             for lib in (minigrad, torch)]
    assert reprs[0] == reprs[1]


def error_of(function):
    try:
        function()
    except Exception as error:       # noqa: BLE001 (the class is compared)
        return type(error), str(error)
    return None


def stepped(lib, **options):
    x = lib.zeros(2, requires_grad=True)
    optimizer = lib.optim.LBFGS([x], **options)

    def closure():
        optimizer.zero_grad()
        loss = ((x - 1) ** 2).sum()
        loss.backward()
        return loss
    optimizer.step(closure)


@pytest.mark.parametrize("call", [
    lambda lib: lib.optim.LBFGS([lib.zeros(1, requires_grad=True)], lr=-0.5),
    lambda lib: lib.optim.LBFGS([lib.zeros(1, requires_grad=True)], lr=lib.tensor([1.0, 2.0])),
    lambda lib: lib.optim.LBFGS([{"params": [lib.zeros(1, requires_grad=True)]},
                                 {"params": [lib.zeros(1, requires_grad=True)], "lr": 0.1}]),
    lambda lib: lib.optim.LBFGS([]),
    lambda lib: lib.optim.LBFGS([lib.zeros(1, requires_grad=True)]).step(),
    lambda lib: stepped(lib, line_search_fn="armijo"),
])
def test_messages(torch, call):
    expected = error_of(lambda: call(torch))
    assert expected is not None
    assert error_of(lambda: call(minigrad)) == expected
