"""Lazy modules against PyTorch: UninitializedParameter / UninitializedBuffer, the first forward
(inferred sizes, the same random initial values after manual_seed, the module turning into the
eager class), printing, state_dict / load_state_dict, optimizers, copying and the error messages."""
import copy
import pickle

import numpy as np
import pytest

import minigrad
from minigrad import nn

from conftest import import_torch

# (class name, constructor args, input shape)
LAYERS = [
    ("LazyLinear", (10,), (2, 4)),
    ("LazyLinear", (3, False), (2, 5, 7)),
    ("LazyConv1d", (4, 3), (2, 3, 8)),
    ("LazyConv1d", (4, 3), (3, 8)),
    ("LazyConv2d", (4, 3), (2, 3, 8, 8)),
    ("LazyConv2d", (4, 3, 2, 1, 1, 2), (2, 6, 8, 8)),
    ("LazyConv2d", (4, 3, 1, "same", 1, 1, False, "reflect"), (2, 3, 6, 6)),
    ("LazyConv3d", (4, 3), (2, 3, 5, 5, 5)),
    ("LazyConvTranspose1d", (4, 3), (2, 3, 8)),
    ("LazyConvTranspose2d", (4, 3, 2, 1, 1), (3, 8, 8)),
    ("LazyConvTranspose3d", (4, 3), (2, 3, 4, 4, 4)),
    ("LazyBatchNorm1d", (), (4, 3)),
    ("LazyBatchNorm2d", (), (4, 3, 2, 2)),
    ("LazyBatchNorm3d", (1e-3, None, False), (4, 3, 2, 2, 2)),
    ("LazyInstanceNorm1d", (), (4, 3, 5)),
    ("LazyInstanceNorm2d", (1e-5, 0.1, True, False), (4, 3, 2, 2)),
    ("LazyInstanceNorm3d", (), (4, 3, 2, 2, 2)),
]


def _state(module):
    return {name: repr(value) if nn.parameter.is_lazy(value) else value.detach().numpy().copy()
            for name, value in module.state_dict().items()}


def _torch_state(torch, module):
    return {name: repr(value) if torch.nn.parameter.is_lazy(value) else value.detach().numpy().copy()
            for name, value in module.state_dict().items()}


def _assert_same_state(ours, theirs):
    assert list(ours) == list(theirs)
    for name in ours:
        if isinstance(theirs[name], str):
            assert ours[name] == theirs[name]
        else:
            assert ours[name].dtype == theirs[name].dtype
            np.testing.assert_array_equal(ours[name], theirs[name])


