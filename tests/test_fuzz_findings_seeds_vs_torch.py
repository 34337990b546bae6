"""More differences the random-program test (test_fuzz_vs_torch.py) found, each checked against PyTorch.

Every test runs the same small computation in both libraries and compares what a learner sees:
the values (and the memory a view shares), dtypes, flags, and the exception class and the first
line of its message when PyTorch refuses.
"""
import warnings

import numpy as np
import pytest

import minigrad


def outcome(fn, lib):
    """What ``fn(lib)`` gives: ('ok', values, dtype name, requires_grad) or ('error', class, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(lib)
    except Exception as error:          # the two libraries must fail alike
        first = str(error).splitlines()[0] if str(error) else ""
        return ("error", type(error).__name__, first)
    return ("ok", np.asarray(out.detach().tolist()), str(out.dtype).split(".")[-1], out.requires_grad)


def assert_same(fn, torch):
    mine, ref = outcome(fn, minigrad), outcome(fn, torch)
    assert mine[0] == ref[0], f"minigrad {mine} but torch {ref}"
    if ref[0] == "error":
        assert mine[1:] == ref[1:]
    else:
        np.testing.assert_array_equal(mine[1], ref[1])
        assert mine[2:] == ref[2:]


def _base_after(change, make, view):
    """The memory of ``make(L)`` after ``change`` was applied in place to ``view`` of it."""
    def fn(L):
        base = make(L)
        change(view(base))
        return base
    return fn


# tril_/triu_ of a view whose batch dimensions do not step over whole matrices in order (4 or
# more dimensions): PyTorch computes the triangle in new memory and copies it back, so where
# windows overlap, the position the copy writes last wins (an expanded view is refused)
@pytest.mark.parametrize("view", [
    lambda x: x.reshape(2, 1, 3).unfold(-1, 2, 1),
    lambda x: x.reshape(2, 3).unfold(-1, 2, 1),
    lambda x: x.as_strided((2, 2, 2, 2), (2, 1, 1, 1)),
    lambda x: x.as_strided((2, 2, 2, 2), (4, 1, 1, 1)),
    lambda x: x.as_strided((2, 1, 2, 2, 2), (2, 2, 1, 2, 1)),
    lambda x: x[:9].reshape(3, 3).expand(2, 2, 3, 3),
    lambda x: x[:9].reshape(3, 3).expand(2, 1, 3, 3),
    lambda x: x[:9].reshape(3, 3).expand(2, 3, 3),
])
@pytest.mark.parametrize("change", [lambda t: t.tril_(), lambda t: t.triu_(), lambda t: t.tril_(-1)])
def test_triangle_in_place_of_overlapping_views(torch, view, change):
    assert_same(_base_after(change, lambda L: L.arange(1.0, 13.0), view), torch)


# add_/sub_ with a float alpha into an integer tensor: the loop's own checks (partial overlap of
# self and other, shapes) come before alpha's
@pytest.mark.parametrize("fn", [
    lambda L: (lambda x: x.add_(x.as_strided((2,), (1,), 1), alpha=1.5))(L.arange(3)),
    lambda L: (lambda x: x[1:].add_(x[:2], alpha=1.5))(L.arange(3)),
    lambda L: (lambda x: x.sub_(x.as_strided((2,), (1,), 1), alpha=1.5))(L.arange(3)),
    lambda L: (lambda x: x.add_(x, alpha=1.5))(L.arange(3)),
    lambda L: L.arange(3).add_(L.arange(2), alpha=1.5),
    lambda L: L.arange(3).add_(L.arange(6).reshape(2, 3), alpha=1.5),
    lambda L: L.arange(3).sub_(L.arange(6).reshape(2, 3), alpha=1.5),
    lambda L: L.arange(3).add_(L.ones(6).reshape(2, 3), alpha=1.5),
    lambda L: L.arange(3).add_(L.ones(3), alpha=1.5),
    lambda L: L.arange(3).add_(2, alpha=1.5),
    lambda L: L.arange(3.0).add_(L.arange(3), alpha=True),
])
def test_add_sub_alpha_checked_after_the_loop(torch, fn):
    assert_same(fn, torch)


# scatter_reduce "mean" and index_reduce of bool tensors: PyTorch's kernels are missing, and
# its message names the kernel that was asked for
@pytest.mark.parametrize("fn", [
    lambda L: L.tensor([True, False, True]).scatter_reduce(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "mean"),
    lambda L: L.tensor([True, False, True]).scatter_reduce(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "mean",
                                                           include_self=False),
    lambda L: L.tensor([True, False, True]).scatter_reduce_(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "mean"),
    lambda L: L.zeros(0, dtype=L.bool).scatter_reduce(0, L.zeros(0, dtype=L.long), L.zeros(0, dtype=L.bool), "mean"),
    lambda L: L.tensor([True, False, True]).scatter_reduce(0, L.tensor([0, 0]), L.ones(2, dtype=L.bool), "amax"),
    lambda L: L.tensor([True, False, True]).index_reduce(0, L.tensor([0]), L.ones(1, dtype=L.bool), "amax"),
    lambda L: L.tensor([True, False, True]).index_reduce(0, L.tensor([], dtype=L.long), L.ones(0, dtype=L.bool),
                                                         "prod"),
    lambda L: L.ones(3, 2, dtype=L.bool).index_reduce(0, L.tensor([0]), L.ones(1, 2, dtype=L.bool), "prod",
                                                      include_self=False),
    lambda L: L.ones(3, 2, dtype=L.bool).index_reduce(0, L.tensor([0, 2]), L.zeros(2, 2, dtype=L.bool), "mean"),
    lambda L: L.ones(3, 2, dtype=L.bool).index_reduce(0, L.tensor([0, 2]), L.zeros(2, 2, dtype=L.bool), "amin"),
])
def test_bool_scatter_and_index_reduce(torch, fn):
    assert_same(fn, torch)


# linalg.vecdot checks that x is floating before it compares the dtypes of x and y
@pytest.mark.parametrize("fn", [
    lambda L: L.linalg.vecdot(L.arange(3, dtype=L.int32), L.ones(3)),
    lambda L: L.linalg.vecdot(L.ones(2, 3, dtype=L.int64), L.ones(3)),
    lambda L: L.linalg.vecdot(L.ones(3), L.arange(3, dtype=L.int32)),
    lambda L: L.linalg.vecdot(L.ones(3), L.ones(3, dtype=L.float64)),
    lambda L: L.linalg.vecdot(L.ones(2, dtype=L.int64), L.ones(3, dtype=L.int64)),
])
def test_vecdot_checks_x_first(torch, fn):
    assert_same(fn, torch)
