"""In-place operations into views whose elements share memory, compared with PyTorch.

A view made by ``as_strided`` (or ``unfold``) can see one memory location at several
positions. PyTorch lets most in-place operations write into such a view and works element by
element, so a location seen twice is written twice and keeps what its last write left: the
order of PyTorch's loop shows in the values. Views with a step of 0 (``expand``) are refused
by most operations. Every case here builds a random view (seeded) of a random memory, runs
one operation in both libraries and compares the memory to the last bit (or the error, and
the deprecation warnings), the version; recorded, also the nodes and the gradient that comes
back through CopySlices.
"""
import warnings

import numpy as np
import pytest

import minigrad

LAYOUTS = 25          # random views per operation and dtype


def random_layout(rng, min_dims=1):
    """(memory size, shape, steps, offset) of a random as_strided view, most of them with
    elements that share memory (steps smaller than the span of the smaller ones)."""
    ndim = int(rng.integers(min_dims, 4))
    shape = [int(n) for n in rng.integers(1, 5, size=ndim)]
    steps = [int(s) for s in rng.integers(1, 4, size=ndim)]
    if rng.random() < 0.1:                   # an expanded dimension
        steps[int(rng.integers(ndim))] = 0
    offset = int(rng.integers(0, 3))
    size = offset + sum((n - 1) * s for n, s in zip(shape, steps)) + 1 + int(rng.integers(0, 2))
    return size, tuple(shape), tuple(steps), offset


def _values(rng, shape, dtype, positive=False):
    values = rng.standard_normal(shape)
    if positive:
        values = np.abs(values) + 0.5
    return values.astype(dtype)


def _indices(rng, high, count, negative=False):
    low = -high if negative else 0
    return rng.integers(low, high, size=count).astype(np.int64)


# --- the operations: each gets (rng, shape, dtype) and gives its arguments as numpy arrays and
# numbers, and a function of (library, view, arguments) that runs it ------------------------

def _scatter_arguments(rng, shape, dtype):
    dim = int(rng.integers(len(shape)))
    index_shape = [int(rng.integers(1, n + 1)) for n in shape]
    index_shape[dim] = int(rng.integers(1, 4))
    source_shape = [n + int(rng.integers(0, 2)) for n in index_shape]
    return dict(dim=dim, index=rng.integers(0, shape[dim], size=index_shape).astype(np.int64),
                src=_values(rng, source_shape, dtype))


def _index_arguments(rng, shape, dtype):
    dim = int(rng.integers(len(shape)))
    count = int(rng.integers(1, shape[dim] + 2))
    source_shape = list(shape)
    source_shape[dim] = count
    return dict(dim=dim, index=_indices(rng, shape[dim], count), source=_values(rng, source_shape, dtype))


def _index_put_arguments(rng, shape, dtype):
    indexed = int(rng.integers(1, len(shape) + 1))
    count = int(rng.integers(1, 5))
    indices = [_indices(rng, shape[d], count, negative=True) for d in range(indexed)]
    result_shape = [count] + list(shape[indexed:])
    values_shape = result_shape[int(rng.integers(len(result_shape) + 1)):]
    return dict(indices=indices, values=_values(rng, values_shape, dtype))


def _broadcast_shape(rng, shape):
    """A shape that broadcasts to ``shape``: itself, its last dims, or nothing (0-d)."""
    return tuple(shape[int(rng.integers(len(shape) + 1)):])


def _pointwise_arguments(count, positive=()):
    def arguments(rng, shape, dtype):
        return dict(others=[_values(rng, _broadcast_shape(rng, shape), dtype, positive=i in positive)
                            for i in range(count)], number=float(rng.uniform(-2, 2)))
    return arguments


def _tensor(L, array):
    return None if array is None else L.tensor(array)


