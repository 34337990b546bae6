"""Math functions compared with PyTorch: asin ... atanh, erfc, erfinv, sinc, exp2, logaddexp,
xlogy, logit, lgamma, digamma, polygamma, hypot, copysign, fmax/fmin, heaviside, float_power,
addcmul, addcdiv, lerp, the comparison names and their in-place forms.

For each: values (edge values too: 0, -0.0, +-1, inf, nan) and dtypes, gradients, the node's
name, what it saves (``grad_fn._saved_*``) and its edges, gradcheck/gradgradcheck in float64,
the in-place form, and PyTorch's exceptions (class and text)."""
import math

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

NAN, INF = float("nan"), float("inf")

# name -> edge values (inside and outside the domain)
UNARY = {
    "asin": [0.0, -0.0, 0.5, -0.9, 1.0, -1.0, 1.5, INF, NAN],
    "acos": [0.0, -0.0, 0.5, -0.9, 1.0, -1.0, 1.5, INF, NAN],
    "atan": [0.0, -0.0, 0.5, -3.0, 1e10, INF, -INF, NAN],
    "sinh": [0.0, -0.0, 0.5, -3.0, 20.0, 100.0, INF, -INF, NAN],
    "cosh": [0.0, -0.0, 0.5, -3.0, 20.0, 100.0, INF, -INF, NAN],
    "asinh": [0.0, -0.0, 0.5, -3.0, 1e10, INF, -INF, NAN],
    "acosh": [1.0, 1.5, 10.0, 0.5, 0.0, INF, NAN],
    "atanh": [0.0, -0.0, 0.5, -0.9, 1.0, -1.0, 1.5, NAN],
    "arcsin": [0.25, -0.5], "arccos": [0.25, -0.5], "arctan": [0.25, -5.0],
    "arcsinh": [0.25, -5.0], "arccosh": [1.25, 5.0], "arctanh": [0.25, -0.5],
    "deg2rad": [0.0, 90.0, -180.0, 1e3, INF, NAN],
    "rad2deg": [0.0, 1.0, -math.pi, INF, NAN],
    "erfc": [0.0, -0.0, 0.5, -3.0, 5.0, 30.0, INF, -INF, NAN],
    "erfinv": [0.0, -0.0, 0.5, -0.9, 0.999, 1.0, -1.0, 1.5, 1e-8, NAN],
    "sinc": [0.0, -0.0, 0.5, 1.0, 2.0, -3.25, 1e-8, INF, NAN],
    "exp2": [0.0, -0.0, 0.5, -3.0, 10.0, 200.0, INF, -INF, NAN],
    "logit": [0.0, 1.0, 0.5, 0.25, 1e-6, 2.0, -1.0, NAN],
    "lgamma": [0.0, -0.0, 0.5, 1.0, 2.0, 3.5, 30.0, -1.0, -2.5, INF, -INF, NAN],
    "digamma": [0.0, -0.0, 0.5, 1.0, 2.0, 3.5, 30.0, -1.0, -2.5, 1e-8, INF, NAN],
}

# name -> (PyTorch's node name, the values it saves)
NODES = {
    "asin": ("AsinBackward0", ["self"]), "acos": ("AcosBackward0", ["self"]),
    "atan": ("AtanBackward0", ["self"]), "sinh": ("SinhBackward0", ["self"]),
    "cosh": ("CoshBackward0", ["self"]), "asinh": ("AsinhBackward0", ["self"]),
    "acosh": ("AcoshBackward0", ["self"]), "atanh": ("AtanhBackward0", ["self"]),
    "deg2rad": ("Deg2RadBackward0", []), "rad2deg": ("Rad2DegBackward0", []),
    "erfc": ("ErfcBackward0", ["self"]), "erfinv": ("ErfinvBackward0", ["self"]),
    "sinc": ("SincBackward0", ["self"]), "exp2": ("Exp2Backward0", ["result"]),
    "logit": ("LogitBackward0", ["eps", "self"]), "lgamma": ("LgammaBackward0", ["self"]),
    "digamma": ("DigammaBackward0", ["self"]),
}

# where each function is smooth, for gradients and gradcheck (float64)
SMOOTH = {"acosh": [1.2, 1.7, 3.0], "logit": [0.2, 0.5, 0.7], "erfinv": [-0.6, 0.1, 0.5],
          "digamma": [0.4, 1.5, 7.0], "lgamma": [0.4, 1.5, 7.0], "sinc": [-0.7, 0.3, 1.2]}


def _values(tensor):
    return np.array(tensor.detach().tolist(), dtype=np.float64)


def _close(ours, theirs, dtype):
    """Values equal to the precision of ``dtype`` (the libraries' exp, sin, ... may differ in
    the last bits), with nan where PyTorch has nan and infinities of the same sign."""
    a, b = _values(ours), _values(theirs)
    assert a.shape == b.shape
    assert (np.isnan(a) == np.isnan(b)).all(), (a, b)
    rtol = 1e-12 if dtype == "float64" else 2e-6 if dtype == "float32" else 2e-3
    np.testing.assert_allclose(a, b, rtol=rtol, atol=0, equal_nan=True)


def _saved(node):
    return sorted(name[len("_saved_"):] for name in dir(node) if name.startswith("_saved_")
                  and name not in ("_saved_tensors", "_saved_versions", "_saved_names")
                  and not callable(getattr(type(node), name, None)))


