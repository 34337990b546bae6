"""minigrad.optim.lr_scheduler against PyTorch: the rates step by step (to the last bit),
state_dict, warnings and messages."""
import warnings

import numpy as np
import pytest

import minigrad


def make_optimizer(library, name="SGD", groups=2, **options):
    params = [library.tensor(np.ones(2, dtype=np.float32), requires_grad=True)
              for _ in range(groups)]
    group_list = [{"params": [p], "lr": 0.1 * (number + 1)} for number, p in enumerate(params)]
    options.setdefault("lr", 0.1)
    if name == "SGD":
        options.setdefault("momentum", 0.9)
    return getattr(library.optim, name)(group_list, **options), params


def build(library, name, options):
    optimizer, params = make_optimizer(library)
    sched = library.optim.lr_scheduler
    if name == "SequentialLR":
        first = sched.LinearLR(optimizer, start_factor=0.25, total_iters=3)
        second = sched.CosineAnnealingLR(optimizer, T_max=7)
        return optimizer, params, sched.SequentialLR(optimizer, [first, second], milestones=[3])
    if name == "ChainedScheduler":
        first = sched.ConstantLR(optimizer, factor=0.5, total_iters=2)
        second = sched.ExponentialLR(optimizer, gamma=0.9)
        return optimizer, params, sched.ChainedScheduler([first, second])
    return optimizer, params, getattr(sched, name)(optimizer, **options)


def double(epoch):
    return 0.95 ** epoch


CASES = [
    ("StepLR", dict(step_size=3)),
    ("StepLR", dict(step_size=2, gamma=0.7)),
    ("MultiStepLR", dict(milestones=[2, 5, 5, 9], gamma=0.3)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("LambdaLR", dict(lr_lambda=double)),
    ("MultiplicativeLR", dict(lr_lambda=lambda epoch: 0.9)),
    ("CosineAnnealingLR", dict(T_max=5)),
    ("CosineAnnealingLR", dict(T_max=4, eta_min=0.001)),
    ("LinearLR", dict()),
    ("LinearLR", dict(start_factor=0.1, end_factor=0.7, total_iters=7)),
    ("ConstantLR", dict()),
    ("ConstantLR", dict(factor=0.3, total_iters=3)),
    ("PolynomialLR", dict(total_iters=6, power=2.0)),
    ("OneCycleLR", dict(max_lr=0.5, total_steps=21)),
    ("OneCycleLR", dict(max_lr=[0.5, 1.0], epochs=3, steps_per_epoch=7, anneal_strategy="linear",
                        three_phase=True)),
    ("CosineAnnealingWarmRestarts", dict(T_0=3)),
    ("CosineAnnealingWarmRestarts", dict(T_0=2, T_mult=2, eta_min=0.01)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=3)),
    ("CyclicLR", dict(base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=2, step_size_down=5,
                      mode="triangular2")),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=4, mode="exp_range", gamma=0.9)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=4, scale_fn=lambda x: 0.5 ** x,
                      scale_mode="iterations", base_momentum=0.7, max_momentum=0.95)),
    ("SequentialLR", dict()),
    ("ChainedScheduler", dict()),
]


@pytest.mark.parametrize("name, options", CASES)
def test_rates_step_by_step_match_torch(torch, name, options):
    ours = build(minigrad, name, options)
    theirs = build(torch, name, options)
    for epoch in range(20):
        for optimizer, params, scheduler in (ours, theirs):
            for p in params:
                p.grad = p.detach() * 0 + 1
            optimizer.step()
            scheduler.step()
        assert ours[2].get_last_lr() == theirs[2].get_last_lr(), epoch    # bit for bit
        for group_ours, group_theirs in zip(ours[0].param_groups, theirs[0].param_groups):
            assert group_ours["lr"] == group_theirs["lr"]
            assert group_ours.get("momentum") == group_theirs.get("momentum")
        assert getattr(ours[2], "last_epoch", None) == getattr(theirs[2], "last_epoch", None)


