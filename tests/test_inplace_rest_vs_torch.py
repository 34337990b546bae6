"""The last in-place differences, compared with real PyTorch.

* integer tensors given history by ``x[mask] = v`` (``v`` requiring grad): any later
  operation that would record them fails ("Autograd not support dtype: Long");
* ``logical_and_`` and its siblings check the written tensor's own overlap first, then the
  other operand's, then the shapes;
* the matrix products in place (``addmm_``, ``addbmm_``, ``baddbmm_``, ``addr_``) into windows
  that overlap write in PyTorch's order (their values are small nonzero integers, so that
  every sum is exact whatever order BLAS adds in: the order of the writes is what shows);
* ``resize_`` growing past its memory grows that memory for every tensor over it (the base,
  its other views, detached tensors), refuses memory numpy owns (``from_numpy``), and an
  ``out=`` view resized past its base's end grows the base's memory.
"""
import warnings

import numpy as np
import pytest

import minigrad


def _outcome(run):
    """What running ``run()`` shows: ('ok', what it returned) or (exception class name, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("ok", run())
    except Exception as error:       # (the class and the message are what is compared)
        return (type(error).__name__, str(error))


# --- integer tensors with history ------------------------------------------------------------

AFTER_INDEX_PUT = {
    "add": lambda L, i: i + 1,
    "view": lambda L, i: i.view(-1),
    "alias": lambda L, i: i[...],
    "select": lambda L, i: i[0],
    "clone": lambda L, i: i.clone(),
    "sum": lambda L, i: i.sum(),
    "cat": lambda L, i: L.cat([i, i]),
    "backward": lambda L, i: i.sum().backward(),
    "float": lambda L, i: i.float(),
    "detach": lambda L, i: i.detach(),
    "compare": lambda L, i: i > 0,
    "mul_": lambda L, i: i.mul_(2),
    "index_put_again": lambda L, i: i.__setitem__(i > 0, L.ones((), requires_grad=True) * 2),
}


def _integers_with_history(L, dtype):
    x = L.tensor([0.5, 2.0, 1.0], requires_grad=True)
    i = L.tensor([0, 2, 1], dtype=dtype)
    i[i > 0] = x.sum()
    return i


@pytest.mark.parametrize("name", sorted(AFTER_INDEX_PUT))
@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_integers_with_history(torch, name, dtype):
    seen = []
    for L in (minigrad, torch):
        i = _integers_with_history(L, getattr(L, dtype))
        assert (i.requires_grad, type(i.grad_fn).__name__, i._version) == (True, "IndexPutBackward0", 1)
        outcome = _outcome(lambda: AFTER_INDEX_PUT[name](L, i))
        if outcome[0] == "ok" and outcome[1] is not None:
            result = outcome[1]
            outcome = ("ok", result.tolist(), str(result.dtype).split(".")[-1], result.requires_grad,
                       type(result.grad_fn).__name__)
        seen.append((outcome, i.tolist(), i._version))
    assert seen[0] == seen[1]


INTO_INTEGERS = {     # in-place changes of an integer tensor by a value that requires grad
    "masked_fill_": lambda L, i, v: i.masked_fill_(i > 0, v),
    "index_fill_": lambda L, i, v: i.index_fill_(0, L.tensor([0]), v),
    "fill_": lambda L, i, v: i.fill_(v),
    "index_put_": lambda L, i, v: i.index_put_((L.tensor([0]),), v.reshape(1), accumulate=True),
    "setitem index": lambda L, i, v: i.__setitem__(0, v),
    "setitem slice": lambda L, i, v: i.__setitem__(slice(0, 2), v),
    "scatter_": lambda L, i, v: i.scatter_(0, L.tensor([0]), v.reshape(1)),
    "put_": lambda L, i, v: i.put_(L.tensor([0]), v.reshape(1)),
    "copy_": lambda L, i, v: i.copy_(v),
}


@pytest.mark.parametrize("name", sorted(INTO_INTEGERS))
def test_integers_changed_in_place_take_history(torch, name):
    """The change itself records (PyTorch moves the tensor's history to the new node without
    the dtype check); what follows is refused."""
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([0.5, 2.0, 1.0], requires_grad=True)
        i = L.tensor([0, 2, 1])
        outcome = _outcome(lambda: INTO_INTEGERS[name](L, i, x.sum()) is None)
        seen.append((outcome, i.tolist(), i.requires_grad, type(i.grad_fn).__name__, i._version,
                     _outcome(lambda: (i + 1).tolist())))
    assert seen[0] == seen[1]


def test_integer_results_of_recorded_inputs_are_plain(torch):
    """Results with no derivative (indices, comparisons, conversions) are not refused."""
    for run in (lambda L, x: x.long(), lambda L, x: x.argmax(), lambda L, x: x.sort()[1],
                lambda L, x: x > 0, lambda L, x: L.bucketize(x, x.detach()), lambda L, x: x.isnan()):
        seen = []
        for L in (minigrad, torch):
            result = run(L, L.tensor([0.5, 2.0, 1.0], requires_grad=True))
            seen.append((result.tolist(), result.requires_grad, result.grad_fn))
        assert seen[0] == seen[1]


# --- logical_and_ and siblings: the order of their checks ------------------------------------

LOGICAL = {
    "logical_and_": lambda L, x, o: x.logical_and_(o),
    "logical_or_": lambda L, x, o: x.logical_or_(o),
    "logical_xor_": lambda L, x, o: x.logical_xor_(o),
    "logical_not_": lambda L, x, o: x.logical_not_(),
}
VIEWS = {
    "expanded": lambda L: L.tensor([1.0, 0.0]).expand(3, 2),
    "windows": lambda L: L.tensor([1.0, 0.0, 2.0, 0.0, 3.0]).unfold(0, 2, 1),
    "plain": lambda L: L.tensor([[1.0, 0.0], [2.0, 0.0], [0.0, 3.0]]),
}
OTHERS = {"same": (3, 2), "row": (2,), "longer": (4,), "bigger": (3, 2, 2), "wider": (2, 3, 2)}


@pytest.mark.parametrize("name", sorted(LOGICAL))
@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("other", sorted(OTHERS))
def test_logical_in_place_check_order(torch, name, view, other):
    seen = []
    for L in (minigrad, torch):
        x = VIEWS[view](L)
        o = L.ones(OTHERS[other])
        outcome = _outcome(lambda: LOGICAL[name](L, x, o).tolist())
        seen.append((outcome, x._version))
    assert seen[0] == seen[1]


def test_logical_in_place_partial_overlap_comes_before_shapes(torch):
    seen = []
    for L in (minigrad, torch):
        base = L.tensor([1.0, 0.0, 2.0, 0.0, 3.0, 1.0])
        seen.append(_outcome(lambda: base[:4].view(2, 2).logical_and_(base[1:])))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name", ["logical_and_", "logical_or_", "logical_xor_"])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_logical_in_place_reading_its_own_writes(torch, name, dtype):
    """Overlapping windows, or an operand that reads what the loop writes (a row of a
    transposed self): each position is written in turn, reading what earlier writes left."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        values = rng.integers(0, 2, size=12)
        seen = []
        for L in (minigrad, torch):
            base = L.tensor(values, dtype=getattr(L, dtype))
            windows = base[:9].as_strided((3, 4), (2, 1))
            getattr(windows, name)(L.tensor([1, 0, 1, 1], dtype=base.dtype))
            square = base[:9].view(3, 3).t()
            getattr(square, name)(square[1])
            seen.append((base.tolist(), base._version))
        assert seen[0] == seen[1]


