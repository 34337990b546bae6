"""stride() compared with PyTorch where the steps are easy to get wrong: tensors without
elements (made from numpy data, whose steps PyTorch keeps, 0s included, or by minigrad, row-major),
then viewed, copied and differentiated; reductions with ``keepdim=True``; ``x + number``.

Random chains of operations, drawn by hypothesis, run in both libraries; after each step the
shape and steps must be the same (and, after backward, ``.grad``'s steps and version).
"""
import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minigrad

from conftest import import_torch

# --- tensors without elements ------------------------------------------------------------------

CONSTRUCTORS = {
    "tensor": lambda L, a: L.tensor(a), "from_numpy": lambda L, a: L.from_numpy(a),
    "as_tensor": lambda L, a: L.as_tensor(a), "Tensor": lambda L, a: L.Tensor(a),
    "tensor float64": lambda L, a: L.tensor(a, dtype=L.float64),
    "as_tensor float64": lambda L, a: L.as_tensor(a, dtype=L.float64),
    "zeros": lambda L, a: L.zeros(a.shape), "tensor of a list": lambda L, a: L.tensor(a.tolist()),
    "zeros then exp": lambda L, a: L.zeros(a.shape).exp(),
}
# numpy arrays without elements: new ones step by 0 everywhere; slices and transposes do not
ARRAYS = {
    "new": lambda shape: np.zeros(shape, np.float32),
    "new, column-major": lambda shape: np.zeros(shape, np.float32, order="F"),
    "sliced": lambda shape: np.zeros([n or 2 for n in shape], np.float32)[
        tuple(slice(0, n) for n in shape)],
    "transposed": lambda shape: np.zeros(shape[::-1], np.float32).T,
}


def _last(L, x):
    return x.ndim - 1 if x.ndim else 0


STEPS = {   # one step of a chain: views, copies, and operations that make new results
    "t": lambda L, x: x.t() if x.ndim <= 2 else x.transpose(0, 1),
    "transpose": lambda L, x: x.transpose(0, -1), "permute": lambda L, x: x.permute(*range(x.ndim)[::-1]),
    "unsqueeze 0": lambda L, x: x.unsqueeze(0), "unsqueeze 1": lambda L, x: x.unsqueeze(min(1, x.ndim)),
    "unsqueeze last": lambda L, x: x.unsqueeze(-1), "squeeze": lambda L, x: x.squeeze(),
    "expand": lambda L, x: x.expand(2, *x.shape), "slice": lambda L, x: x[:],
    "slice with step": lambda L, x: x[::2], "select": lambda L, x: x[0] if x.shape[0] else x.select(-1, 0) if x.shape[-1] else x,
    "narrow": lambda L, x: x.narrow(0, 0, 0), "reshape same": lambda L, x: x.reshape(x.shape),
    "reshape flat": lambda L, x: x.reshape(-1), "view flat": lambda L, x: x.reshape(-1),
    "split": lambda L, x: x.split(1, _last(L, x))[0], "unbind": lambda L, x: x.unbind(0)[0] if x.shape[0] else x,
    "chunk": lambda L, x: x.chunk(2, _last(L, x))[0], "detach": lambda L, x: x.detach(),
    "data": lambda L, x: x.data, "diagonal": lambda L, x: x.diagonal() if x.ndim >= 2 else x,
    "clone": lambda L, x: x.clone(), "contiguous": lambda L, x: x.contiguous(),
    "clone contiguous": lambda L, x: x.clone(memory_format=L.contiguous_format),
    "double": lambda L, x: x.double(), "float": lambda L, x: x.float(),
    "empty_like": lambda L, x: L.empty_like(x), "zeros_like": lambda L, x: L.zeros_like(x),
    "ones_like float64": lambda L, x: L.ones_like(x, dtype=L.float64),
    "flip": lambda L, x: x.flip(0), "sort": lambda L, x: x.sort(0)[0], "argsort": lambda L, x: x.argsort(0),
    "roll": lambda L, x: x.roll(1, 0), "roll flat": lambda L, x: x.roll(1),
    "+ 1": lambda L, x: x + 1, "* x": lambda L, x: x * x, "exp": lambda L, x: x.exp(),
    "neg": lambda L, x: -x, "relu": lambda L, x: x.relu(), "> 0": lambda L, x: x > 0,
    "sum 0": lambda L, x: x.sum(0), "cat": lambda L, x: L.cat([x, x]), "stack": lambda L, x: L.stack([x]),
    "cumsum": lambda L, x: x.cumsum(0), "masked_fill": lambda L, x: x.masked_fill(x > 0, 1.0),
    "add_": lambda L, x: x.add_(1), "mask": lambda L, x: x[x > 0],
    "unsqueeze_": lambda L, x: x.unsqueeze_(0), "squeeze_": lambda L, x: x.squeeze_(),
    "deepcopy": lambda L, x: copy.deepcopy(x), "pickle": lambda L, x: pickle.loads(pickle.dumps(x)),
    "channels_last": lambda L, x: x.contiguous(memory_format=L.channels_last) if x.ndim == 4 else x,
    "unsqueeze twice": lambda L, x: x.unsqueeze(0).unsqueeze(-1),
}


