"""nn.utils.parametrizations.spectral_norm and orthogonal, and the older hook-based
nn.utils.weight_norm / spectral_norm, against PyTorch: the random start vectors after
manual_seed, the power iteration in training and eval mode, values, gradients, the graph
recorded, parameter and buffer names, state_dict keys, reprs, warnings and error messages."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _graph(fn, depth=0):
    """The names of the nodes below ``fn``, depth first."""
    if fn is None or depth > 8:
        return []
    names = [" " * depth + type(fn).__name__]
    for child, _ in fn.next_functions:
        names += _graph(child, depth + 1)
    return names


def _names(layer):
    return (repr(layer), [n for n, _ in layer.named_parameters()],
            [n for n, _ in layer.named_buffers()], list(layer.state_dict()))


def _array(t):
    return t.detach().numpy().copy()


def _compare(run):
    """Run ``run(lib)`` on minigrad and PyTorch; arrays must agree to rounding, all else exactly."""
    torch = import_torch()
    ours, theirs = run(minigrad), run(torch)
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if isinstance(b, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"item {i}")
        else:
            assert a == b, f"item {i}"


# --- parametrizations.spectral_norm -------------------------------------------------------------

LAYERS = {
    "linear": lambda nn: nn.Linear(4, 3),
    "conv2d": lambda nn: nn.Conv2d(2, 3, 2),
    "conv_transpose2d": lambda nn: nn.ConvTranspose2d(2, 3, 2),
    "conv1d_dim1": lambda nn: (nn.Conv1d(2, 3, 2), {"dim": 1}),
    "linear_dim_minus1": lambda nn: (nn.Linear(4, 3), {"dim": -1}),
    "three_iterations": lambda nn: (nn.Linear(5, 2), {"n_power_iterations": 3, "eps": 1e-6}),
}


def _make(lib, key):
    made = LAYERS[key](lib.nn)
    return made if isinstance(made, tuple) else (made, {})


def _input_for(lib, layer):
    name = type(layer).__name__
    if name.endswith("Linear"):
        return lib.randn(2, layer.in_features)
    if name.endswith("1d"):
        return lib.randn(1, layer.in_channels, 5)
    return lib.randn(1, layer.in_channels, 4, 4)


@pytest.mark.parametrize("key", sorted(LAYERS))
def test_spectral_norm_parametrization_as_torch(key):
    def run(lib):
        lib.manual_seed(0)
        layer, kwargs = _make(lib, key)
        lib.nn.utils.parametrizations.spectral_norm(layer, **kwargs)
        sn = layer.parametrizations.weight[0]
        out = list(_names(layer)) + [_array(sn._u), _array(sn._v)]
        optimizer = lib.optim.SGD(layer.parameters(), lr=0.1)
        for _ in range(2):
            loss = layer(_input_for(lib, layer)).pow(2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            out += [_array(sn._u), _array(sn._v),
                    _array(layer.parametrizations.weight.original.grad)]
        weight = layer.weight
        out += [_array(weight), _graph(weight.grad_fn)]
        layer.eval()
        u = _array(sn._u)
        out += [_array(layer.weight), _array(sn._u), np.array_equal(u, _array(sn._u))]
        layer.weight = lib.ones_like(layer.weight)
        out += [_array(layer.parametrizations.weight.original), _array(layer.weight)]
        return out
    _compare(run)


def test_spectral_norm_of_a_vector_normalizes_it():
    def run(lib):
        layer = lib.nn.BatchNorm1d(3)
        with lib.no_grad():
            layer.weight.copy_(lib.tensor([1., 2., 3.]))
        lib.nn.utils.parametrizations.spectral_norm(layer)
        weight = layer.weight
        weight.sum().backward()
        return [_array(weight), _graph(weight.grad_fn),
                _array(layer.parametrizations.weight.original.grad), _names(layer)[2]]
    _compare(run)


def test_spectral_norm_gradcheck_float64():
    # in eval mode u and v are fixed, so the weight is a smooth function of the original
    minigrad.manual_seed(0)
    layer = minigrad.nn.Linear(4, 3).double()
    minigrad.nn.utils.parametrizations.spectral_norm(layer)
    sn = layer.parametrizations.weight[0].eval()
    W = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(sn, (W,))
    assert minigrad.autograd.gradgradcheck(sn, (W,))


# --- parametrizations.orthogonal ----------------------------------------------------------------

ORTHOGONAL = [((3, 3), "matrix_exp", True), ((3, 3), "cayley", True), ((5, 3), "matrix_exp", True),
              ((3, 5), "cayley", True), ((4, 4), None, False), ((2, 4), "cayley", False),
              ((4, 2), "matrix_exp", False), ((5, 3), None, True), ((3, 5), "householder", True),
              ((3, 3), "householder", True), ((4, 2), None, False), ((2, 4), "householder", False),
              ((3, 3), "householder", False)]


@pytest.mark.parametrize("shape, orthogonal_map, trivialization", ORTHOGONAL)
def test_orthogonal_as_torch(shape, orthogonal_map, trivialization):
    def run(lib):
        lib.manual_seed(0)
        layer = lib.nn.Linear(shape[1], shape[0]).double()
        lib.nn.utils.parametrizations.orthogonal(layer, orthogonal_map=orthogonal_map,
                                                 use_trivialization=trivialization)
        out = list(_names(layer))
        weight = layer.weight
        n = min(shape)
        gram = weight @ weight.mT if shape[0] < shape[1] else weight.mT @ weight
        out += [_array(weight), type(weight.grad_fn).__name__, _array(gram), np.eye(n)]
        x = lib.randn(2, shape[1], dtype=lib.float64)
        layer(x).pow(2).sum().backward()
        out.append(_array(layer.parametrizations.weight.original.grad))
        try:
            layer.weight = lib.eye(*shape, dtype=lib.float64)
            out.append(_array(layer.weight))
        except NotImplementedError as error:
            out.append(str(error))
        return out
    _compare(run)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
def test_orthogonal_gradcheck_float64(orthogonal_map):
    minigrad.manual_seed(0)
    layer = minigrad.nn.Linear(3, 4).double()
    minigrad.nn.utils.parametrizations.orthogonal(layer, orthogonal_map=orthogonal_map)
    orth = layer.parametrizations.weight[0]
    X = minigrad.randn(4, 3, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(orth, (X,))
    assert minigrad.autograd.gradgradcheck(orth, (X,))


# --- the hook-based weight_norm and spectral_norm -----------------------------------------------

def test_weight_norm_hook_as_torch():
    def run(lib):
        lib.manual_seed(0)
        layer = lib.nn.Linear(4, 3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.utils.weight_norm(layer)
        out = [[(w.category.__name__, str(w.message)) for w in caught]]
        out += list(_names(layer)) + [_array(layer.weight_g), type(layer.weight).__name__]
        optimizer = lib.optim.SGD(layer.parameters(), lr=0.1)
        for _ in range(2):
            loss = layer(lib.randn(2, 4)).pow(2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            out += [_array(layer.weight_g.grad), _array(layer.weight_v.grad), _array(layer.weight),
                    type(layer.weight.grad_fn).__name__]
        lib.nn.utils.remove_weight_norm(layer)
        out += list(_names(layer)) + [_array(layer.weight), type(layer.weight).__name__]
        for dim in (None, 1, -1):
            conv = lib.nn.Conv1d(2, 3, 2)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lib.nn.utils.weight_norm(conv, dim=dim)
            out += [_array(conv.weight_g), _array(conv.weight)]
        return out
    _compare(run)


def test_spectral_norm_hook_as_torch():
    def run(lib):
        lib.manual_seed(0)
        layer = lib.nn.Linear(4, 3)
        lib.nn.utils.spectral_norm(layer)
        out = list(_names(layer)) + [_array(layer.weight_u), _array(layer.weight_v),
                                     _array(layer.weight), layer.weight.requires_grad]
        optimizer = lib.optim.SGD(layer.parameters(), lr=0.1)
        for _ in range(2):
            loss = layer(lib.randn(2, 4)).pow(2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            out += [_array(layer.weight_u), _array(layer.weight_v),
                    _array(layer.weight_orig.grad), _array(layer.weight)]
        out.append(_graph(layer.weight.grad_fn))
        layer.eval()
        layer(lib.randn(2, 4))
        out += [_array(layer.weight_u), _array(layer.weight)]
        lib.nn.utils.remove_spectral_norm(layer)
        out += list(_names(layer)) + [_array(layer.weight), type(layer.weight).__name__]
        lib.manual_seed(3)
        transposed = lib.nn.ConvTranspose1d(2, 3, 2)
        lib.nn.utils.spectral_norm(transposed, n_power_iterations=3)
        out += [_array(transposed.weight_u), _array(transposed(lib.randn(1, 2, 4)))]
        return out
    _compare(run)


def test_spectral_norm_hook_state_dict_versions_as_torch():
    """The state_dict records its layout's version; one saved before PyTorch 1.1 (``weight``
    and no ``weight_v``) is converted on loading, v found from W_orig v = u; after
    remove_spectral_norm the loading hook stays, as in PyTorch."""
    def run(lib):
        lib.manual_seed(0)
        layer = lib.nn.utils.spectral_norm(lib.nn.Linear(2, 3).double())   # (W^T W invertible)
        x = lib.randn(4, 2, dtype=lib.float64)
        layer(x)
        saved = layer.state_dict()
        out = [sorted(saved), {key: dict(value) for key, value in saved._metadata.items()}]
        old = {key: value for key, value in saved.items() if key != "weight_v"}
        old["weight"] = layer.weight.detach().clone()
        lib.manual_seed(1)
        loaded = lib.nn.utils.spectral_norm(lib.nn.Linear(2, 3).double())
        out += [str(loaded.load_state_dict(old)), _array(loaded.weight_v), _array(loaded.weight_u)]
        loaded.eval()
        out.append(_array(loaded(x)))
        out.append(str(loaded.load_state_dict({k: v for k, v in old.items() if k != "weight_u"},
                                              strict=False)))
        versioned = lib.nn.utils.spectral_norm(lib.nn.Linear(2, 3).double())
        out.append(str(versioned.load_state_dict(saved)))       # version 1: taken as it is
        lib.nn.utils.remove_spectral_norm(layer)
        out.append(len(layer._state_dict_hooks))
        try:
            layer.load_state_dict(layer.state_dict())
        except RuntimeError as error:
            out.append(str(error))
        return out
    _compare(run)


def _twice(lib, function):
    layer = lib.nn.Linear(2, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        function(layer)
        function(layer)


BAD = {
    "sn_dim": lambda L: L.nn.utils.parametrizations.spectral_norm(L.nn.Linear(2, 2), dim=2),
    "sn_iterations": lambda L: L.nn.utils.parametrizations.spectral_norm(
        L.nn.Linear(2, 2), n_power_iterations=0),
    "sn_name": lambda L: L.nn.utils.parametrizations.spectral_norm(L.nn.Linear(2, 2), "foo"),
    "orth_map": lambda L: L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 2),
                                                                 orthogonal_map="qr"),
    "orth_vector": lambda L: L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 2), "bias"),
    "orth_name": lambda L: L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 2), "foo"),
    "orth_assign_shape": lambda L: setattr(
        L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 2)), "weight", L.ones(3, 3)),
    "wn_twice": lambda L: _twice(L, L.nn.utils.weight_norm),
    "wn_remove_missing": lambda L: L.nn.utils.remove_weight_norm(L.nn.Linear(2, 2)),
    "hook_sn_twice": lambda L: _twice(L, L.nn.utils.spectral_norm),
    "hook_sn_iterations": lambda L: L.nn.utils.spectral_norm(L.nn.Linear(2, 2),
                                                             n_power_iterations=-1),
    "hook_sn_none": lambda L: L.nn.utils.spectral_norm(L.nn.Linear(2, 2, bias=False), "bias"),
    "hook_sn_remove_missing": lambda L: L.nn.utils.remove_spectral_norm(L.nn.Linear(2, 2)),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_errors_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            BAD[name](lib)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


# --- linalg.householder_product and geqrf, which orthogonal's householder map uses --------------

@pytest.mark.parametrize("shape, k", [((4, 3), 2), ((3, 3), 3), ((2, 5, 2), 2), ((4, 4), 1)])
def test_householder_product_as_torch(shape, k):
    def run(lib):
        lib.manual_seed(0)
        A = lib.randn(*shape, dtype=lib.float64, requires_grad=True)
        tau = lib.rand(*shape[:-2], k, dtype=lib.float64, requires_grad=True)
        Q = lib.linalg.householder_product(A, tau)
        node = Q.grad_fn
        out = [_array(Q), type(node).__name__, [type(f).__name__ for f, _ in node.next_functions],
               _array(node._saved_tau), _array(node._saved_result)]
        G = lib.randn(*Q.shape, dtype=lib.float64)
        grads = lib.autograd.grad((Q * G).sum(), (A, tau), create_graph=True)
        again = lib.autograd.grad(grads[0].sin().sum() + grads[1].cos().sum(), (A, tau))
        a, t = lib.geqrf(A.detach())
        rebuilt = lib.linalg.householder_product(a, t)
        return out + [
                    _array(g) for g in grads + again] + [
                    _array(a), _array(t), _array(rebuilt), _array(lib.orgqr(a, t))]
    _compare(run)


def test_householder_product_gradcheck_float64():
    minigrad.manual_seed(0)
    A = minigrad.randn(2, 4, 3, dtype=minigrad.float64, requires_grad=True)
    tau = minigrad.rand(2, 2, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(minigrad.linalg.householder_product, (A, tau))
    assert minigrad.autograd.gradgradcheck(minigrad.linalg.householder_product, (A, tau))


HOUSEHOLDER_BAD = [((3,), (1,), None), ((3, 2), (3,), None), ((2, 3), (1,), None),
                   ((2, 3, 2), (3, 1), None), ((3, 2), (1,), "float64"), ((3, 2), (1,), "int32")]


@pytest.mark.parametrize("shape, tau_shape, dtype", HOUSEHOLDER_BAD)
def test_householder_product_errors_as_torch(shape, tau_shape, dtype):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        A = lib.ones(*shape)
        tau = lib.ones(*tau_shape, dtype=getattr(lib, dtype) if dtype else None)
        if dtype == "int32":
            A = A.int()
        with pytest.raises(Exception) as caught:
            lib.linalg.householder_product(A, tau)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


def test_householder_product_forward_mode_and_vmap_as_torch():
    def run(lib):
        forward_ad = lib.autograd.forward_ad
        lib.manual_seed(0)
        A, dA = lib.randn(4, 3, dtype=lib.float64), lib.randn(4, 3, dtype=lib.float64)
        tau, dtau = lib.rand(2, dtype=lib.float64), lib.randn(2, dtype=lib.float64)
        with forward_ad.dual_level():
            Q = lib.linalg.householder_product(forward_ad.make_dual(A, dA),
                                               forward_ad.make_dual(tau, dtau))
            tangent = forward_ad.unpack_dual(Q).tangent
        batch_A, batch_tau = lib.randn(2, 4, 3), lib.rand(2, 2)
        batched = lib.func.vmap(lib.linalg.householder_product)(batch_A, batch_tau)
        return [_array(tangent), _array(batched),
                _array(lib.linalg.householder_product(batch_A, batch_tau))]
    _compare(run)
