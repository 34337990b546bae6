"""Same seed, same numbers: minigrad's random functions against PyTorch's CPU generator, bit for bit.

Each test seeds both libraries alike, runs the same sequence of random calls
and requires identical bits (``np.array_equal`` on the arrays, no tolerance).
Sizes below and above 16 matter (randn switches algorithm there), as do
sizes that are not a multiple of 16 and both float dtypes.
"""
import numpy as np
import pytest

import minigrad

SEEDS = [0, 1, 2, 7, 42, 1234, 2**31 - 1, 2**32 + 5, 67280421310721]
SIZES = [1, 2, 5, 15, 16, 17, 31, 32, 33, 100, 1000, 4099]
DTYPES = ["float32", "float64"]


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def both(torch, program, seed):
    """Run ``program(lib)`` under minigrad and torch after the same ``manual_seed``; return the arrays."""
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(seed)
        out = program(lib)
        results.append([t.detach().numpy() if hasattr(t, "detach") else t for t in out])
    return results


def assert_same(torch, program, seed):
    ours, theirs = both(torch, program, seed)
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert same(a, b), f"draw {k}: minigrad {np.asarray(a).ravel()[:6]} vs torch {np.asarray(b).ravel()[:6]}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("size", SIZES)
def test_rand_and_randn(torch, size, dtype):
    def program(lib):
        dt = getattr(lib, dtype)
        return [lib.rand(size, dtype=dt), lib.randn(size, dtype=dt), lib.randn(size, dtype=dt),
                lib.rand(3, dtype=dt), lib.randn(1, dtype=dt), lib.randn(1, dtype=dt), lib.rand(1, dtype=dt)]
    for seed in SEEDS:
        assert_same(torch, program, seed)


@pytest.mark.parametrize("shape", [(3, 4), (4, 4), (2, 3, 5), (7, 9), (64, 10)])
def test_shapes_and_default_dtype(torch, shape):
    def program(lib):
        return [lib.randn(*shape), lib.rand(shape), lib.randn(shape, requires_grad=True)]
    for seed in SEEDS:
        assert_same(torch, program, seed)


def test_fresh_generator_uses_pytorchs_default_seed(torch):
    ours, theirs = minigrad.Generator(), torch.Generator()
    assert ours.initial_seed() == theirs.initial_seed() == 67280421310721
    assert same(minigrad.randn(20, generator=ours).numpy(), torch.randn(20, generator=theirs).numpy())


@pytest.mark.parametrize("dtype", DTYPES)
def test_normal_and_uniform_in_place(torch, dtype):
    def program(lib):
        dt = getattr(lib, dtype)
        out = []
        for n in (3, 16, 50):
            out.append(lib.empty(n, dtype=dt).normal_(2.5, 0.3))
            out.append(lib.empty(n, dtype=dt).normal_())
            out.append(lib.zeros(n, dtype=dt).uniform_(-0.7, 0.7))
            out.append(lib.zeros(n, dtype=dt).uniform_())
            out.append(lib.normal(1.0, 2.0, size=(n,), dtype=dt))
        return out
    for seed in SEEDS:
        assert_same(torch, program, seed)


@pytest.mark.parametrize("size", [1, 5, 100, 1000])
def test_randint(torch, size):
    def program(lib):
        return [lib.randint(10, (size,)), lib.randint(-5, 5, (size,)), lib.randint(0, 2**40, (size,)),
                lib.randint(3, 1000, (size,), dtype=lib.int32)]
    for seed in SEEDS:
        assert_same(torch, program, seed)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 10, 100, 1000])
def test_randperm(torch, n):
    for seed in SEEDS:
        assert_same(torch, lambda lib: [lib.randperm(n), lib.rand(2)], seed)


@pytest.mark.parametrize("dtype", DTYPES)
def test_bernoulli(torch, dtype):
    def program(lib):
        p = lib.linspace(0, 1, 40, dtype=getattr(lib, dtype))
        return [lib.bernoulli(p), lib.bernoulli(p.reshape(5, 8)), lib.rand(3)]
    for seed in SEEDS:
        assert_same(torch, program, seed)


