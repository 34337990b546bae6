"""Elementwise functions whose results are PyTorch's to the last bit, checked on many numbers.

PyTorch's CPU kernels take some functions from the SLEEF library (whose formulas minigrad
evaluates step by step, see minigrad/_sleef_mathfun.py) for whole vectors of numbers, and from
the C library for the numbers left over (minigrad/_vectorized_loop.py). These tests compare
every bit, over lengths that end on and off a whole vector and that PyTorch splits among
threads, with ordinary, tiny, huge, infinite and nan inputs. The formulas are those of
PyTorch's AVX2 kernels: on another CPU (AVX-512) PyTorch itself gives other last bits.
"""
import itertools

import numpy as np
import pytest

import minigrad
from minigrad import _vectorized_loop

LENGTHS = [1, 2, 7, 8, 15, 16, 17, 31, 33, 100, 1000, 4099, 32768, 32769, 32785, 65553, 100003]


@pytest.fixture
def avx2_torch(torch):
    """torch, when its CPU kernels are the AVX2 ones minigrad follows (else the test is skipped)."""
    if torch.backends.cpu.get_cpu_capability() != "AVX2":
        pytest.skip("PyTorch's last bits depend on the CPU: minigrad follows its AVX2 kernels")
    return torch


def lengths_for(torch):
    """The lengths to try: past GRAIN_SIZE only when both split the work among as many threads."""
    if torch.get_num_threads() == _vectorized_loop.THREADS:
        return LENGTHS
    return [n for n in LENGTHS if n <= _vectorized_loop.GRAIN_SIZE]


def numbers(n, low, high, seed, dtype=np.float32, specials=()):
    """n numbers, mostly uniform in [low, high), some spread over all magnitudes, and specials."""
    rng = np.random.default_rng(seed)
    out = rng.uniform(low, high, n)
    wide = rng.random(n) < 0.1
    out[wide] = np.sign(rng.standard_normal(wide.sum())) * np.exp(rng.uniform(-100, 6, wide.sum()))
    out = out.astype(dtype)
    for i, special in enumerate(specials):
        if i < n:
            out[(i * 7919) % n] = special
    return out


def assert_same_bits(mine, theirs):
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
    bits = {4: np.uint32, 8: np.uint64}[mine.itemsize]
    different = np.flatnonzero(mine.reshape(-1).view(bits) != theirs.reshape(-1).view(bits))
    assert different.size == 0, (f"{different.size} of {mine.size} differ, first at {different[:5]}: "
                                 f"{mine.reshape(-1)[different[:5]]} vs {theirs.reshape(-1)[different[:5]]}")


SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 88.7, -88.7, 104.0, -104.0, 1e30, -1e30]


@pytest.mark.parametrize("n", LENGTHS)
def test_sigmoid_float32(avx2_torch, n):
    if n not in lengths_for(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    for seed in range(3):
        x = numbers(n, -30, 30, seed + n, specials=SPECIALS)
        assert_same_bits(minigrad.sigmoid(minigrad.tensor(x)).numpy(),
                         avx2_torch.sigmoid(avx2_torch.tensor(x)).numpy())


def test_sigmoid_float32_many_numbers_one_at_a_time_and_in_vectors(avx2_torch):
    """The numbers where SLEEF's exp and the C library's give another last bit, both ways."""
    x = numbers(200000, -40, 40, 1)
    vector = avx2_torch.sigmoid(avx2_torch.tensor(x[:199984])).numpy()      # 16 * 12499: no tail
    one_by_one = np.concatenate([avx2_torch.sigmoid(avx2_torch.tensor(x[i:i + 15])).numpy()
                                 for i in range(0, 3000, 15)])               # all tails
    assert_same_bits(minigrad.sigmoid(minigrad.tensor(x[:199984])).numpy(), vector)
    assert_same_bits(np.concatenate([minigrad.sigmoid(minigrad.tensor(x[i:i + 15])).numpy()
                                     for i in range(0, 3000, 15)]), one_by_one)


@pytest.mark.parametrize("layout", ["transposed", "2d"])
def test_sigmoid_float32_matrices(avx2_torch, layout):
    x = numbers(37 * 41, -30, 30, 3).reshape(37, 41)
    mine, theirs = minigrad.tensor(x), avx2_torch.tensor(x)
    if layout == "transposed":
        mine, theirs = mine.T, theirs.T
    assert_same_bits(minigrad.sigmoid(mine).numpy(), avx2_torch.sigmoid(theirs).numpy())


# --- sums: PyTorch's order of additions (minigrad/_cascade_sum.py) ------------------------------

SUM_SHAPES = [(m, n) for m in (1, 3, 4, 7, 8, 16, 17, 33, 100, 257, 1000) for n in (1, 3, 5, 8, 9, 31, 32, 33, 70)]
SUM_SHAPES += [(3, 4, 5, 6), (2, 50, 3, 9), (7, 1, 300), (40000, 3), (3, 40000), (100, 700)]


def _all_runs_of_dims(ndim):
    """Every run of neighbouring dims: (0,), (0, 1), ..., (1,), ..."""
    return [tuple(range(a, b + 1)) for a in range(ndim) for b in range(a, ndim)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SUM_SHAPES, ids=str)
def test_sum_and_mean_over_runs_of_dims(avx2_torch, dtype, shape):
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * np.exp(rng.uniform(-3, 3, shape))).astype(dtype)
    for dims in _all_runs_of_dims(len(shape)) + [None]:
        for op in ("sum", "mean"):
            for keepdim in (False, True):
                kw = {} if dims is None else {"dim": dims, "keepdim": keepdim}
                assert_same_bits(getattr(minigrad.tensor(x), op)(**kw).numpy(),
                                 getattr(avx2_torch.tensor(x), op)(**kw).numpy())


