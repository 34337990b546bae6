"""Same seed, same numbers, across dtypes, layouts and bounds: minigrad's random draws against PyTorch's.

Each case seeds both libraries alike, runs one random call and requires the same
bits, dtype, shape and strides (or the same exception class and message), and
then the same generator state, checked by drawing ``rand(2)`` afterwards.
"""
import numpy as np
import pytest

import minigrad

SEEDS = [0, 3]


def outcome(lib, program, seed):
    """What ``program(lib)`` gives after ``manual_seed(seed)``: the tensor's facts or the error,
    and the next two numbers of the generator."""
    lib.manual_seed(seed)
    try:
        x = program(lib)
        got = (str(x.dtype).split(".")[-1], tuple(x.shape), tuple(x.stride()), x.detach().numpy().copy())
    except Exception as error:   # noqa: BLE001 (the error is what is compared)
        got = (type(error).__name__, str(error).split("\nminigrad hint")[0])
    return got, lib.rand(2).numpy()


def assert_same(torch, program):
    for seed in SEEDS:
        (ours, ours_after), (theirs, theirs_after) = outcome(minigrad, program, seed), outcome(torch, program, seed)
        assert len(ours) == len(theirs) and ours[:-1] == theirs[:-1], (ours, theirs)
        if isinstance(ours[-1], np.ndarray):
            assert ours[-1].dtype == theirs[-1].dtype and np.array_equal(ours[-1], theirs[-1], equal_nan=True), \
                (ours[-1].ravel()[:6], theirs[-1].ravel()[:6])
        else:
            assert ours[-1] == theirs[-1]
        assert np.array_equal(ours_after, theirs_after), "the generator's state differs after the call"


def layout(lib, kind, n, dtype):
    """A tensor of n x 3 (or n-sized) elements laid out in memory in one of several ways."""
    dt = getattr(lib, dtype)
    return {"rows": lambda: lib.zeros(n, 3, dtype=dt),
            "transposed": lambda: lib.zeros(3, n, dtype=dt).t(),
            "strided": lambda: lib.zeros(n, 6, dtype=dt)[:, ::2],
            "channels_last": lambda: lib.zeros(2, 3, n, 2, dtype=dt).contiguous(memory_format=lib.channels_last),
            "expanded": lambda: lib.zeros(1, 3, dtype=dt).expand(n, 3)}[kind]()


LAYOUTS = ["rows", "transposed", "strided", "channels_last", "expanded"]
FLOATS = ["float16", "float32", "float64"]


@pytest.mark.parametrize("n", [1, 5, 15, 16, 17, 33, 1000])
@pytest.mark.parametrize("function", ["rand", "randn"])
def test_float16_rand_and_randn(torch, function, n):
    """float16: uniforms rounded up to 1 become 0; normals from 16 on draw whole blocks only."""
    assert_same(torch, lambda lib: getattr(lib, function)(n, dtype=lib.float16))


@pytest.mark.parametrize("n", [5, 16, 17, 40, 1000])
@pytest.mark.parametrize("kind", ["rows", "transposed"])
def test_float16_in_place_and_normal(torch, kind, n):
    assert_same(torch, lambda lib: layout(lib, kind, n, "float16").normal_(2, 3))
    assert_same(torch, lambda lib: layout(lib, kind, n, "float16").uniform_(2, 3))
    assert_same(torch, lambda lib: lib.normal(2.0, 3.0, size=(n,), dtype=lib.float16))
    assert_same(torch, lambda lib: lib.normal(lib.zeros(n, dtype=lib.float16), 3.0))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "float16", "float32", "bool"])
@pytest.mark.parametrize("n", [-1, 2, 128, 129, 256, 257, 2049, 2050, 32769])
def test_randperm_sizes_and_dtypes(torch, n, dtype):
    assert_same(torch, lambda lib: lib.randperm(n, dtype=getattr(lib, dtype)))


@pytest.mark.parametrize("low, high", [(0, 2 ** 20), (0, 2 ** 28 - 1), (0, 2 ** 28), (-2 ** 27, 2 ** 27),
                                       (0, 2 ** 31), (0, 2 ** 32 - 1), (0, 2 ** 32), (5, 2 ** 40),
                                       (-2 ** 63, 2 ** 63 - 1)])
def test_integer_spans(torch, low, high):
    """From a span of 2**28 on, PyTorch takes one 64-bit draw per number."""
    assert_same(torch, lambda lib: lib.randint(low, high, (7,)))
    assert_same(torch, lambda lib: lib.zeros(7, dtype=lib.int64).random_(low, high))
    assert_same(torch, lambda lib: lib.randint_like(lib.zeros(3, 4).t(), low, high, dtype=lib.int64))


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("bounds", [(5, None), (-3, None), (-2 ** 63, None), {"to": 9}, {"from": 3, "to": 9}])
def test_random_bounds_forms(torch, bounds, dtype):
    def program(lib):
        x = lib.zeros(7, dtype=getattr(lib, dtype))
        return x.random_(**bounds) if isinstance(bounds, dict) else x.random_(*bounds)
    assert_same(torch, program)