# --- matrix products in place into windows that overlap ----------------------------------------

def _overlapping_layout(rng, ndim):
    """(memory size, shape, steps, offset) of an as_strided view that sees some location twice."""
    while True:
        shape = [int(n) for n in rng.integers(1, 5, size=ndim)]
        steps = [int(s) for s in rng.integers(1, 4, size=ndim)]
        offset = int(rng.integers(0, 3))
        places = offset + sum(np.indices(shape)[d] * steps[d] for d in range(ndim))
        if np.unique(places).size < places.size:
            return int(places.max()) + 1 + int(rng.integers(0, 2)), shape, steps, offset


def _products_arguments(name, rng, shape):
    """The shapes of the operands of ``name`` for a result of ``shape``."""
    inner = int(rng.integers(0, 4)) if rng.random() < 0.15 else int(rng.integers(1, 5))
    if name == "addmm_":
        return [(shape[0], inner), (inner, shape[1])]
    if name == "addbmm_":
        count = int(rng.integers(0, 4)) if rng.random() < 0.15 else int(rng.integers(1, 4))
        return [(count, shape[0], inner), (count, inner, shape[1])]
    if name == "baddbmm_":
        return [(shape[0], shape[1], inner), (shape[0], inner, shape[2])]
    return [(shape[0],), (shape[1],)]