APART_SHAPES = [(3, 4, 5), (7, 9, 33), (2, 3, 4, 5), (5, 1, 7, 9), (16, 3, 17), (4, 40, 3), (3, 5, 2, 11),
                (2, 17, 3, 9), (64, 3, 70), (9, 2, 8, 2)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", APART_SHAPES, ids=str)
def test_sum_and_mean_over_dims_apart_and_with_dtype(avx2_torch, dtype, shape):
    """Reduced dims that are not neighbours (x.sum((0, 2))): PyTorch sums the innermost run
    of them row by row and adds the rows' totals in order; sum(dtype=) converts first."""
    rng = np.random.default_rng(sum(shape) + 1)
    x = (rng.standard_normal(shape) * np.exp(rng.uniform(-5, 5, shape))).astype(dtype)
    ndim = len(shape)
    apart = [dims for r in range(2, ndim) for dims in itertools.combinations(range(ndim), r)
             if dims != tuple(range(dims[0], dims[-1] + 1))]
    for dims in apart:
        for op in ("sum", "mean"):
            for keepdim in (False, True):
                assert_same_bits(getattr(minigrad.tensor(x), op)(dims, keepdim=keepdim).numpy(),
                                 getattr(avx2_torch.tensor(x), op)(dims, keepdim=keepdim).numpy())
    for dims in [None, (0,), (ndim - 1,), (0, ndim - 1)]:
        for name in ("float64", "float32"):
            kw = {"dtype": None} if dims is None else {"dim": dims}
            ours = minigrad.tensor(x).sum(**{**kw, "dtype": getattr(minigrad, name)})
            theirs = avx2_torch.tensor(x).sum(**{**kw, "dtype": getattr(avx2_torch, name)})
            assert_same_bits(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_of_every_length(avx2_torch, dtype):
    """All numbers of a 1-d tensor: every length up to 600, and some PyTorch splits among threads."""
    rng = np.random.default_rng(5)
    lengths = list(range(1, 600)) + [4099, 65536 + 17, 1000003]
    if avx2_torch.get_num_threads() != _vectorized_loop.THREADS:
        lengths = [n for n in lengths if n <= _vectorized_loop.GRAIN_SIZE]
    for n in lengths:
        x = (rng.standard_normal(n) * np.exp(rng.uniform(-5, 5, n))).astype(dtype)
        assert_same_bits(minigrad.tensor(x).sum().numpy(), avx2_torch.tensor(x).sum().numpy())
        assert_same_bits(minigrad.tensor(x).mean().numpy(), avx2_torch.tensor(x).mean().numpy())


def test_sum_of_a_transposed_matrix_and_special_values(avx2_torch):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((50, 37)).astype(np.float32)
    assert_same_bits(minigrad.tensor(x).T.sum().numpy(), avx2_torch.tensor(x).T.sum().numpy())
    for specials in ([-0.0], [-0.0] * 20, [np.inf, 1.0, -np.inf] + [2.0] * 30, [np.nan] + [1.0] * 40,
                     [3e38] * 40 + [-3e38] * 40, [1e-45] * 100):
        x = np.array(specials, np.float32)
        assert_same_bits(minigrad.tensor(x).sum().numpy(), avx2_torch.tensor(x).sum().numpy())
        assert_same_bits(minigrad.tensor(x).reshape(1, -1).sum(0).numpy(),
                         avx2_torch.tensor(x).reshape(1, -1).sum(0).numpy())


# --- sigmoid and silu backward: PyTorch's order of products, and the multiply-add its compiler
# makes of silu's 1 + x * (1 - s) -------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 15, 16, 17, 1000, 32785])
@pytest.mark.parametrize("function", ["sigmoid", "silu"])
def test_float32_sigmoid_and_silu_with_gradients(avx2_torch, n, function):
    if n not in lengths_for(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x = numbers(n, -20, 20, n, specials=SPECIALS)
    g = numbers(n, -3, 3, n + 1)

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        out = getattr(lib.nn.functional, function)(t)
        out.backward(lib.tensor(g))
        return out.detach().numpy(), t.grad.numpy()
    for mine, theirs in zip(run(minigrad), run(avx2_torch)):
        assert_same_bits(mine, theirs)


def test_float64_sigmoid_backward_multiplies_in_pytorchs_order(torch):
    """Given the same result s, grad * (1 - s) * s is computed in the same order (any CPU)."""
    from minigrad._ops.pointwise import sigmoid_backward
    rng = np.random.default_rng(3)
    s, g = rng.random(1000), rng.standard_normal(1000)
    assert_same_bits(sigmoid_backward(minigrad.tensor(g), minigrad.tensor(s)).numpy(),
                     torch.ops.aten.sigmoid_backward(torch.tensor(g), torch.tensor(s)).numpy())


# --- expm1 and log1p: SLEEF's methods for every number (minigrad/_sleef_float_pairs.py) --------

def assert_same_bits_or_both_nan(mine, theirs):
    """As assert_same_bits, but any nan matches any nan (PyTorch's nan may have other payload bits)."""
    mine, theirs = np.array(mine), np.array(theirs)
    both = np.isnan(mine) & np.isnan(theirs)
    mine[both] = theirs[both] = 0
    assert_same_bits(mine, theirs)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 16, 17, 1000, 100003])
@pytest.mark.parametrize("function, low, high", [("expm1", -20, 20), ("log1p", -1, 30)])
def test_float32_expm1_and_log1p(avx2_torch, n, function, low, high):
    specials = SPECIALS + [-1.0, -0.9999999, -1.5, 1e38, 2e38, 3.4e38, 1e-20, -16.6355, -16.6356]
    for seed in range(2):
        x = numbers(n, low, high, seed + n, specials=specials)
        mine = getattr(minigrad, function)(minigrad.tensor(x)).numpy()
        theirs = getattr(avx2_torch, function)(avx2_torch.tensor(x)).numpy()
        assert_same_bits_or_both_nan(mine, theirs)


@pytest.mark.parametrize("function", ["expm1", "log1p"])
def test_float32_expm1_and_log1p_of_views(avx2_torch, function):
    x = numbers(1200, -1, 10, 4).reshape(30, 40)
    assert_same_bits(getattr(minigrad.tensor(x).T[::2], function)().numpy(),
                     getattr(avx2_torch.tensor(x).T[::2], function)().numpy())


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("function", ["sinh", "cosh"])
def test_float32_sinh_and_cosh(avx2_torch, n, function):
    """SLEEF for whole vectors, the C library (as numpy's float32 sinh/cosh) for the rest."""
    if n not in lengths_for(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x = numbers(n, -95, 95, n, specials=SPECIALS + [89.0, 89.1, -89.1, 88.9])
    assert_same_bits_or_both_nan(getattr(minigrad, function)(minigrad.tensor(x)).numpy(),
                                 getattr(avx2_torch, function)(avx2_torch.tensor(x)).numpy())


@pytest.mark.parametrize("function", ["sigmoid", "expm1", "log1p", "sinh", "cosh", "sum", "mean"])
@pytest.mark.parametrize("shape", [(), (0,), (2, 0), (1,), (3, 1, 2)])
def test_zero_dims_empty_and_tiny_tensors(avx2_torch, function, shape):
    x = numbers(max(1, int(np.prod(shape))), -0.5, 3, 8)[:int(np.prod(shape))].reshape(shape)
    mine = getattr(minigrad.tensor(x), function)().numpy()
    theirs = getattr(avx2_torch.tensor(x), function)().numpy()
    assert_same_bits_or_both_nan(mine, theirs)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "int16", "uint8", "int8"])