OPERATIONS = {
    "scatter_": (_scatter_arguments, lambda L, v, a: v.scatter_(a["dim"], L.tensor(a["index"]), L.tensor(a["src"]))),
    "scatter_ value": (_scatter_arguments, lambda L, v, a: v.scatter_(a["dim"], L.tensor(a["index"]), 1.25)),
    "scatter_ add": (_scatter_arguments, lambda L, v, a: v.scatter_(
        a["dim"], L.tensor(a["index"]), L.tensor(a["src"]), reduce="add")),
    "scatter_ multiply": (_scatter_arguments, lambda L, v, a: v.scatter_(
        a["dim"], L.tensor(a["index"]), L.tensor(a["src"]), reduce="multiply")),
    "scatter_ value multiply": (_scatter_arguments, lambda L, v, a: v.scatter_(
        a["dim"], L.tensor(a["index"]), 1.5, reduce="multiply")),
    "scatter_add_": (_scatter_arguments, lambda L, v, a: v.scatter_add_(
        a["dim"], L.tensor(a["index"]), L.tensor(a["src"]))),
    **{f"scatter_reduce_ {reduce} {include_self}": (
        _scatter_arguments, lambda L, v, a, reduce=reduce, include_self=include_self: v.scatter_reduce_(
            a["dim"], L.tensor(a["index"]), L.tensor(a["src"]), reduce, include_self=include_self))
       for reduce in ("sum", "prod", "mean", "amax", "amin") for include_self in (True, False)},
    "index_copy_": (_index_arguments, lambda L, v, a: v.index_copy_(
        a["dim"], L.tensor(a["index"]), L.tensor(a["source"]))),
    **{f"index_reduce_ {reduce} {include_self}": (
        _index_arguments, lambda L, v, a, reduce=reduce, include_self=include_self: v.index_reduce_(
            a["dim"], L.tensor(a["index"]), L.tensor(a["source"]), reduce, include_self=include_self))
       for reduce in ("prod", "mean", "amax", "amin") for include_self in (True, False)},
    "index_fill_": (_index_arguments, lambda L, v, a: v.index_fill_(a["dim"], L.tensor(a["index"]), -0.5)),
    "index_fill_ tensor": (_index_arguments, lambda L, v, a: v.index_fill_(
        a["dim"], L.tensor(a["index"]), L.tensor(2.5, dtype=v.dtype))),
    "index_put_": (_index_put_arguments, lambda L, v, a: v.index_put_(
        tuple(_tensor(L, i) for i in a["indices"]), L.tensor(a["values"]))),
    "index_put_ accumulate": (_index_put_arguments, lambda L, v, a: v.index_put_(
        tuple(_tensor(L, i) for i in a["indices"]), L.tensor(a["values"]), accumulate=True)),
    "x[i] = v": (_index_put_arguments, lambda L, v, a: v.__setitem__(
        tuple(_tensor(L, i) for i in a["indices"]), L.tensor(a["values"]))),
    "index_put_ mask": (_index_arguments, lambda L, v, a: v.index_put_(
        (L.tensor(a["source"].reshape(-1)[:v.shape[0]] > 0),), L.tensor(1.5, dtype=v.dtype))),
    "put_": (_index_arguments, lambda L, v, a: v.put_(
        L.tensor(a["index"]), L.tensor(a["source"].reshape(-1)[:a["index"].size]))),
    "put_ accumulate": (_index_arguments, lambda L, v, a: v.put_(
        L.tensor(a["index"]), L.tensor(a["source"].reshape(-1)[:a["index"].size]), accumulate=True)),
    "addcmul_": (_pointwise_arguments(2), lambda L, v, a: v.addcmul_(
        *(L.tensor(o) for o in a["others"]), value=a["number"])),
    "addcdiv_": (_pointwise_arguments(2, positive=(1,)), lambda L, v, a: v.addcdiv_(
        *(L.tensor(o) for o in a["others"]), value=a["number"])),
    "lerp_": (_pointwise_arguments(1), lambda L, v, a: v.lerp_(L.tensor(a["others"][0]), a["number"] / 2)),
    "lerp_ tensor weight": (_pointwise_arguments(2), lambda L, v, a: v.lerp_(*(L.tensor(o) for o in a["others"]))),
    "atan2_": (_pointwise_arguments(1), lambda L, v, a: v.atan2_(L.tensor(a["others"][0]))),
    "hypot_": (_pointwise_arguments(1), lambda L, v, a: v.hypot_(L.tensor(a["others"][0]))),
    "copysign_": (_pointwise_arguments(1), lambda L, v, a: v.copysign_(L.tensor(a["others"][0]))),
    "xlogy_": (_pointwise_arguments(1, positive=(0,)), lambda L, v, a: v.xlogy_(L.tensor(a["others"][0]))),
    "fmod_": (_pointwise_arguments(1, positive=(0,)), lambda L, v, a: v.fmod_(L.tensor(a["others"][0]))),
    "lerp_ weight=": (_pointwise_arguments(2), lambda L, v, a: v.lerp_(L.tensor(a["others"][0]),
                                                                   weight=L.tensor(a["others"][1]))),
    # (a float64 other: PyTorch computes in float64 out of place, then copies back in its order)
    "add_ float64": (_pointwise_arguments(1), lambda L, v, a: v.add_(L.tensor(a["others"][0].astype(np.float64)))),
    "lt_": (_pointwise_arguments(1), lambda L, v, a: v.lt_(L.tensor(a["others"][0]))),
    "ge_ number": (_pointwise_arguments(0), lambda L, v, a: v.ge_(a["number"])),
    "polygamma_": (_pointwise_arguments(0), lambda L, v, a: v.polygamma_(1)),
    # (outside training rrelu is leaky_relu's kernel: each position in turn)
    "rrelu inplace": (_pointwise_arguments(0), lambda L, v, a: L.nn.functional.rrelu(v, inplace=True)),
    "rrelu_": (_pointwise_arguments(0), lambda L, v, a: L.nn.functional.rrelu_(v)),
    "leaky_relu_": (_pointwise_arguments(0), lambda L, v, a: L.nn.functional.leaky_relu_(v, 0.2)),
    "masked_fill_": (_pointwise_arguments(1), lambda L, v, a: v.masked_fill_(L.tensor(a["others"][0] > 0), 0.75)),
    "masked_scatter_": (_pointwise_arguments(1), lambda L, v, a: v.masked_scatter_(
        L.tensor(a["others"][0] > 0), L.arange(100.0, dtype=v.dtype))),
    "cumsum_": (lambda rng, shape, dtype: dict(dim=int(rng.integers(-len(shape), len(shape)))),
                lambda L, v, a: v.cumsum_(a["dim"])),
    "cumprod_": (lambda rng, shape, dtype: dict(dim=int(rng.integers(-len(shape), len(shape)))),
                 lambda L, v, a: v.cumprod_(a["dim"])),
    "renorm_": (lambda rng, shape, dtype: dict(p=float(rng.choice([1.0, 2.0, 3.0])), dim=int(rng.integers(len(shape))),
                                               maxnorm=float(rng.uniform(0.1, 2.0))),
                lambda L, v, a: v.renorm_(a["p"], a["dim"], a["maxnorm"])),
    "tril_": (lambda rng, shape, dtype: dict(diagonal=int(rng.integers(-2, 3))),
              lambda L, v, a: v.tril_(a["diagonal"])),
    "triu_": (lambda rng, shape, dtype: dict(diagonal=int(rng.integers(-2, 3))),
              lambda L, v, a: v.triu_(a["diagonal"])),
}
MATRICES_ONLY = ("tril_", "triu_", "renorm_")
# atan2, xlogy, polygamma and renorm themselves (out of place too) can differ from PyTorch's in the last bit
# (README): their values are compared to rounding
ROUNDED = ("atan2_", "xlogy_", "polygamma_", "renorm_")
# cumprod_'s gradient reads the result it saved, which in windows that overlap is memory that
# later rows changed (PyTorch's formula for inputs with zeros then differs): values only
VALUES_ONLY = ("cumprod_",)
# (float32 polygamma near its poles turns a last-bit difference into a large one: float64 only)
CASES = [(name, dtype) for name in OPERATIONS for dtype in ("float32", "float64")
         if (name, dtype) != ("polygamma_", "float32")]