def _nonzero_integers(rng, shape):
    values = rng.integers(1, 5, size=shape) * rng.choice([-1, 1], size=shape)
    return values


PRODUCTS = ("addmm_", "addbmm_", "baddbmm_", "addr_")
SCALINGS = [(1, 1), (0, 1), (2, 3), (0, -2), (-1, 2)]


def _run_product(L, name, dtype, memory, layout, operands, beta, alpha, recorded):
    _, shape, steps, offset = layout
    dt = getattr(L, dtype)
    leaf = L.tensor(memory, dtype=dt, requires_grad=recorded)
    base = leaf.clone() if recorded else leaf
    view = base.as_strided(shape, steps, offset)
    given = [L.tensor(o, dtype=dt, requires_grad=recorded) for o in operands]
    outcome = _outcome(lambda: getattr(view, name)(*given, beta=beta, alpha=alpha) is view)
    if outcome[0] != "ok":
        return [outcome]
    seen = [outcome, base.detach().numpy().copy(), base._version]
    if recorded:
        seen.append((type(base.grad_fn).__name__, type(view.grad_fn).__name__))
        weights = L.tensor(np.linspace(0.5, 1.5, memory.size), dtype=dt)
        (base * weights).sum().backward()
        seen += [t.grad.numpy().copy() for t in [leaf] + given]
    return seen


def _assert_same_products(mine, theirs):
    assert mine[0] == theirs[0]
    if len(theirs) > 1:
        np.testing.assert_array_equal(mine[1], theirs[1], strict=True)      # (to the last bit)
        assert mine[2:4] == theirs[2:4]
        for a, b in zip(mine[4:], theirs[4:]):        # (gradients: products added in another order)
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", PRODUCTS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_products_into_overlapping_windows(torch, name, dtype):
    rng = np.random.default_rng(PRODUCTS.index(name) * 3 + ["float32", "float64", "int64"].index(dtype))
    for trial in range(30):
        layout = _overlapping_layout(rng, 3 if name == "baddbmm_" else 2)
        operands = [_nonzero_integers(rng, s) for s in _products_arguments(name, rng, layout[1])]
        memory = _nonzero_integers(rng, layout[0])
        beta, alpha = SCALINGS[trial % len(SCALINGS)]
        recorded = dtype != "int64" and trial % 3 == 0
        _assert_same_products(
            _run_product(minigrad, name, dtype, memory, layout, operands, beta, alpha, recorded),
            _run_product(torch, name, dtype, memory, layout, operands, beta, alpha, recorded))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_large_baddbmm_into_overlapping_windows(torch, dtype):
    """From 400 multiplications per matrix on, PyTorch runs one addmm_ per batch."""
    rng = np.random.default_rng(7)
    for steps in ([5, 3, 1], [20, 1, 2], [2, 4, 1]):
        layout = (2 * 20 + 8 * 4 + 8 * 2 + 1, [2, 8, 8], steps, 1)
        operands = [_nonzero_integers(rng, (2, 8, 7)), _nonzero_integers(rng, (2, 7, 8))]
        memory = _nonzero_integers(rng, layout[0])
        for beta, alpha in ((1, 1), (0, 2), (3, -1)):
            _assert_same_products(
                _run_product(minigrad, "baddbmm_", dtype, memory, layout, operands, beta, alpha, False),
                _run_product(torch, "baddbmm_", dtype, memory, layout, operands, beta, alpha, False))