def _layout(t):
    return tuple(t.shape), t.stride(), t.is_contiguous()


def _chain(L, constructor, array, steps):
    x = CONSTRUCTORS[constructor](L, array)
    layouts = [_layout(x)]
    for name in steps:
        try:
            x = STEPS[name](L, x)
        except Exception as error:          # (both must fail alike; the message is not compared)
            layouts.append(type(error).__name__)
            break
        layouts.append(_layout(x))
    return layouts


@st.composite
def empty_shapes(draw):
    ndim = draw(st.integers(1, 4))
    shape = draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=ndim, max_size=ndim))
    at = draw(st.integers(0, ndim - 1))
    shape[at] = 0
    return tuple(shape)


@settings(max_examples=400, deadline=None)
@given(shape=empty_shapes(), array=st.sampled_from(sorted(ARRAYS)),
       constructor=st.sampled_from(sorted(CONSTRUCTORS)),
       steps=st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=3))
def test_steps_of_empty_tensors_through_views_and_copies_as_torch(shape, array, constructor, steps):
    torch = import_torch()
    data = ARRAYS[array](shape)
    with np.errstate(all="ignore"):
        assert _chain(minigrad, constructor, data, steps) == _chain(torch, constructor, data, steps)


@pytest.mark.parametrize("constructor", ["tensor", "from_numpy", "as_tensor", "Tensor"])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3), (2, 0, 3), (1, 0)])
def test_a_tensor_of_empty_numpy_data_steps_by_0_as_torch(constructor, shape):
    torch = import_torch()
    data = np.zeros(shape, np.float32)
    ours, theirs = CONSTRUCTORS[constructor](minigrad, data), CONSTRUCTORS[constructor](torch, data)
    assert ours.stride() == theirs.stride() == (0,) * len(shape)


LOSSES = {
    "norm": lambda L, x: x.norm(), "sum": lambda L, x: x.sum(), "mean": lambda L, x: x.mean(),
    "(x * 2).sum()": lambda L, x: (x * 2).sum(), "exp().sum()": lambda L, x: x.exp().sum(),
    "t().sum()": lambda L, x: (x.t() if x.ndim == 2 else x).sum(),
    "clone().sum()": lambda L, x: x.clone().sum(),
}


@pytest.mark.parametrize("loss", sorted(LOSSES))
@pytest.mark.parametrize("made", ["numpy data", "zeros"])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
def test_grad_of_an_empty_leaf_is_laid_out_and_versioned_as_torch(shape, made, loss):
    """A gradient is adopted as ``.grad`` (version 0) only when it steps as the leaf does;
    otherwise it is copied into the leaf's layout (version 1)."""
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        x = (L.tensor(np.zeros(shape, np.float32), requires_grad=True) if made == "numpy data"
             else L.zeros(shape, requires_grad=True))
        LOSSES[loss](L, x).backward()
        outcomes.append((x.stride(), x.grad.stride(), x.grad._version))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("program", [
    lambda L: L.tensor(1.0).expand(0), lambda L: L.zeros(1, 1).expand(0, 0),
    lambda L: L.tensor(1.0).expand(2, 0).t(), lambda L: L.zeros(0, 3).exp().t(),
    lambda L: L.zeros(0, 3).sum(-1).unsqueeze(1), lambda L: (L.zeros(2, 0, 3) + 1).permute(2, 0, 1),
    lambda L: L.zeros(0, 3).t().flip(0), lambda L: L.zeros(0, 3).t().sort(0).indices,
    lambda L: L.from_numpy(np.zeros((0, 3), np.float32)).unsqueeze(-1),
    lambda L: L.from_numpy(np.zeros((2, 0), np.float32)).reshape(0, 2),
    lambda L: L.zeros(0, 3).exp().unsqueeze_(0), lambda L: L.zeros(4, 3)[2:2:2],
    lambda L: L.zeros(0, 3, 2, 2).exp().contiguous(memory_format=L.channels_last),
    lambda L: L.zeros(2, 3, 0, 2).clone(memory_format=L.channels_last),
    lambda L: pickle.loads(pickle.dumps(L.from_numpy(np.zeros((0, 3), np.float32)))),
])
def test_examples_of_empty_steps_as_torch(program):
    torch = import_torch()
    assert _layout(program(minigrad)) == _layout(program(torch))


