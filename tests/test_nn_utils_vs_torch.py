"""nn.utils against PyTorch: clip_grad_norm_ (the total norm it returns, the clipped gradients,
norm types, error_if_nonfinite, the empty-generator warning), clip_grad_value_,
parameters_to_vector and vector_to_parameters."""
import warnings

import numpy as np

import minigrad

from conftest import import_torch


def _parameters(L, dtype=np.float64):
    rng, params = np.random.default_rng(0), []
    for shape in [(3, 4), (4,), (2,)]:
        param = L.nn.Parameter(L.tensor(rng.standard_normal(shape).astype(dtype)))
        param.grad = L.tensor(rng.standard_normal(shape).astype(dtype) * 3)
        params.append(param)
    params[2].grad = None                 # a parameter without a gradient is left alone
    return params


def _grads(params, digits=12):
    return [None if p.grad is None else np.round(p.grad.numpy(), digits).tolist() for p in params]


def program(L):
    utils, seen = L.nn.utils, []
    for norm_type in [2.0, 1, float("inf"), "inf", 3]:
        params = _parameters(L)
        total = utils.clip_grad_norm_(params, 1.0, norm_type)
        seen.append((round(total.item(), 12), str(total.dtype), total.requires_grad, _grads(params)))
    params = _parameters(L, np.float32)
    total = utils.clip_grad_norm_(iter(params), 100.0, foreach=True)      # nothing to clip
    seen.append((round(total.item(), 5), str(total.dtype), _grads(params, 5)))
    seen.append(round(utils.clip_grad_norm_(_parameters(L)[0], 0.5).item(), 12))
    total = utils.clip_grad_norm_([], 1.0)
    seen.append((total.item(), str(total.dtype)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        utils.clip_grad_norm_((p for p in []), 1.0)
    seen.append([str(w.message) for w in caught])
    params = _parameters(L)
    params[0].grad[0, 0] = float("nan")
    try:
        utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
    except RuntimeError as error:
        seen.append(str(error))
    params = _parameters(L)
    params[0].grad[0, 0] = float("inf")
    seen.append(str(utils.clip_grad_norm_(params, 1.0).item()))
    params = _parameters(L)
    seen += [utils.clip_grad_value_(params, 0.5), _grads(params)]
    params = _parameters(L)
    vector = utils.parameters_to_vector(params)
    seen.append((vector.shape[0], type(vector.grad_fn).__name__, np.round(vector.detach().numpy(), 12).tolist()))
    utils.vector_to_parameters(L.arange(18., dtype=L.float64), params)
    seen.append([p.detach().numpy().tolist() for p in params])
    try:
        utils.vector_to_parameters([1, 2], params)
    except TypeError as error:
        seen.append(str(error))
    return seen


def test_nn_utils_as_torch():
    torch = import_torch()
    ours, theirs = program(minigrad), program(torch)
    assert len(ours) == len(theirs)
    for our, their in zip(ours, theirs):
        assert our == their


def test_clipping_in_a_training_step():
    """Clipped between backward() and step(): the step is at most lr * max_norm long."""
    minigrad.manual_seed(0)
    model = minigrad.nn.Linear(3, 1)
    before = minigrad.nn.utils.parameters_to_vector(model.parameters()).detach().clone()
    (model(minigrad.ones(4, 3) * 100).sum()).backward()
    minigrad.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    minigrad.optim.SGD(model.parameters(), lr=0.1).step()
    after = minigrad.nn.utils.parameters_to_vector(model.parameters()).detach()
    assert (after - before).norm().item() <= 0.1 + 1e-6