OUT_FORMS = {"addmm": "addmm_", "addbmm": "addbmm_", "baddbmm": "baddbmm_", "addr": "addr_",
             "mm": "addmm_", "bmm": "baddbmm_"}


def _run_into_out(L, name, dtype, memory, layout, input, operands, beta, alpha):
    _, shape, steps, offset = layout
    dt = getattr(L, dtype)
    base = L.tensor(memory, dtype=dt)
    out = base.as_strided(shape, steps, offset)
    given = [L.tensor(o, dtype=dt) for o in operands]
    if name in ("mm", "bmm"):
        outcome = _outcome(lambda: getattr(L, name)(*given, out=out) is out)
    else:
        outcome = _outcome(lambda: getattr(L, name)(L.tensor(input, dtype=dt), *given, beta=beta, alpha=alpha,
                                                    out=out) is out)
    return [outcome, base.numpy().copy(), base._version]


@pytest.mark.parametrize("name", sorted(OUT_FORMS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_products_into_overlapping_out(torch, name, dtype):
    """out= a view whose elements share memory: input is copied into out first (beta not 0),
    then out is changed as by the in-place form."""
    rng = np.random.default_rng(sorted(OUT_FORMS).index(name) * 3 + ["float32", "float64", "int64"].index(dtype))
    for trial in range(25):
        layout = _overlapping_layout(rng, 3 if OUT_FORMS[name] == "baddbmm_" else 2)
        operands = [_nonzero_integers(rng, s) for s in _products_arguments(OUT_FORMS[name], rng, layout[1])]
        memory = _nonzero_integers(rng, layout[0])
        input_shape = layout[1][int(rng.integers(0, 2)):] if name != "baddbmm" else layout[1]
        input = _nonzero_integers(rng, input_shape)
        beta, alpha = SCALINGS[trial % len(SCALINGS)]
        _assert_same_products(_run_into_out(minigrad, name, dtype, memory, layout, input, operands, beta, alpha),
                              _run_into_out(torch, name, dtype, memory, layout, input, operands, beta, alpha))


# --- resize_ growing the memory every view shares -------------------------------------------

GROWING = {
    "root": lambda L, x: x,
    "tail": lambda L, x: x[2:],
    "middle": lambda L, x: x[1:3],
    "matrix": lambda L, x: x.view(2, 3),
    "transposed": lambda L, x: x.view(3, 2).t(),
    "detached": lambda L, x: x.detach()[1:],
}
SIZES = [(10,), (3, 4), (2, 2, 2), (5,)]


@pytest.mark.parametrize("resized", sorted(GROWING))
@pytest.mark.parametrize("size", SIZES)
def test_resize_grows_the_shared_memory(torch, resized, size):
    seen = []
    for L in (minigrad, torch):
        x = L.arange(6.0)
        others = {name: make(L, x) for name, make in GROWING.items()}
        target = GROWING[resized](L, x)
        target.resize_(*size)
        target.fill_(7.0)
        x.add_(1.0)
        seen.append(([(name, view.tolist(), view._version, view.storage_offset(), view.stride())
                      for name, view in sorted(others.items())],
                     target.tolist(), target.stride(), target.storage_offset(), x._version))
    assert seen[0] == seen[1]


NUMPY_RESIZES = {
    "grow": lambda L, a: L.from_numpy(a).resize_(10),
    "shrink": lambda L, a: L.from_numpy(a).resize_(2),
    "same memory": lambda L, a: L.from_numpy(a)[1:].resize_(3),
    "view past the end": lambda L, a: L.from_numpy(a)[1:].resize_(4),
    "matrix": lambda L, a: L.from_numpy(a).view(2, 2).resize_(2, 3),
    "detached": lambda L, a: L.from_numpy(a).detach().resize_(10),
    "as_tensor": lambda L, a: L.as_tensor(a).resize_(10),
    "asarray": lambda L, a: L.asarray(a).resize_(5),
    "copied": lambda L, a: L.tensor(a).resize_(10),
    "out=": lambda L, a: L.add(L.ones(6), 1, out=L.from_numpy(a)),
}


@pytest.mark.parametrize("name", sorted(NUMPY_RESIZES))
def test_numpy_memory_does_not_grow(torch, name):
    seen = []
    for L in (minigrad, torch):
        a = np.arange(4.0)
        outcome = _outcome(lambda: tuple(NUMPY_RESIZES[name](L, a).shape))
        seen.append((outcome, a.tolist()))
    assert seen[0] == seen[1]


OUT_PAST_THE_END = {
    "root": lambda L, b: b,
    "tail": lambda L, b: b[2:],
    "strided": lambda L, b: b[::2],
}


@pytest.mark.parametrize("name", sorted(OUT_PAST_THE_END))
def test_out_resized_past_its_base_grows_the_base(torch, name):
    seen = []
    for L in (minigrad, torch):
        base = L.zeros(4)
        other = base[1:]
        out = OUT_PAST_THE_END[name](L, base)
        outcome = _outcome(lambda: L.add(L.arange(6.0), 1, out=out).tolist())
        out.fill_(-1.0)
        seen.append((outcome, base.tolist(), other.tolist(), out.stride(), out.storage_offset(),
                     base._version, out._version))
    assert seen[0] == seen[1]


# --- addr's rounding and the products' in-place messages ---------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("beta, alpha", [(0.7, 1.3), (0, 2.1), (1, 1.7), (2.5, 1), (1, 1)])
def test_addr_rounds_as_pytorch(torch, dtype, beta, alpha):
    """(alpha * vec1) * vec2, then one fused multiply-add with beta * input (rows shorter than
    PyTorch's vector loop, which groups the fused step otherwise)."""
    rng = np.random.default_rng(3)
    for shape in ((5, 7), (3, 1), (1, 4), (6, 3)):
        arrays = [rng.standard_normal(s).astype(dtype) for s in (shape, shape[:1], shape[1:])]
        seen = []
        for L in (minigrad, torch):
            tensors = [L.tensor(a) for a in arrays]
            seen.append(L.addr(*tensors, beta=beta, alpha=alpha).numpy())
            seen.append(tensors[0].t().contiguous().t().addr_(*tensors[1:], beta=beta, alpha=alpha).numpy())
        np.testing.assert_array_equal(seen[0], seen[2], strict=True)
        np.testing.assert_array_equal(seen[1], seen[3], strict=True)


PRODUCT_MISUSE = {
    "addmm_ column": lambda L: L.ones(3, 1).addmm_(L.ones(3, 2), L.ones(2, 3)),
    "addmm_ row": lambda L: L.ones(1, 3).addmm_(L.ones(3, 2), L.ones(2, 3)),
    # a product x would broadcast into is refused too, before x is broadcast (found by the
    # random-program test)
    "addmm_ broadcastable": lambda L: L.ones(2, 3).addmm_(L.ones(1, 1), L.ones(1, 3)),
    "addmm_ broadcastable scaled": lambda L: L.ones(2, 3).addmm_(L.ones(1, 1), L.ones(1, 3), alpha=2),
    "addmm_ empty": lambda L: L.ones(2, 0).addmm_(L.ones(0, 1), L.ones(1, 0), alpha=2),
    "addmm_ expanded": lambda L: L.ones(1, 3).expand(2, 3).addmm_(L.ones(1, 1), L.ones(1, 3)),
    "baddbmm_": lambda L: L.ones(2, 3, 1).baddbmm_(L.ones(2, 3, 2), L.ones(2, 2, 3)),
    "addmv_": lambda L: L.ones(1).addmv_(L.ones(3, 2), L.ones(2)),
    "addr_ column": lambda L: L.ones(3, 1).addr_(L.ones(3), L.ones(2)),
    "addr_ vector": lambda L: L.ones(3).addr_(L.ones(3), L.ones(2)),
    "addr_ float alpha": lambda L: L.ones(3, 2, dtype=L.long).addr_(L.ones(3, dtype=L.long), L.ones(2, dtype=L.long),
                                                                    alpha=0.5),
    "addr float beta": lambda L: L.addr(L.ones(3, 2, dtype=L.long), L.ones(3, dtype=L.long),
                                        L.ones(2, dtype=L.long), beta=0.5),
    "addr bool beta": lambda L: L.ones(3, 2).addr_(L.ones(3), L.ones(2), beta=True),
    "addr bools": lambda L: L.ones(3, 2, dtype=L.bool).addr_(L.ones(3, dtype=L.bool), L.ones(2, dtype=L.bool),
                                                             beta=True, alpha=False),
}


@pytest.mark.parametrize("name", sorted(PRODUCT_MISUSE))
def test_products_in_place_messages(torch, name):
    seen = [_outcome(lambda: PRODUCT_MISUSE[name](L).tolist()) for L in (minigrad, torch)]
    assert seen[0] == seen[1]


# --- products whose operands share self's memory -----------------------------------------------

def _square(L, dtype):
    return L.tensor(np.arange(1, 10).reshape(3, 3), dtype=getattr(L, dtype))


SHARING = {    # (what runs, whether PyTorch's loop is followed to the value)
    "baddbmm_ self": (lambda L, x: x.view(1, 3, 3).baddbmm_(x.view(1, 3, 3), x.view(1, 3, 3)), True),
    "baddbmm_ rows": (lambda L, x: x[:2].view(1, 2, 3).baddbmm_(x[1:].view(1, 2, 3)[:, :, :2], x.view(1, 3, 3)[:, :2],
                                                                beta=2, alpha=-1), True),
    "bmm out=": (lambda L, x: L.bmm(x.view(1, 3, 3), x.view(1, 3, 3).transpose(1, 2), out=x.view(1, 3, 3)), True),
    "baddbmm out=": (lambda L, x: L.baddbmm(L.ones(1, 3, 3, dtype=x.dtype), x.view(1, 3, 3), x.view(1, 3, 3),
                                            beta=3, out=x.view(1, 3, 3)), True),
    # (PyTorch's BLAS reads what it has written: minigrad computes from the operands as they were)
    "addmm_ transposed": (lambda L, x: x.addmm_(x.t(), x), False),
    "addmv_ row": (lambda L, x: x[0].addmv_(x, x[0]), False),
    "addbmm_ self": (lambda L, x: x.addbmm_(x.view(1, 3, 3), x.view(1, 3, 3)), False),
}


@pytest.mark.parametrize("name", sorted(SHARING))
@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_products_reading_their_own_memory(torch, name, dtype):
    """PyTorch checks no overlap for these; where its loop is known, the values follow it."""
    run, exact = SHARING[name]
    seen = []
    for L in (minigrad, torch):
        x = _square(L, dtype)
        outcome = _outcome(lambda: run(L, x) is not None)
        seen.append((outcome, x.tolist() if exact else None, x._version))
    assert seen[0] == seen[1]


# --- arguments checked before the written tensor's own overlap ----------------------------------

ARGUMENTS_FIRST = {
    "index_add_ count": lambda L, x: x.index_add_(0, L.tensor([0]), L.ones(4)),
    "index_add_ ok shape": lambda L, x: x.index_add_(0, L.tensor([0]), L.ones(1, 2)),
    "put_ count": lambda L, x: x.put_(L.tensor([0]), L.ones(4)),
    "put_ ok": lambda L, x: x.put_(L.tensor([0]), L.ones(1)),
    "scatter_ dims": lambda L, x: x.scatter_(0, L.tensor([[0]]), L.ones(4)),
    "scatter_ number": lambda L, x: x.scatter_(0, L.tensor([0]), 2.0),
    "scatter_ 0-d src": lambda L, x: x.scatter_(0, L.tensor([[0]]), L.tensor(1.0)),
    "scatter_ bounds": lambda L, x: x.scatter_(0, L.tensor([[5]]), 2.0),
    "scatter_ large index": lambda L, x: x.scatter_(0, L.tensor([[0, 0, 0]]), 2.0),
    "cumsum_ dim": lambda L, x: x.cumsum_(5),
    "cumprod_ ok": lambda L, x: x.cumprod_(0),
    "index_copy_": lambda L, x: x.index_copy_(0, L.tensor([0]), L.ones(4)),
    "logical_xor_": lambda L, x: x.logical_xor_(L.ones(4)),
}


@pytest.mark.parametrize("name", sorted(ARGUMENTS_FIRST))
def test_expanded_self_is_refused_after_the_arguments(torch, name):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 0.0]).expand(3, 2)
        seen.append(_outcome(lambda: ARGUMENTS_FIRST[name](L, x) is x))
    assert seen[0] == seen[1]