def run(L, layout, arguments, operation, dtype, recorded):
    """The memory after the operation (and, recorded, the gradient, nodes and version), or the
    error. ``layout``: (memory size, shape, steps, offset) of an as_strided view, or (memory
    size, "unfold", window, step)."""
    size, shape, steps, offset = layout
    memory = np.linspace(-1.5, 2.0, size).astype(dtype)
    leaf = L.tensor(memory, requires_grad=recorded)
    base = leaf.clone() if recorded else leaf
    view = base.unfold(0, steps, offset) if shape == "unfold" else base.as_strided(shape, steps, offset)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            operation(L, view, arguments)
        except Exception as error:
            return ("error", type(error).__name__, str(error).splitlines()[0])
    said = [str(w.message).split(" (Triggered internally")[0] for w in caught
            if "deprecated" in str(w.message) and "reduce argument" not in str(w.message)]    # (once only)
    outcome = ["ok", base.detach().numpy().copy(), base._version, said]
    if recorded:
        outcome.append((base.grad_fn.name(), view.grad_fn.name()))
        if view.requires_grad:
            weights = L.tensor(np.linspace(0.5, 1.5, size).astype(dtype))
            try:
                (base * weights).sum().backward()
                outcome.append(leaf.grad.numpy().copy())
            except Exception as error:
                outcome.append(("error", type(error).__name__, str(error).splitlines()[0]))
    return outcome


