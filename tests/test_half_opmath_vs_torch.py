"""float16 tensors with a Python number, bit for bit as PyTorch computes them.

PyTorch computes reduced-precision tensors with a number in float32, rounding once at the end:
``x * 0.7`` is float16(float32(x) * float32(0.7)), and so are its division, in-place forms,
gradients and the kernels that scale by a number (addcmul, lerp, leaky_relu, softplus,
dropout's scale...). Its +, -, add's alpha, pow, fmod and remainder round the number to
float16 first. Here every finite float16 number meets each operation, and the results' bits
and dtypes are compared with PyTorch's; then gradients, and the NaNs that functions give for
numbers outside their domain (whose sign bits PyTorch's kernels set in their own ways).
"""
import numpy as np
import pytest

import minigrad
from minigrad import _vectorized_loop

from conftest import import_torch  # noqa: F401  (tests/ is on sys.path under pytest)

_EVERY = np.arange(-32768, 32768).astype(np.int16).view(np.float16)
_FINITE = _EVERY[np.isfinite(_EVERY)]
_N = _FINITE.size // 64 * 64          # 63,488 numbers: two threads' pieces in PyTorch
_RNG = np.random.default_rng(10)
X = _FINITE[:_N]
Y, Z = _RNG.permutation(X), _RNG.permutation(X)
NUMBERS = [0.7, 0.3, 1 / 3, 1.1, -2.5, 1e-3, 3.14159, 1e-8, 0.1, 0.5, 1 / 0.7, 1.0001, -0.9]


def _bits(tensor):
    array = tensor.detach().numpy()
    return array.view({2: np.int16, 4: np.int32, 8: np.int64}[array.itemsize])