# --- unfold's windows, the usual way to get them, recorded ---------------------------------------

UNFOLDED = {
    "addmm_": lambda L, w, a, b: w.addmm_(a, b.t(), beta=2, alpha=-1),
    "addr_": lambda L, w, a, b: w.addr_(a[:, 0], b[:, 0], beta=0.5),
    "addbmm_": lambda L, w, a, b: w.addbmm_(a.unsqueeze(0), b.t().unsqueeze(0), alpha=3),
    "baddbmm_": lambda L, w, a, b: w.unsqueeze(0).baddbmm_(a.unsqueeze(0), b.t().unsqueeze(0)),
}


@pytest.mark.parametrize("name", sorted(UNFOLDED))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_products_into_unfold_windows_recorded(torch, name, dtype):
    rng = np.random.default_rng(11)
    memory = _nonzero_integers(rng, 9)
    a, b = _nonzero_integers(rng, (7, 2)), _nonzero_integers(rng, (3, 2))
    seen = []
    for L in (minigrad, torch):
        dt = getattr(L, dtype)
        leaf = L.tensor(memory, dtype=dt, requires_grad=True)
        base = leaf * 1
        windows = base.unfold(0, 3, 1)
        given = [L.tensor(x, dtype=dt, requires_grad=True) for x in (a, b)]
        UNFOLDED[name](L, windows, *given)
        weights = L.tensor(np.linspace(0.5, 1.5, 9), dtype=dt)
        (base * weights).sum().backward()
        seen.append([base.detach().numpy().copy(), base._version, type(base.grad_fn).__name__,
                     type(windows.grad_fn).__name__, leaf.grad.numpy().copy()] + [g.grad.numpy().copy() for g in given])
    np.testing.assert_array_equal(seen[0][0], seen[1][0], strict=True)
    assert seen[0][1:4] == seen[1][1:4]
    for mine, theirs in zip(seen[0][4:], seen[1][4:]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-5)