@pytest.mark.parametrize("p_dtype", DTYPES)
@pytest.mark.parametrize("dtype", DTYPES + ["int64", "bool"])
def test_bernoulli_in_place_with_a_number_and_with_a_tensor(torch, dtype, p_dtype):
    """A number p draws float64 uniforms, a tensor p float32 ones unless p is float64."""
    def program(lib):
        dt, pdt = getattr(lib, dtype), getattr(lib, p_dtype)
        p_row = lib.linspace(0, 1, 8, dtype=pdt)
        return [lib.empty(37, dtype=dt).bernoulli_(0.3), lib.empty(5, 8, dtype=dt).bernoulli_(),
                lib.empty(5, 8, dtype=dt).bernoulli_(p_row),             # p broadcast over the rows
                lib.empty(40, dtype=dt).bernoulli_(lib.full((40,), 0.7, dtype=pdt)),
                lib.bernoulli(lib.zeros(3, 7, dtype=pdt), p=0.25), lib.bernoulli(lib.zeros(9, dtype=pdt), 0.6),
                lib.empty(2, dtype=dt).bernoulli_(1.0), lib.empty(2, dtype=dt).bernoulli_(0),
                lib.rand(3)]
    for seed in SEEDS:
        assert_same(torch, program, seed)


def test_bernoulli_in_place_graph_and_errors(torch):
    for lib in (minigrad, torch):
        lib.manual_seed(0)
    names, grads = [], []
    for lib in (minigrad, torch):
        x = lib.ones(3, requires_grad=True)
        p = lib.full((3,), 0.5, requires_grad=True)
        a, b, c = (x * 1).bernoulli_(0.5), (x * 1).bernoulli_(p * 1), lib.bernoulli(p * 1)
        (a.sum() + b.sum() + c.sum()).backward()
        names.append([a.grad_fn.name(), b.grad_fn.name(), type(b.grad_fn.next_functions[1][0]).__name__,
                      c.grad_fn.name()])
        grads.append([x.grad.tolist(), p.grad.tolist()])
    assert names[0] == names[1] == ["BernoulliBackward2", "BernoulliBackward1", "MulBackward0",
                                   "BernoulliBackward0"]
    assert grads[0] == grads[1]
    calls = [lambda lib: lib.empty(3).bernoulli_(1.5),
             lambda lib: lib.empty(3).bernoulli_(lib.full((3,), 1.5)),
             lambda lib: lib.bernoulli(lib.full((3,), -0.5)),
             lambda lib: lib.empty(3).bernoulli_(lib.full((2,), 0.5)),
             lambda lib: lib.ones(3, requires_grad=True).bernoulli_(0.5)]
    for call in calls:
        caught = []
        for lib in (minigrad, torch):
            with pytest.raises(Exception) as info:
                call(lib)
            caught.append((type(info.value).__name__, str(info.value).split("\nminigrad hint:")[0]))
        assert caught[0] == caught[1]


@pytest.mark.parametrize("dtype", DTYPES)
def test_like_functions_and_generators(torch, dtype):
    def program(lib):
        dt = getattr(lib, dtype)
        base = lib.zeros(4, 5, dtype=dt)
        g = lib.Generator().manual_seed(99)
        return [lib.rand_like(base), lib.randn_like(base), lib.randn(20, generator=g, dtype=dt),
                lib.rand(3, generator=g, dtype=dt), lib.randn(5, dtype=dt), lib.randint(0, 9, (4,), generator=g),
                lib.randperm(6, generator=g), lib.empty(20, dtype=dt).normal_(generator=g)]
    for seed in SEEDS:
        assert_same(torch, program, seed)


def test_manual_seed_returns_the_default_generator_and_restarts(torch):
    g = minigrad.manual_seed(3)
    assert isinstance(g, minigrad.Generator) and g is minigrad.default_generator
    first = minigrad.randn(1).item()
    minigrad.manual_seed(3)
    assert minigrad.randn(1).item() == first
    assert minigrad.initial_seed() == torch.manual_seed(3).initial_seed() == 3


def test_empty_stays_zeros():
    assert not minigrad.empty(3, 4).numpy().any()


# Run in a fresh process: PyTorch and minigrad read ATEN_CPU_CAPABILITY when they are imported.
_OTHER_CPU_SCRIPT = """
import numpy as np, torch, minigrad
assert torch.backends.cpu.get_cpu_capability() == "DEFAULT"
for seed in range(5):
    for lib in (minigrad, torch):
        lib.manual_seed(seed)
    for n in (16, 100, 1001):
        a = minigrad.randn(n).numpy(); b = torch.randn(n).numpy()
        assert np.array_equal(a, b), (seed, n)
        a = minigrad.empty(n).normal_(2.0, 0.5).numpy(); b = torch.empty(n).normal_(2.0, 0.5).numpy()
        assert np.array_equal(a, b), (seed, n, "normal_")
print("same")
"""