def _edges(node):
    return [None if n is None else n.name() for n, _ in node.next_functions]


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_unary_values(torch, name, dtype):
    values = UNARY[name]
    ours = getattr(minigrad, name)(minigrad.tensor(values, dtype=getattr(minigrad, dtype)))
    theirs = getattr(torch, name)(torch.tensor(values, dtype=getattr(torch, dtype)))
    assert str(ours.dtype) == str(theirs.dtype)
    _close(ours, theirs, dtype)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_unary_of_integers_and_bools_gives_float32(torch, name, dtype):
    values = [0, 1, 2, 3] if dtype == "int64" else [True, False]
    ours = getattr(minigrad, name)(minigrad.tensor(values, dtype=getattr(minigrad, dtype)))
    theirs = getattr(torch, name)(torch.tensor(values, dtype=getattr(torch, dtype)))
    assert str(ours.dtype) == str(theirs.dtype) == "torch.float32"
    _close(ours, theirs, "float32")


@pytest.mark.parametrize("name", sorted(NODES))
def test_unary_nodes_gradients_and_saved_values(torch, name):
    values = SMOOTH.get(name, [0.1, -0.4, 0.7])
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        y = x * 1
        out = getattr(lib, name)(y)
        node = out.grad_fn
        out.backward(lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64))
        results.append((node.name(), _saved(node), _edges(node), _values(x.grad)))
    (our_name, our_saved, our_edges, our_grad), (name_, saved, edges, grad) = results
    assert (our_name, our_saved, our_edges) == (name_, saved, edges) == (
        NODES[name][0], saved, ["MulBackward0"])
    assert our_saved == NODES[name][1]
    # (PyTorch's polygamma(1, x), digamma's slope, is good to about 1e-9; minigrad's to float64)
    np.testing.assert_allclose(our_grad, grad, rtol=1e-10 if name != "digamma" else 1e-8)


@pytest.mark.parametrize("name", sorted(NODES))
def test_unary_gradcheck_and_gradgradcheck(name):
    x = minigrad.tensor(SMOOTH.get(name, [0.1, -0.4, 0.7]), dtype=minigrad.float64, requires_grad=True)
    function = getattr(minigrad, name)
    assert gradcheck(function, (x,))
    if name not in ("deg2rad", "rad2deg"):       # (linear: nothing to check a second time)
        assert gradgradcheck(function, (x,))


@pytest.mark.parametrize("name", sorted(NODES))
def test_unary_saved_self_is_the_input(torch, name):
    x = minigrad.tensor(SMOOTH.get(name, [0.1, -0.4, 0.7]), requires_grad=True)
    out = getattr(minigrad, name)(x)
    if "self" in NODES[name][1]:
        assert out.grad_fn._saved_self is x
    if "result" in NODES[name][1]:
        assert out.grad_fn._saved_result.equal(out)


@pytest.mark.parametrize("name", ["asin", "atan", "sinh", "erfc", "exp2", "sinc", "lgamma", "logit",
                                  "arccos", "deg2rad"])
def test_unary_in_place_and_methods(torch, name):
    results = []
    for lib in (minigrad, torch):
        leaf = lib.tensor([0.2, 0.4, 0.6], requires_grad=True)
        y = leaf * 1
        getattr(y, name + "_")()
        method = getattr(leaf, name)()
        y.sum().backward()
        results.append((_values(y), y.grad_fn.name(), y._version, _values(leaf.grad), _values(method)))
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            getattr(leaf, name + "_")()
    ours, theirs = results
    assert ours[1:3] == theirs[1:3]
    for a, b in ((ours[0], theirs[0]), (ours[3], theirs[3]), (ours[4], theirs[4])):
        np.testing.assert_allclose(a, b, rtol=2e-6)


def test_in_place_of_an_integer_tensor_refuses_a_float_result(torch):
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                               "output type Long"):
            lib.tensor([1, 2]).asin_()


def test_functions_written_in_place_exist_where_torch_has_them(torch):
    for name in ("asin_", "arccos_", "sinh_", "deg2rad_", "erfc_", "sinc_", "exp2_", "logit_", "xlogy_"):
        assert hasattr(minigrad, name) and hasattr(torch, name)
    for name in ("lgamma_", "erfinv_", "addcmul_", "lerp_"):
        assert not hasattr(torch, name) and not hasattr(minigrad, name)


def test_logit_with_eps(torch):
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([0.0, 0.05, 0.5, 0.97, 1.0, 2.0], dtype=lib.float64, requires_grad=True)
        out = lib.logit(x, eps=0.1)
        out.sum().backward()
        results.append((_values(out), _values(x.grad), out.grad_fn._saved_eps))
        x.grad = None
        lib.logit(x).sum().backward()
        results.append(_values(x.grad))
    np.testing.assert_allclose(results[0][0], results[2][0], rtol=1e-12)
    np.testing.assert_allclose(results[0][1], results[2][1], rtol=1e-12)
    assert results[0][2] == results[2][2] == 0.1
    np.testing.assert_allclose(results[1], results[3], rtol=1e-12)
    assert minigrad.logit(minigrad.tensor([0.5], requires_grad=True)).grad_fn._saved_eps is None