# --- reductions: the result is row-major, size-1 dims included ---------------------------------

def _laid_out(L, shape, steps, order):
    """zeros of ``shape`` sliced with ``steps`` and permuted by ``order``: odd layouts."""
    x = L.zeros(*[size * step for size, step in zip(shape, steps)])
    return x[tuple(slice(None, None, step) for step in steps)].permute(*order)


@st.composite
def layouts(draw, sizes=(0, 1, 1, 2, 3)):
    ndim = draw(st.integers(1, 4))
    shape = draw(st.lists(st.sampled_from(sizes), min_size=ndim, max_size=ndim))
    steps = draw(st.lists(st.sampled_from([1, 1, 2]), min_size=ndim, max_size=ndim))
    return shape, steps, list(draw(st.permutations(range(ndim))))


REDUCTIONS = {
    "sum": lambda x, d, k: x.sum(d, keepdim=k), "mean": lambda x, d, k: x.mean(d, keepdim=k),
    "amax": lambda x, d, k: x.amax(d, keepdim=k), "amin": lambda x, d, k: x.amin(d, keepdim=k),
    "max": lambda x, d, k: x.max(d, keepdim=k)[0], "max indices": lambda x, d, k: x.max(d, keepdim=k)[1],
    "min": lambda x, d, k: x.min(d, keepdim=k)[0], "var": lambda x, d, k: x.var(d, keepdim=k),
    "std": lambda x, d, k: x.std(d, keepdim=k), "prod": lambda x, d, k: x.prod(d, keepdim=k),
    "norm": lambda x, d, k: x.norm(dim=d, keepdim=k), "norm 1": lambda x, d, k: x.norm(p=1, dim=d, keepdim=k),
    "logsumexp": lambda x, d, k: x.logsumexp(d, keepdim=k), "argmax": lambda x, d, k: x.argmax(d, keepdim=k),
    "argmin": lambda x, d, k: x.argmin(d, keepdim=k), "all": lambda x, d, k: (x > 0).all(d, keepdim=k),
    "any": lambda x, d, k: (x > 0).any(d, keepdim=k), "sum of two dims": lambda x, d, k: x.sum((0, d), keepdim=k),
    "mean of every dim": lambda x, d, k: x.mean(tuple(range(x.ndim)), keepdim=k),
    "var correction 0": lambda x, d, k: x.var(d, keepdim=k, correction=0),
}


def _reduced(L, name, layout, dim, keepdim):
    x = _laid_out(L, *layout)
    try:
        out = REDUCTIONS[name](x, dim % x.ndim, keepdim)
    except Exception as error:       # (an empty dim some reductions refuse: both alike)
        return type(error).__name__
    return tuple(out.shape), out.stride()


@settings(max_examples=500, deadline=None)
@given(layout=layouts(), name=st.sampled_from(sorted(REDUCTIONS)), dim=st.integers(0, 3),
       keepdim=st.booleans())
def test_strides_of_reductions_as_torch(layout, name, dim, keepdim):
    torch = import_torch()
    import warnings
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        assert _reduced(minigrad, name, layout, dim, keepdim) == _reduced(torch, name, layout, dim, keepdim)