@pytest.mark.parametrize("name, options", [case for case in CASES if case[0] in (
    "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LinearLR", "ConstantLR",
    "PolynomialLR")])
def test_deprecated_step_with_epoch_uses_the_closed_form(torch, name, options):
    ours = build(minigrad, name, options)
    theirs = build(torch, name, options)
    for epoch in [1, 2, 3, 5, 8, 13]:
        for optimizer, _, scheduler in (ours, theirs):
            optimizer.step()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                scheduler.step(epoch)
            if optimizer is ours[0]:
                messages_ours = [str(w.message) for w in caught]
            else:
                messages_theirs = [str(w.message) for w in caught]
        assert messages_ours == messages_theirs
        assert ours[2].get_last_lr() == theirs[2].get_last_lr()


def test_state_dict_keys_and_values_match_torch(torch):
    for name, options in CASES:
        if name in ("SequentialLR", "ChainedScheduler", "LambdaLR", "MultiplicativeLR"):
            continue
        if name == "CyclicLR" and "scale_fn" in options:
            continue
        ours = build(minigrad, name, options)[2].state_dict()
        theirs = build(torch, name, options)[2].state_dict()
        assert list(ours) == list(theirs), name
        for key in ours:
            if key == "milestones":
                assert dict(ours[key]) == dict(theirs[key])
            else:
                assert ours[key] == theirs[key], (name, key)


def test_state_dict_round_trip_resumes_the_schedule(torch):
    for library in (minigrad, torch):
        optimizer, _, scheduler = build(library, "StepLR", dict(step_size=2))
        for _ in range(3):
            optimizer.step()
            scheduler.step()
        saved = scheduler.state_dict()
        optimizer2, _, scheduler2 = build(library, "StepLR", dict(step_size=5))
        scheduler2.load_state_dict(saved)
        assert scheduler2.step_size == 2 and scheduler2.last_epoch == 3
    # the lambdas: a plain function is saved as None, a callable object as its attributes
    class Factor:
        def __init__(self):
            self.rate = 0.5

        def __call__(self, epoch):
            return self.rate ** epoch
    states = []
    for library in (minigrad, torch):
        optimizer, _ = make_optimizer(library)
        states.append(library.optim.lr_scheduler.LambdaLR(
            optimizer, [double, Factor()]).state_dict())
    assert states[0] == states[1]
    assert states[0]["lr_lambdas"] == [None, {"rate": 0.5}]