# --- addbmm_ of a self that only broadcasts to the product's shape ---------------------------
# PyTorch's kernel writes the result into self through resize_: self first takes the product's
# shape (its memory grown when too short), filled with its old values broadcast (a copy from an
# expanded view of the same memory, position by position), then the products are added.

BROADCAST_SELVES = {
    "row": lambda L: L.tensor([[1., 2., 3.]]),
    "vector": lambda L: L.tensor([1., 2., 3.]),
    "number": lambda L: L.tensor(2.),
    "one by one": lambda L: L.tensor([[3.]]),
    "column": lambda L: L.tensor([[1.], [2.]]),
    "column every second": lambda L: L.arange(1., 5.).view(2, 2)[:, :1],    # (reads what it wrote)
    "column every third": lambda L: L.arange(1., 7.).view(2, 3)[:, :1],
    "row of a longer vector": lambda L: L.arange(1., 5.)[:3].view(1, 3),
    "transposed column": lambda L: L.arange(1., 7.).view(3, 2).t()[:1],
}


def _addbmm_on_broadcast_self(L, name, beta, requires_grad):
    batch1 = L.tensor((np.arange(16.).reshape(2, 2, 4) % 5 - 2).tolist(), requires_grad=requires_grad)
    batch2 = L.tensor((np.arange(24.).reshape(2, 4, 3) % 7 - 3).tolist())
    start = BROADCAST_SELVES[name](L)
    leaf = start.clone().requires_grad_(requires_grad)
    self = leaf * 1 if requires_grad else start
    base = self._base
    self.addbmm_(batch1, batch2, beta=beta, alpha=2)
    seen = [self.detach().numpy().copy(), tuple(self.shape), self.stride(), self._version,
            None if base is None else base.detach().numpy().copy()]
    if requires_grad:
        seen.append(type(self.grad_fn).__name__)
        (self * L.arange(1., 7.).view(2, 3)).sum().backward()
        seen += [leaf.grad.numpy().copy(), batch1.grad.numpy().copy()]
    return seen


