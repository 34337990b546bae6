"""pow, float64 sigmoid/silu and softmax: PyTorch's last bit, checked on many numbers.

PyTorch's CPU sends every power but a few special exponents to the SLEEF library's ``pow`` for
whole vectors of numbers and to the C library's for the numbers left over; float64 ``sigmoid``,
``silu`` and ``softmax`` take SLEEF's float64 ``exp`` (minigrad/_sleef_pow.py follows SLEEF's
steps). These tests compare every bit, over lengths on and off a whole vector, broadcast
shapes, lengths that PyTorch splits among threads, and zeros, infinities, nan, subnormal and
huge numbers. The formulas are those of PyTorch's AVX2 kernels (see test_last_bits_vs_torch).
"""
import numpy as np
import pytest

import minigrad
from minigrad import _vectorized_loop

LENGTHS = [1, 3, 7, 8, 15, 16, 17, 33, 1000, 4099, 32769, 65553]
DTYPES = [np.float32, np.float64]
EXPONENTS = [2.5, -1.7, 1 / 3, 0.1, 4, 5, -3, 10, 7.3, 100.5, -0.25, 1e-3]
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-310, 1.0, -1.0, 2.0, -2.0,
            1e30, -1e30, 3e38, 1e300]


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
    with np.errstate(over="ignore"):
        out = out.astype(dtype)
    for i, special in enumerate(specials):
        if i < n:
            with np.errstate(over="ignore"):
                out[(i * 7919) % n] = special
    return out


def assert_same_bits(mine, theirs):
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
    same = (mine == theirs) & (np.signbit(mine) == np.signbit(theirs)) | np.isnan(mine) & np.isnan(theirs)
    different = np.flatnonzero(~same)
    assert different.size == 0, (f"{different.size} of {mine.size} differ, first at {different[:5]}: "
                                 f"{mine.reshape(-1)[different[:5]]} vs {theirs.reshape(-1)[different[:5]]}")


def usable_lengths(torch):
    """Past GRAIN_SIZE only when both split the work among as many threads."""
    if torch.get_num_threads() == _vectorized_loop.THREADS:
        return LENGTHS
    return [n for n in LENGTHS if n <= _vectorized_loop.GRAIN_SIZE]