@pytest.mark.parametrize("n", [1, 2, 3])
def test_polygamma(torch, n):
    values = [0.3, 1.0, 2.5, 10.0, -1.5, 100.0]
    ours = minigrad.polygamma(n, minigrad.tensor(values, dtype=minigrad.float64))
    theirs = torch.polygamma(n, torch.tensor(values, dtype=torch.float64))
    # (PyTorch's series is good to about 1e-11 here; minigrad's to float64)
    np.testing.assert_allclose(_values(ours), _values(theirs), rtol=1e-9)
    x = minigrad.tensor([0.4, 2.0], dtype=minigrad.float64, requires_grad=True)
    out = x.polygamma(n)
    assert out.grad_fn.name() == "PolygammaBackward0" and out.grad_fn._saved_n == n
    assert gradcheck(lambda t: minigrad.polygamma(n, t), (x,))


@pytest.mark.parametrize("grads", [(True, True), (True, False), (False, True)])
def test_heaviside_node_has_edges_only_to_inputs_requiring_grad(torch, grads):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 0.0, -1.0], requires_grad=grads[0])
        values = L.tensor([0.5, 0.5, 0.5], requires_grad=grads[1])
        node = L.heaviside(x, values).grad_fn
        seen.append([(n.name().split("::")[-1], nr) for n, nr in node.next_functions])
    assert seen[0] == seen[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["log", "log2", "log10"])
def test_logarithms_of_negative_numbers_give_nans_without_sign(torch, name, dtype):
    """PyTorch's NaN for a number outside the domain has its sign bit clear (copysign shows it)."""
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([-2.0, -0.5, 1.0, -7.0] * 5, dtype=getattr(L, dtype))
        seen.append(L.copysign(L.ones(()), getattr(L, name)(x)).tolist())
    assert seen[0] == seen[1]


