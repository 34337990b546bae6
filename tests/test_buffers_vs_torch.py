"""Buffers as PyTorch keeps them: register_buffer(..., persistent=False) (left out of
state_dict), nn.Buffer assigned as an attribute, and PyTorch's errors for bad names and values."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _model(L):
    class Model(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = L.nn.Linear(2, 2)
            self.register_buffer("kept", L.ones(2))
            self.register_buffer("scratch", L.zeros(3), persistent=False)
            self.mask = L.nn.Buffer(L.tensor([1.0, 0.0]))
            self.cache = L.nn.Buffer(L.zeros(1), persistent=False)

        def forward(self, x):
            return self.linear(x) * self.mask + self.kept

    return Model()


def test_state_dict_leaves_out_non_persistent_buffers_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        model = _model(lib)
        seen.append((list(model.state_dict()), [n for n, _ in model.named_buffers()],
                     sorted(model._non_persistent_buffers_set),
                     isinstance(model.mask, lib.nn.Buffer), isinstance(model.kept, lib.nn.Buffer),
                     type(model.mask).__name__, model.mask.requires_grad))
    assert seen[0] == seen[1]


def test_loading_ignores_non_persistent_buffers_as_torch():
    torch = import_torch()
    for lib in (minigrad, torch):
        model = _model(lib)
        state = model.state_dict()
        result = _model(lib).load_state_dict(state)
        assert list(result.missing_keys) == [] and list(result.unexpected_keys) == []


def test_reassigning_keeps_persistence_and_del_forgets_it():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        model = _model(lib)
        model.scratch = lib.ones(3)            # still a buffer, still not persistent
        model.kept = lib.nn.Buffer(lib.ones(2), persistent=False)
        del model.cache
        seen.append((list(model.state_dict()), sorted(model._non_persistent_buffers_set),
                     [n for n, _ in model.named_buffers()]))
    assert seen[0] == seen[1]


def test_buffers_move_with_the_module():
    model = _model(minigrad).double()
    assert model.scratch.dtype == minigrad.float64 and model.mask.dtype == minigrad.float64


def test_buffer_of_a_tensor_that_requires_grad():
    torch = import_torch()
    flags = []
    for lib in (minigrad, torch):
        data = lib.ones(2, requires_grad=True) * 2
        buffer = lib.nn.Buffer(data)
        flags.append((buffer.requires_grad, buffer.is_leaf, buffer.persistent))
    assert flags[0] == flags[1]


BAD = {
    "name_type": lambda L, m: m.register_buffer(3, L.ones(1)),
    "dotted": lambda L, m: m.register_buffer("a.b", L.ones(1)),
    "empty": lambda L, m: m.register_buffer("", L.ones(1)),
    "exists": lambda L, m: m.register_buffer("training", L.ones(1)),
    "not_tensor": lambda L, m: m.register_buffer("x", [1.0]),
    "assign_not_tensor": lambda L, m: setattr(m, "kept", 3),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_buffers_raise_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            BAD[name](lib, _model(lib))
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


def test_register_buffer_before_init_raises_as_torch():
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        class Early(lib.nn.Module):
            def __init__(self):
                self.register_buffer("x", lib.ones(1))
        with pytest.raises(AttributeError) as caught:
            Early()
        outcomes.append(str(caught.value))
    assert outcomes[0] == outcomes[1]
    assert np.array_equal(_model(minigrad).mask.numpy(), [1.0, 0.0])