# (the views keep their base only without history: with it, each is a clone of a leaf)
VIEW_SELVES = ("row of a longer vector", "column every second", "column every third", "transposed column")


@pytest.mark.parametrize("name, requires_grad", [(name, requires_grad) for name in sorted(BROADCAST_SELVES)
                                                 for requires_grad in (False, True)
                                                 if not (requires_grad and name in VIEW_SELVES)])
@pytest.mark.parametrize("beta", [0, 1, 2])
def test_addbmm_resizes_a_self_that_broadcasts(torch, name, beta, requires_grad):
    mine, theirs = (_addbmm_on_broadcast_self(L, name, beta, requires_grad) for L in (minigrad, torch))
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b, strict=True)
        else:
            assert a == b


ADDBMM_MISUSE = {
    "does not expand": lambda L, b1, b2: L.ones(3, 3).addbmm_(b1, b2),
    "too many dims": lambda L, b1, b2: L.ones(2, 3, 1).addbmm_(b1, b2),
    "sizes of the products": lambda L, b1, b2: L.ones(1, 3).addbmm_(b1, b2[:, :3]),
    "batch1 not 3-d": lambda L, b1, b2: L.ones(1, 3).addbmm_(b1[0], b2),
    "leaf that requires grad": lambda L, b1, b2: L.ones(1, 3, requires_grad=True).addbmm_(b1, b2),
}