# --- pow ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("n", LENGTHS)
def test_tensor_to_a_number(avx2_torch, dtype, n):
    if n not in usable_lengths(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x = numbers(n, dtype, n)
    for exponent in EXPONENTS + [2, 3, -2, -1, -0.5, 0, 1]:     # (0.5 is MKL's sqrt: README)
        assert_same_bits((minigrad.tensor(x) ** exponent).numpy(), (avx2_torch.tensor(x) ** exponent).numpy())
        assert_same_bits(minigrad.pow(minigrad.tensor(x), exponent).numpy(),
                         avx2_torch.pow(avx2_torch.tensor(x), exponent).numpy())


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("n", LENGTHS)
def test_tensor_to_a_tensor_and_a_number_to_a_tensor(avx2_torch, dtype, n):
    if n not in usable_lengths(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x, y = numbers(n, dtype, n), numbers(n, dtype, n + 1, -8, 8)
    assert_same_bits((minigrad.tensor(x) ** minigrad.tensor(y)).numpy(),
                     (avx2_torch.tensor(x) ** avx2_torch.tensor(y)).numpy())
    for base in (2, 0.5, -1.5, 1e10, 2.718281828):
        assert_same_bits((base ** minigrad.tensor(y)).numpy(), (base ** avx2_torch.tensor(y)).numpy())


def test_every_pair_of_special_numbers(avx2_torch):
    """IEEE's special cases, in vectors and one by one."""
    values = np.array(SPECIALS + [0.5, -0.5, 3.0, -3.0, 0.3, 1e10, 2.0 ** 24 + 2, 2.0 ** 53 + 2, 1e-30])
    for dtype in DTYPES:
        with np.errstate(over="ignore"):
            x, y = (v.ravel().astype(dtype) for v in np.meshgrid(values, values))
        for start in (0, 3):          # (another cut between the vectors and the numbers left over)
            assert_same_bits((minigrad.tensor(x[start:]) ** minigrad.tensor(y[start:])).numpy(),
                             (avx2_torch.tensor(x[start:]) ** avx2_torch.tensor(y[start:])).numpy())


@pytest.mark.parametrize("shapes", [((37, 45), (45,)), ((37, 1), (1, 45)), ((5, 3, 20), (3, 20)),
                                    ((3, 40000), (40000,)), ((40000, 3), (3,)), ((3, 1, 17), (1, 9, 1)),
                                    ((), (100,)), ((100,), ())], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_broadcast_tensors(avx2_torch, shapes, dtype):
    """PyTorch walks broadcast tensors row by row: each row has its own numbers left over."""
    rng = np.random.default_rng(len(shapes[0]))
    x = np.abs(rng.standard_normal(shapes[0]) * 3).astype(dtype)
    y = (rng.standard_normal(shapes[1]) * 3).astype(dtype)
    assert_same_bits((minigrad.tensor(x) ** minigrad.tensor(y)).numpy(),
                     (avx2_torch.tensor(x) ** avx2_torch.tensor(y)).numpy())
    assert_same_bits((minigrad.tensor(y) ** minigrad.tensor(x)).numpy(),
                     (avx2_torch.tensor(y) ** avx2_torch.tensor(x)).numpy())


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool"])
def test_integer_tensors_to_float_powers(avx2_torch, dtype):
    x = np.arange(-50, 1000).astype(dtype) if dtype != "uint8" else np.arange(256).astype(dtype)
    for exponent in (2.5, 1 / 3, 3.0, -2.0, -1.0, 1.5):
        mine, theirs = minigrad.tensor(x) ** exponent, avx2_torch.tensor(x) ** exponent
        assert mine.dtype == minigrad.float32
        assert_same_bits(mine.numpy(), theirs.numpy())


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_gradients_in_place_and_float_power(avx2_torch, dtype):
    """The gradients take powers too (grad * e * x ** (e - 1)); pow_ and float_power as pow."""
    x = np.abs(numbers(1003, dtype, 5, specials=())) + dtype(0.5)
    y = numbers(1003, dtype, 6, -3, 3, specials=())
    g = numbers(1003, dtype, 7, specials=())
    for exponent in (2.5, -1.7, 4, 1 / 3):
        results = []
        for L in (minigrad, avx2_torch):
            base = L.tensor(x, requires_grad=True)
            (base ** exponent).backward(L.tensor(g))
            results.append(base.grad.numpy())
        assert_same_bits(*results)
    results = []
    for L in (minigrad, avx2_torch):         # the base's gradient (the exponent's takes log)
        base, power = L.tensor(x, requires_grad=True), L.tensor(y)
        (base ** power).backward(L.tensor(g))
        results.append(base.grad.numpy())
    assert_same_bits(*results)
    for exponent in (2.5, -1.7, 7):
        assert_same_bits(minigrad.tensor(x).pow_(exponent).numpy(), avx2_torch.tensor(x).pow_(exponent).numpy())
        assert_same_bits(minigrad.float_power(minigrad.tensor(x), exponent).numpy(),
                         avx2_torch.float_power(avx2_torch.tensor(x), exponent).numpy())
    assert_same_bits(minigrad.tensor(x).pow_(minigrad.tensor(y)).numpy(),
                     avx2_torch.tensor(x).pow_(avx2_torch.tensor(y)).numpy())


# --- float64 sigmoid, silu; softmax and log_softmax over the last dim ----------------------------

@pytest.mark.parametrize("n", LENGTHS)
def test_sigmoid_and_silu_float64(avx2_torch, n):
    if n not in usable_lengths(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x = numbers(n, np.float64, n, -40, 40, specials=SPECIALS + [709.8, -709.8, -745.2, 1000.0, -1000.0])
    g = numbers(n, np.float64, n + 1, specials=())
    for name in ("sigmoid", "silu"):
        results = []
        for L in (minigrad, avx2_torch):
            t = L.tensor(x, requires_grad=True)
            out = getattr(L.nn.functional, name)(t)
            out.backward(L.tensor(g))
            results.append((out.detach().numpy(), t.grad.numpy()))
        assert_same_bits(results[0][0], results[1][0])
        assert_same_bits(results[0][1], results[1][1])


@pytest.mark.parametrize("columns", [1, 2, 3, 4, 5, 7, 8, 9, 16, 33, 100])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_softmax_and_log_softmax_last_dim(avx2_torch, columns, dtype):
    rng = np.random.default_rng(columns)
    x = (rng.standard_normal((300, columns)) * 5).astype(dtype)
    x[0, 0], x[1, -1] = 1000, -1000
    g = rng.standard_normal((300, columns)).astype(dtype)
    for name in ("softmax", "log_softmax"):
        results = []
        for L in (minigrad, avx2_torch):
            t = L.tensor(x, requires_grad=True)
            out = getattr(L, name)(t, -1)
            out.backward(L.tensor(g))
            results.append((out.detach().numpy(), t.grad.numpy()))
        assert_same_bits(results[0][0], results[1][0])
        assert_same_bits(results[0][1], results[1][1])


@pytest.mark.parametrize("n", [1, 7, 16, 37, 1003, 40001])
@pytest.mark.parametrize("beta, threshold", [(1, 20), (2, 5), (0.5, 3)])
def test_softplus_float32(avx2_torch, n, beta, threshold):
    """SLEEF's float32 exp and log1p for whole vectors; the gradient g z / (z + 1) likewise."""
    if n > _vectorized_loop.GRAIN_SIZE and avx2_torch.get_num_threads() != _vectorized_loop.THREADS:
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x = numbers(n, np.float32, n, -30, 30)
    g = numbers(n, np.float32, n + 1, specials=())
    results = []
    for L in (minigrad, avx2_torch):
        t = L.tensor(x, requires_grad=True)
        out = L.nn.functional.softplus(t, beta, threshold)
        out.backward(L.tensor(g))
        results.append((out.detach().numpy(), t.grad.numpy()))
    assert_same_bits(results[0][0], results[1][0])
    assert_same_bits(results[0][1], results[1][1])