@pytest.mark.parametrize("program", [
    lambda L: L.zeros(2, 3).t().sum(0, keepdim=True), lambda L: L.zeros(2, 3).t().sum(1, keepdim=True),
    lambda L: L.zeros(2, 1, 3).permute(2, 1, 0).sum(2), lambda L: L.zeros(2, 3).t().amax(1, keepdim=True),
    # max/min over a dim: values and indices row-major too (a random layout found it)
    lambda L: _laid_out(L, [2, 2, 1, 1], [1, 1, 1, 1], [1, 2, 0, 3]).max(2)[0],
    lambda L: _laid_out(L, [2, 2, 1, 1], [1, 1, 1, 1], [1, 2, 0, 3]).min(2, keepdim=True)[1],
])
def test_examples_of_reductions_as_torch(program):
    torch = import_torch()
    assert _layout(program(minigrad)) == _layout(program(torch))


def test_narrow_of_a_number_fails_as_in_torch():
    torch = import_torch()
    for L in (minigrad, torch):
        with pytest.raises(RuntimeError, match=r"^narrow\(\) cannot be applied to a 0-dim tensor\.$"):
            L.tensor(0.0).narrow(0, 0, 0)


@pytest.mark.parametrize("array", [
    lambda: np.zeros((4, 6), np.float32)[:, ::2], lambda: np.zeros((2, 3), np.float32).T,
    lambda: np.broadcast_to(np.zeros(3, np.float32), (2, 3)), lambda: np.zeros((4, 6))[:, ::2],
    lambda: np.zeros((), np.float32),
])
def test_Tensor_of_a_numpy_array_shares_float32_memory_as_torch(array):
    """torch.Tensor(array) keeps a float32 array's memory (and steps); other dtypes are copied."""
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        data = array()
        t = L.Tensor(data)
        if data.flags.writeable:
            data[...] = 5
        outcomes.append((t.stride(), t.tolist()))
    assert outcomes[0] == outcomes[1]


# --- rand_like, randn_like, full_like: laid out like the input, drawn in memory order ------------

@settings(max_examples=150, deadline=None)
@given(layout=layouts(sizes=(0, 1, 2, 3, 5)), like=st.sampled_from(["rand_like", "randn_like", "full_like"]),
       float64=st.booleans())
def test_random_likes_are_laid_out_and_drawn_as_torch(layout, like, float64):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        x = _laid_out(L, *layout)
        x = x.double() if float64 else x
        L.manual_seed(0)
        out = L.full_like(x, 2.0) if like == "full_like" else getattr(L, like)(x)
        outcomes.append((out.stride(), out.dtype.is_floating_point, out.tolist()))
    assert outcomes[0] == outcomes[1]


# --- one-input operations and number ** x -----------------------------------------------------

ONE_INPUT = {
    "reciprocal": lambda L, x: x.reciprocal(), "1 / x": lambda L, x: 1 / x, "rsqrt": lambda L, x: x.rsqrt(),
    "sign": lambda L, x: x.sign(), "erf": lambda L, x: x.erf(), "nan_to_num": lambda L, x: x.nan_to_num(),
    "2 ** x": lambda L, x: 2 ** x, "2.0 ** x": lambda L, x: 2.0 ** x, "repeat": lambda L, x: x.repeat(*[1] * x.ndim),
    "repeat twice": lambda L, x: x.repeat(2, *[1] * x.ndim), "x ** 2": lambda L, x: x ** 2,
    "isnan": lambda L, x: x.isnan(), "exp": lambda L, x: x.exp(), "clamp": lambda L, x: x.clamp(min=0),
}


@settings(max_examples=300, deadline=None)
@given(layout=layouts(), name=st.sampled_from(sorted(ONE_INPUT)))
def test_strides_of_one_input_operations_as_torch(layout, name):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        x = _laid_out(L, *layout)
        with np.errstate(all="ignore"):
            out = ONE_INPUT[name](L, x)
        outcomes.append((x.stride(), tuple(out.shape), out.stride()))
    if outcomes[0][0] == outcomes[1][0]:      # (the input's own steps differ: not this operation's)
        assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("make", ["ones_like", "zeros_like", "empty_like", "full_like"])
def test_like_in_another_dtype_keeps_the_steps_in_elements(make):
    """A float32 view with steps of 2 elements, copied as float64: its byte strides equal a
    dense float64 array's, but its layout is PyTorch's (steps of 2 elements, kept)."""
    torch = import_torch()
    strides = []
    for lib in (minigrad, torch):
        view = lib.tensor(np.zeros(0, dtype=np.float32).tolist())[::2]
        extra = (2.0,) if make == "full_like" else ()
        strides.append(getattr(lib, make)(view, *extra, dtype=lib.float64).stride())
    assert strides[0] == strides[1]