@pytest.mark.parametrize("name,args,shape", LAYERS, ids=lambda v: str(v))
def test_first_forward_infers_materializes_and_becomes_eager_as_torch(name, args, shape):
    torch = import_torch()
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(3)
        module = getattr(lib.nn, name)(*args)
        before = (repr(module), _state(module) if lib is minigrad else _torch_state(torch, module),
                  module.has_uninitialized_params())
        x = lib.randn(*shape, requires_grad=True)
        lib.manual_seed(4)                       # the initial values come from the first forward
        y = module(x)
        y.sum().backward()
        after = (type(module).__name__, repr(module), _state(module) if lib is minigrad
                 else _torch_state(torch, module), hasattr(module, "_initialize_hook"))
        grads = [p.grad.numpy() for p in module.parameters()] + [x.grad.numpy()]
        results.append((before, after, y.detach().numpy(), type(y.grad_fn).__name__, grads))
    ours, theirs = results
    assert ours[0][0] == theirs[0][0] and ours[0][2] == theirs[0][2]
    _assert_same_state(ours[0][1], theirs[0][1])
    assert ours[1][0] == theirs[1][0] and ours[1][1] == theirs[1][1] and ours[1][3] == theirs[1][3]
    _assert_same_state(ours[1][2], theirs[1][2])
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-5)
    assert ours[3] == theirs[3]
    for a, b in zip(ours[4], theirs[4]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_a_converted_lazy_module_keeps_its_dtype_as_torch():
    torch = import_torch()
    for lib in (minigrad, torch):
        module = lib.nn.LazyLinear(3).double()
        module(lib.ones(2, 4, dtype=lib.float64))
        assert str(module.weight.dtype) == "torch.float64" and type(module).__name__ == "Linear"


def _messages(lib, calls):
    out = []
    for call in calls:
        try:
            result = call(lib)
            out.append(("ok", repr(result)))
        except Exception as error:  # noqa: BLE001  (the class and the text are compared)
            out.append((type(error).__name__, str(error)))
    return out


ERROR_CALLS = [
    lambda lib: lib.nn.LazyLinear(3)(lib.ones(2, 4), 1),
    lambda lib: lib.nn.LazyConv2d(4, 3)(lib.ones(3, 3)),
    lambda lib: lib.nn.LazyConv2d(4, 3, groups=2)(lib.ones(1, 3, 5, 5)),
    lambda lib: lib.nn.LazyBatchNorm2d()(lib.ones(3, 3)),
    lambda lib: lib.nn.Linear(4, 3).load_state_dict(lib.nn.LazyLinear(3).state_dict()),
    lambda lib: lib.nn.UninitializedParameter().shape,
    lambda lib: lib.nn.UninitializedParameter().numel(),
    lambda lib: lib.nn.UninitializedParameter().dim(),
    lambda lib: lib.nn.UninitializedParameter().t(),
    lambda lib: lib.nn.UninitializedParameter().sum(),
    lambda lib: lib.nn.UninitializedParameter().detach(),
    lambda lib: lib.nn.UninitializedParameter().clone(),
    lambda lib: lib.nn.UninitializedParameter().requires_grad_(False),
    lambda lib: lib.nn.UninitializedParameter() + 1,
    lambda lib: lib.nn.UninitializedBuffer().numel(),
    lambda lib: lib.nn.UninitializedBuffer().share_memory_(),
    lambda lib: lib.nn.UninitializedParameter().size(),
    lambda lib: lib.nn.UninitializedParameter(dtype=lib.float64).dtype,
    lambda lib: lib.nn.UninitializedParameter().to(lib.float64),
    lambda lib: (lib.nn.UninitializedParameter().requires_grad, lib.nn.UninitializedParameter().is_leaf,
                 lib.nn.UninitializedParameter().grad, lib.nn.UninitializedBuffer().requires_grad),
    lambda lib: (lib.nn.UninitializedParameter(), lib.nn.UninitializedBuffer(),
                 str(lib.nn.UninitializedParameter())),
    lambda lib: (isinstance(lib.nn.UninitializedBuffer(), lib.nn.Buffer),
                 isinstance(lib.nn.UninitializedParameter(), lib.nn.Parameter),
                 lib.nn.parameter.is_lazy(lib.nn.UninitializedBuffer()), lib.nn.parameter.is_lazy(lib.ones(1))),
]


@pytest.mark.parametrize("index", range(len(ERROR_CALLS)))
def test_uninitialized_tensors_allow_and_refuse_as_torch(index):
    torch = import_torch()
    call = ERROR_CALLS[index]
    assert _messages(minigrad, [call]) == _messages(torch, [call])


def test_materialize_as_torch():
    torch = import_torch()
    for lib in (minigrad, torch):
        param = lib.nn.UninitializedParameter(dtype=lib.float64)
        param.materialize((2, 3))
        assert type(param) is lib.nn.Parameter and tuple(param.shape) == (2, 3)
        assert str(param.dtype) == "torch.float64" and param.requires_grad
        buffer = lib.nn.UninitializedBuffer()
        buffer.materialize((4,), dtype=lib.float64)
        assert type(buffer) is lib.Tensor and tuple(buffer.shape) == (4,) and str(buffer.dtype) == "torch.float64"


def _load_story(lib):
    """Load an initialized state into lazy modules, then run them: the loaded values stay."""
    out = []
    lib.manual_seed(0)
    full = lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.ReLU(), lib.nn.Linear(5, 2))
    lazy = lib.nn.Sequential(lib.nn.LazyLinear(5), lib.nn.ReLU(), lib.nn.LazyLinear(2))
    out.append(repr(lazy))
    out.append(list(lazy.state_dict()))
    out.append(repr(lazy.load_state_dict(full.state_dict())))
    out.append((repr(lazy), type(lazy[0].weight).__name__, tuple(lazy[0].weight.shape), lazy.has_uninitialized_params()
                if hasattr(lazy, "has_uninitialized_params") else lazy[0].has_uninitialized_params()))
    y = lazy(lib.ones(2, 3))
    out.append((repr(lazy), y.detach().numpy().round(6).tolist(),
                bool((lazy[2].weight == full[2].weight).all())))
    second = lib.nn.LazyLinear(3)
    second.load_state_dict(lib.nn.Linear(4, 3).state_dict())
    try:
        second(lib.ones(1, 5))
    except Exception as error:  # noqa: BLE001
        out.append((type(error).__name__, str(error)))
    empty = lib.nn.LazyLinear(3)
    out.append((repr(empty.load_state_dict(lib.nn.LazyLinear(3).state_dict())), repr(empty), repr(empty.weight)))
    norm = lib.nn.LazyBatchNorm1d()
    trained = lib.nn.BatchNorm1d(3)
    trained(lib.arange(12.0).reshape(4, 3))
    out.append((repr(norm.load_state_dict(trained.state_dict())), repr(norm), norm.num_batches_tracked.item(),
                norm.running_mean.numpy().round(6).tolist()))
    norm(lib.arange(12.0).reshape(4, 3) * 2)
    out.append((repr(norm), norm.num_batches_tracked.item(), norm.running_var.numpy().round(5).tolist()))
    return out


