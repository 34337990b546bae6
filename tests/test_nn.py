"""minigrad.nn against PyTorch: layers, losses, init, Parameter and Module bookkeeping.

PyTorch's random streams differ from minigrad's, so a model is compared by
copying PyTorch's initial weights into the minigrad model (load_state_dict),
then checking forward values, gradients, grad_fn names and printing.
"""
import math
import re
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import minigrad
from minigrad import nn


def same_message(ours, theirs):
    """Messages match once minigrad's own names (minigrad.Size, minigrad.FloatTensor) read torch."""
    assert str(ours).replace("minigrad.", "torch.") == str(theirs)


def raises_like(torch_call, our_call):
    with pytest.raises(Exception) as theirs:
        torch_call()
    with pytest.raises(type(theirs.value)) as ours:
        our_call()
    same_message(ours.value, theirs.value)


def copy_weights(ours, theirs):
    """Give the minigrad model the PyTorch model's parameter values."""
    ours.load_state_dict({name: minigrad.tensor(value.detach().numpy().copy())
                          for name, value in theirs.state_dict().items()})


def build_both(torch, make):
    """make(nn) builds a model; returns (minigrad model, torch model) with the same weights."""
    theirs = make(torch.nn)
    ours = make(nn)
    copy_weights(ours, theirs)
    return ours, theirs


def mlp(module):
    return module.Sequential(module.Linear(3, 5), module.ReLU(), module.Linear(5, 4),
                             module.Tanh(), module.Linear(4, 2), module.Sigmoid())


# --- Parameter --------------------------------------------------------------------------------

def test_parameter_prints_and_behaves_like_torch(torch):
    for data, grad in [([1.0, 2.0], True), (3.0, True), ([[1.5, -2.0]], False)]:
        ours = nn.Parameter(minigrad.tensor(data), requires_grad=grad)
        theirs = torch.nn.Parameter(torch.tensor(data), requires_grad=grad)
        assert repr(ours) == repr(theirs)
        assert str(ours) == str(theirs)
        assert ours.is_leaf and ours.requires_grad == grad
    assert repr(nn.Parameter()) == repr(torch.nn.Parameter())
    p = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    assert isinstance(p, minigrad.Tensor)
    assert type(p * 2) is minigrad.Tensor and type(p.detach()) is minigrad.Tensor
    assert type(p * 2).__name__ == type(torch.nn.Parameter(torch.ones(1)) * 2).__name__


def test_parameter_shares_memory_and_records_operations():
    data = minigrad.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    with minigrad.no_grad():
        p.add_(1)
    assert data.tolist() == [2.0, 3.0]
    loss = (p * p).sum()
    assert loss.grad_fn.name() == "SumBackward0"
    loss.backward()
    assert p.grad.tolist() == [4.0, 6.0]


def test_parameter_of_integer_tensor_is_refused(torch):
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.Parameter(torch.tensor([1, 2]))
    with pytest.raises(RuntimeError):
        nn.Parameter(minigrad.tensor([1, 2]))
    assert "floating point" in str(theirs.value)


# --- Module bookkeeping -----------------------------------------------------------------------

def make_custom(module):
    class Block(module.Module):
        def __init__(self):
            super().__init__()
            self.scale = module.Parameter(module.init.ones_(torch_like_empty(module, 2)))
            self.body = module.Sequential(module.Linear(2, 2), module.ReLU())
            self.head = module.Linear(2, 1, bias=False)
            self.note = "plain attribute"

        def forward(self, x):
            return self.head(self.body(x * self.scale))
    return Block()


def torch_like_empty(module, *shape):
    """module.Parameter's package: torch.empty or minigrad.empty."""
    library = __import__(module.__name__.split(".")[0])
    return library.zeros(*shape)


def test_registration_order_names_and_repr(torch):
    ours, theirs = build_both(torch, make_custom)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert len(list(ours.modules())) == len(list(theirs.modules()))
    assert list(ours.state_dict().keys()) == list(theirs.state_dict().keys())
    assert isinstance(ours.state_dict(), OrderedDict)
    assert repr(ours) == repr(theirs)
    assert ours.note == "plain attribute" and "note" not in ours._parameters
    assert ours.head.bias is None


