"""Operations learners use every day, their values and gradients PyTorch's to the last bit.

softmax and log_softmax over a dim that is not the last (minigrad/nn/_softmax_kernel.py), and
the other reductions and losses whose order of operations PyTorch's CPU kernels fix. The
formulas are those of PyTorch's AVX2 kernels: on another CPU PyTorch itself gives other bits.
"""
import math

import numpy as np
import pytest

import minigrad

DTYPES = [np.float32, np.float64]


@pytest.fixture
def avx2_torch(torch):
    """torch, when its CPU kernels are the AVX2 ones minigrad follows (else the test is skipped)."""
    if torch.backends.cpu.get_cpu_capability() != "AVX2":
        pytest.skip("PyTorch's last bits depend on the CPU: minigrad follows its AVX2 kernels")
    return torch


def inputs(shape, dtype, seed, scale=3.0):
    """Normal numbers of this shape and dtype, and a gradient for the result."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale).astype(dtype)


def assert_same_bits(torch, f, *arrays, grad_seed=1):
    """f(library, *tensors) in minigrad and torch: the same value and gradients, bit for bit."""
    got = []
    for library in (minigrad, torch):
        xs = [library.tensor(a.copy(), requires_grad=True) for a in arrays]
        y = f(library, *xs)
        gy = np.random.default_rng(grad_seed).standard_normal(tuple(y.shape)).astype(arrays[0].dtype)
        y.backward(library.tensor(gy))
        got.append([y.detach().numpy()] + [x.grad.numpy() for x in xs])
    for name, mine, theirs in zip(["value"] + [f"grad {i}" for i in range(len(arrays))], *got):
        assert mine.dtype == theirs.dtype, name
        assert np.array_equal(mine, theirs, equal_nan=True), \
            f"{name}: {np.sum(mine != theirs)} of {mine.size} differ"


SOFTMAX_CASES = [((64, 10), 0), ((128, 33), 0), ((16, 300), 0), ((3, 5, 7), 1), ((4, 9, 17), 0),
                 ((2, 3, 40), 1), ((7, 50, 13), 1), ((3, 9), 0), ((2, 2), 0), ((5, 400, 3), 0),
                 ((3, 20, 300), 1), ((1, 40), 0), ((6, 1), 0), ((2, 3, 1), 1), ((8, 4, 2, 5), -3)]


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape,dim", SOFTMAX_CASES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_softmax_over_another_dim(avx2_torch, name, shape, dim, dtype):
    assert_same_bits(avx2_torch, lambda L, x: getattr(L.nn.functional, name)(x, dim),
                     inputs(shape, dtype, seed=len(shape) + shape[0]))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_softmax_of_a_transposed_input(avx2_torch, name, dtype):
    # PyTorch computes from a contiguous copy; the result is contiguous
    assert_same_bits(avx2_torch, lambda L, x: getattr(L, name)(x.t(), 1), inputs((37, 11), dtype, 3))


BATCHES = [1, 2, 16, 17, 33, 64, 128, 257, 1000]


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("n", BATCHES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_nll_loss_adds_the_batch_in_pytorchs_order(avx2_torch, reduction, n, dtype):
    labels = np.arange(n) % 7
    assert_same_bits(avx2_torch, lambda L, x: L.nn.functional.nll_loss(
        L.log_softmax(x, 1), L.tensor(labels), reduction=reduction), inputs((n, 7), dtype, n))


@pytest.mark.parametrize("n", [17, 300])
@pytest.mark.parametrize("dtype", DTYPES)
def test_nll_loss_with_weights_and_ignored_rows(avx2_torch, n, dtype):
    labels = np.arange(n) % 5
    labels[::3] = -100
    weight = np.linspace(0.3, 2.1, 5).astype(dtype)
    assert_same_bits(avx2_torch, lambda L, x: L.nn.functional.nll_loss(
        L.log_softmax(x, 1), L.tensor(labels), weight=L.tensor(weight)), inputs((n, 5), dtype, 4))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(64, 10), (128, 10), (128, 33), (16, 300), (5, 4, 3)])
def test_float64_cross_entropy(avx2_torch, reduction, shape):
    labels = np.arange(shape[0] * math.prod(shape[2:])).reshape((shape[0],) + shape[2:]) % shape[1]
    assert_same_bits(avx2_torch, lambda L, x: L.nn.functional.cross_entropy(
        x, L.tensor(labels), reduction=reduction), inputs(shape, np.float64, 5))


@pytest.mark.parametrize("shape", [(64, 10), (128, 10), (16, 300)])
def test_float32_cross_entropy_value(avx2_torch, shape):
    # (its gradient keeps numpy's exp, for speed: see README)
    labels = minigrad.tensor(np.arange(shape[0]) % shape[1])
    x = inputs(shape, np.float32, 6)
    mine = minigrad.nn.functional.cross_entropy(minigrad.tensor(x), labels).numpy()
    theirs = avx2_torch.nn.functional.cross_entropy(avx2_torch.tensor(x),
                                                    avx2_torch.tensor(labels.numpy())).numpy()
    assert abs(mine - theirs) <= 2 * np.spacing(theirs)


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("shape,dim", [((64, 10), None), ((16, 300), None), ((100, 1000), None),
                                       ((7,), 0), ((1, 50), 1), ((64, 10), 0), ((128, 33), 1),
                                       ((16, 300), 1), ((4, 5, 6), (0, 2))])
@pytest.mark.parametrize("dtype", DTYPES)
def test_var_and_std(avx2_torch, name, shape, dim, dtype):
    def f(L, x):
        return getattr(x, name)() if dim is None else getattr(x, name)(dim)
    assert_same_bits(avx2_torch, f, inputs(shape, dtype, 7, scale=1.0))


@pytest.mark.parametrize("dtype", DTYPES)
def test_var_of_a_transposed_tensor(avx2_torch, dtype):
    assert_same_bits(avx2_torch, lambda L, x: x.t().var(), inputs((30, 40), dtype, 8))


@pytest.mark.parametrize("shape", [(64, 10), (128, 33), (16, 300)])
def test_float64_logsumexp_value(avx2_torch, shape):
    # (its float32 exp and log, and the gradient's exp, are MKL's: not followed)
    x = inputs(shape, np.float64, 9, scale=1.0)
    mine = minigrad.tensor(x).logsumexp(1).numpy()
    theirs = avx2_torch.tensor(x).logsumexp(1).numpy()
    assert np.array_equal(mine, theirs)


@pytest.mark.parametrize("shape,dim", [((64, 10), 1), ((128, 33), 1), ((16, 300), 1), ((5, 31), 1),
                                       ((5, 32), 1), ((5, 33), 1), ((3, 64), 1), ((2, 100), None),
                                       ((40,), 0), ((7, 17), None), ((128, 33), 0), ((4, 5, 6), -1),
                                       ((4, 5, 6), 1)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_prod(avx2_torch, shape, dim, dtype):
    x = (1 + 0.3 * inputs(shape, dtype, 10, scale=1.0)).astype(dtype)
    assert_same_bits(avx2_torch, lambda L, t: t.prod() if dim is None else t.prod(dim), x)


@pytest.mark.parametrize("shape", [(64, 10), (128, 33), (16, 300), (3,), (7, 5), (40000,)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_hypot(avx2_torch, shape, dtype):
    x, y = inputs(shape, dtype, 11), inputs(shape, dtype, 12) * np.exp(inputs(shape, dtype, 13))
    assert_same_bits(avx2_torch, lambda L, a, b: L.hypot(a, b), x, y.astype(dtype))


def test_hypot_at_the_edges(avx2_torch):
    values = np.array([0.0, -0.0, 1e-310, 1e-300, 1e300, 1.7e308, np.inf, -np.inf, np.nan, 3.0,
                       -4.0, 5e-324, 1.0, 2.5, 1e-20, 7.0])
    a, b = np.meshgrid(values, values)
    mine = minigrad.hypot(minigrad.tensor(a), minigrad.tensor(b)).numpy()
    theirs = avx2_torch.hypot(avx2_torch.tensor(a), avx2_torch.tensor(b)).numpy()
    assert np.array_equal(mine, theirs, equal_nan=True)


@pytest.mark.parametrize("shape", [(8, 5, 40, 40), (4, 3, 100), (2, 7, 9, 11)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
def test_nll_loss_per_pixel(avx2_torch, shape, weighted, dtype):
    rng = np.random.default_rng(14)
    labels = rng.integers(0, shape[1], (shape[0],) + shape[2:])
    labels.reshape(-1)[::5] = -100
    weight = rng.uniform(0.2, 2, shape[1]).astype(dtype) if weighted else None
    assert_same_bits(avx2_torch, lambda L, x: L.nn.functional.nll_loss(
        L.log_softmax(x, 1), L.tensor(labels), weight=None if weight is None else L.tensor(weight)),
        inputs(shape, dtype, 15))


@pytest.mark.parametrize("conv,shape,weight_shape", [("conv2d", (8, 3, 20, 20), (6, 3, 3, 3)),
                                                     ("conv1d", (16, 4, 50), (5, 4, 3)),
                                                     ("conv2d", (2, 3, 8, 8), (4, 3, 3, 3))])
def test_float64_convolution_bias_gradient(avx2_torch, conv, shape, weight_shape):
    x, w = inputs(shape, np.float64, 16), inputs(weight_shape, np.float64, 17)
    got = []
    for L in (minigrad, avx2_torch):
        bias = L.zeros(weight_shape[0], dtype=L.float64, requires_grad=True)
        y = getattr(L.nn.functional, conv)(L.tensor(x), L.tensor(w), bias)
        y.backward(L.tensor(np.random.default_rng(1).standard_normal(tuple(y.shape))))
        got.append(bias.grad.numpy())
    assert np.array_equal(*got)


@pytest.mark.parametrize("shape", [(64, 10), (128, 33), (16, 300), (3,), (7, 5), (40000,)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_atan2(avx2_torch, shape, dtype):
    y = (inputs(shape, dtype, 18) * np.exp(inputs(shape, dtype, 19))).astype(dtype)
    assert_same_bits(avx2_torch, lambda L, a, b: L.atan2(a, b), y, inputs(shape, dtype, 20))


@pytest.mark.parametrize("dtype", DTYPES)
def test_atan2_at_the_edges(avx2_torch, dtype):
    values = np.array([0.0, -0.0, 1e-40, -1e-40, 1e-310, np.inf, -np.inf, np.nan, 1.0, -1.0,
                       3e38, -2.5, 1e-20, 7.0, -0.5, 2.0], dtype)
    a, b = np.meshgrid(values, values)
    mine = minigrad.atan2(minigrad.tensor(a), minigrad.tensor(b)).numpy()
    theirs = avx2_torch.atan2(avx2_torch.tensor(a), avx2_torch.tensor(b)).numpy()
    assert np.array_equal(mine.view(f"i{mine.itemsize}"), theirs.view(f"i{theirs.itemsize}"))


def test_atan2_broadcast(avx2_torch):
    y, x = inputs((5, 1), np.float32, 21), inputs((1, 37), np.float32, 22)
    assert_same_bits(avx2_torch, lambda L, a, b: L.atan2(a, b), y, x)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_over_another_dim_with_infinities_and_nan(avx2_torch, name):
    x = inputs((5, 20), np.float32, 23)
    x[:, 0] = -np.inf
    x[1, 1], x[2, 2], x[0, 4] = np.inf, np.nan, -np.inf
    x[:, 3] = np.inf
    assert_same_bits(avx2_torch, lambda L, t: getattr(L, name)(t, 0), x)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_of_a_number(avx2_torch, name):
    assert_same_bits(avx2_torch, lambda L, t: getattr(L, name)(t, 0), np.array(1.5))


@pytest.mark.parametrize("shape", [(64, 10), (128, 33), (16, 300)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_kl_div(avx2_torch, shape, dtype):
    assert_same_bits(avx2_torch, lambda L, x: L.nn.functional.kl_div(
        L.log_softmax(x, 1), L.softmax(x.flip(0), 1), reduction="batchmean"), inputs(shape, dtype, 24))


@pytest.mark.parametrize("dtype", DTYPES)
def test_xlogy(avx2_torch, dtype):
    x = inputs((300,), dtype, 25)
    y = np.abs(inputs((300,), dtype, 26) * np.exp(inputs((300,), dtype, 27) * 5)).astype(dtype)
    x[::7], y[::11] = 0, 0
    assert_same_bits(avx2_torch, lambda L, a, b: L.xlogy(a, b), x, y)


def test_c_library_logf(avx2_torch):
    from minigrad._c_library_logf import logf
    rng = np.random.default_rng(28)
    x = np.abs(rng.standard_normal(100000) * np.exp(rng.uniform(-80, 80, 100000))).astype(np.float32)
    x[:6] = [0, 1e-45, 1.0, np.inf, np.nan, 3e-39]
    theirs = avx2_torch.xlogy(avx2_torch.ones(len(x)), avx2_torch.tensor(x)).numpy()
    assert np.array_equal(logf(x), theirs, equal_nan=True)