@pytest.mark.parametrize("name", sorted(ADDBMM_MISUSE))
def test_addbmm_broadcast_self_misuse(torch, name):
    def run(L):
        b1, b2 = L.ones(2, 2, 4), L.ones(2, 4, 3)
        kind, shown = _outcome(lambda: tuple(ADDBMM_MISUSE[name](L, b1, b2).shape))
        if kind != "ok":        # (minigrad's advice to learners follows PyTorch's text on its own line)
            shown = "\n".join(line for line in shown.split("\n") if not line.startswith("minigrad hint:"))
        return kind, shown
    assert run(minigrad) == run(torch)


def test_addbmm_resizes_before_its_dtype_check(torch):
    # the dtypes are checked by the first addmm_, after the resize: self keeps its new shape
    seen = []
    for L in (minigrad, torch):
        self = L.tensor([[1., 2., 3.]], dtype=L.float64)
        with pytest.raises(RuntimeError) as error:
            self.addbmm_(L.ones(2, 2, 4), L.ones(2, 4, 3))
        seen.append((str(error.value), tuple(self.shape), self.tolist(), self._version))
    assert seen[0] == seen[1]


def test_addbmm_of_a_leaf_under_no_grad_resizes(torch):
    seen = []
    for L in (minigrad, torch):
        leaf = L.ones(1, 3, requires_grad=True)
        with L.no_grad():
            leaf.addbmm_(L.ones(2, 2, 4), L.ones(2, 4, 3))
        seen.append((leaf.tolist(), leaf.requires_grad, leaf._version))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("change", [
    lambda L, x: x.addcdiv_(x, x * x + 1, value=-0.5),
    lambda L, x: x.addcdiv_(value=2, tensor1=x, tensor2=x * x + 1),
    lambda L, x: x.addcdiv_(x.long(), x.long(), value=2),
    lambda L, x: x.lerp_(end=x.flip(0), weight=0.3),
    lambda L, x: x.heaviside_(values=x),
])
def test_keywords_of_in_place_forms_that_read_themselves(torch, change):
    """x.addcdiv_(x, d, value=-0.5) (found by the random-program test): the keywords given with
    x's own memory as another input reach the checks PyTorch makes first, by name."""
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, -2.0, 0.0])
        seen.append((_outcome(lambda: change(L, x) is x), x.tolist()))
    assert seen[0] == seen[1]