def test_linspace_to_the_last_bit(torch, dtype):
    """linspace's values, bit for bit, or the same message: its two halves are counted from either
    end with one rounding each (float16 rounding after every step, integers stepping in float64)."""
    rng = np.random.default_rng(3)
    for _ in range(150):
        start, end = rng.uniform(-300, 300, 2) / (1 if dtype != "float16" else 4)
        steps = int(rng.choice([0, 1, 2, 3, int(rng.integers(4, 2500))]))
        outcomes = []
        for lib in (minigrad, torch):
            try:
                outcomes.append(lib.linspace(start, end, steps, dtype=getattr(lib, dtype)).numpy().tobytes())
            except RuntimeError as error:
                outcomes.append(str(error))
        assert outcomes[0] == outcomes[1], (start, end, steps)


def _add_and_sub_with_alpha(lib, a, b, alpha, requires_grad):
    """Every way to write a ± alpha * b: functions, methods, in place (recorded or not)."""
    x, y = lib.tensor(a, requires_grad=requires_grad), lib.tensor(b)
    results = [lib.add(x, y, alpha=alpha), lib.sub(x, y, alpha=alpha),
               x.add(y, alpha=alpha), x.sub(y, alpha=alpha)]
    for method in ("add_", "sub_"):
        target = x.clone() if requires_grad else lib.tensor(a)
        getattr(target, method)(y, alpha=alpha)
        results.append(target)
    return [r.detach().numpy() for r in results]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", LENGTHS)