def assert_same(mine, theirs, exact=True):
    assert mine[0] == theirs[0], f"minigrad {mine} but torch {theirs}"
    if theirs[0] == "error":
        assert mine[1:] == theirs[1:]
        return
    if exact:
        np.testing.assert_array_equal(mine[1], theirs[1], strict=True)      # (to the last bit)
    else:
        np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-6 if mine[1].dtype == np.float32 else 1e-14)
    assert mine[2:4] == theirs[2:4]
    if len(theirs) > 4:
        assert mine[4] == theirs[4]
        if len(theirs) > 5:
            if isinstance(theirs[5], tuple):
                assert mine[5] == theirs[5]
            else:
                single = mine[5].dtype == np.float32      # (gradients: sums in another order)
                np.testing.assert_allclose(mine[5], theirs[5], rtol=1e-6 if single else 1e-12,
                                           atol=1e-6 if single else 1e-12)


@pytest.mark.parametrize("name, dtype", CASES)
def test_in_place_into_overlapping_memory(torch, name, dtype):
    make_arguments, operation = OPERATIONS[name]
    rng = np.random.default_rng(sorted(OPERATIONS).index(name) * 2 + (dtype == "float64"))
    for _ in range(LAYOUTS):
        layout = random_layout(rng, min_dims=2 if name in MATRICES_ONLY else 1)
        arguments = make_arguments(rng, layout[1], dtype)
        recorded = bool(rng.random() < 0.3) and name not in VALUES_ONLY
        assert_same(run(minigrad, layout, arguments, operation, dtype, recorded),
                    run(torch, layout, arguments, operation, dtype, recorded), exact=name not in ROUNDED)


# unfold's windows, the usual way to get a view whose elements share memory
@pytest.mark.parametrize("name, dtype", [(name, dtype) for name, dtype in CASES if name != "triu_"])
def test_in_place_into_unfold_windows(torch, name, dtype):
    make_arguments, operation = OPERATIONS[name]
    rng = np.random.default_rng(100 + sorted(OPERATIONS).index(name))
    for size, window, step in ((7, 3, 1), (9, 4, 2), (6, 2, 1)):
        count = (size - window) // step + 1
        layout = (size, "unfold", window, step)
        arguments = make_arguments(rng, (count, window), dtype)
        for recorded in (False, True)[:1 if name in VALUES_ONLY else 2]:
            assert_same(run(minigrad, layout, arguments, operation, dtype, recorded),
                        run(torch, layout, arguments, operation, dtype, recorded), exact=name not in ROUNDED)