def caught_warnings(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        action()
    return [(w.category, str(w.message)) for w in caught]


def test_scheduler_step_before_optimizer_step_warns_as_torch(torch):
    found = []
    for library in (minigrad, torch):
        _, _, scheduler = build(library, "StepLR", dict(step_size=2))
        found.append(caught_warnings(scheduler.step))
    assert found[0] == found[1]
    assert "Detected call of `lr_scheduler.step()` before `optimizer.step()`" in found[0][0][1]
    # in the right order: no warning
    found = []
    for library in (minigrad, torch):
        optimizer, _, scheduler = build(library, "StepLR", dict(step_size=2))
        optimizer.step()
        found.append(caught_warnings(scheduler.step))
    assert found == [[], []]


def test_get_lr_outside_step_warns_as_torch(torch):
    found = []
    for library in (minigrad, torch):
        _, _, scheduler = build(library, "ExponentialLR", dict(gamma=0.5))
        found.append(caught_warnings(scheduler.get_lr))
    assert found[0] == found[1] and found[0]


def test_reduce_lr_on_plateau_matches_torch(torch):
    metrics = [1.0, 0.9, 0.9, 0.95, 0.91, 0.9, 0.9, 0.8, 0.85, 0.86, 0.87, 0.88, 0.7, 0.71, 0.72,
               0.73, 0.74, 0.75]
    for options in [dict(patience=2), dict(mode="max", factor=0.5, patience=1, cooldown=2),
                    dict(threshold_mode="abs", threshold=0.05, patience=0, min_lr=[0.05, 0.1]),
                    dict(patience=0, eps=0.05)]:
        runs = []
        for library in (minigrad, torch):
            optimizer, _ = make_optimizer(library)
            scheduler = library.optim.lr_scheduler.ReduceLROnPlateau(optimizer, **options)
            rates = []
            for metric in metrics:
                optimizer.step()
                scheduler.step(library.tensor(metric))
                rates.append((scheduler.get_last_lr(), scheduler.num_bad_epochs,
                              scheduler.cooldown_counter, scheduler.best))
            runs.append((rates, list(scheduler.state_dict())))
        assert runs[0] == runs[1], options


def error_of(action):
    try:
        action()
    except Exception as error:  # noqa: BLE001 - the class and message are compared
        return type(error), str(error)
    return None


@pytest.mark.parametrize("make", [
    lambda lib, opt: lib.optim.lr_scheduler.StepLR("not an optimizer", 3),
    lambda lib, opt: lib.optim.lr_scheduler.StepLR(opt, 3, last_epoch=4),
    lambda lib, opt: lib.optim.lr_scheduler.LambdaLR(opt, [double]),
    lambda lib, opt: lib.optim.lr_scheduler.MultiplicativeLR(opt, [double, 3]),
    lambda lib, opt: lib.optim.lr_scheduler.ConstantLR(opt, factor=2.0),
    lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, start_factor=0),
    lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, end_factor=1.5),
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.0),
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="lowest"),
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="x"),
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1]),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=0),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=2,
                                                       steps_per_epoch=0.5),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=9,
                                                       pct_start=1),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.1], total_steps=9),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=9,
                                                       anneal_strategy="step"),
    lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(opt, [], []),
    lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.1, 1.0, mode="sawtooth"),
    lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, [0.1], 1.0),
    lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(
        lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))]), 0.1, 1.0),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, T_mult=1.5),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, eta_min="0"),
    lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
        opt, [lib.optim.lr_scheduler.StepLR(opt, 2)], [3]),
    lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler(
        [lib.optim.lr_scheduler.ReduceLROnPlateau(opt)]),
])
def test_bad_arguments_fail_as_torch(torch, make):
    errors = []
    for library in (minigrad, torch):
        optimizer, _ = make_optimizer(library)
        errors.append(error_of(lambda: make(library, optimizer)))
    assert errors[0] is not None and errors[0] == errors[1]


def test_one_cycle_past_total_steps_fails_as_torch(torch):
    errors = []
    for library in (minigrad, torch):
        optimizer, _, scheduler = build(library, "OneCycleLR", dict(max_lr=0.5, total_steps=3))
        for _ in range(3):
            optimizer.step()
        errors.append(error_of(lambda: [scheduler.step() for _ in range(4)]))
    assert errors[0] == errors[1] and errors[0][0] is ValueError


def test_one_cycle_with_adam_cycles_beta1(torch):
    runs = []
    for library in (minigrad, torch):
        optimizer, _ = make_optimizer(library, "Adam", groups=1)
        scheduler = library.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.01, total_steps=10)
        betas = []
        for _ in range(10):
            optimizer.step()
            scheduler.step()
            betas.append(optimizer.param_groups[0]["betas"])
        runs.append(betas)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("options", [dict(T_0=3), dict(T_0=2, T_mult=2, eta_min=0.01),
                                     dict(T_0=4, T_mult=3)])
def test_warm_restarts_with_fractional_epochs_match_torch(torch, options):
    runs = []
    for library in (minigrad, torch):
        optimizer, _, scheduler = build(library, "CosineAnnealingWarmRestarts", options)
        rates = []
        for epoch in range(12):
            for batch in range(5):
                optimizer.step()
                scheduler.step(epoch + batch / 5)
                rates.append((scheduler.get_last_lr(), scheduler.T_cur, scheduler.T_i,
                              scheduler.last_epoch))
        scheduler.step()
        rates.append(scheduler.get_last_lr())
        runs.append((rates, error_of(lambda: scheduler.step(-1))))
    assert runs[0] == runs[1]
