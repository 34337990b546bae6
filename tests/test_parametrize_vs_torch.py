"""nn.utils.parametrize against PyTorch: the tutorial's parametrizations (symmetric,
skew-symmetric, several stacked, right_inverse), the module's class, repr, parameters,
state_dict, training through the parametrization, caching, removal and the errors."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _parametrizations(lib):
    nn = lib.nn

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

    class Skew(nn.Module):
        def forward(self, X):
            A = X.triu(1)
            return A - A.transpose(-1, -2)

    class Scaled(nn.Module):
        def forward(self, X):
            return 2 * X

        def right_inverse(self, A):
            return A / 2

    class Halves(nn.Module):           # right_inverse returns two tensors
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X / 2, X / 2

    class Shrink(nn.Module):           # changes the shape (needs unsafe=True)
        def forward(self, X):
            return X[:-1]

    return Symmetric, Skew, Scaled, Halves, Shrink


def _describe(lib, layer, P):
    return (type(layer).__name__, repr(layer), [n for n, _ in layer.named_parameters()],
            list(layer.state_dict()), P.is_parametrized(layer), P.is_parametrized(layer, "weight"),
            P.type_before_parametrizations(layer).__name__)


@pytest.mark.parametrize("case", ["symmetric", "stacked", "right_inverse", "several_originals",
                                  "assign", "remove", "remove_original", "unsafe", "cached"])
def test_parametrizations_as_torch(case):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        P = lib.nn.utils.parametrize
        Symmetric, Skew, Scaled, Halves, Shrink = _parametrizations(lib)
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 3)
        if case in ("symmetric", "stacked", "remove", "remove_original", "cached"):
            P.register_parametrization(layer, "weight", Symmetric())
        if case == "stacked":
            P.register_parametrization(layer, "weight", Scaled())
        if case in ("right_inverse", "assign"):
            P.register_parametrization(layer, "weight", Scaled())
        if case == "several_originals":
            P.register_parametrization(layer, "weight", Halves())
        if case == "unsafe":
            P.register_parametrization(layer, "weight", Shrink(), unsafe=True)
        if case == "assign":
            layer.weight = lib.eye(3)
        if case == "cached":
            with P.cached():
                same = layer.weight is layer.weight
            seen_cache = (same, layer.weight is layer.weight)
        else:
            seen_cache = None
        optimizer = lib.optim.SGD(layer.parameters(), lr=0.1)
        x = lib.tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32))
        for _ in range(2):
            loss = (layer(x) if case != "unsafe" else x[:, :2] @ layer.weight).pow(2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        described = _describe(lib, layer, P)
        weight = layer.weight.detach().numpy().copy()
        if case == "remove":
            P.remove_parametrizations(layer, "weight")
            described += _describe(lib, layer, P)
        if case == "remove_original":
            P.remove_parametrizations(layer, "weight", leave_parametrized=False)
            described += _describe(lib, layer, P)
            weight = layer.weight.detach().numpy().copy()
        seen.append((described, weight, seen_cache))
    assert seen[0][0] == seen[1][0]
    assert seen[0][2] == seen[1][2]
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-6, atol=1e-7)


BAD = {
    "no_such_tensor": lambda L, P, k: P.register_parametrization(L.nn.Linear(2, 2), "weights", k[0]()),
    "shape": lambda L, P, k: P.register_parametrization(L.nn.Linear(3, 3), "weight", k[4]()),
    "no_right_inverse": lambda L, P, k: setattr(P.register_parametrization(L.nn.Linear(3, 3), "weight", k[0]()), "weight", L.eye(3)),
    "remove_missing": lambda L, P, k: P.remove_parametrizations(L.nn.Linear(2, 2), "weight"),
    "leave_several": lambda L, P, k: P.remove_parametrizations(
        P.register_parametrization(L.nn.Linear(3, 3), "weight", k[3]()), "weight", leave_parametrized=False),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_errors_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            BAD[name](lib, lib.nn.utils.parametrize, _parametrizations(lib))
        message = str(caught.value).replace("minigrad", "torch")
        outcomes.append((type(caught.value).__name__, message))
    assert outcomes[0] == outcomes[1]