def test_repr_of_every_layer(torch):
    def layers(module):
        return module.Sequential(
            module.Linear(2, 16), module.ReLU(), module.ReLU(inplace=True), module.Tanh(),
            module.Sigmoid(), module.Flatten(), module.Flatten(0, 2), module.Dropout(),
            module.Dropout(0.25, inplace=True), module.Identity(), module.Linear(4, 1, bias=False),
            module.MSELoss(), module.L1Loss(reduction="sum"), module.CrossEntropyLoss(),
            module.NLLLoss(), module.BCEWithLogitsLoss(), module.LeakyReLU(),
            module.LeakyReLU(0.2, True), module.Softplus(), module.Softplus(2, 10),
            module.Softmax(dim=1), module.Softmax(), module.LogSoftmax(1),
            module.Sequential(module.Linear(1, 1), module.Sequential(module.ReLU())))
    ours, theirs = layers(nn), layers(torch.nn)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert repr(nn.Sequential()) == repr(torch.nn.Sequential())


def test_shared_parameter_listed_once(torch):
    def tied(module):
        layer = module.Linear(2, 2)
        return module.Sequential(layer, module.ReLU(), layer)
    ours, theirs = build_both(torch, tied)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert len(list(ours.modules())) == len(list(theirs.modules()))


def test_assignment_errors_match_torch(torch):
    for library, module in ((torch, torch.nn), (minigrad, nn)):
        module.layer = module.Linear(2, 3)
    raises_like(lambda: setattr(torch.nn.layer, "weight", torch.zeros(3, 2)),
                lambda: setattr(nn.layer, "weight", minigrad.zeros(3, 2)))
    raises_like(lambda: setattr(torch.nn.layer, "weight", 3),
                lambda: setattr(nn.layer, "weight", 3))
    seq_t, seq_m = torch.nn.Sequential(torch.nn.ReLU()), nn.Sequential(nn.ReLU())
    raises_like(lambda: setattr(seq_t, "0", 1), lambda: setattr(seq_m, "0", 1))
    raises_like(lambda: torch.nn.layer.missing, lambda: nn.layer.missing)
    del torch.nn.layer, nn.layer

    def early(module, value):
        class Early(module.Module):
            def __init__(self):
                self.w = value
        return Early
    raises_like(lambda: early(torch.nn, torch.nn.Parameter(torch.zeros(1)))(),
                lambda: early(nn, nn.Parameter(minigrad.zeros(1)))())
    raises_like(lambda: early(torch.nn, torch.nn.ReLU())(), lambda: early(nn, nn.ReLU())())


def test_assigning_none_and_a_new_parameter():
    layer = nn.Linear(2, 3)
    layer.bias = None
    assert [n for n, _ in layer.named_parameters()] == ["weight"]
    layer.bias = nn.Parameter(minigrad.zeros(3))
    assert [n for n, _ in layer.named_parameters()] == ["weight", "bias"]
    layer.extra = nn.Parameter(minigrad.zeros(1))
    assert "extra" in dict(layer.named_parameters())
    del layer.extra
    assert "extra" not in dict(layer.named_parameters())


def test_forward_missing_and_train_mode_errors(torch):
    raises_like(lambda: torch.nn.Module()(1), lambda: nn.Module()(1))
    raises_like(lambda: torch.nn.ReLU().train("yes"), lambda: nn.ReLU().train("yes"))


def test_train_eval_and_requires_grad_reach_every_submodule(torch):
    ours, theirs = build_both(torch, make_custom)
    for model in (ours, theirs):
        assert model.eval() is model
    assert [m.training for m in ours.modules()] == [m.training for m in theirs.modules()]
    assert not any(m.training for m in ours.modules())
    ours.train()
    assert all(m.training for m in ours.modules())
    assert ours.requires_grad_(False) is ours
    assert not any(p.requires_grad for p in ours.parameters())
    ours.body.requires_grad_()
    assert [p.requires_grad for p in ours.parameters()] == [False, True, True, False]