def test_add_and_sub_with_alpha_round_once(avx2_torch, dtype, n):
    """PyTorch computes a + alpha * b as one fused multiply-add, rounded once, in its vector loop
    and in its scalar tail alike: rounding alpha * b first differs in the last bit for about one
    number in five."""
    for seed, alpha in enumerate([0.3, 3, -1.7, 1e-3, 2.5e10]):
        a = numbers(n, -10, 10, seed + n, dtype, specials=SPECIALS)
        b = numbers(n, -1000, 1000, seed + 2 * n, dtype)
        for requires_grad in (False, True):
            mine = _add_and_sub_with_alpha(minigrad, a, b, alpha, requires_grad)
            theirs = _add_and_sub_with_alpha(avx2_torch, a, b, alpha, requires_grad)
            for m, t in zip(mine, theirs):
                assert_same_bits_or_both_nan(m, t)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 15, 16, 17, 33, 1000, 32769, 100003])
@pytest.mark.parametrize("name", ["addcmul", "addcdiv", "lerp", "addcmul_", "addcdiv_", "lerp_"])
def test_addcmul_addcdiv_and_lerp_with_a_number(avx2_torch, name, dtype, n):
    """The steps optimizers take (Adam's addcmul_ and addcdiv_, lerp_ for its first moment):
    addcmul one fused multiply-add, lerp one from its nearer end, addcdiv rounded step by step."""
    for seed, value in enumerate([0.3, -1.7, 1e-3, 3, 0.9]):
        a, b, c = (numbers(n, -10, 10, 3 * seed + k + n, dtype, specials=SPECIALS[:5] if k else ())
                   for k in range(3))
        outcomes = []
        for lib in (minigrad, avx2_torch):
            x, y, z = lib.tensor(a), lib.tensor(b), lib.tensor(c)
            method = getattr(x, name)
            outcomes.append((method(y, value) if name.startswith("lerp") else method(y, z, value=value)).numpy())
        assert_same_bits_or_both_nan(*outcomes)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", LENGTHS + [3, 5, 9, 13, 29, 1517])
@pytest.mark.parametrize("other", ["float", "int", "0-d tensor", "1-element tensor"])
def test_add_and_sub_with_alpha_of_one_number(avx2_torch, dtype, n, other):
    """With one number to add, PyTorch's scalar tail multiplies and adds in two roundings for
    some of its numbers (see _vectorized_loop.rounded_twice_with_a_number), fuses the rest."""
    if n not in lengths_for(avx2_torch) and n > _vectorized_loop.GRAIN_SIZE:
        pytest.skip("torch uses another number of threads than minigrad assumes")
    rng = np.random.default_rng(n)
    for alpha in (0.3, -1.7, rng.uniform(-2, 2), 3):
        a, number = numbers(n, -10, 10, n + 1, dtype), rng.uniform(-3, 3)
        outcomes = []
        for lib in (minigrad, avx2_torch):
            b = {"float": number, "int": 3, "0-d tensor": lib.tensor(number, dtype=getattr(lib, dtype.__name__)),
                 "1-element tensor": lib.tensor([number], dtype=getattr(lib, dtype.__name__))}[other]
            x = lib.tensor(a)
            in_place = lib.tensor(a)
            in_place.sub_(b, alpha=alpha)
            outcomes.append([lib.add(x, b, alpha=alpha).numpy(), x.sub(b, alpha=alpha).numpy(),
                             in_place.numpy()])
        for mine, theirs in zip(*outcomes):
            assert_same_bits_or_both_nan(mine, theirs)


