"""Equal values against PyTorch: which of several equal elements ``topk``, ``sort`` (stable or
not), ``argsort``, ``kthvalue``, ``median`` and ``mode`` pick and in which order (rows full of
repeated integers, zeros and NaN, in float32, float64 and int64), their gradients; and the
memory layout of ``kron``'s result (strides, and the views that fail)."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch


def tied_rows(seed, dtype, shape, nan=False):
    """Rows of a few repeated integers (many ties), some NaN if asked."""
    rng = np.random.default_rng(seed)
    array = rng.integers(-2, 3, size=shape).astype(dtype)
    if nan:
        array[rng.random(shape) < 0.2] = np.nan
    return array


CASES = [(seed, dtype, nan) for seed in range(6)
         for dtype, nan in ((np.float32, False), (np.float64, False), (np.int64, False),
                            (np.float32, True), (np.float64, True))]


def same(torch_tensor, minigrad_tensor):
    assert tuple(torch_tensor.shape) == tuple(minigrad_tensor.shape)
    assert tuple(torch_tensor.stride()) == tuple(minigrad_tensor.stride())
    np.testing.assert_array_equal(torch_tensor.numpy(), minigrad_tensor.numpy())


@pytest.mark.parametrize("seed,dtype,nan", CASES)
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("sorted_", [True, False])
def test_topk_ties(seed, dtype, nan, largest, sorted_):
    torch = import_torch()
    rng = np.random.default_rng(100 + seed)
    # long rows (k * 64 <= n: a heap) and short ones (nth_element, then sort)
    for n in (5, 17, 40, 130, 300):
        array = tied_rows(seed * 7 + n, dtype, (3, n), nan)
        for dim in (1, 0):
            given = array if dim == 1 else np.ascontiguousarray(array.T)
            size = given.shape[dim]
            for k in {0, 1, 2, min(size, 4), int(rng.integers(0, size + 1)), size}:
                expected = torch.topk(torch.tensor(given), k, dim, largest, sorted_)
                got = minigrad.topk(minigrad.tensor(given), k, dim, largest, sorted_)
                same(expected.values, got.values)
                same(expected.indices, got.indices)


@pytest.mark.parametrize("seed,dtype,nan", CASES)
@pytest.mark.parametrize("stable", [None, False, True])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_ties(seed, dtype, nan, stable, descending):
    torch = import_torch()
    settings = {} if stable is None else {"stable": stable}      # (the default: not stable)
    for n in (3, 16, 17, 60, 200):
        array = tied_rows(seed * 11 + n, dtype, (4, n), nan)
        for dim in (-1, 0):
            expected = torch.sort(torch.tensor(array), dim=dim, descending=descending, **settings)
            got = minigrad.sort(minigrad.tensor(array), dim=dim, descending=descending, **settings)
            same(expected.values, got.values)
            same(expected.indices, got.indices)
            same(torch.argsort(torch.tensor(array), dim=dim, descending=descending,
                               stable=bool(stable)),
                 minigrad.argsort(minigrad.tensor(array), dim=dim, descending=descending,
                                  stable=bool(stable)))


def test_long_integer_rows_sort_stably():
    """A 1-d row of at least 32,768 integers sorted ascending goes through PyTorch's radix
    sort, which keeps equal elements in order; descending it does not."""
    torch = import_torch()
    array = tied_rows(0, np.int64, (40000,))
    for descending in (False, True):
        same(torch.sort(torch.tensor(array), descending=descending).indices,
             minigrad.sort(minigrad.tensor(array), descending=descending).indices)


@pytest.mark.parametrize("seed,dtype,nan", CASES)
def test_selecting_one_value_ties(seed, dtype, nan):
    torch = import_torch()
    for n in (1, 7, 33, 100):
        array = tied_rows(seed * 13 + n, dtype, (3, n), nan)
        t, m = torch.tensor(array), minigrad.tensor(array)
        for dim in (1, 0):
            for k in {1, array.shape[dim] // 2 + 1, array.shape[dim]}:
                for e, g in zip(torch.kthvalue(t, k, dim), minigrad.kthvalue(m, k, dim)):
                    same(e, g)
            for name in ("median", "nanmedian", "mode"):
                expected = getattr(torch, name)(t, dim)
                got = getattr(minigrad, name)(m, dim)
                same(expected.values, got.values)
                same(expected.indices, got.indices)


@pytest.mark.parametrize("function", [
    lambda lib, x: lib.topk(x, 3, dim=0, largest=False, sorted=False).values,
    lambda lib, x: lib.topk(x, 2).values,
    lambda lib, x: lib.sort(x, descending=True).values,
    lambda lib, x: lib.sort(x, dim=0, stable=True).values,
])
def test_gradients_of_tied_selections(function):
    torch = import_torch()
    array = tied_rows(3, np.float64, (5, 6))
    leaf = torch.tensor(array, requires_grad=True)
    mine = minigrad.tensor(array, requires_grad=True)
    expected, got = function(torch, leaf), function(minigrad, mine)
    assert type(expected.grad_fn).__name__ == type(got.grad_fn).__name__
    weights = np.arange(expected.numel(), dtype=np.float64).reshape(tuple(expected.shape))
    expected.backward(torch.tensor(weights))
    got.backward(minigrad.tensor(weights))
    np.testing.assert_array_equal(leaf.grad.numpy(), mine.grad.numpy())
    # (gradcheck on distinct values: the numerical derivative is not defined at a tie)
    distinct = minigrad.tensor(np.random.default_rng(0).standard_normal((5, 6)), requires_grad=True)
    assert gradcheck(lambda x: function(minigrad, x), (distinct,))
    assert gradgradcheck(lambda x: function(minigrad, x), (distinct,))


def _layouts(lib, array, permutation):
    """``array`` as a tensor whose memory is in ``permutation``'s order (a permuted copy)."""
    tensor = lib.tensor(np.array(array.transpose(permutation), order="C"))
    return tensor.permute([int(i) for i in np.argsort(permutation)])