def test_float32_randn_on_cpus_without_avx2(torch):
    """Without AVX2 PyTorch uses the C library's float log/sin/cos; so does minigrad."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    result = subprocess.run([sys.executable, "-c", _OTHER_CPU_SCRIPT], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.stdout.strip() == "same", result.stderr[-2000:]


# --- draws into tensors not laid out row-major, and into out= ---------------------------------
# PyTorch's loops fill such a tensor in the order its elements lie in memory (normal_ then takes
# single Box-Muller draws whatever the size: its 16-at-a-time path is for row-major tensors).

LAYOUTS = {
    "transposed": lambda L, dt, n: L.empty(n, 2, dtype=dt).t(),
    "every second column": lambda L, dt, n: L.empty(2, 2 * n, dtype=dt)[:, ::2],
    "channels last": lambda L, dt, n: L.empty(1, 3, n, 2, dtype=dt).to(memory_format=L.channels_last),
}
IN_PLACE_DRAWS = {
    "normal_": lambda L, t: t.normal_(0.5, 2.0),
    "uniform_": lambda L, t: t.uniform_(-1.0, 3.0),
    "bernoulli_ of a number": lambda L, t: t.bernoulli_(0.3),
    "bernoulli_ of a tensor": lambda L, t: t.bernoulli_(L.linspace(0.0, 1.0, t.numel()).view(t.shape)),
    "exponential_": lambda L, t: t.exponential_(),
    "cauchy_": lambda L, t: t.cauchy_(),
    "log_normal_": lambda L, t: t.log_normal_(),
    "geometric_": lambda L, t: t.geometric_(0.3),
    "random_": lambda L, t: t.random_(0, 100),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("draw", sorted(IN_PLACE_DRAWS))
@pytest.mark.parametrize("size", [3, 20])
@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place_draws_follow_memory_order(torch, layout, draw, size, dtype):
    def program(L):
        target = LAYOUTS[layout](L, getattr(L, dtype), size)
        IN_PLACE_DRAWS[draw](L, target)
        return [target.contiguous(), L.rand(3)]          # (and the generator's state after)
    assert_same(torch, program, 5)


OUT_DRAWS = {
    "bernoulli": lambda L, out: L.bernoulli(L.linspace(0.0, 1.0, 20).view(4, 5), out=out),
    "normal of tensors": lambda L, out: L.normal(L.zeros(4, 5) + 0.1, L.ones(5) / 3, out=out),
    "normal of a tensor mean": lambda L, out: L.normal(L.zeros(4, 5, dtype=L.float64) + 0.1, 2.0, out=out),
    "normal of a tensor std": lambda L, out: L.normal(0.1, L.ones(4, 5) / 3, out=out),
    "normal with a size": lambda L, out: L.normal(0.1, 1 / 3, (4, 5), out=out),
}
OUTS = {
    "empty float32": lambda L: L.empty(0),
    "float64 of the shape": lambda L: L.empty(4, 5, dtype=L.float64),
    "transposed float32": lambda L: L.empty(5, 4).t(),
    "float32 of another shape": lambda L: L.empty(3),
    "int64": lambda L: L.empty(4, 5, dtype=L.int64),
    "bool": lambda L: L.empty(4, 5, dtype=L.bool),
}


@pytest.mark.parametrize("draw", sorted(OUT_DRAWS))
@pytest.mark.parametrize("out", sorted(OUTS))
def test_random_functions_draw_into_out(torch, draw, out):
    import warnings

    def run(L):
        L.manual_seed(9)
        target = OUTS[out](L)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                returned = OUT_DRAWS[draw](L, target)
            except Exception as error:
                return type(error).__name__, str(error), [str(w.message) for w in caught]
        return (returned is target, target.dtype.__repr__(), tuple(target.shape), target.stride(),
                target._version, target.contiguous().numpy().tolist(), L.rand(2).tolist(),
                [str(w.message).split(" (Triggered internally")[0] for w in caught])
    assert run(minigrad) == run(torch)


OUT_MISUSE = {
    "bernoulli, p a number": lambda L: L.bernoulli(L.ones(3) / 2, 0.3, out=L.empty(3)),
    "bernoulli, p above 1": lambda L: L.bernoulli(L.full((3,), 2.0), out=L.empty(3)),
    "bernoulli, out requires grad": lambda L: L.bernoulli(L.ones(3) / 2, out=L.empty(3, requires_grad=True)),
    "bernoulli, p requires grad": lambda L: L.bernoulli((L.ones(3) / 2).requires_grad_(), out=L.empty(3)),
    "normal, negative std": lambda L: L.normal(L.zeros(3), L.full((3,), -1.0), out=L.empty(3, dtype=L.int64)),
    "normal, shapes": lambda L: L.normal(L.zeros(3), L.ones(2), out=L.empty(3)),
    "normal, mean requires grad": lambda L: L.normal(L.zeros(3, requires_grad=True), 1.0, out=L.empty(3)),
    "normal with a size, out requires grad": lambda L: L.normal(0.0, 1.0, (3,), out=L.empty(3, requires_grad=True)),
    "normal with a size, int64 out": lambda L: L.normal(0.0, 1.0, (3,), out=L.empty(3, dtype=L.int64)),
    "normal, out not a tensor": lambda L: L.normal(L.zeros(3), 1.0, out=[1.0]),
}


@pytest.mark.parametrize("name", sorted(OUT_MISUSE))
def test_random_functions_into_out_misuse(torch, name):
    def run(L):
        try:
            OUT_MISUSE[name](L)
        except Exception as error:
            return type(error).__name__, str(error).split("\nminigrad hint:")[0]
        return "ok", None
    assert run(minigrad) == run(torch)


# --- random results shaped like a tensor that is not row-major -------------------------------
# Most keep the input's layout and fill it in memory order (randint_like, rand_like, dropout's
# mask, ...); bernoulli makes a row-major result (PyTorch's legacy contiguous format).

def _transposed(L):
    return L.arange(1.0, 41.0).view(20, 2).t()


SHAPED_LIKE = {
    "bernoulli": lambda L, x: L.bernoulli(x / 50),
    "bernoulli with p": lambda L, x: L.bernoulli(x / 50, 0.3),
    "randint_like": lambda L, x: L.randint_like(x, 10),
    "randint_like, low and high": lambda L, x: L.randint_like(x, -3, 7, dtype=L.int64),
    "randint_like, row-major": lambda L, x: L.randint_like(x, 10, memory_format=L.contiguous_format),
    "rand_like": lambda L, x: L.rand_like(x),
    "randn_like": lambda L, x: L.randn_like(x),
    "poisson": lambda L, x: L.poisson(x),
    "normal of a tensor": lambda L, x: L.normal(x, 1.0),
    "dropout": lambda L, x: L.nn.functional.dropout(x, 0.5),
    "alpha_dropout": lambda L, x: L.nn.functional.alpha_dropout(x, 0.5, training=True),
    "rrelu": lambda L, x: L.nn.functional.rrelu(-x, training=True),
    "multinomial": lambda L, x: L.multinomial(x, 3),
    "rand into a transposed out": lambda L, x: L.rand(2, 20, out=L.empty(20, 2).t()),
    "randn into a transposed out": lambda L, x: L.randn(2, 20, out=L.empty(20, 2, dtype=L.float64).t()),
    "randint into a transposed out": lambda L, x: L.randint(3, 9, (2, 20), out=L.empty(20, 2, dtype=L.int64).t()),
    "randint into a transposed float out": lambda L, x: L.randint(9, size=(2, 20), out=L.empty(20, 2).t()),
    "rand into an out of another size": lambda L, x: L.rand(2, 20, out=L.empty(20, 3).t()),
    "randn into a channels-last out": lambda L, x: L.randn(
        (1, 3, 4, 2), out=L.empty(1, 3, 4, 2).to(memory_format=L.channels_last)),
}


@pytest.mark.parametrize("name", sorted(SHAPED_LIKE))
def test_random_results_shaped_like_a_transposed_tensor(torch, name):
    import warnings

    def run(L):
        L.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drawn = SHAPED_LIKE[name](L, _transposed(L))
        return (drawn.stride(), drawn.dtype.__repr__(), drawn.detach().contiguous().numpy().tolist(),
                L.rand(2).tolist())
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("bounds", [(1 / 8, 1 / 3), (0.1, 0.3), (0.01, 0.99)])
def test_rrelu_slopes_to_the_last_bit(torch, dtype, bounds):
    # one double draw per element <= 0 between the bounds rounded to the computing dtype,
    # multiplied and added in two roundings; no float16 kernel while training
    def run(L):
        L.manual_seed(3)
        x = -L.arange(1.0, 300.0).to(getattr(L, dtype))
        try:
            out = L.nn.functional.rrelu(x, *bounds, training=True)
        except NotImplementedError as error:
            return str(error)
        return out.tolist(), L.rand(2).tolist()
    assert run(minigrad) == run(torch)
