"""Resizing in place (x.resize_, x.resize_as_, torch.resize_as_, the deprecated x.resize) and the
samplers torch.poisson and torch.binomial, against PyTorch: shapes, steps, values the memory
keeps, versions, nodes, gradients, messages and warnings; the samples after manual_seed."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()

LIBRARIES = (minigrad, torch)


def _outcome(function, L):
    """What ``function(L)`` gives: its result, or its exception's class and text."""
    try:
        return function(L)
    except Exception as error:       # noqa: BLE001 (the exception is what is compared)
        return (type(error).__name__, str(error))


def _state(t):
    """A tensor's shape, steps and version (values are compared where PyTorch's are defined)."""
    return tuple(t.shape), t.stride(), t._version


def _same(function):
    ours, theirs = _outcome(function, minigrad), _outcome(function, torch)
    assert ours == theirs
    return ours


# --- resize_: the shape, the steps, the values the memory keeps, the version ---------------

SHRINK_OR_KEEP = {
    "shrink": lambda L: L.arange(6.).resize_(2, 2),
    "same count": lambda L: L.arange(6.).resize_(2, 3),
    "a tuple": lambda L: L.arange(6.).resize_((3, 2)),
    "a list": lambda L: L.arange(6.).resize_([3, 2]),
    "size=": lambda L: L.arange(6.).resize_(size=(3, 2)),
    "a Size": lambda L: L.arange(6.).resize_(L.Size([6])),
    "to none": lambda L: L.arange(6.).resize_(0),
    "a size-0 dim": lambda L: L.arange(6).resize_(4, 0, 2),
    "a scalar": lambda L: L.arange(6.).resize_(()),
    "same shape keeps steps": lambda L: L.arange(6.).reshape(2, 3).t().resize_(3, 2),
    "a transpose made row-major": lambda L: L.arange(6.).reshape(2, 3).t().resize_(2, 3),
    "an expand, same shape": lambda L: L.arange(3.).expand(2, 3).resize_(2, 3),
    "a view that shrinks": lambda L: L.arange(6.)[1:4].resize_(2),
    "a view within its base": lambda L: L.arange(6.)[1:4].resize_(5),
    "int64": lambda L: L.arange(6).resize_(1, 3),
    "bool": lambda L: (L.arange(6) > 2).resize_(3),
    "channels_last": lambda L: L.arange(24.).resize_(1, 2, 3, 4, memory_format=L.channels_last),
    "channels_last same shape": lambda L: L.arange(24.).reshape(2, 3, 2, 2).resize_(
        2, 3, 2, 2, memory_format=L.channels_last),
    "channels_last_3d": lambda L: L.arange(120.).resize_(1, 2, 3, 4, 5, memory_format=L.channels_last_3d),
    "contiguous_format": lambda L: L.arange(6.).reshape(3, 2).t().resize_(3, 2, memory_format=L.contiguous_format),
    "resize_as_": lambda L: L.arange(6.).resize_as_(L.ones(2, 3)),
    "resize_as_ another dtype": lambda L: L.arange(6.).resize_as_(L.ones(3, 2, dtype=L.int64)),
    "resize_as_ a transpose": lambda L: L.arange(6.).resize_as_(L.ones(2, 3).t()),
    "resize_as_ preserve": lambda L: L.arange(24.).resize_as_(
        L.ones(2, 3, 2, 2).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2), memory_format=L.preserve_format),
    "resize_as_ channels_last": lambda L: L.arange(24.).resize_as_(L.ones(1, 2, 3, 4),
                                                                    memory_format=L.channels_last),
    "torch.resize_as_": lambda L: L.resize_as_(L.arange(6.), L.ones(2, 2)),
}


@pytest.mark.parametrize("case", SHRINK_OR_KEEP)
def test_resize_within_the_memory_keeps_its_values(case):
    def run(L):
        t = SHRINK_OR_KEEP[case](L)
        return _state(t), t.dtype.__repr__(), t.tolist()
    _same(run)


GROW = {    # (the case, and how many of its first values were in the memory before)
    "grow": (lambda L: L.arange(6.).resize_(3, 3), 6),
    "grow an int tensor": (lambda L: L.arange(6).resize_(4, 4), 6),
    "grow from nothing": (lambda L: L.zeros(0).resize_(2, 2), 0),
    "grow an expand": (lambda L: L.arange(3.).expand(2, 3).resize_(6), 3),
    "grow a view beyond its base": (lambda L: L.arange(6.)[1:4].resize_(10), 5),
    "grow channels_last": (lambda L: L.arange(6.).resize_(2, 3, 2, 2, memory_format=L.channels_last), 0),
    "resize_as_ grows": (lambda L: L.ones(2).resize_as_(L.ones(2, 3)), 2),
}


@pytest.mark.parametrize("case", GROW)
def test_resize_beyond_the_memory(case):
    """The old values come first; the new elements are zeros in minigrad (memory PyTorch leaves
    as it was: any values), so only the old ones are compared."""
    function, kept = GROW[case]
    ours, theirs = function(minigrad), function(torch)
    assert _state(ours) == _state(theirs)
    assert ours.dtype.__repr__() == theirs.dtype.__repr__()
    if ours.stride() == minigrad.empty(ours.shape).stride():       # (row-major: flat order is memory order)
        flat_ours, flat_theirs = ours.reshape(-1).tolist(), theirs.reshape(-1).tolist()
        assert flat_ours[:kept] == flat_theirs[:kept]
        assert all(value == 0 for value in flat_ours[kept:])