def test_trigamma_of_float32_near_its_poles(torch):
    """polygamma(1, x) of float32 works in float32, as PyTorch's kernel: at a pole sin(pi * x) is
    not 0 in float32, and its size sets the (finite) result."""
    values = [-1.0, -2.0, -0.5, 0.0, 0.25, 1.0, 2.5, -3.7, 7.0]
    ours = minigrad.polygamma(1, minigrad.tensor(values)).numpy()
    theirs = torch.polygamma(1, torch.tensor(values)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    assert minigrad.polygamma(1, minigrad.tensor([-1, 3])).tolist() == torch.polygamma(1, torch.tensor([-1, 3])).tolist()


# --- two inputs -------------------------------------------------------------------------------

BINARY = {
    "hypot": ("HypotBackward0", ["other", "result", "self"]),
    "logaddexp": ("LogaddexpBackward0", ["other", "self"]),
    "logaddexp2": ("Logaddexp2Backward0", ["other", "self"]),
    "xlogy": ("XlogyBackward0", ["other", "self"]),
    "copysign": ("CopysignBackward0", ["result", "self"]),
    "fmax": ("FmaxBackward0", ["other", "self"]),
    "fmin": ("FminBackward0", ["other", "self"]),
}
A = [0.0, -0.0, 1.5, -2.0, 3.0, 0.0, NAN, INF, -INF, 1e30, 2.0]
B = [0.0, 2.0, -0.0, 0.0, 3.0, NAN, 1.0, 1.0, 2.0, 1e30, NAN]


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binary_values(torch, name, dtype):
    ours = getattr(minigrad, name)(minigrad.tensor(A, dtype=getattr(minigrad, dtype)),
                                   minigrad.tensor(B, dtype=getattr(minigrad, dtype)))
    theirs = getattr(torch, name)(torch.tensor(A, dtype=getattr(torch, dtype)),
                                  torch.tensor(B, dtype=getattr(torch, dtype)))
    assert str(ours.dtype) == str(theirs.dtype)
    _close(ours, theirs, dtype)
    signs = lambda t: np.signbit(_values(t))      # noqa: E731 (copysign, fmax of -0.0 ...)
    if name in ("copysign",):
        assert (signs(ours) == signs(theirs)).all()


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_nodes_gradients_and_checks(torch, name):
    a, b = [0.3, -1.2, 2.0, 0.7], [1.1, 0.5, 2.0, -0.4]
    if name == "xlogy":
        b = [1.1, 0.5, 2.0, 0.4]
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(a, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(b, dtype=lib.float64, requires_grad=True)
        out = getattr(lib, name)(x * 1, y)
        out.backward(lib.tensor([1.0, -2.0, 0.5, 3.0], dtype=lib.float64))
        results.append((out.grad_fn.name(), _saved(out.grad_fn), _edges(out.grad_fn),
                        _values(x.grad), _values(y.grad), _values(out)))
    ours, theirs = results
    assert ours[:3] == theirs[:3] and ours[:2] == BINARY[name]
    for i in (3, 4, 5):
        np.testing.assert_allclose(ours[i], theirs[i], rtol=1e-12)
    b[2] = 2.5                # (no tie, where fmax and fmin have no derivative)
    x = minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True)
    y = minigrad.tensor(b, dtype=minigrad.float64, requires_grad=True)
    function = getattr(minigrad, name)
    assert gradcheck(function, (x, y))
    if name not in ("fmax", "fmin", "copysign"):      # (piecewise linear: nothing more to check)
        assert gradgradcheck(function, (x, y))


def test_binary_with_numbers_and_integers(torch):
    programs = [
        lambda lib: lib.xlogy(lib.tensor([0.0, 2.0, 3.0], requires_grad=True), 3),
        lambda lib: lib.xlogy(2, lib.tensor([0.5, 2.0, 3.0], requires_grad=True)),
        lambda lib: lib.xlogy(lib.tensor([0, 1, 2]), lib.tensor([0, 1, 2])),
        lambda lib: lib.xlogy(lib.tensor([0.0, 0.0, 1.0]), lib.tensor([0.0, NAN, 0.0])),
        lambda lib: lib.copysign(lib.tensor([1.0, -2.0], requires_grad=True), -1),
        lambda lib: lib.copysign(lib.tensor([1, -2]), lib.tensor([-1, 2])),
        lambda lib: lib.fmax(lib.tensor([1, 5]), lib.tensor([2.0, NAN])),
        lambda lib: lib.heaviside(lib.tensor([-1.0, 0.0, 2.0]), lib.tensor([0.5])),
        lambda lib: lib.heaviside(lib.tensor([-1, 0, 2]), lib.tensor([7])),
    ]
    for program in programs:
        ours, theirs = program(minigrad), program(torch)
        assert str(ours.dtype) == str(theirs.dtype)
        _close(ours, theirs, "float32")
        assert (ours.grad_fn is None) == (theirs.grad_fn is None)
        if ours.grad_fn is not None:
            assert (ours.grad_fn.name(), _saved(ours.grad_fn)) == (theirs.grad_fn.name(), _saved(theirs.grad_fn))


def _message(lib, program):
    with pytest.raises(Exception) as caught:
        program(lib)
    return type(caught.value).__name__, str(caught.value).split("\nminigrad hint:")[0]


@pytest.mark.parametrize("program", [
    lambda lib: lib.hypot(lib.tensor([1.0]), 2.0),
    lambda lib: lib.fmax(lib.tensor([1.0]), 2),
    lambda lib: lib.logaddexp(lib.tensor([1.0]), 2.0),
    lambda lib: lib.hypot(lib.tensor([1, 2]), lib.tensor([1, 2])),
    lambda lib: lib.logaddexp(lib.tensor([1, 2]), lib.tensor([1, 2])),
    lambda lib: lib.heaviside(lib.tensor([1, 2]), lib.tensor([1.0])),
    lambda lib: lib.heaviside(lib.tensor([1.0]), 0.5),
    lambda lib: lib.heaviside(lib.tensor([1.0], requires_grad=True), lib.tensor([0.5])).sum().backward(),
    lambda lib: lib.hypot(lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.0, 3.0])),
    lambda lib: lib.lerp(lib.tensor([1.0]), lib.tensor([1.0], dtype=lib.float64), 0.5),
    lambda lib: lib.lerp(lib.tensor([1.0]), lib.tensor([1.0]), lib.tensor([1.0], dtype=lib.float64)),
    lambda lib: lib.lerp(lib.tensor([1, 2]), lib.tensor([1, 2]), 0.5),
    lambda lib: lib.addcdiv(lib.tensor([1, 2]), lib.tensor([1, 2]), lib.tensor([1, 2])),
    lambda lib: lib.addcmul(lib.tensor([1.0]), lib.tensor([1.0]), lib.tensor([1.0]), 2),
    lambda lib: lib.addcmul(lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.0, 3.0])),
    lambda lib: lib.positive(lib.tensor([True])),
    lambda lib: lib.tensor([1.0]).addcmul(lib.tensor([1.0]), lib.tensor([1.0]), 2),
    lambda lib: lib.tensor([1.0]).addcdiv_(lib.tensor([1.0]), lib.tensor([1.0]), 2),
    lambda lib: lib.ones(2).addmv(lib.ones(2, 3), lib.ones(3), 2),
    lambda lib: lib.tensor([1.0]).float_power_(2),
    lambda lib: lib.asin([0.5]),
    lambda lib: lib.lerp(lib.ones(2), lib.ones(2), lib.ones(3)),
    lambda lib: lib.lerp(lib.ones(2), lib.ones(3), 0.5),
    lambda lib: lib.logit(lib.ones(2), eps="a"),
    lambda lib: lib.addcdiv(lib.ones(2), lib.ones(2), lib.ones(2), value=lib.ones(1)),
    lambda lib: lib.ones(2).gt_(lib.ones(3, 2)),
    lambda lib: lib.ones(2, dtype=lib.int64).addcmul_(lib.ones(2), lib.ones(2)),
    lambda lib: lib.ones(2).lerp_(lib.ones(2, dtype=lib.float64), 0.5),
], ids=lambda program: "")
def test_errors_are_pytorch_s(torch, program):
    assert _message(minigrad, program) == _message(torch, program)


@pytest.mark.parametrize("program", [
    lambda lib: lib.xlogy(lib.ones(2), "a"),
    lambda lib: lib.float_power(lib.ones(2), "a"),
], ids=lambda program: "")
def test_invalid_combinations_first_line(torch, program):
    """(PyTorch then lists its signatures; minigrad gives the first line.)"""
    ours, theirs = _message(minigrad, program), _message(torch, program)
    assert ours[0] == theirs[0] and ours[1].split("\n")[0] == theirs[1].split("\n")[0]


