"""optim.swa_utils against PyTorch: AveragedModel (SWA and EMA averages, buffers, n_averaged),
SWALR's rates, update_bn's statistics, the averaging functions, errors and state_dicts."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _train(lib, averaged_kwargs, steps=4, scheduler=None):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.ReLU(),
                              lib.nn.Linear(4, 1))
    averaged = lib.optim.swa_utils.AveragedModel(model, **averaged_kwargs(lib))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1)
    swa = lib.optim.swa_utils.SWALR(optimizer, **scheduler) if scheduler else None
    rates = []
    for _ in range(steps):
        x = lib.randn(8, 3)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        averaged.update_parameters(model)
        if swa is not None:
            swa.step()
            rates.append(swa.get_last_lr())
    loader = [(lib.randn(8, 3), lib.zeros(8)) for _ in range(3)]
    lib.optim.swa_utils.update_bn(loader, averaged)
    state = averaged.state_dict()
    return ({k: v.numpy() for k, v in state.items()}, rates, int(averaged.n_averaged),
            averaged.module[1].momentum, averaged.training)


SETTINGS = {
    "swa": lambda L: {},
    "ema": lambda L: {"multi_avg_fn": L.optim.swa_utils.get_ema_multi_avg_fn(0.9)},
    "ema_one_by_one": lambda L: {"avg_fn": L.optim.swa_utils.get_ema_avg_fn(0.8)},
    "swa_one_by_one": lambda L: {"avg_fn": L.optim.swa_utils.get_swa_avg_fn()},
    "ema_buffers": lambda L: {"multi_avg_fn": L.optim.swa_utils.get_ema_multi_avg_fn(0.5),
                              "use_buffers": True},
}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_averaged_models_as_torch(name):
    torch = import_torch()
    ours, theirs = _train(minigrad, SETTINGS[name]), _train(torch, SETTINGS[name])
    assert list(ours[0]) == list(theirs[0])
    for key in ours[0]:
        np.testing.assert_allclose(ours[0][key], theirs[0][key], rtol=1e-6, atol=1e-7, err_msg=key)
    assert ours[2:] == theirs[2:]


@pytest.mark.parametrize("scheduler", [dict(swa_lr=0.05), dict(swa_lr=0.05, anneal_epochs=2),
                                       dict(swa_lr=[0.01], anneal_strategy="linear", anneal_epochs=3),
                                       dict(swa_lr=0.2, anneal_epochs=0)])
def test_swalr_rates_as_torch(scheduler):
    torch = import_torch()
    ours = _train(minigrad, SETTINGS["swa"], steps=5, scheduler=scheduler)
    theirs = _train(torch, SETTINGS["swa"], steps=5, scheduler=scheduler)
    assert ours[1] == theirs[1]


BAD = {
    "both_fns": lambda L: L.optim.swa_utils.AveragedModel(L.nn.Linear(1, 1), avg_fn=lambda *a: a[0],
                                                         multi_avg_fn=lambda *a: None),
    "decay": lambda L: L.optim.swa_utils.get_ema_avg_fn(1.5),
    "multi_decay": lambda L: L.optim.swa_utils.get_ema_multi_avg_fn(-0.1),
    "strategy": lambda L: L.optim.swa_utils.SWALR(L.optim.SGD(L.nn.Linear(1, 1).parameters(), lr=0.1), 0.1, anneal_strategy="exp"),
    "epochs": lambda L: L.optim.swa_utils.SWALR(L.optim.SGD(L.nn.Linear(1, 1).parameters(), lr=0.1), 0.1, anneal_epochs=-1),
    "swa_lr_list": lambda L: L.optim.swa_utils.SWALR(L.optim.SGD(L.nn.Linear(1, 1).parameters(), lr=0.1), [0.1, 0.2]),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_settings_raise_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            BAD[name](lib)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


def test_swalr_state_dict_round_trip_as_torch():
    torch = import_torch()
    keys = []
    for lib in (minigrad, torch):
        optimizer = lib.optim.SGD(lib.nn.Linear(1, 1).parameters(), lr=0.1)
        scheduler = lib.optim.swa_utils.SWALR(optimizer, 0.05, anneal_epochs=3)
        scheduler.step()
        state = scheduler.state_dict()
        again = lib.optim.swa_utils.SWALR(optimizer, 0.05)
        again.load_state_dict(state)
        keys.append((sorted(state), again.anneal_epochs, again.anneal_func(0.5)))
    assert keys[0] == keys[1]