@pytest.mark.parametrize("layout", ["transposed", "one transposed", "broadcast row", "broadcast column",
                                    "float32 and float64", "int and float"])
def test_add_with_alpha_in_other_layouts(avx2_torch, layout):
    """Away from two contiguous tensors of one shape, every number is still fused, except where
    other is one number along PyTorch's inner loop (a column: y - alpha * x[:, :1])."""
    a, b = numbers(37 * 41, -10, 10, 1).reshape(37, 41), numbers(37 * 41, -100, 100, 2).reshape(37, 41)
    outcomes = []
    for lib in (minigrad, avx2_torch):
        x, y = lib.tensor(a), lib.tensor(b)
        x, y = {"transposed": (x.T, y.T), "one transposed": (x, y.T.contiguous().T),
                "broadcast row": (x, y[0]), "broadcast column": (x[:, :1], y),
                "float32 and float64": (x, y.double()),
                "int and float": (lib.tensor(np.arange(37 * 41).reshape(37, 41)), y)}[layout]
        outcomes.append((lib.add(x, y, alpha=0.3).numpy(), lib.sub(y, x, alpha=-1.7).numpy()))
    for mine, theirs in zip(*outcomes):
        assert_same_bits(mine, theirs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 7, 16, 17, 29, 1000, 1517])
def test_rsub_with_alpha_rounds_once(avx2_torch, dtype, n):
    """rsub(input, other, alpha) is other - alpha * input: one fused multiply-add too."""
    a, b = numbers(n, -10, 10, n, dtype), numbers(n, -100, 100, n + 1, dtype)
    outcomes = []
    for lib in (minigrad, avx2_torch):
        x, y = lib.tensor(a), lib.tensor(b)
        outcomes.append([lib.rsub(x, y, alpha=0.3).numpy(), lib.rsub(x, 1.37, alpha=-1.7).numpy(),
                         lib.rsub(x, lib.tensor(2.5, dtype=x.dtype), alpha=3).numpy()])
    for mine, theirs in zip(*outcomes):
        assert_same_bits(mine, theirs)


# --- mish: SLEEF's exp, log1p and tanh for whole vectors, the C library's for the rest; its
# backward fuses two multiply-adds (minigrad/nn/_mish.py) ---------------------------------------

NAN_PAYLOADS = list(np.array([0xFFC0_0000, 0x7FC1_2345, 0xFF81_2345], np.uint32).view(np.float32))
MISH_SPECIALS = SPECIALS + NAN_PAYLOADS + [-104.5, 8.66, -8.67, 20.0, -20.0, 1e38, -1e38, 3e-39, -3.4e38]