def test_float_power_is_computed_in_float64(torch):
    programs = [
        lambda lib: lib.float_power(lib.tensor([1.5, 2.0], requires_grad=True), 2),
        lambda lib: lib.float_power(lib.tensor([1.5, 2.0], requires_grad=True),
                                    lib.tensor([0.5, 3.0], requires_grad=True)),
        lambda lib: lib.float_power(2, lib.tensor([0.5, 3.0], requires_grad=True)),
        lambda lib: lib.float_power(lib.tensor([1, 2]), 2.5),
        lambda lib: lib.tensor([1.5, 2.0], dtype=lib.float64).float_power_(2),
    ]
    for program in programs:
        ours, theirs = program(minigrad), program(torch)
        assert str(ours.dtype) == str(theirs.dtype) == "torch.float64"
        _close(ours, theirs, "float64")
        if theirs.grad_fn is not None:
            assert ours.grad_fn.name() == theirs.grad_fn.name()
            assert _edges(ours.grad_fn) == _edges(theirs.grad_fn)


# --- addcmul, addcdiv, lerp: what optimisers use ---------------------------------------------

@pytest.mark.parametrize("name, node, saved", [
    ("addcmul", "AddcmulBackward0", ["tensor1", "tensor2", "value"]),
    ("addcdiv", "AddcdivBackward0", ["tensor1", "tensor2", "value"]),
])
@pytest.mark.parametrize("value", [1, -0.5])
def test_addcmul_addcdiv(torch, name, node, saved, value):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(shape) for shape in ((3, 1), (1, 4), (3, 4))]
    arrays[2] += 3.0          # (away from 0: it divides)
    results = []
    for lib in (minigrad, torch):
        tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
        out = getattr(lib, name)(*tensors, value=value)
        out.backward(lib.ones(3, 4))
        results.append((out.grad_fn.name(), _saved(out.grad_fn), out.grad_fn._saved_value, _values(out),
                        [_values(t.grad) for t in tensors], tuple(out.shape), out.stride()))
    ours, theirs = results
    assert ours[:3] == theirs[:3] and ours[:2] == (node, saved)
    assert ours[5:] == theirs[5:]
    np.testing.assert_allclose(ours[3], theirs[3], rtol=2e-6)
    for a, b in zip(ours[4], theirs[4]):
        np.testing.assert_allclose(a, b, rtol=2e-6)
    tensors = [minigrad.tensor(a, requires_grad=True, dtype=minigrad.float64) for a in arrays]
    function = lambda *t: getattr(minigrad, name)(*t, value=value)      # noqa: E731
    assert gradcheck(function, tensors) and gradgradcheck(function, tensors)