IN_PLACE = {
    "cauchy_": lambda x: x.cauchy_(0.5, 2),
    "log_normal_": lambda x: x.log_normal_(0.2, 0.7),
    "geometric_": lambda x: x.geometric_(0.3),
    "random_": lambda x: x.random_(3, 9),
}


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "bool"])
@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("name", list(IN_PLACE))
def test_in_place_draws(torch, name, kind, dtype):
    """Expanded tensors are refused (in PyTorch's order of checks), log_normal_ fuses its
    multiply-add, geometric_ refuses bool."""
    for n in (5, 17):
        assert_same(torch, lambda lib: IN_PLACE[name](layout(lib, kind, n, dtype)))


def source(lib, kind, dtype):
    dt = getattr(lib, dtype)
    return {"transposed": lambda: lib.zeros(5, 4, dtype=dt).t(),
            "channels_last": lambda: lib.zeros(2, 3, 4, 5, dtype=dt).contiguous(memory_format=lib.channels_last),
            "rows": lambda: lib.zeros(2, 3, 4, 5, dtype=dt)}[kind]()


@pytest.mark.parametrize("memory_format", ["contiguous_format", "channels_last", "preserve_format"])
@pytest.mark.parametrize("kind", ["rows", "channels_last"])
@pytest.mark.parametrize("function", ["rand_like", "randn_like"])
def test_like_with_memory_format(torch, function, kind, memory_format):
    for dtype in ("float32", "float64", "int64"):
        assert_same(torch, lambda lib: getattr(lib, function)(
            source(lib, kind, "float32"), memory_format=getattr(lib, memory_format), dtype=getattr(lib, dtype)))


@pytest.mark.parametrize("dtype", [None, "int64", "int32"])
def test_randn_like_transposed_refuses_integers(torch, dtype):
    def program(lib):
        kw = {} if dtype is None else {"dtype": getattr(lib, dtype)}
        return lib.randn_like(source(lib, "transposed", "int32"), **kw)
    assert_same(torch, program)


def test_fork_rng_puts_the_state_back(torch):
    def program(lib):
        with lib.random.fork_rng():
            lib.rand(3)
        return lib.rand(3)
    assert_same(torch, program)


@pytest.mark.parametrize("seed", [2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63, -2 ** 63 - 1])
def test_manual_seed_range(torch, seed):
    assert_same(torch, lambda lib: (lib.manual_seed(seed), lib.rand(3))[1])
    assert_same(torch, lambda lib: lib.rand(3, generator=lib.Generator().manual_seed(seed)))


def test_generator_refuses_a_float_seed(torch):
    assert_same(torch, lambda lib: lib.Generator().manual_seed(1.5))
    assert_same(torch, lambda lib: (lib.manual_seed(1.5), lib.rand(3))[1])


@pytest.mark.parametrize("batch", [(), (3,), (2, 5)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_one_hot_categorical_samples_are_row_major(torch, batch, dtype):
    def program(lib):
        probs = lib.ones(*batch, 1, dtype=getattr(lib, dtype)) * lib.tensor([1., 2., 3., 4.], dtype=getattr(lib, dtype))
        return lib.distributions.OneHotCategorical(probs=probs).sample((4,))
    assert_same(torch, program)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("bounds", [(0, float("inf")), (-float("inf"), 0), (-6e4, 6e4), (-3e38, 3e38),
                                    (0, 1e5), (-1e308, 1e308)])
def test_uniform_bounds_checked_in_the_dtype(torch, bounds, dtype):
    assert_same(torch, lambda lib: lib.zeros(3, dtype=getattr(lib, dtype)).uniform_(*bounds))


@pytest.mark.parametrize("bounds", [(-5e300, 5e300), (-1e308, 1e308), (1e300, 1.7e308)])
def test_uniform_over_huge_float64_ranges(torch, bounds):
    # (from + (to - from) * u is one fused multiply-add in PyTorch: its emulation must split
    # numbers near float64's largest without overflowing)
    assert_same(torch, lambda lib: lib.zeros(1000, dtype=lib.float64).uniform_(*bounds))


@pytest.mark.filterwarnings("ignore:to - 1 is out of bounds")
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("high", [10, 2049, 5000, 70001])
def test_randint_into_floats_moves_unrepresentable_bounds(torch, high, dtype):
    assert_same(torch, lambda lib: lib.randint(-3, high, (9,), dtype=getattr(lib, dtype)))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "bool", "float16"])
@pytest.mark.parametrize("bounds", [(-1, 5), (0, 257), (-200, 0), (300,), (0, 2 ** 40), (3, 1), (-5, None),
                                    (300, None)])
def test_random_and_randint_bounds_errors(torch, bounds, dtype):
    assert_same(torch, lambda lib: lib.zeros(9, dtype=getattr(lib, dtype)).random_(*bounds))
    if len(bounds) == 2 and bounds[1] is not None:
        assert_same(torch, lambda lib: lib.randint(*bounds, (9,), dtype=getattr(lib, dtype)))