def test_shrinking_then_growing_finds_the_old_values():
    def run(L):
        t = L.arange(6.)
        t.resize_(2)
        t.resize_(2, 3)
        return _state(t), t.tolist()
    _same(run)


def test_a_view_and_its_base_share_the_grown_memory():
    def run(L):
        base = L.arange(6.)
        view = base[1:4]
        view.resize_(10)
        view[0] = 100
        view[3] = 7
        return base.tolist(), base._version, view._version, view[:5].tolist()
    _same(run)


def test_a_view_that_shrinks_still_writes_into_its_base():
    def run(L):
        base = L.arange(6.)
        view = base[2:]
        view.resize_(2, 2)
        view.fill_(-1)
        return base.tolist(), base._version
    _same(run)


def test_the_same_shape_is_no_change():
    def run(L):
        t = L.ones(2, 3)
        t.resize_(2, 3)
        t.resize_as_(L.zeros(2, 3))
        return t._version
    assert _same(run) == 0


# --- what a resize refuses ---------------------------------------------------------------

def _leaf(L):
    return L.ones(2, 3, requires_grad=True)


REFUSED = {
    "a leaf that requires grad": lambda L: _leaf(L).resize_(3, 2),
    "a leaf, same shape": lambda L: _leaf(L).resize_(2, 3),
    "a leaf under no_grad": lambda L: _no_grad(L, lambda: _leaf(L).resize_(6)),
    "a result that requires grad": lambda L: (_leaf(L) * 2).resize_(6),
    "resize_as_ a leaf": lambda L: _leaf(L).resize_as_(L.ones(6)),
    "torch.resize_as_ a leaf": lambda L: L.resize_as_(_leaf(L), L.ones(6)),
    "a negative size": lambda L: L.ones(2).resize_(-1),
    "a negative size among others": lambda L: L.ones(2).resize_(2, -1),
    "too many elements": lambda L: L.ones(2).resize_(2 ** 40, 2 ** 40),
    "no size": lambda L: L.ones(2).resize_(),
    "a float size": lambda L: L.ones(2).resize_(2.0),
    "a str size": lambda L: L.ones(2).resize_("a"),
    "a tuple and more": lambda L: L.ones(2).resize_((2, 3), 2),
    "size twice": lambda L: L.ones(2).resize_(2, size=3),
    "channels_last of rank 2": lambda L: L.ones(6).resize_(2, 3, memory_format=L.channels_last),
    "channels_last_3d of rank 4": lambda L: L.ones(6).resize_(1, 2, 3, 1, memory_format=L.channels_last_3d),
    "preserve_format": lambda L: L.ones(6).resize_(2, 3, memory_format=L.preserve_format),
    "memory_format an int": lambda L: L.ones(6).resize_(2, 3, memory_format=1),
    "resize_as_ a list": lambda L: L.ones(6).resize_as_([1, 2]),
    "resize_as_ a format by position": lambda L: L.ones(6).resize_as_(L.ones(2, 3), L.contiguous_format),
    "torch.resize_as_ a format by position": lambda L: L.resize_as_(L.ones(6), L.ones(2, 3), L.contiguous_format),
}


def _no_grad(L, function):
    with L.no_grad():
        return function()


@pytest.mark.parametrize("case", REFUSED)
def test_refused(case):
    ours, theirs = _outcome(REFUSED[case], minigrad), _outcome(REFUSED[case], torch)
    assert isinstance(theirs, tuple)
    assert ours == theirs


def test_a_refused_leaf_keeps_its_shape_and_version():
    def run(L):
        leaf = _leaf(L)
        _outcome(lambda _: leaf.resize_(6), L)
        return _state(leaf)
    _same(run)


def test_a_detached_copy_of_a_leaf_can_be_resized_and_its_graph_sees_the_change():
    def run(L):
        leaf = _leaf(L)
        loss = (leaf * leaf).sum()
        alias = leaf.detach()
        alias.resize_(3)
        refused = _outcome(lambda _: loss.backward(), L)
        return _state(alias), alias.tolist(), tuple(leaf.shape), leaf._version, refused[0], refused[1].split("\n")[0]
    _same(run)


# --- the deprecated out-of-place forms ------------------------------------------------------

def _with_warnings(function, L):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = _outcome(function, L)
    return value, [(w.category.__name__, str(w.message)) for w in caught]


DEPRECATED = {
    "resize": lambda L: L.arange(6.).resize(3, 2),
    "resize_as": lambda L: L.arange(6.).reshape(2, 3).resize_as(L.ones(6)),
    "resize another count": lambda L: L.ones(2, 3).resize(7),
    "resize a tuple is refused": lambda L: L.arange(6.).resize((3, 2)),
    "resize nothing": lambda L: L.arange(6.).resize(),
}


@pytest.mark.parametrize("case", DEPRECATED)
def test_deprecated_resize(case):
    def run(L):
        value, caught = _with_warnings(DEPRECATED[case], L)
        if not isinstance(value, tuple):
            value = (_state(value), value.tolist(), value.grad_fn)
        return value, caught
    _same(run)


def test_deprecated_resize_is_recorded():
    def run(L):
        x = L.arange(6., requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = x.resize(2, 3)
        (y * L.arange(6.).reshape(2, 3)).sum().backward()
        node = y.grad_fn
        return (type(node).__name__, [(type(n).__name__, i) for n, i in node.next_functions],
                tuple(y.shape), x.grad.tolist())
    assert _same(run)[0] == "ResizeBackward"
