"""Float64 expm1, log1p, sinh, cosh and softplus, and logsigmoid in both dtypes: PyTorch's last bit.

PyTorch's AVX2 kernels take these from the SLEEF library (minigrad/_sleef_double_pairs.py
follows its float64 steps, _sleef_float_pairs.py its float32 ones): expm1, log1p and
logsigmoid for every number (the last few in a part-filled vector), sinh, cosh and softplus
for whole vectors, the C library for the numbers left over. These tests compare every bit of
results and gradients, over lengths on and off a whole vector, lengths that PyTorch splits
among threads, and zeros, infinities, nan, subnormal and huge numbers.
"""
import numpy as np
import pytest

import minigrad
from minigrad import _vectorized_loop

LENGTHS = [1, 3, 4, 7, 8, 9, 15, 16, 17, 33, 1000, 4099, 32769, 65553]
DTYPES = [np.float32, np.float64]
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e-310, 2.2250738585072014e-308,
            1e-45, 1.0, -1.0, -0.9999999, -1 + 1e-16, 1e-20, -1e-20, 20.0, -20.0, 36.7368, -36.7369,
            88.72, 89.1, -104.0, 709.78, 709.79, 710.0, 710.5, -745.2, -1000.5, 1e30, -1e30, 3e38,
            1e300, -1e300, 1e307, 2e307, 1.7e308, -1.7e308]


@pytest.fixture
def avx2_torch(torch):
    """torch, when its CPU kernels are the AVX2 ones minigrad follows (else the test is skipped)."""
    if torch.backends.cpu.get_cpu_capability() != "AVX2":
        pytest.skip("PyTorch's last bits depend on the CPU: minigrad follows its AVX2 kernels")
    return torch


def numbers(n, dtype, seed, low=-5.0, high=5.0, specials=SPECIALS):
    """n numbers: uniform in [low, high), a tenth spread over all magnitudes and signs, specials."""
    rng = np.random.default_rng(seed)
    out = rng.uniform(low, high, n)
    wide = rng.random(n) < 0.1
    out[wide] = np.sign(rng.standard_normal(wide.sum())) * np.exp(rng.uniform(-100, 100, wide.sum()))
    for i, special in enumerate(specials):
        if i < n:
            out[(i * 7919) % n] = special
    with np.errstate(over="ignore"):
        return out.astype(dtype)


def assert_same_bits(mine, theirs):
    """Every bit the same, sign of zero included; any nan matches any nan (payloads may differ)."""
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
    same = (mine == theirs) & (np.signbit(mine) == np.signbit(theirs)) | np.isnan(mine) & np.isnan(theirs)
    different = np.flatnonzero(~same)
    assert different.size == 0, (f"{different.size} of {mine.size} differ, first at {different[:5]}: "
                                 f"{mine.reshape(-1)[different[:5]]} vs {theirs.reshape(-1)[different[:5]]}")


def skip_unless_same_threads(torch, n):
    if n > _vectorized_loop.GRAIN_SIZE and torch.get_num_threads() != _vectorized_loop.THREADS:
        pytest.skip("torch uses another number of threads than minigrad assumes")


def results_and_gradients(torch, function, x, g):
    """[(result, gradient)] of minigrad's and torch's function at x, backward from g."""
    out = []
    for L in (minigrad, torch):
        t = L.tensor(x, requires_grad=True)
        y = function(L, t)
        y.backward(L.tensor(g))
        out.append((y.detach().numpy(), t.grad.numpy()))
    return out


FUNCTIONS = {
    "expm1": (lambda L, t: L.expm1(t), -40, 40),
    "log1p": (lambda L, t: L.log1p(t), -1, 30),
    "sinh": (lambda L, t: L.sinh(t), -40, 40),
    "cosh": (lambda L, t: L.cosh(t), -40, 40),
    "softplus": (lambda L, t: L.nn.functional.softplus(t), -40, 40),
    "softplus(beta=2, threshold=5)": (lambda L, t: L.nn.functional.softplus(t, 2, 5), -10, 10),
    "softplus(beta=0.5, threshold=3)": (lambda L, t: L.nn.functional.softplus(t, 0.5, 3), -10, 10),
    "logsigmoid": (lambda L, t: L.nn.functional.logsigmoid(t), -40, 40),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_results_and_gradients(avx2_torch, name, n, dtype):
    skip_unless_same_threads(avx2_torch, n)
    function, low, high = FUNCTIONS[name]
    x = numbers(n, dtype, n, low, high)
    g = numbers(n, dtype, n + 1, specials=())
    (mine, mine_grad), (theirs, theirs_grad) = results_and_gradients(avx2_torch, function, x, g)
    assert_same_bits(mine, theirs)
    assert_same_bits(mine_grad, theirs_grad)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_special_numbers_in_every_place_of_a_vector(avx2_torch, dtype):
    """Each special number in each lane, and among the numbers left over."""
    values = numbers(len(SPECIALS), dtype, 0, specials=())
    with np.errstate(over="ignore"):
        values[:] = np.array(SPECIALS).astype(dtype)
    for start in range(5):
        x = np.concatenate([np.zeros(start, dtype), values])
        for name, (function, _, _) in FUNCTIONS.items():
            mine, theirs = results_and_gradients(avx2_torch, function, x, np.ones_like(x))
            assert_same_bits(mine[0], theirs[0])
            assert_same_bits(mine[1], theirs[1])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_logsigmoid_saves_pytorchs_buffer(avx2_torch, dtype):
    """The buffer e ** -|x| (SLEEF's exp) is kept for backward: grad_fn._saved_buffer."""
    x = numbers(1003, dtype, 9, -30, 30)
    buffers = [L.nn.functional.logsigmoid(L.tensor(x, requires_grad=True)).grad_fn._saved_buffer.numpy()
               for L in (minigrad, avx2_torch)]
    assert_same_bits(*buffers)


VIEWS = {
    "transposed": lambda t: t.permute(2, 1, 0),
    "transposed, every other": lambda t: t.permute(2, 1, 0)[::2],
    "every other row": lambda t: t[:, ::2],
    "every other column": lambda t: t[..., ::2],
    "rows cut short": lambda t: t[..., :33],
    "permuted and cut": lambda t: t.permute(1, 0, 2)[:, :, 3:],
    "expanded": lambda t: t[:, :1].expand(2, 5, 40),
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_views(avx2_torch, dtype, view):
    """PyTorch walks a view in memory order; each run of neighbouring numbers has its own tail,
    and a view whose innermost dim skips numbers gets the one-number formula everywhere."""
    x = numbers(2400, dtype, 4, -1, 10).reshape(2, 30, 40)
    for name, (function, _, _) in FUNCTIONS.items():
        assert_same_bits(function(minigrad, VIEWS[view](minigrad.tensor(x))).numpy(),
                         function(avx2_torch, VIEWS[view](avx2_torch.tensor(x))).numpy())


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_gradcheck_and_gradgradcheck(name):
    function = FUNCTIONS[name][0]
    x = minigrad.tensor(np.random.default_rng(5).uniform(0.1, 3, 9), requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda t: function(minigrad, t), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: function(minigrad, t), (x,))