def test_zero_grad_to_none_or_zeros(torch):
    ours, theirs = build_both(torch, mlp)
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    for model, library in ((ours, minigrad), (theirs, torch)):
        model(library.tensor(x)).sum().backward()
        model.zero_grad(set_to_none=False)
    for p, q in zip(ours.parameters(), theirs.parameters()):
        assert p.grad is not None and not p.grad.any().item()
        assert p.grad.tolist() == q.grad.tolist()
    ours.zero_grad()
    assert all(p.grad is None for p in ours.parameters())


def test_forward_hooks_run_and_can_be_removed(torch):
    calls = []
    for library, module in ((torch, torch.nn), (minigrad, nn)):
        layer = module.Linear(2, 2)
        pre = layer.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
        post = layer.register_forward_hook(lambda m, args, out: calls.append(type(m).__name__))
        out = layer(library.ones(1, 2))
        assert np.allclose(out.detach().numpy(), layer.bias.detach().numpy())
        pre.remove()
        post.remove()
        layer(library.ones(1, 2))
    assert calls == ["Linear", "Linear"]


def test_double_converts_parameters(torch):
    ours = mlp(nn).double()
    assert all(p.dtype is minigrad.float64 for p in ours.parameters())
    assert ours(minigrad.ones(2, 3, dtype=minigrad.float64)).dtype is minigrad.float64
    assert all(p.dtype is minigrad.float32 for p in ours.float().parameters())


# --- state_dict ------------------------------------------------------------------------------

def test_state_dict_round_trip_and_detached(torch):
    ours, theirs = build_both(torch, mlp)
    state = ours.state_dict()
    assert all(not t.requires_grad for t in state.values())
    other = mlp(nn)
    result = other.load_state_dict(state)
    assert repr(result) == repr(theirs.load_state_dict(theirs.state_dict()))
    for (name, p), q in zip(other.named_parameters(), ours.parameters()):
        assert p.tolist() == q.tolist(), name
    kept = ours.state_dict(keep_vars=True)
    assert kept["0.weight"] is ours[0].weight


def test_load_state_dict_errors_match_torch(torch):
    def broken(library, model):
        state = model.state_dict()
        state["foo"] = library.zeros(1)
        del state["0.bias"]
        state["2.weight"] = library.zeros(3)
        return state
    ours, theirs = build_both(torch, mlp)
    raises_like(lambda: theirs.load_state_dict(broken(torch, theirs)),
                lambda: ours.load_state_dict(broken(minigrad, ours)))
    got = ours.load_state_dict({"0.weight": minigrad.zeros(5, 3), "zz": minigrad.zeros(1)},
                               strict=False)
    want = theirs.load_state_dict({"0.weight": torch.zeros(5, 3), "zz": torch.zeros(1)},
                                  strict=False)
    assert repr(got) == repr(want)
    assert got.missing_keys == want.missing_keys and got.unexpected_keys == want.unexpected_keys
    assert ours[0].weight.abs().sum().item() == 0


def test_loss_weight_is_a_buffer_in_state_dict(torch):
    ours = nn.CrossEntropyLoss(weight=minigrad.tensor([1.0, 2.0]))
    theirs = torch.nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0]))
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["weight"]
    assert list(nn.MSELoss().state_dict()) == list(torch.nn.MSELoss().state_dict())


# --- Sequential ------------------------------------------------------------------------------