def _kron_outcome(lib, a, b, c, perms, c_first):
    product = _layouts(lib, a, perms[0]).bmm(_layouts(lib, b, perms[1]))
    other = _layouts(lib, c, perms[2])
    try:
        out = lib.kron(other, product) if c_first else lib.kron(product, other)
    except RuntimeError as error:
        return str(error)
    try:
        out.view(-1)
        viewed = "view works"
    except RuntimeError as error:
        viewed = str(error)
    return tuple(out.shape), tuple(out.stride()), viewed, out.detach().numpy()


def test_kron_of_bmm_is_laid_out_as_pytorch():
    """kron's size-1 dims step as PyTorch's _unsafe_view has them, so its product, and with it
    the result, is laid out as PyTorch's: the same kron calls and later views fail."""
    torch = import_torch()
    rng = np.random.default_rng(5)
    failures = 0
    for _ in range(300):
        batch, rows, inner, cols = (int(n) for n in rng.integers(1, 4, size=4))
        c_shape = tuple(int(n) for n in rng.integers(1, 4, size=int(rng.integers(0, 4))))
        a = rng.standard_normal((batch, rows, inner))
        b = rng.standard_normal((batch, inner, cols))
        c = rng.standard_normal(c_shape)
        perms = (rng.permutation(3), rng.permutation(3), rng.permutation(len(c_shape)))
        c_first = bool(rng.integers(0, 2))
        expected = _kron_outcome(torch, a, b, c, perms, c_first)
        got = _kron_outcome(minigrad, a, b, c, perms, c_first)
        if isinstance(expected, str):
            failures += 1
            assert got == expected
        else:
            assert got[:3] == expected[:3]
            # (bmm's sums can differ in the last bit: its order is another file's subject)
            np.testing.assert_allclose(got[3], expected[3], rtol=1e-12, atol=1e-15)
    assert failures      # (some of these PyTorch refuses: the check above saw them)


def test_kron_gradients():
    torch = import_torch()
    a = np.random.default_rng(1).standard_normal((2, 3))
    b = np.random.default_rng(2).standard_normal((3, 1, 2))
    x, y = minigrad.tensor(a, requires_grad=True), minigrad.tensor(b, requires_grad=True)
    assert gradcheck(minigrad.kron, (x, y))
    assert gradgradcheck(minigrad.kron, (x, y))
    out = minigrad.kron(x, y)
    expected = torch.kron(torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True))
    assert type(out.grad_fn).__name__ == type(expected.grad_fn).__name__
    assert ([type(n).__name__ for n, _ in out.grad_fn.next_functions]
            == [type(n).__name__ for n, _ in expected.grad_fn.next_functions])
    assert tuple(out.stride()) == tuple(expected.stride())