@pytest.mark.parametrize("weight", [0.25, 0.75, "tensor"])
def test_lerp(torch, weight):
    start, end, w = [0.5, -1.0, 2.0, 0.0], [1.5, 3.0, -2.0, 1e-3], [0.1, 0.5, 0.9, 1.0]
    results = []
    for lib in (minigrad, torch):
        s = lib.tensor(start, requires_grad=True)
        e = lib.tensor(end, requires_grad=True)
        wt = lib.tensor(w, requires_grad=True) if weight == "tensor" else weight
        out = lib.lerp(s, e, wt)
        out.sum().backward()
        grads = [_values(s.grad), _values(e.grad)] + ([_values(wt.grad)] if weight == "tensor" else [])
        results.append((out.grad_fn.name(), _saved(out.grad_fn), _values(out).tolist(), grads))
    ours, theirs = results
    assert ours[:3] == theirs[:3]            # exactly: lerp is computed from the nearer end
    for a, b in zip(ours[3], theirs[3]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    tensors = [minigrad.tensor(v, dtype=minigrad.float64, requires_grad=True) for v in (start, end, w)]
    if weight == "tensor":
        assert gradcheck(minigrad.lerp, tensors) and gradgradcheck(minigrad.lerp, tensors)
    else:
        assert gradcheck(lambda a, b: minigrad.lerp(a, b, weight), tensors[:2])


def test_optimiser_style_in_place_updates(torch):
    """Adam's and an exponential moving average's in-place steps, as optimisers write them."""
    results = []
    for lib in (minigrad, torch):
        p = lib.tensor([0.5, -1.0, 2.0])
        m = lib.tensor([0.1, 0.2, -0.3])
        v = lib.tensor([0.01, 0.04, 0.09])
        with lib.no_grad():
            v.mul_(0.999).addcmul_(m, m, value=0.001)
            p.addcdiv_(m, v.sqrt().add_(1e-8), value=-0.01)
            avg = lib.zeros(3)
            avg.lerp_(p, 0.1)
            avg.lerp_(p, lib.full((3,), 0.2))
        results.append((_values(p), _values(v), _values(avg), p._version, avg._version))
    ours, theirs = results
    assert ours[3:] == theirs[3:]
    for a, b in zip(ours[:3], theirs[:3]):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_in_place_of_two_input_functions_are_recorded(torch):
    results = []
    for lib in (minigrad, torch):
        leaf = lib.tensor([0.5, 1.5, 2.5], requires_grad=True)
        other = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        names = []
        for name, args, kwargs in (("addcmul_", (other, other), {"value": 2}),
                                   ("addcdiv_", (other, other), {}), ("lerp_", (other, 0.3), {}),
                                   ("hypot_", (other,), {}), ("xlogy_", (other,), {}),
                                   ("copysign_", (other,), {}), ("true_divide_", (other,), {})):
            y = leaf * 1
            getattr(y, name)(*args, **kwargs)
            y.sum().backward()
            names.append((y.grad_fn.name(), _values(leaf.grad).tolist(), _values(other.grad).tolist()))
            leaf.grad = other.grad = None
        results.append(names)
    ours, theirs = results
    for (our_name, our_leaf, our_other), (name, leaf, other) in zip(ours, theirs):
        assert our_name == name
        np.testing.assert_allclose(our_leaf, leaf, rtol=1e-6)
        np.testing.assert_allclose(our_other, other, rtol=1e-6)


# --- names: positive, signbit, true_divide, greater, ..., in-place comparisons -----------------

def test_aliases_and_small_functions(torch):
    x = minigrad.tensor([1.0, -2.0], requires_grad=True)
    assert minigrad.positive(x) is x and x.positive() is x
    for name in ("greater", "greater_equal", "less", "less_equal", "not_equal", "eq", "ne", "lt",
                 "le", "gt", "ge"):
        ours = getattr(minigrad, name)(minigrad.tensor([1.0, 2.0, 3.0]), 2)
        theirs = getattr(torch, name)(torch.tensor([1.0, 2.0, 3.0]), 2)
        assert ours.tolist() == theirs.tolist() and str(ours.dtype) == "torch.bool"
        assert getattr(minigrad.tensor([1.0]), name)(1.0).tolist() == getattr(torch.tensor([1.0]), name)(1.0).tolist()
    values = [-0.0, 0.0, -1.0, NAN, -INF]
    assert minigrad.signbit(minigrad.tensor(values)).tolist() == torch.signbit(torch.tensor(values)).tolist()
    assert minigrad.tensor([-1, 2]).signbit().tolist() == [True, False]
    out = minigrad.true_divide(minigrad.tensor([1, 2]), 4)
    assert out.tolist() == [0.25, 0.5] and str(out.dtype) == "torch.float32"
    y = minigrad.tensor([1.0, 2.0])
    y.multiply_(2).subtract_(1).divide_(3)
    assert y.tolist() == pytest.approx([1 / 3, 1.0])


@pytest.mark.parametrize("name", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "less_equal_"])
def test_in_place_comparisons(torch, name):
    results = []
    for lib in (minigrad, torch):
        leaf = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = leaf * 1
        getattr(y, name)(2.0)
        z = leaf * 1
        getattr(z, name)(lib.tensor([3.0, 2.0, 1.0]))
        (y + z).sum().backward()
        ints = lib.tensor([1, 2, 3])
        getattr(ints, name)(2)
        results.append((y.tolist(), y.grad_fn.name(), z.tolist(), z.grad_fn.name(), leaf.grad.tolist(),
                        ints.tolist(), str(ints.dtype).split(".")[-1], y._version))
    assert results[0] == results[1]


@pytest.mark.parametrize("name", ["asinh_", "acosh_", "atanh_", "arctanh_"])
def test_inverse_hyperbolic_in_place_has_no_derivative(torch, name):
    results = []
    for lib in (minigrad, torch):
        leaf = lib.tensor([1.2, 1.5], requires_grad=True) if "cosh" in name else lib.tensor(
            [0.2, 0.5], requires_grad=True)
        y = leaf * 1
        getattr(y, name)()
        node = y.grad_fn.name()
        results.append((node, _values(y).round(6).tolist(), _message(lib, lambda lib: y.sum().backward())))
    assert results[0] == results[1]


def test_polygamma_in_place(torch):
    results = []
    for lib in (minigrad, torch):
        leaf = lib.tensor([0.2, 1.5], dtype=lib.float64, requires_grad=True)
        y = leaf * 1
        y.polygamma_(1)
        y.sum().backward()
        results.append((y.grad_fn.name(), _values(y), _values(leaf.grad)))
    assert results[0][0] == results[1][0] == "PolygammaBackward1"
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-9)
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-9)


# --- addmv, addr ------------------------------------------------------------------------------

@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2.0), (0, -1.0)])
def test_addmv_and_addr(torch, beta, alpha):
    rng = np.random.default_rng(1)
    arrays = {"vector": rng.standard_normal(2), "mat": rng.standard_normal((2, 3)),
              "vec": rng.standard_normal(3), "matrix": rng.standard_normal((2, 3))}
    results = []
    for lib in (minigrad, torch):
        t = {name: lib.tensor(a, requires_grad=True) for name, a in arrays.items()}
        mv = lib.addmv(t["vector"], t["mat"], t["vec"], beta=beta, alpha=alpha)
        outer = t["matrix"].addr(t["vector"], t["vec"], beta=beta, alpha=alpha)
        nodes = [(out.grad_fn.name(), _saved(out.grad_fn), out.grad_fn._saved_alpha, out.grad_fn._saved_beta,
                  _edges(out.grad_fn)) for out in (mv, outer)]
        (mv.sum() + (outer * outer).sum()).backward()
        results.append((nodes, _values(mv), _values(outer), [_values(t[name].grad) for name in arrays]))
    ours, theirs = results
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:3] + tuple(ours[3]), theirs[1:3] + tuple(theirs[3])):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    t = [minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrays.values()]
    addmv = lambda x, m, v: minigrad.addmv(x, m, v, beta=beta, alpha=alpha)       # noqa: E731
    addr = lambda x, a, b: minigrad.addr(x, a, b, beta=beta, alpha=alpha)         # noqa: E731
    assert gradcheck(addmv, t[:3]) and gradgradcheck(addmv, t[:3])
    assert gradcheck(addr, (t[3], t[0], t[2])) and gradgradcheck(addr, (t[3], t[0], t[2]))