def test_sequential_indexing_len_iteration(torch):
    ours, theirs = mlp(nn), mlp(torch.nn)
    assert len(ours) == len(theirs) == 6
    assert [type(m).__name__ for m in ours] == [type(m).__name__ for m in theirs]
    for index in (0, 3, -1, -6):
        assert repr(ours[index]) == repr(theirs[index])
    for part in (slice(1, 3), slice(None, None, 2), slice(-2, None)):
        assert repr(ours[part]) == repr(theirs[part])
    assert ours[1:3][1] is ours[2]
    raises_like(lambda: theirs[6], lambda: ours[6])
    raises_like(lambda: theirs[-7], lambda: ours[-7])
    named_t = torch.nn.Sequential(OrderedDict([("hidden", torch.nn.Linear(2, 3)),
                                               ("act", torch.nn.ReLU())]))
    named_m = nn.Sequential(OrderedDict([("hidden", nn.Linear(2, 3)), ("act", nn.ReLU())]))
    assert repr(named_m) == repr(named_t)
    assert list(named_m.state_dict()) == list(named_t.state_dict())
    named_m.append(nn.Identity())
    named_t.append(torch.nn.Identity())
    assert repr(named_m) == repr(named_t)


# --- forward and backward against PyTorch ---------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mlp_forward_backward_match_torch(torch, pair, dtype):
    ours, theirs = build_both(torch, mlp)
    if dtype == "float64":
        ours.double()
        theirs.double()
    x_ours, x_theirs = pair.randn(7, 3, dtype=np.dtype(dtype), seed=1, requires_grad=True)
    out_ours, out_theirs = ours(x_ours), theirs(x_theirs)
    pair.assert_close(out_ours, out_theirs)
    assert out_ours.grad_fn.name() == out_theirs.grad_fn.name()
    out_ours.sum().backward()
    out_theirs.sum().backward()
    pair.assert_close(x_ours.grad, x_theirs.grad)
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        pair.assert_close(p.grad, q.grad)