def assert_same(mine, theirs):
    """The same dtype, shape and bits (NaNs and signed zeros included)."""
    assert str(mine.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    assert tuple(mine.shape) == tuple(theirs.shape)
    different = np.flatnonzero(_bits(mine).reshape(-1) != _bits(theirs).reshape(-1))
    assert different.size == 0, (f"{different.size} differ, e.g. {mine.detach().numpy().reshape(-1)[different[:4]]} "
                                 f"vs PyTorch's {theirs.detach().numpy().reshape(-1)[different[:4]]}")


def _inputs(L, requires_grad=False):
    return [L.from_numpy(a.copy()).requires_grad_(requires_grad) for a in (X, Y, Z)]


F = lambda L: L.nn.functional      # noqa: E731

# each: (L, x, y, z, s) -> a tensor, for L minigrad or torch
WITH_A_NUMBER = {
    "x * s": lambda L, x, y, z, s: x * s,
    "s * x": lambda L, x, y, z, s: s * x,
    "x / s": lambda L, x, y, z, s: x / s,
    "s / x": lambda L, x, y, z, s: s / x,
    "torch.mul": lambda L, x, y, z, s: L.mul(x, s),
    "torch.mul(s, x)": lambda L, x, y, z, s: L.mul(s, x),         # (s first: rounded to float16)
    "torch.div": lambda L, x, y, z, s: L.div(x, s),
    "true_divide": lambda L, x, y, z, s: L.true_divide(x, s),
    "mul_": lambda L, x, y, z, s: x.clone().mul_(s),
    "div_": lambda L, x, y, z, s: x.clone().div_(s),
    "x *= s": lambda L, x, y, z, s: _imul(x.clone(), s),
    "mul_ by a numpy number": lambda L, x, y, z, s: x.clone().mul_(np.float64(s)),
    "add_ a numpy number": lambda L, x, y, z, s: x.clone().add_(np.float64(s)),
    "floor division": lambda L, x, y, z, s: L.div(x, s, rounding_mode="floor"),
    "trunc division": lambda L, x, y, z, s: L.div(x, s, rounding_mode="trunc"),
    "x // s": lambda L, x, y, z, s: x // s,
    "x * 0-d float32": lambda L, x, y, z, s: x * L.tensor(s),
    "x * 0-d float64": lambda L, x, y, z, s: x * L.tensor(s, dtype=L.float64),
    "x / 0-d float32": lambda L, x, y, z, s: x / L.tensor(s),
    "0-d float32 * x": lambda L, x, y, z, s: L.tensor(s) * x,  # (first: rounded to float16)
    "x.mul_(0-d float64)": lambda L, x, y, z, s: x.clone().mul_(L.tensor(s, dtype=L.float64)),
    "x + s": lambda L, x, y, z, s: x + s,
    "x - s": lambda L, x, y, z, s: x - s,
    "s - x": lambda L, x, y, z, s: s - x,
    "add alpha": lambda L, x, y, z, s: L.add(x, y, alpha=s),
    "sub alpha": lambda L, x, y, z, s: L.sub(x, y, alpha=s),
    "add_ alpha": lambda L, x, y, z, s: x.clone().add_(y, alpha=s),
    "sub_ alpha": lambda L, x, y, z, s: x.clone().sub_(y, alpha=s),
    "add a number, alpha": lambda L, x, y, z, s: L.add(x, 3.0, alpha=s),
    "rsub alpha": lambda L, x, y, z, s: L.rsub(x, y, alpha=s),
    "rsub a number, alpha": lambda L, x, y, z, s: L.rsub(x, 2.0, alpha=s),
    "fmod": lambda L, x, y, z, s: L.fmod(x, s),
    "remainder": lambda L, x, y, z, s: L.remainder(x, s),
    "addcmul": lambda L, x, y, z, s: L.addcmul(x, y, z, value=s),
    "addcdiv": lambda L, x, y, z, s: L.addcdiv(x, y, z, value=s),
    "addcmul_": lambda L, x, y, z, s: x.clone().addcmul_(y, z, value=s),
    "addcdiv_": lambda L, x, y, z, s: x.clone().addcdiv_(y, z, value=s),
    "lerp": lambda L, x, y, z, s: L.lerp(x, y, s),
    "lerp_": lambda L, x, y, z, s: x.clone().lerp_(y, s),
    "xlogy(x, s)": lambda L, x, y, z, s: L.xlogy(x, abs(s)),
    "xlogy(s, x)": lambda L, x, y, z, s: L.xlogy(s, x),
    "leaky_relu": lambda L, x, y, z, s: F(L).leaky_relu(x, s),
    "leaky_relu inplace": lambda L, x, y, z, s: F(L).leaky_relu(x.clone(), s, inplace=True),
    "softplus beta": lambda L, x, y, z, s: F(L).softplus(x, beta=s),
    "softplus threshold": lambda L, x, y, z, s: F(L).softplus(x, threshold=abs(s)),
    "rrelu eval": lambda L, x, y, z, s: F(L).rrelu(x, abs(s) / 2, abs(s), training=False),
    "hardtanh": lambda L, x, y, z, s: F(L).hardtanh(x, -abs(s), abs(s)),
    "threshold": lambda L, x, y, z, s: F(L).threshold(x, s, -s),
    "clamp": lambda L, x, y, z, s: L.clamp(x, -abs(s), abs(s)),
    "clamp_min_": lambda L, x, y, z, s: x.clone().clamp_min_(s),
    "where(x > 0, x, s)": lambda L, x, y, z, s: L.where(x > 0, x, s),
    "where(x > 0, s, x)": lambda L, x, y, z, s: L.where(x > 0, s, x),
    "softshrink": lambda L, x, y, z, s: F(L).softshrink(x, abs(s)),
    "hardshrink": lambda L, x, y, z, s: F(L).hardshrink(x, abs(s)),
}


def _imul(x, s):
    x *= s
    return x


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("name", WITH_A_NUMBER)
def test_float16_with_a_number_as_torch(torch, name, number):
    function = WITH_A_NUMBER[name]
    with np.errstate(all="ignore"):
        assert_same(function(minigrad, *_inputs(minigrad), number), function(torch, *_inputs(torch), number))


# elu and celu on numbers but zeros (elu(-0.0) is -0.0 in PyTorch, 0.0 in minigrad: in every dtype)
_NONZERO = X[X != 0][:_N - 1024]


@pytest.mark.parametrize("alpha", [0.7, 1 / 3, 1.1, 2.5])
@pytest.mark.parametrize("name", ["elu", "celu"])
def test_float16_elu_and_celu_as_torch(torch, name, alpha):
    mine = getattr(minigrad.nn.functional, name)(minigrad.from_numpy(_NONZERO.copy()), alpha)
    assert_same(mine, getattr(torch.nn.functional, name)(torch.from_numpy(_NONZERO.copy()), alpha))


@pytest.mark.parametrize("p", [0.1, 0.3, 0.33, 0.5, 0.7, 0.9])
@pytest.mark.parametrize("name", ["dropout", "dropout_", "alpha_dropout", "feature_alpha_dropout",
                                  "dropout2d"])
def test_float16_dropout_scale_as_torch(torch, name, p):
    def run(L):
        L.manual_seed(0)
        x = L.from_numpy(X.copy())
        if name == "dropout_":
            return F(L).dropout(x.clone(), p, inplace=True)
        if name in ("feature_alpha_dropout", "dropout2d"):
            x = x.reshape(-1, 8, 8)
        if name in ("alpha_dropout", "feature_alpha_dropout"):
            return getattr(F(L), name)(x, p, True)
        return getattr(F(L), name)(x, p)
    with np.errstate(all="ignore"):
        assert_same(run(minigrad), run(torch))


def test_dropout_scale_of_p_03_is_pytorchs(torch):
    """The README's example: the kept numbers of a float16 dropout with p = 0.3 are 1.4287."""
    minigrad.manual_seed(0)
    out = minigrad.nn.functional.dropout(minigrad.ones(100, dtype=minigrad.float16), 0.3)
    assert set(out.tolist()) == {0.0, 1.4287109375}
    torch.manual_seed(0)
    assert set(torch.nn.functional.dropout(torch.ones(100, dtype=torch.float16), 0.3).tolist()) == set(out.tolist())


# --- gradients -----------------------------------------------------------------------------------

_SMALL = X[np.abs(X) < 1000]
_SMALL = _SMALL[:_SMALL.size // 64 * 64]
_GRAD = _RNG.permutation(_SMALL)

GRADIENTS = {
    "x * s": lambda L, x, y, s: x * s,
    "x / s": lambda L, x, y, s: x / s,
    "s / x": lambda L, x, y, s: s / x,
    "x * 0-d": lambda L, x, y, s: x * L.tensor(s),
    "mul_": lambda L, x, y, s: (x * 1).mul_(s),
    "div_": lambda L, x, y, s: (x * 1).div_(s),
    "add alpha": lambda L, x, y, s: L.add(x, y, alpha=s),
    "sub alpha": lambda L, x, y, s: L.sub(x, y, alpha=s),
    "addcmul": lambda L, x, y, s: L.addcmul(x, y, x, value=s),
    "addcdiv": lambda L, x, y, s: L.addcdiv(x, x, y, value=s),
    "lerp": lambda L, x, y, s: L.lerp(x, y, s),
    "leaky_relu": lambda L, x, y, s: F(L).leaky_relu(x, s),
    "softplus": lambda L, x, y, s: F(L).softplus(x, beta=abs(s)),
    "rrelu eval": lambda L, x, y, s: F(L).rrelu(x, abs(s) / 2, abs(s)),
    "hardtanh": lambda L, x, y, s: F(L).hardtanh(x, -abs(s), abs(s)),
    "threshold": lambda L, x, y, s: F(L).threshold(x, s, 0.0),
    "clamp": lambda L, x, y, s: L.clamp(x, -abs(s), abs(s)),
    "dropout": lambda L, x, y, s: (L.manual_seed(0), F(L).dropout(x, 0.3))[1],
}


@pytest.mark.parametrize("number", [0.7, 0.3, 1 / 3, -2.5, 1e-3, 0.1, 1 / 0.7])
@pytest.mark.parametrize("name", GRADIENTS)
def test_float16_gradients_as_torch(torch, name, number):
    def run(L):
        x, y = (L.from_numpy(a.copy()).requires_grad_() for a in (_SMALL, _RNG.permutation(_SMALL)))
        out = GRADIENTS[name](L, x, y, number)
        out.backward(L.from_numpy(_GRAD.copy()))
        return out, x.grad, y.grad
    rng_state = _RNG.bit_generator.state
    mine = run(minigrad)
    _RNG.bit_generator.state = rng_state          # (the same y for both)
    theirs = run(torch)
    for a, b in zip(mine, theirs):
        assert (a is None) == (b is None)
        if a is not None:
            assert_same(a, b)


def test_second_order_gradient_of_a_float16_product_by_a_number(torch):
    def run(L):
        x = L.from_numpy(_SMALL[:100].copy()).requires_grad_()
        (g,) = L.autograd.grad((x * x * 0.7).sum(), x, create_graph=True)
        (gg,) = L.autograd.grad((g * 0.3).sum(), x)
        return g, gg
    for a, b in zip(run(minigrad), run(torch)):
        assert_same(a, b)


# --- where the rule applies, and result dtypes -----------------------------------------------------

@pytest.mark.parametrize("case", [
    lambda L: L.tensor(0.7, dtype=L.float16) * L.tensor(0.3),          # two 0-d tensors: float32
    lambda L: L.tensor([0.7], dtype=L.float16) * L.tensor([0.3]),      # dims on both: float32
    lambda L: L.tensor([0.7, 1.9], dtype=L.float16) * L.tensor(0.3, dtype=L.float64),
    lambda L: L.tensor([0.7, 1.9], dtype=L.float16) * L.tensor(3),     # an integer 0-d tensor
    lambda L: L.tensor([3, 5]) * L.tensor(0.3, dtype=L.float16),       # integers by float16
    lambda L: L.tensor([0.7, 1.9], dtype=L.float16) * 100001,           # an integer past float16
    lambda L: L.tensor([0.7, 1.9], dtype=L.float16) * True,
    lambda L: L.tensor([[0.7, 1.9], [3.3, -4.1]], dtype=L.float16).t() * 0.7,     # transposed
    lambda L: L.tensor([[0.7, 1.9], [3.3, -4.1]], dtype=L.float16).t() / 0.7,
    lambda L: L.tensor([[0.7], [1.9]], dtype=L.float16) + 0.3 * L.ones(2, 3, dtype=L.float16),
    lambda L: L.add(L.tensor([[0.7], [1.9]], dtype=L.float16).expand(2, 40), L.ones(2, 40, dtype=L.float16),
                    alpha=0.3),
    lambda L: L.add(L.ones(2, 40, dtype=L.float16), L.tensor([[0.7], [1.9]], dtype=L.float16), alpha=0.3),
])
def test_result_dtypes_and_values_as_torch(torch, case):
    assert_same(case(minigrad), case(torch))


def _lengths(torch):
    """Lengths around PyTorch's vector steps (32 float16 numbers), past GRAIN_SIZE only when both
    split the work among as many threads."""
    lengths = [1, 5, 31, 32, 33, 63, 64, 100, 1000]
    if torch.get_num_threads() == _vectorized_loop.THREADS:
        lengths += [40001, 70003]
    return lengths


@pytest.mark.parametrize("name", ["add", "sub", "add_", "rsub"])
def test_float16_alpha_rounds_as_torch_at_every_length(torch, name):
    """add's alpha is rounded to float16; whole vectors fuse in float32, the rest round twice."""
    for n in _lengths(torch):
        a, b = _RNG.standard_normal((2, n)).astype(np.float16) * 10

        def run(L):
            x, y = L.from_numpy(a.copy()), L.from_numpy(b.copy())
            if name == "add_":
                return x.add_(y, alpha=0.7)
            return getattr(L, name)(x, y, alpha=0.7)
        assert_same(run(minigrad), run(torch))


# --- NaNs outside a function's domain ------------------------------------------------------------

OUTSIDE = {
    "log": [-2.0, -np.inf], "log2": [-2.0], "log10": [-2.0], "sqrt": [-2.0, -np.inf],
    "log1p": [-2.0, -np.inf], "asin": [-2.0, 2.0, np.inf], "acos": [-2.0, 2.0, -np.inf],
    "acosh": [0.5, -2.0], "atanh": [-2.0, 2.0, -np.inf, np.inf], "logit": [-2.0, 2.0, -np.inf, np.inf],
    "erfinv": [-2.0, 2.0], "digamma": [-np.inf], "sin": [np.inf, -np.inf], "cos": [np.inf],
    "tan": [-np.inf], "rsqrt": [-2.0],
    "pow 0.5": [-2.0, -np.inf], "pow -0.5": [-2.0], "pow 1.5": [-2.0], "pow tensor": [-2.0],
    "rpow": [0.5], "fmod 0": [-2.0, 2.0], "remainder 0": [2.0], "fmod zeros": [-2.0],
    "remainder zeros": [2.0],
}

_SPECIAL_FORMS = {
    "pow 0.5": lambda L, x: x ** 0.5, "pow -0.5": lambda L, x: x ** -0.5, "pow 1.5": lambda L, x: x ** 1.5,
    "pow tensor": lambda L, x: x ** L.full_like(x, 0.5), "rpow": lambda L, x: (-2.5) ** x,
    "fmod 0": lambda L, x: L.fmod(x, 0.0), "remainder 0": lambda L, x: L.remainder(x, 0.0),
    "fmod zeros": lambda L, x: L.fmod(x, L.zeros_like(x)),
    "remainder zeros": lambda L, x: L.remainder(x, L.zeros_like(x)),
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", OUTSIDE)
def test_nans_outside_the_domain_have_pytorchs_bits(torch, name, dtype):
    """Each length meets PyTorch's scalar loop (3 numbers) or its vector loop (64), whose NaNs
    can differ (x86's default NaN is negative; SLEEF's are positive or have every bit set)."""
    function = _SPECIAL_FORMS.get(name, lambda L, x: getattr(L, name)(x))
    for value in OUTSIDE[name]:
        for n in (3, 64, 67):
            array = np.full(n, value, dtype=dtype)
            with np.errstate(all="ignore"):
                mine = function(minigrad, minigrad.from_numpy(array.copy()))
            theirs = function(torch, torch.from_numpy(array.copy()))
            assert_same(mine, theirs)
