"""dropout1d/2d/3d, alpha_dropout, feature_alpha_dropout and their modules against PyTorch:
the same elements dropped after the same manual_seed, the graph, the gradients, in-place
forms, the warnings for unusual inputs, printing, eval mode and the errors."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch, every_node_saved


def graph(grad_fn):
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(child) for child, _ in grad_fn.next_functions))


CASES = {
    "dropout1d": (lambda F, x, p: F.dropout1d(x, p), (4, 5, 3)),
    "dropout1d_unbatched": (lambda F, x, p: F.dropout1d(x, p), (5, 3)),
    "dropout2d": (lambda F, x, p: F.dropout2d(x, p), (4, 5, 3, 2)),
    "dropout2d_3d_input": (lambda F, x, p: F.dropout2d(x, p), (4, 5, 3)),
    "dropout2d_2d_input": (lambda F, x, p: F.dropout2d(x, p), (4, 5)),
    "dropout3d": (lambda F, x, p: F.dropout3d(x, p), (2, 3, 2, 2, 2)),
    "dropout3d_unbatched": (lambda F, x, p: F.dropout3d(x, p), (3, 2, 2, 2)),
    "alpha_dropout": (lambda F, x, p: F.alpha_dropout(x, p, True), (4, 5, 3)),
    "feature_alpha_dropout": (lambda F, x, p: F.feature_alpha_dropout(x, p, True), (4, 5, 3, 2)),
}


def run(L, name, p):
    program, shape = CASES[name]
    L.manual_seed(1)
    x = L.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32), requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = program(L.nn.functional, x, p)
    (y * L.arange(float(y.numel())).reshape(y.shape)).sum().backward()
    return y.detach().numpy(), graph(y.grad_fn), x.grad.numpy(), [str(w.message) for w in caught]


@pytest.mark.parametrize("p", [0.3, 0.0, 1.0])
@pytest.mark.parametrize("name", sorted(CASES))
def test_same_drops_graph_and_gradients_as_torch(name, p):
    torch = import_torch()
    ours, theirs = run(minigrad, name, p), run(torch, name, p)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6, atol=1e-6)
    assert ours[1] == theirs[1]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6, atol=1e-6)
    assert ours[3] == theirs[3]


def others(L):
    F, seen = L.nn.functional, []
    X = np.random.default_rng(0).standard_normal((4, 5, 3, 2)).astype(np.float32)
    L.manual_seed(2)
    x = L.tensor(X)
    seen.append((F.dropout2d(x, 0.5, True, True) is x, np.round(x.numpy(), 5).tolist()))
    L.manual_seed(2)
    x = L.tensor(X[0])
    seen.append((F.alpha_dropout(x, 0.5, True, True) is x, np.round(x.numpy(), 5).tolist()))
    L.manual_seed(2)
    x = L.tensor(X[0])
    y = F.dropout1d(x, 0.5, True, True)
    seen.append((np.round(x.numpy(), 5).tolist(), tuple(y.shape)))
    seen.append(F.alpha_dropout(x, 0.5) is x)           # training=False by default
    for layer in [L.nn.Dropout1d(), L.nn.Dropout2d(0.2), L.nn.Dropout3d(inplace=True), L.nn.AlphaDropout(0.1),
                  L.nn.FeatureAlphaDropout()]:
        x = L.ones(2, 3, 4) if "1d" in repr(layer) else L.ones(2, 3, 4, 5) if "2d" in repr(layer) else L.ones(2, 3, 4, 5, 6)
        layer.eval()
        seen += [repr(layer), layer(x) is x]
    L.manual_seed(5)
    seen.append(np.round(L.nn.AlphaDropout(0.2)(L.ones(3, 4)).numpy(), 5).tolist())
    L.manual_seed(5)
    seen.append(np.round(L.nn.Dropout2d(0.5)(L.ones(2, 3, 2, 2)).numpy(), 5).tolist())
    return seen


def _error(call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except Exception as error:
        return type(error).__name__, str(error)
    return "no error"


def errors(L):
    F = L.nn.functional
    calls = [lambda: F.dropout1d(L.ones(2, 3, 4, 5)), lambda: F.dropout2d(L.ones(2), training=True),
             lambda: F.dropout2d(L.ones(2), p=2), lambda: F.alpha_dropout(L.ones(2), p=-1),
             lambda: F.feature_alpha_dropout(L.ones(3), 0.5, True), lambda: L.nn.AlphaDropout(2),
             lambda: L.nn.Dropout2d(-0.1)]
    return [_error(call) for call in calls]


def test_in_place_modules_and_errors_as_torch():
    torch = import_torch()
    assert others(minigrad) == others(torch)
    assert errors(minigrad) == errors(torch)


def saved_values(L):
    F, seen = L.nn.functional, []
    x = L.tensor(np.ones((2, 3, 4)), requires_grad=True)
    calls = [lambda: F.dropout1d(x, 0.3), lambda: F.dropout1d(x[0], 0.3), lambda: F.dropout2d(x.unsqueeze(0), 0.3),
             lambda: F.dropout3d(x.unsqueeze(0), 0.3), lambda: F.alpha_dropout(x, 0.3, True),
             lambda: F.feature_alpha_dropout(x, 0.3, True), lambda: F.softmin(x, 1), lambda: F.dropout1d(x, 1.0)]
    for call in calls:
        L.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            seen.append(every_node_saved(call().grad_fn, []))
    return seen


def test_saved_values_as_torch():
    """The mask's shape each MulBackward0 saved (one number per channel), and the rest."""
    torch = import_torch()
    assert saved_values(minigrad) == saved_values(torch)


def feature_dropouts_of_few_dims(L):
    """Channel dropout of inputs without channels (0-d, 1-d, empty): PyTorch checks the number of
    dims only where it makes the channel mask, so eval mode, p=0, p=1 and empty inputs pass."""
    F, seen = L.nn.functional, []
    for shape in [(3,), (), (0,)]:
        for training in (False, True):
            for p in (0.0, 0.5, 1.0):
                for name in ("feature_alpha_dropout", "dropout2d", "dropout3d"):
                    x = L.ones(shape, requires_grad=True)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        try:
                            out = getattr(F, name)(x, p, training=training)
                        except RuntimeError as error:
                            seen.append((name, shape, training, p, str(error)))
                            continue
                    node = out.grad_fn and type(out.grad_fn).__name__
                    seen.append((name, shape, training, p, tuple(out.shape), out is x, node,
                                 out.sum().item() if p != 0.5 else None))
    return seen


def test_feature_dropouts_of_few_dims_as_torch():
    """Found by the random-program test: F.feature_alpha_dropout(x, training=False) of a vector."""
    torch = import_torch()
    assert feature_dropouts_of_few_dims(minigrad) == feature_dropouts_of_few_dims(torch)