def test_addmv_and_addr_ignore_input_with_beta_0(torch):
    for lib in (minigrad, torch):
        nan = lib.tensor(NAN)
        assert not lib.addmv(nan, lib.ones(2, 3), lib.ones(3), beta=0).isnan().any()
        assert not lib.addr(nan, lib.ones(2), lib.ones(3), beta=0).isnan().any()


@pytest.mark.parametrize("program", [
    lambda lib: lib.addmv(lib.ones(2), lib.ones(2, 3), lib.ones(4)),
    lambda lib: lib.addmv(lib.ones(3), lib.ones(2, 3), lib.ones(3)),
    lambda lib: lib.addmv(lib.ones(2), lib.ones(2, 3, dtype=lib.float64), lib.ones(3)),
    lambda lib: lib.addmv(lib.ones(2), lib.ones(3), lib.ones(3)),
    lambda lib: lib.addmv(1.0, lib.ones(2, 3), lib.ones(3)),
    lambda lib: lib.addr(lib.ones(2, 3), lib.ones(3), lib.ones(2)),
    lambda lib: lib.addr(lib.ones(2, 3), lib.ones(2), lib.ones(2, 3)),
], ids=lambda program: "")
def test_addmv_and_addr_errors(torch, program):
    assert _message(minigrad, program) == _message(torch, program)


# --- forward mode -----------------------------------------------------------------------------

FORWARD = [
    *[(name, lambda lib, x, y, name=name: getattr(lib, name)(x)) for name in sorted(NODES)],
    *[(name, lambda lib, x, y, name=name: getattr(lib, name)(x, y)) for name in sorted(BINARY)],
    ("polygamma", lambda lib, x, y: lib.polygamma(2, x)),
    ("addcmul", lambda lib, x, y: lib.addcmul(x, y, x * 2, value=0.5)),
    ("addcdiv", lambda lib, x, y: lib.addcdiv(x, y, x + 2, value=-0.5)),
    ("lerp", lambda lib, x, y: lib.lerp(x, y, 0.3)),
    ("lerp tensor", lambda lib, x, y: lib.lerp(x, y, x)),
    ("addmv", lambda lib, x, y: lib.addmv(x, lib.outer(x, y), y, beta=0.5, alpha=2)),
    ("addr", lambda lib, x, y: lib.addr(lib.outer(y, x), x, y, beta=0.5, alpha=2)),
]


@pytest.mark.parametrize("name, program", FORWARD, ids=[name for name, _ in FORWARD])
def test_forward_mode(torch, name, program):
    primal = {"acosh": [1.2, 1.7, 3.0]}.get(name, [0.2, 0.5, 0.7])
    results = []
    for lib in (minigrad, torch):
        fwAD = lib.autograd.forward_ad
        with fwAD.dual_level():
            x = fwAD.make_dual(lib.tensor(primal, dtype=lib.float64),
                               lib.tensor([1.0, -0.5, 2.0], dtype=lib.float64))
            y = fwAD.make_dual(lib.tensor([1.1, 0.3, 0.9], dtype=lib.float64),
                               lib.tensor([0.5, 1.0, -1.0], dtype=lib.float64))
            out = program(lib, x, y)
            results.append((_values(fwAD.unpack_dual(out).primal), _values(fwAD.unpack_dual(out).tangent)))
    (p1, t1), (p2, t2) = results
    np.testing.assert_allclose(p1, p2, rtol=1e-9)
    np.testing.assert_allclose(t1, t2, rtol=1e-8)


@pytest.mark.parametrize("name", ["expit", "psi", "gammaln", "digamma", "erf", "erfc", "erfinv",
                                  "exp2", "expm1", "log1p", "logit", "sinc"])
def test_torch_special_names(torch, name):
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([0.2, 0.5, 0.7], dtype=lib.float64, requires_grad=True)
        out = getattr(lib.special, name)(x)
        results.append((out.grad_fn.name(), _values(out)))
    assert results[0][0] == results[1][0]
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12)
    for lib in (minigrad, torch):
        assert lib.special.xlogy(lib.tensor([0.0, 2.0]), lib.tensor([0.0, 3.0])).tolist() == pytest.approx(
            [0.0, 2 * math.log(3.0)])
        assert lib.special.polygamma(1, lib.tensor([1.0])).tolist() == pytest.approx([math.pi ** 2 / 6])


# --- second order: the graph of the gradient, as PyTorch records it ----------------------------

def _chain(node, depth=0):
    """A node's name and its next nodes', four levels deep."""
    if node is None or depth > 4:
        return None
    return (node.name(), tuple(_chain(next_node, depth + 1) for next_node, _ in node.next_functions))