@pytest.mark.parametrize("shape", [(4, 3), (3,), (2, 4, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_grad_fn_names_match_torch(torch, pair, shape, bias):
    ours, theirs = build_both(torch, lambda module: module.Linear(3, 2, bias=bias))
    x_ours, x_theirs = pair.randn(*shape, dtype=np.float32, seed=2)
    out_ours, out_theirs = ours(x_ours), theirs(x_theirs)
    pair.assert_close(out_ours, out_theirs)
    assert out_ours.grad_fn.name() == out_theirs.grad_fn.name()
    assert [type(n).__name__ for n, _ in out_ours.grad_fn.next_functions] == \
        [type(n).__name__ for n, _ in out_theirs.grad_fn.next_functions]
    out_ours.sum().backward()
    out_theirs.sum().backward()
    pair.assert_close(ours.weight.grad, theirs.weight.grad)


def test_activations_flatten_identity(torch, pair):
    for make in (lambda m: m.ReLU(), lambda m: m.Tanh(), lambda m: m.Sigmoid(),
                 lambda m: m.Flatten(), lambda m: m.Flatten(0, 1), lambda m: m.Identity(),
                 lambda m: m.LeakyReLU(0.2), lambda m: m.Softplus(2.0), lambda m: m.Softmax(1),
                 lambda m: m.LogSoftmax(-1)):
        x_ours, x_theirs = pair.randn(2, 3, 4, seed=3, requires_grad=True)
        out_ours, out_theirs = make(nn)(x_ours), make(torch.nn)(x_theirs)
        pair.assert_close(out_ours, out_theirs)
        if out_theirs.grad_fn is None:
            assert out_ours is x_ours
            continue
        assert out_ours.grad_fn.name() == out_theirs.grad_fn.name()
        (out_ours * out_ours).sum().backward()
        (out_theirs * out_theirs).sum().backward()
        pair.assert_close(x_ours.grad, x_theirs.grad)


def test_relu_inplace_changes_its_input():
    x = minigrad.tensor([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(x) is x
    assert x.tolist() == [0.0, 2.0]


def test_dropout_train_and_eval(torch):
    minigrad.manual_seed(0)
    layer = nn.Dropout(0.25)
    x = minigrad.ones(4000, requires_grad=True)
    out = layer(x)
    values = set(out.detach().numpy().tolist())
    assert values == {0.0, float(np.float32(1 / 0.75))}
    assert abs((out == 0).float().mean().item() - 0.25) < 0.03
    theirs = torch.nn.Dropout(0.25)(torch.ones(2, requires_grad=True))
    assert out.grad_fn.name() == theirs.grad_fn.name() == "MulBackward0"
    out.sum().backward()
    assert np.array_equal(x.grad.numpy(), out.detach().numpy())     # d/dx = the mask
    layer.eval()
    assert layer(x) is x
    assert nn.Dropout(0.0)(x) is x
    assert nn.Dropout(1.0)(x).abs().sum().item() == 0
    for p in (-0.1, 1.5):
        raises_like(lambda: torch.nn.Dropout(p), lambda: nn.Dropout(p))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dropout_masks_are_pytorchs_bit_for_bit(torch, dtype):
    """Same seed, same dropped elements and the same scaled values as PyTorch's CPU dropout."""
    for seed in (0, 1, 7, 1234):
        for shape in ((5,), (4, 7), (3, 33), (2, 3, 17)):
            for p in (0.1, 0.25, 1 / 3, 0.5, 0.8, 0.9, 1.0):
                results = []
                for lib in (minigrad, torch):
                    lib.manual_seed(seed)
                    x = lib.randn(*shape, dtype=getattr(lib, dtype), requires_grad=True)
                    out = lib.nn.functional.dropout(x, p)
                    again = lib.nn.Dropout(p)(x * 2)
                    in_place = lib.nn.functional.dropout(x.detach().clone(), p, inplace=True)
                    after = lib.rand(2)                         # the stream moved on alike
                    (out.sum() + again.sum()).backward()
                    results.append([t.detach().numpy() for t in (out, again, in_place, after, x.grad)]
                                   + [out.grad_fn.name(), again.grad_fn.name()])
                for ours, theirs in zip(*results):
                    if isinstance(ours, str):
                        assert ours == theirs == "MulBackward0"
                    else:
                        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs), (seed, shape, p)


def test_dropout_fills_a_transposed_input_in_memory_order_like_pytorch(torch):
    """PyTorch's noise tensor keeps the input's memory layout and is filled in memory order."""
    makers = [lambda lib: lib.randn(4, 6).t(), lambda lib: lib.randn(2, 3, 5).permute(2, 0, 1),
              lambda lib: lib.randn(3, 4, 5, dtype=lib.float64).transpose(0, 1)]
    for seed in (0, 3):
        for make in makers:
            results = []
            for lib in (minigrad, torch):
                lib.manual_seed(seed)
                x = make(lib)
                results.append([t.numpy() for t in (lib.nn.functional.dropout(x, 0.3),
                                                    make(lib).bernoulli_(0.5), lib.rand(2))])
            for ours, theirs in zip(*results):
                assert np.array_equal(ours, theirs)


# --- losses ---------------------------------------------------------------------------------

LOSS_CASES = [
    ("MSELoss", {}, "same"), ("L1Loss", {}, "same"), ("BCEWithLogitsLoss", {}, "probability"),
    ("CrossEntropyLoss", {}, "classes"), ("NLLLoss", {}, "classes"),
    ("CrossEntropyLoss", {"weight": [0.2, 1.0, 3.0]}, "classes"),
    ("BCEWithLogitsLoss", {"pos_weight": [2.0, 0.5, 1.0]}, "probability"),
]


@pytest.mark.parametrize("name, options, target_kind", LOSS_CASES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_losses_match_torch(torch, pair, name, options, target_kind, reduction, dtype):
    rng = np.random.default_rng(4)
    x_ours, x_theirs = pair.randn(5, 3, dtype=dtype, seed=5, requires_grad=True)
    if target_kind == "classes":
        target = rng.integers(0, 3, size=5)
    elif target_kind == "probability":
        target = rng.random((5, 3)).astype(dtype)
    else:
        target = rng.standard_normal((5, 3)).astype(dtype)
    t_ours, t_theirs = minigrad.tensor(target), torch.tensor(target)
    ours_options = {k: minigrad.tensor(np.array(v, dtype=dtype)) for k, v in options.items()}
    theirs_options = {k: torch.tensor(np.array(v, dtype=dtype)) for k, v in options.items()}
    ours = getattr(nn, name)(reduction=reduction, **ours_options)
    theirs = getattr(torch.nn, name)(reduction=reduction, **theirs_options)
    if name == "NLLLoss":           # it expects log-probabilities
        loss_ours = ours(minigrad.nn.functional.log_softmax(x_ours, 1), t_ours)
        loss_theirs = theirs(torch.nn.functional.log_softmax(x_theirs, 1), t_theirs)
    else:
        loss_ours, loss_theirs = ours(x_ours, t_ours), theirs(x_theirs, t_theirs)
    pair.assert_close(loss_ours, loss_theirs)
    assert loss_ours.grad_fn.name() == loss_theirs.grad_fn.name()
    loss_ours.sum().backward()
    loss_theirs.sum().backward()
    pair.assert_close(x_ours.grad, x_theirs.grad)


def test_l1_loss_broadcast_warning_matches_torch(torch):
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        torch.nn.L1Loss()(torch.zeros(3), torch.zeros(3, 3))
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        nn.L1Loss()(minigrad.zeros(3), minigrad.zeros(3, 3))
    assert len(ours) == len(theirs) == 1
    same_message(ours[0].message, theirs[0].message)


# --- init ------------------------------------------------------------------------------------

def test_linear_default_init_bounds():
    minigrad.manual_seed(0)
    layer = nn.Linear(50, 40)
    bound = 1 / math.sqrt(50)
    for p in (layer.weight, layer.bias):
        assert isinstance(p, nn.Parameter) and p.requires_grad and p.is_leaf
        assert p.abs().max().item() <= bound
    # uniform on [-b, b]: standard deviation b / sqrt(3)
    assert abs(layer.weight.std().item() - bound / math.sqrt(3)) < 0.01
    assert layer.weight.abs().max().item() > 0.9 * bound
    assert layer.weight.dtype is minigrad.float32
    assert nn.Linear(2, 3, dtype=minigrad.float64).weight.dtype is minigrad.float64


def test_init_functions(torch):
    minigrad.manual_seed(0)
    w = nn.Parameter(minigrad.empty(300, 200))
    assert nn.init.zeros_(w) is w and w.abs().sum().item() == 0
    assert nn.init.ones_(w).mean().item() == 1
    assert nn.init.constant_(w, 0.5).mean().item() == 0.5
    assert w.grad_fn is None and w.requires_grad
    nn.init.uniform_(w, -2, 3)
    assert -2 <= w.min().item() and w.max().item() < 3
    nn.init.normal_(w, 1.0, 0.5)
    assert abs(w.mean().item() - 1) < 0.01 and abs(w.std().item() - 0.5) < 0.01
    nn.init.xavier_uniform_(w, gain=2.0)
    assert w.abs().max().item() <= 2.0 * math.sqrt(6 / 500)
    # w is 300 x 200: fan_in = 200, fan_out = 300
    nn.init.kaiming_uniform_(w, nonlinearity="relu")
    assert math.sqrt(2) * math.sqrt(3 / 300) < w.abs().max().item() <= math.sqrt(2 * 3 / 200)
    nn.init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu")
    assert w.abs().max().item() <= math.sqrt(2) * math.sqrt(3 / 300)
    for name in ("linear", "sigmoid", "tanh", "relu", "selu", "conv2d"):
        assert nn.init.calculate_gain(name) == torch.nn.init.calculate_gain(name)
    for slope in (None, 0.2, 1):
        assert nn.init.calculate_gain("leaky_relu", slope) == \
            torch.nn.init.calculate_gain("leaky_relu", slope)


def test_init_errors_and_warning_match_torch(torch):
    raises_like(lambda: torch.nn.init.calculate_gain("foo"),
                lambda: nn.init.calculate_gain("foo"))
    raises_like(lambda: torch.nn.init.calculate_gain("leaky_relu", True),
                lambda: nn.init.calculate_gain("leaky_relu", True))
    raises_like(lambda: torch.nn.init.xavier_uniform_(torch.zeros(3)),
                lambda: nn.init.xavier_uniform_(minigrad.zeros(3)))
    raises_like(lambda: torch.nn.init.kaiming_uniform_(torch.zeros(3, 3), mode="x"),
                lambda: nn.init.kaiming_uniform_(minigrad.zeros(3, 3), mode="x"))
    with pytest.warns(UserWarning, match=re.escape("Initializing zero-element tensors is a no-op")):
        nn.init.kaiming_uniform_(minigrad.zeros(0, 3))


def test_nn_and_optim_are_reachable_like_torch():
    import minigrad as torch_like
    from minigrad import nn as nn_module
    assert torch_like.nn.Linear is nn_module.Linear
    assert torch_like.optim.SGD is not None
    assert torch_like.nn.functional.l1_loss is not None


def quickstart_network(library):
    """The model of PyTorch's "Build the neural network" tutorial, on a smaller image."""
    nn_ = library.nn

    class NeuralNetwork(nn_.Module):
        def __init__(self):
            super().__init__()
            self.flatten = nn_.Flatten()
            self.linear_relu_stack = nn_.Sequential(
                nn_.Linear(6 * 6, 20), nn_.ReLU(), nn_.Linear(20, 20), nn_.ReLU(),
                nn_.Linear(20, 10))

        def forward(self, x):
            return self.linear_relu_stack(self.flatten(x))
    return NeuralNetwork().to("cpu")


def test_build_the_neural_network_tutorial(torch, pair):
    ours, theirs = quickstart_network(minigrad), quickstart_network(torch)
    copy_weights(ours, theirs)
    assert repr(ours) == repr(theirs)
    x_ours, x_theirs = pair.randn(3, 6, 6, dtype=np.float32, seed=9)
    logits_ours, logits_theirs = ours(x_ours), theirs(x_theirs)
    probabilities_ours = nn.Softmax(dim=1)(logits_ours)
    probabilities_theirs = torch.nn.Softmax(dim=1)(logits_theirs)
    pair.assert_close(probabilities_ours, probabilities_theirs)
    assert probabilities_ours.argmax(1).tolist() == probabilities_theirs.argmax(1).tolist()
    for (name, p), (name_t, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        line_ours = f"Layer: {name} | Size: {p.size()} | Values : {p[:2]} \n"
        line_theirs = f"Layer: {name_t} | Size: {q.size()} | Values : {q[:2]} \n"
        assert line_ours.replace("minigrad.", "torch.") == line_theirs


def test_deepcopy_and_pickle_keep_parameters(torch):
    import copy
    import pickle
    model = mlp(nn)
    for clone in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert repr(clone) == repr(model)
        for p, q in zip(clone.parameters(), model.parameters()):
            assert isinstance(p, nn.Parameter) and p is not q and p.tolist() == q.tolist()
        with minigrad.no_grad():
            clone[0].weight.zero_()
        assert model[0].weight.abs().sum().item() > 0


def test_apply_prefixes_and_duplicates_match_torch(torch):
    def walk(library):
        module = library.nn
        order = []

        def init_weights(m):
            order.append(type(m).__name__)
            if isinstance(m, module.Linear):
                module.init.ones_(m.weight)
                m.bias.data.fill_(0.01)
        net = module.Sequential(module.Linear(2, 3), module.ReLU(),
                                module.Sequential(module.Linear(3, 1)))
        layer = module.Linear(1, 1)
        tied = module.Sequential(layer, layer)
        return [net.apply(init_weights) is net, order, net(library.ones(1, 2)).item(),
                [n for n, _ in net.named_parameters(prefix="model")],
                [n for n, _ in net.named_parameters(recurse=False)],
                [n for n, _ in tied.named_parameters(remove_duplicate=False)],
                [n for n, _ in tied.named_modules(remove_duplicate=False)],
                list(net.named_children())[-1][0]]
    assert walk(minigrad) == walk(torch)
