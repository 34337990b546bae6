"""F.softmin / nn.Softmin and nn.Unflatten against PyTorch: values, graph, gradients, the
warning for an implicit dim, printing and the errors."""
import warnings

import numpy as np

import minigrad

from conftest import import_torch


def graph(grad_fn):
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(child) for child, _ in grad_fn.next_functions))


def program(L):
    F, seen = L.nn.functional, []
    X = np.random.default_rng(0).standard_normal((2, 3, 4))
    for function in [lambda x: F.softmin(x, 1), lambda x: F.softmin(x, -1, dtype=L.float32),
                     lambda x: L.nn.Softmin(0)(x), lambda x: F.softmin(x)]:
        x = L.tensor(X, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = function(x)
        (y * L.arange(24.).reshape(2, 3, 4)).sum().backward()
        seen.append((np.round(y.detach().numpy().astype(float), 6).tolist(), graph(y.grad_fn),
                     np.round(x.grad.numpy(), 6).tolist(), [str(w.message) for w in caught], y.grad_fn._saved_dim))
    seen += [repr(L.nn.Softmin(1)), repr(L.nn.Softmin())]
    unflatten = L.nn.Unflatten(1, (2, 2))
    y = unflatten(L.ones(3, 4, requires_grad=True))
    seen += [repr(unflatten), graph(y.grad_fn), tuple(y.shape), repr(L.nn.Unflatten(-1, [2, 2])),
             tuple(L.nn.Sequential(L.nn.Flatten(), L.nn.Unflatten(1, (3, 4)))(L.ones(2, 3, 4)).shape)]
    for call in [lambda: L.nn.Unflatten(1, 3), lambda: L.nn.Unflatten(1, (2.0, 2)),
                 lambda: L.nn.Unflatten(1, (2, 2))(L.ones(3, 5))]:
        try:
            call()
            seen.append("no error")
        except Exception as error:
            seen.append((type(error).__name__, str(error)))
    return seen


def test_softmin_and_unflatten_as_torch():
    torch = import_torch()
    ours, theirs = program(minigrad), program(torch)
    assert len(ours) == len(theirs)
    for our, their in zip(ours, theirs):
        assert our == their