SECOND_ORDER = {
    **{name: (lambda lib, x, y, name=name: getattr(lib, name)(x)) for name in sorted(NODES)},
    **{name: (lambda lib, x, y, name=name: getattr(lib, name)(x, y)) for name in sorted(BINARY)},
    "xlogy number other": lambda lib, x, y: lib.xlogy(x, 2.0),
    "xlogy number self": lambda lib, x, y: lib.xlogy(2.0, y),
    "addcmul": lambda lib, x, y: lib.addcmul(x, y, y, value=2),
    "addcdiv": lambda lib, x, y: lib.addcdiv(x, y, y, value=2),
    "lerp": lambda lib, x, y: lib.lerp(x, y, 0.3),
    "lerp tensor": lambda lib, x, y: lib.lerp(x, y, y),
    "polygamma": lambda lib, x, y: lib.polygamma(1, x),
    "addmv": lambda lib, x, y: lib.addmv(x, lib.outer(x, y), y, beta=2, alpha=3),
    "addr": lambda lib, x, y: lib.addr(lib.outer(x, y), x, y, beta=2, alpha=3),
    "float_power": lambda lib, x, y: lib.float_power(x, y),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order_graphs(torch, name):
    graphs = []
    for lib in (minigrad, torch):
        x = lib.tensor([0.3, 0.6] if name not in ("acosh",) else [1.3, 1.6], dtype=lib.float64,
                       requires_grad=True)
        y = lib.tensor([0.7, 1.2], dtype=lib.float64, requires_grad=True)
        out = SECOND_ORDER[name](lib, x, y)
        grads = lib.autograd.grad(out.sum(), (x, y), create_graph=True, allow_unused=True)
        graphs.append([None if g is None else _chain(g.grad_fn) for g in grads])
    assert graphs[0] == graphs[1]


LAYOUTS = [lambda lib: lib.tensor(0.5), lambda lib: lib.ones(0, 3),
           lambda lib: lib.full((2, 3, 1), 0.5).transpose(0, 1), lambda lib: lib.full((3, 4), 0.5)[:, ::2]]


@pytest.mark.parametrize("name", sorted(UNARY) + ["signbit"])
def test_results_are_laid_out_as_pytorch_s(torch, name):
    for make in LAYOUTS:
        ours, theirs = (getattr(lib, name)(make(lib)) for lib in (minigrad, torch))
        assert (tuple(ours.shape), ours.stride(), str(ours.dtype).split(".")[-1]) == (
            tuple(theirs.shape), theirs.stride(), str(theirs.dtype).split(".")[-1])


def test_two_input_results_are_laid_out_as_pytorch_s(torch):
    layouts = []
    for lib in (minigrad, torch):
        x, y = lib.full((2, 3), 0.5).t(), lib.full((3, 1), 0.7)
        outs = [getattr(lib, name)(x, y) for name in sorted(BINARY)] + [
            lib.addcmul(x, y, x), lib.addcdiv(y, x, x), lib.lerp(x, x * 2, 0.5), lib.polygamma(1, x)]
        layouts.append([(tuple(out.shape), out.stride()) for out in outs])
    assert layouts[0] == layouts[1]


NAMES = ("asin acos atan sinh cosh asinh acosh atanh arcsin arccos arctan arcsinh arccosh arctanh "
         "addcmul addcdiv addmv addr lerp hypot logaddexp logaddexp2 sinc erfc erfinv exp2 xlogy "
         "copysign float_power fmax fmin logit lgamma digamma polygamma deg2rad rad2deg signbit "
         "heaviside positive true_divide multiply subtract divide greater greater_equal less "
         "less_equal not_equal eq ne gt ge lt le").split()


@pytest.mark.parametrize("name", NAMES)
def test_same_functions_methods_and_in_place_forms_as_torch(torch, name):
    for owner in ("", "Tensor"):
        for suffix in ("", "_"):
            ours = getattr(minigrad.Tensor if owner else minigrad, name + suffix, None)
            theirs = getattr(torch.Tensor if owner else torch, name + suffix, None)
            assert (ours is None) == (theirs is None), f"{owner}.{name}{suffix}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("weight", [0.3, 0.9, "tensor"])
def test_lerp_to_the_last_bit(torch, dtype, weight):
    """PyTorch's lerp multiplies and adds in one rounding (a fused multiply-add)."""
    rng = np.random.default_rng(3)
    start, end, w = (rng.normal(size=2000).astype(dtype) for _ in range(3))
    ours, theirs = (lib.lerp(lib.tensor(start), lib.tensor(end), lib.tensor(w) if weight == "tensor" else weight)
                    for lib in (minigrad, torch))
    assert (ours.numpy() == theirs.numpy()).all()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name, value", [("addcmul", 1), ("addcmul", -0.3), ("addcdiv", 1), ("addcdiv", 0.3)])
def test_addcmul_addcdiv_to_the_last_bit(torch, dtype, name, value):
    """addcmul is one fused multiply-add in PyTorch: (value * tensor1) * tensor2 + input."""
    rng = np.random.default_rng(4)
    arrays = [rng.normal(size=shape).astype(dtype) for shape in ((50, 1), (40,), (50, 40))]
    ours, theirs = (getattr(lib, name)(*(lib.tensor(a) for a in arrays), value=value)
                    for lib in (minigrad, torch))
    assert (ours.numpy() == theirs.numpy()).all()