@pytest.mark.parametrize("n", LENGTHS)
def test_float32_mish_and_its_gradient(avx2_torch, n):
    """Every bit, NaNs' too: x's NaN, or (in the second vector of each step of two, and in the
    backward's vectors) SLEEF's NaN with every bit set; the gradient's NaN in the numbers left
    over is -x's; a NaN gradient coming in is kept."""
    if n not in lengths_for(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x = numbers(n, -30, 30, n, specials=MISH_SPECIALS)
    g = numbers(n, -3, 3, n + 1, specials=[np.nan, 1.0] + NAN_PAYLOADS[1:] * 2)

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.mish(t)
        out.backward(lib.tensor(g))
        return out.detach().numpy(), t.grad.numpy()
    for mine, theirs in zip(run(minigrad), run(avx2_torch)):
        assert_same_bits(mine, theirs)


@pytest.mark.parametrize("view", ["transposed", "every other column", "permuted", "0-d", "expanded"])
@pytest.mark.parametrize("backward", ["sum", "ones"])
def test_float32_mish_of_views(avx2_torch, view, backward):
    """Views are walked in PyTorch's order of their dims; a row whose numbers are not side by
    side goes one number at a time (the backward's grad of a sum is an expanded 0-d tensor)."""
    shape = {"0-d": (), "expanded": (3, 37), "permuted": (5, 6, 7)}.get(view, (20, 37))
    x = numbers(max(1, int(np.prod(shape))), -8, 8, 11, specials=MISH_SPECIALS).reshape(shape)
    make = {"transposed": lambda t: t.t(), "every other column": lambda t: t[:, ::2],
            "permuted": lambda t: t.permute(2, 0, 1), "0-d": lambda t: t,
            "expanded": lambda t: t.expand(4, 3, 37)}[view]

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.mish(make(t))
        if backward == "sum":
            out.sum().backward()
        else:
            out.backward(lib.ones(out.shape).mul(0.7))
        return out.detach().numpy(), t.grad.numpy()
    for mine, theirs in zip(run(minigrad), run(avx2_torch)):
        assert_same_bits(mine, theirs)


@pytest.mark.parametrize("n", [1, 31, 33, 1000, 32785, 65553])
def test_float16_mish_and_its_gradient(avx2_torch, n):
    """float16 in PyTorch's float32 steps, rounded at the end (NaNs compared as NaNs)."""
    if n not in lengths_for(avx2_torch):
        pytest.skip("torch uses another number of threads than minigrad assumes")
    x = numbers(n, -12, 12, n, np.float16, specials=[0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, -65504.0])
    g = numbers(n, -3, 3, n + 1, np.float16)

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.mish(t)
        out.backward(lib.tensor(g))
        return out.detach().numpy(), t.grad.numpy()
    for mine, theirs in zip(run(minigrad), run(avx2_torch)):
        assert mine.dtype == theirs.dtype == np.float16
        both = np.isnan(mine) & np.isnan(theirs)
        assert (mine.view(np.uint16) == theirs.view(np.uint16))[~both].all()


@pytest.mark.parametrize("function", ["elu", "celu", "selu", "softplus", "silu"])
@pytest.mark.parametrize("view", ["transposed", "every other column", "permuted"])
def test_float32_gradients_of_views_walked_in_pytorchs_order(avx2_torch, function, view):
    """A two-input backward kernel walks (grad, x) in PyTorch's order of their dims: where a run of
    numbers lies side by side, whole vectors take SLEEF's formula; elsewhere one number at a time."""
    shape = (5, 6, 7) if view == "permuted" else (20, 37)
    x = numbers(int(np.prod(shape)), -8, 8, 12, specials=SPECIALS).reshape(shape)
    make = {"transposed": lambda t: t.transpose(0, 1), "every other column": lambda t: t[:, ::2],
            "permuted": lambda t: t.permute(2, 0, 1)}[view]

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        out = getattr(lib.nn.functional, function)(make(t))
        out.backward(lib.ones(out.shape).mul(0.7))
        return t.grad.numpy()
    assert_same_bits(run(minigrad), run(avx2_torch))


@pytest.mark.parametrize("function", ["sigmoid", "silu"])
def test_float32_sigmoid_and_silu_one_number_at_a_time(avx2_torch, function):
    """Every other column: no run of numbers side by side, so PyTorch takes the C library's expf
    for each (float64's exp rounded to float32 misses its last bit about once in 3,000)."""
    x = numbers(40000, -20, 20, 5, specials=SPECIALS).reshape(-1, 10)

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        out = getattr(lib.nn.functional, function)(t[:, ::2])
        out.backward(lib.ones(out.shape).mul(0.7))
        return out.detach().numpy(), t.grad.numpy()
    for mine, theirs in zip(run(minigrad), run(avx2_torch)):
        assert_same_bits(mine, theirs)


def test_c_library_functions_fall_back_to_numpys_where_none_can_be_loaded(monkeypatch):
    """Without a loadable C math library (Windows), the leftover numbers take numpy's float32
    functions: the values stay right to rounding, and nothing fails."""
    from minigrad import _c_library_mathf
    x = np.linspace(-5, 5, 13, dtype=np.float32)
    monkeypatch.setattr(_c_library_mathf, "_function", lambda name, dtype: None)
    np.testing.assert_array_equal(_c_library_mathf.tanhf(x), np.tanh(x))
    np.testing.assert_array_equal(_c_library_mathf.sinf(x), np.sin(x))
    np.testing.assert_array_equal(_c_library_mathf.sin(x.astype(np.float64)), np.sin(x.astype(np.float64)))
    np.testing.assert_array_equal(_c_library_mathf.log1pf(x[x > -1]), np.log1p(x[x > -1]))