def test_load_state_dict_into_lazy_modules_as_torch():
    torch = import_torch()
    assert _load_story(minigrad) == _load_story(torch)


def test_optimizer_copy_and_pickle_of_lazy_modules_as_torch():
    torch = import_torch()
    results = []
    for lib in (minigrad, torch):
        module = lib.nn.LazyLinear(3)
        optimizer = lib.optim.SGD(module.parameters(), lr=0.1)
        copied = copy.deepcopy(module)
        pickled = pickle.loads(pickle.dumps(lib.nn.UninitializedParameter()))
        copied(lib.ones(2, 7))
        results.append((len(optimizer.param_groups[0]["params"]), repr(copied), repr(pickled),
                        type(module.weight).__name__))
    assert results[0] == results[1]


def test_optimizer_trains_a_lazy_model_after_the_dry_run_as_torch():
    torch = import_torch()
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(5)
        model = lib.nn.Sequential(lib.nn.LazyConv1d(4, 3), lib.nn.Flatten(), lib.nn.LazyLinear(1))
        x = lib.linspace(-1, 1, 2 * 2 * 6).reshape(2, 2, 6)
        model(x)                                  # the dry run
        optimizer = lib.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(3):
            optimizer.zero_grad()
            loss = model(x).pow(2).mean()
            loss.backward()
            optimizer.step()
        results.append((repr(model), [p.detach().numpy().copy() for p in model.parameters()]))
    assert results[0][0] == results[1][0]
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_skip_init_draws_no_random_numbers_as_torch():
    torch = import_torch()
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        module = lib.nn.utils.skip_init(lib.nn.Linear, 3, 2, dtype=lib.float64)
        errors = _messages(lib, [lambda lib: lib.nn.utils.skip_init(int),
                                 lambda lib: lib.nn.utils.skip_init(lib.nn.ReLU)])
        results.append((lib.rand(3).numpy().tolist(), type(module).__name__, tuple(module.weight.shape),
                        str(module.weight.dtype), type(module.weight).__name__, errors))
    assert results[0] == results[1]


def _module_story(lib):
    out = []
    norm = lib.nn.LazyBatchNorm2d().double()
    y = norm(lib.ones(2, 3, 2, 2, dtype=lib.float64))
    out.append((str(norm.running_mean.dtype), str(norm.weight.dtype), str(norm.num_batches_tracked.dtype),
                str(y.dtype)))
    linear = lib.nn.LazyLinear(3)
    out += _messages(lib, [lambda lib: linear.requires_grad_(False)])
    linear.zero_grad()
    linear.eval()
    out.append((linear.training, list(dict(linear.named_parameters())), len(list(linear.buffers()))))
    plain = lib.nn.LazyInstanceNorm1d(affine=False, track_running_stats=False)
    out.append((repr(plain), plain.has_uninitialized_params()))
    with pytest.warns(UserWarning, match="does not match num_features"):
        plain(lib.randn(2, 3, 4))
    out.append(repr(plain))
    partial = lib.nn.LazyLinear(3)
    out.append(repr(partial.load_state_dict({}, strict=False)))
    out += _messages(lib, [lambda lib: partial.load_state_dict({"weight": lib.ones(3, 2)})])
    out.append((repr(partial), type(partial.weight).__name__, type(partial.bias).__name__))
    hooked = lib.nn.LazyLinear(3)
    seen = []
    hooked.register_forward_hook(lambda module, args, output: seen.append(type(module).__name__))
    hooked(lib.ones(1, 2))
    out.append((seen, isinstance(hooked, lib.nn.modules.lazy.LazyModuleMixin)))
    return out


def test_module_methods_on_lazy_modules_as_torch():
    torch = import_torch()
    assert _module_story(minigrad) == _module_story(torch)
