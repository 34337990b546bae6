"""Shape and index operations that tutorials use, compared with PyTorch: movedim, ravel, tile,
unflatten, rot90, tensor_split, repeat_interleave, take_along_dim, unfold, the in-place
transposes, diag and trace, kthvalue/mode/cummax, take and the index_* family, and the small
questions a tensor answers about itself (nbytes, storage_offset, ...).

Each program runs in minigrad and in PyTorch and must give the same values, dtypes, strides,
versions, node names and edges, gradients and errors (class and text)."""
import re
import warnings

import numpy as np
import pytest

import minigrad


def _plain(value):
    """What a learner sees of one result, in a form both libraries compare on."""
    if hasattr(value, "grad_fn") and hasattr(value, "tolist"):
        grad_fn = value.grad_fn
        values = [round(v, 5) if isinstance(v, float) else v
                  for v in np.asarray(value.tolist(), dtype=object).reshape(-1).tolist()]
        return ("tensor", repr(values), str(value.dtype).split(".")[-1], tuple(value.shape),
                value.stride(), value.requires_grad, value._version,
                None if grad_fn is None else grad_fn.name().split("::")[-1],
                None if grad_fn is None else tuple(
                    None if node is None else (node.name().split("::")[-1], nr)
                    for node, nr in grad_fn.next_functions))
    if isinstance(value, (tuple, list)):
        return tuple(_plain(item) for item in value)
    return value


def outcome(lib, program):
    """The result of ``program(lib)``, or its exception's class and message."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _plain(program(lib))
        except Exception as error:       # the class and the text, word for word
            message = str(error).split("\nminigrad hint:")[0]
            if "invalid combination of arguments" in message:     # (PyTorch lists every signature)
                message = message.split("\n")[0]
            return type(error).__name__, message


def same(torch, program):
    """``program`` gives the same outcome in minigrad and in PyTorch."""
    ours, theirs = outcome(minigrad, program), outcome(torch, program)
    assert ours == theirs
    return ours


def leaf(lib, shape=(3, 4), dtype="float64", seed=0):
    values = np.random.default_rng(seed).standard_normal(shape).round(3)
    return lib.tensor(values.tolist(), dtype=getattr(lib, dtype), requires_grad=dtype.startswith("float"))


def with_grad(lib, make, shape=(3, 4), seed=0):
    """``make(x)``, and x's gradient after backward of a weighted sum of it."""
    x = leaf(lib, shape, seed=seed)
    out = make(x)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    total = 0
    for k, piece in enumerate(outs):
        if getattr(piece, "requires_grad", False):
            weights = lib.arange(piece.numel(), dtype=piece.dtype).reshape(piece.shape)
            total = total + (piece * (weights + k)).sum()
    total.backward()
    return out, x.grad


def check_gradients(function, *inputs):
    """gradcheck and gradgradcheck in float64 (minigrad's own)."""
    from minigrad.autograd import gradcheck, gradgradcheck
    assert gradcheck(function, inputs)
    assert gradgradcheck(function, inputs)


# --- movedim, swapdims, ravel, tile, unflatten, broadcast_to, type_as -----------------------

REARRANGEMENTS = [
    lambda x: x.movedim(0, 2), lambda x: x.movedim((0, 1), (2, 0)), lambda x: x.moveaxis(-1, 0),
    lambda x: x.swapdims(0, 2), lambda x: x.swapaxes(1, 2), lambda x: x.ravel(),
    lambda x: x.transpose(0, 2).ravel(), lambda x: x.tile(2), lambda x: x.tile((2, 1, 1, 2)),
    lambda x: x.unflatten(2, (2, 2)), lambda x: x.unflatten(-1, (-1, 1)),
    lambda x: x[0, 0].broadcast_to(3, 4), lambda x: x[0].broadcast_to((2, 3, 4)),
    lambda x: x.fliplr(), lambda x: x.flipud(), lambda x: x.rot90(), lambda x: x.rot90(2),
    lambda x: x.rot90(-1, (2, 0)), lambda x: x.rot90(0), lambda x: x.tensor_split(2, 1),
    lambda x: x.tensor_split([1, 3], dim=2), lambda x: x.hsplit(3), lambda x: x.vsplit([1]),
    lambda x: x.dsplit(2), lambda x: x.repeat_interleave(2), lambda x: x.repeat_interleave(2, 1),
    lambda x: x.unfold(2, 2, 1), lambda x: x.unfold(1, 2, 2), lambda x: x.unfold(0, 1, 3),
    lambda x: x.mH, lambda x: x.adjoint(), lambda x: x.sum().mH,
]


@pytest.mark.parametrize("k", range(len(REARRANGEMENTS)))
def test_rearrangements_values_grads_and_nodes(torch, k):
    same(torch, lambda lib: with_grad(lib, REARRANGEMENTS[k], (2, 3, 4)))


def test_functions_spelled_as_torch_functions(torch):
    same(torch, lambda lib: with_grad(lib, lambda x: (lib.movedim(x, 1, 0), lib.ravel(x.t()),
                                                      lib.tile(x, (2,)), lib.fliplr(x), lib.rot90(x, 3),
                                                      lib.swapdims(x, 0, 1), lib.broadcast_to(x, (2, 3, 4)),
                                                      lib.tensor_split(x, 3), lib.hsplit(x, [2]),
                                                      lib.unflatten(x, 1, (2, -1)))))


def test_type_as(torch):
    def program(lib):
        x = leaf(lib)
        y = x.type_as(lib.zeros(1, dtype=lib.float32))
        return y, x.type_as(x) is x, x.type_as(lib.zeros(1, dtype=lib.int64))
    same(torch, program)


def test_repeat_interleave_with_counts(torch):
    def program(lib):
        counts = lib.tensor([1, 0, 2])
        out, grad = with_grad(lib, lambda x: x.repeat_interleave(counts, dim=0))
        return out, grad, lib.repeat_interleave(counts), lib.repeat_interleave(lib.tensor(2.5), 2), \
            lib.tensor([1, 2]).repeat_interleave(lib.tensor([2]))
    same(torch, program)


def test_take_along_dim(torch):
    def program(lib):
        index = lib.tensor([[0], [3], [1]])
        return with_grad(lib, lambda x: (x.take_along_dim(index, 1), lib.take_along_dim(x, lib.tensor([0, 5, 5])),
                                         x.take_along_dim(lib.tensor([[2, 0, 1, 1]]), dim=0)))
    same(torch, program)


ERRORS = [
    lambda lib, x: x.movedim((0, 1), 0), lambda lib, x: x.movedim((0, 0), (1, 2)),
    lambda lib, x: x.movedim(5, 0), lambda lib, x: x.unflatten(1, (2, 2)),
    lambda lib, x: x.unflatten(1, ()), lambda lib, x: x.fliplr()[0].fliplr(),
    lambda lib, x: x.sum().flipud(), lambda lib, x: x.rot90(1, (0,)), lambda lib, x: x[0].rot90(),
    lambda lib, x: x.rot90(1, (1, 1)), lambda lib, x: x.rot90(1, (0, 5)),
    lambda lib, x: x.tensor_split(0), lambda lib, x: x.sum().tensor_split(2),
    lambda lib, x: x.hsplit(3), lambda lib, x: x[0].vsplit(2), lambda lib, x: x.dsplit(2),
    lambda lib, x: x.repeat_interleave(-1), lambda lib, x: x.repeat_interleave(lib.tensor([1, 2]), 0),
    lambda lib, x: x.take_along_dim(lib.tensor([0])), lambda lib, x: x.take_along_dim(lib.tensor([0]), 0),
    lambda lib, x: x.take_along_dim(lib.tensor([[0]], dtype=lib.int32), 0),
    lambda lib, x: x.unfold(1, 5, 1), lambda lib, x: x.unfold(1, 2, 0), lambda lib, x: x.unfold(1, -1, 1),
    lambda lib, x: x.unfold(3, 2, 1), lambda lib, x: x.type_as(1.0), lambda lib, x: x.tile((2.5,)),
    lambda lib, x: x[0].mH, lambda lib, x: x[0].adjoint(),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_rearrangement_errors(torch, k):
    same(torch, lambda lib: ERRORS[k](lib, leaf(lib)))


def test_rearrangements_gradcheck():
    x = minigrad.randn(2, 3, 4, dtype=minigrad.float64, requires_grad=True)
    check_gradients(lambda t: t.rot90(1, (1, 2)), x)
    check_gradients(lambda t: t.unfold(2, 2, 1), x)
    check_gradients(lambda t: t.repeat_interleave(minigrad.tensor([2, 0, 1]), 1), x)
    check_gradients(lambda t: t.take_along_dim(minigrad.tensor([[[0, 3]]]), 2), x)
    check_gradients(lambda t: t.movedim(0, -1).tile(2).ravel(), x)


# --- in place: t_, transpose_, swapdims_, swapaxes_, cumsum_, cumprod_ ----------------------

INPLACE = [
    lambda x: (x * 1).t_(), lambda x: (x * 1).transpose_(0, 1), lambda x: (x * 1).swapdims_(1, 0),
    lambda x: (x * 1).swapaxes_(0, -1), lambda x: (x * 1).cumsum_(1), lambda x: (x * 1).cumprod_(0),
    lambda x: (x * 1).cumsum_(0).cumprod_(1),
]


@pytest.mark.parametrize("k", range(len(INPLACE)))
def test_inplace_values_grads_nodes_and_versions(torch, k):
    same(torch, lambda lib: with_grad(lib, INPLACE[k]))


def test_inplace_transpose_of_a_view_changes_only_the_view(torch):
    def program(lib):
        x = leaf(lib, (2, 3, 4))
        base = x * 1
        piece = base[0]
        same_object = piece.transpose_(0, 1) is piece
        return piece, base, piece._base is base, same_object, piece.is_contiguous()
    same(torch, program)


def test_inplace_transpose_errors(torch):
    same(torch, lambda lib: leaf(lib).t_())
    same(torch, lambda lib: leaf(lib, (2, 3, 4)).detach().t_())
    same(torch, lambda lib: leaf(lib).detach().transpose_(0, 2))
    same(torch, lambda lib: leaf(lib).cumsum_(0))
    same(torch, lambda lib: lib.tensor([1, 2]).cumsum_(0))
    same(torch, lambda lib: lib.tensor([1, 2]).cumprod_(0, dtype=lib.float32))


# --- diag, diag_embed, diagflat, trace --------------------------------------------------------

DIAGONALS = [
    lambda x: x.diag(), lambda x: x.diag(1), lambda x: x.diag(-2), lambda x: x.diag(7),
    lambda x: x[0].diag(), lambda x: x[1].diag(-1), lambda x: x.diag_embed(), lambda x: x.diag_embed(1, 0, 2),
    lambda x: x.diag_embed(-1, -1, -3), lambda x: x.diagflat(), lambda x: x.t().diagflat(2),
    lambda x: x[0, 0].diagflat(), lambda x: x.trace(), lambda x: x.t().trace(),
]


@pytest.mark.parametrize("k", range(len(DIAGONALS)))
def test_diagonals_values_grads_and_nodes(torch, k):
    same(torch, lambda lib: with_grad(lib, DIAGONALS[k]))


def test_diagonals_of_integers_and_as_functions(torch):
    same(torch, lambda lib: (lib.arange(6).reshape(2, 3).trace(), lib.ones(2, 2, dtype=lib.int32).trace(),
                             lib.diag(lib.arange(3)), lib.diag_embed(lib.arange(4).reshape(2, 2)),
                             lib.diagflat(lib.tensor([[1, 2]])), lib.trace(lib.eye(3))))


DIAGONAL_ERRORS = [
    lambda lib: lib.ones(2, 2, 2).diag(), lambda lib: lib.tensor(1.).diag(),
    lambda lib: lib.ones(3, 4).diag_embed(0, 1, 1), lambda lib: lib.ones(3, 4).diag_embed(0, 0, 5),
    lambda lib: lib.ones(4).trace(), lambda lib: lib.ones(2, 2, 2).trace(),
]


@pytest.mark.parametrize("k", range(len(DIAGONAL_ERRORS)))
def test_diagonal_errors(torch, k):
    same(torch, DIAGONAL_ERRORS[k])


def test_diagonals_gradcheck():
    m = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    check_gradients(lambda t: t.diag(1), m)
    check_gradients(lambda t: t.diag_embed(1, 0, 2), m)
    check_gradients(lambda t: t.diagflat(-1), m)
    check_gradients(lambda t: (t.t() @ t).trace(), m)


# --- take, index_copy, index_fill, index_put, masked_scatter ---------------------------------

def _writes(lib):
    i = lib.tensor([2, 0])
    return [
        lambda x, s: x.take(lib.tensor([[0, -1], [5, 5]])),
        lambda x, s: lib.take(x.t(), lib.tensor([1, 2])),
        lambda x, s: x.index_copy(0, i, s[:2]),
        lambda x, s: lib.index_copy(x, 1, lib.tensor([3, 1, 0]), s[:, :3]),
        lambda x, s: (x * 1).index_copy_(0, i, s[:2]),
        lambda x, s: x.index_fill(1, lib.tensor([0, -1]), 2.0),
        lambda x, s: x.index_fill(0, lib.tensor(1), s[0, 0]),
        lambda x, s: (x * 1).index_fill_(1, lib.tensor([2]), -1),
        lambda x, s: (x * 1).index_fill_(1, lib.tensor([2]), s[1, 1]),
        lambda x, s: x.index_put((lib.tensor([0, 1]),), s[0, 0]),
        lambda x, s: x.index_put([lib.tensor([0, 1, 0]), lib.tensor([1, 1, 1])], s[0, :3], accumulate=True),
        lambda x, s: (x * 1).index_put_((lib.tensor([2]), lib.tensor([3])), s[2, 2]),
        lambda x, s: lib.index_put(x, (x > 0,), s[0, 0]),
        lambda x, s: x.masked_scatter(x > 0, s),
        lambda x, s: x.masked_scatter(lib.tensor([True, False, True, False]), s.t()),
        lambda x, s: (x * 1).masked_scatter_(x < 0, s),
    ]


@pytest.mark.parametrize("k", range(16))
def test_index_writes_values_grads_and_nodes(torch, k):
    def program(lib):
        source = leaf(lib, (3, 4), seed=1)
        out, grad = with_grad(lib, lambda x: _writes(lib)[k](x, source))
        return out, grad, source.grad
    same(torch, program)


WRITE_ERRORS = [
    lambda lib, x: x.take(lib.tensor([12])), lambda lib, x: x.take(lib.tensor([-13])),
    lambda lib, x: x.take(lib.tensor([1.])), lambda lib, x: x.take(lib.tensor([1], dtype=lib.int32)),
    lambda lib, x: x.index_copy(0, lib.tensor([2, 0]), lib.ones(2, 3, dtype=lib.float64)),
    lambda lib, x: x.index_copy(0, lib.tensor([2, 0]), lib.ones(3, 4, dtype=lib.float64)),
    lambda lib, x: x.index_copy(0, lib.tensor([3]), lib.ones(1, 4, dtype=lib.float64)),
    lambda lib, x: x.index_copy(0, lib.tensor([2.]), lib.ones(1, 4, dtype=lib.float64)),
    lambda lib, x: x.index_copy(0, lib.tensor([2]), lib.ones(1, 4)),
    lambda lib, x: x.index_fill(1, lib.tensor([0, 5]), 2.),
    lambda lib, x: x.index_fill(1, lib.tensor([0]), lib.tensor([2.])),
    lambda lib, x: x.index_fill(1, lib.tensor([[0]]), 2.),
    lambda lib, x: x.index_fill(1, lib.tensor([0.]), 2.),
    lambda lib, x: x.index_put((lib.tensor([0, 1]),), 5.),
    lambda lib, x: x.masked_scatter(lib.ones(3, 4, dtype=lib.bool), lib.arange(5.)),
    lambda lib, x: x.masked_scatter(lib.ones(3, 4, dtype=lib.long), lib.arange(15.)),
    lambda lib, x: x.masked_scatter(lib.ones(3, 4, dtype=lib.bool), lib.arange(15)),
    lambda lib, x: x.masked_scatter(lib.ones(3, 5, dtype=lib.bool), lib.arange(15.)),
    lambda lib, x: x.index_fill_(1, lib.tensor([0]), 1.0),
    # in place: source's dtype, then the mask expanded to x's shape (expand's messages: it may
    # not be larger), then the mask's dtype (found by the random-program test)
    lambda lib, x: (x * 1).masked_scatter_(lib.ones(2, 3, 4, dtype=lib.bool), lib.arange(24.)),
    lambda lib, x: (x * 1).masked_scatter_(lib.ones(3, 5, dtype=lib.bool), lib.arange(15.)),
    lambda lib, x: (x * 1).masked_scatter_(lib.ones(1, 3, dtype=lib.bool), lib.arange(15.)),
    lambda lib, x: (x * 1).masked_scatter_(lib.ones(3, 5), lib.arange(15.)),
    lambda lib, x: (x * 1).masked_scatter_(lib.ones(3, 5, dtype=lib.bool), lib.arange(15)),
    lambda lib, x: (x * 1)[0, 0].masked_scatter_(lib.ones(1, 2, dtype=lib.bool), lib.arange(15.)),
]


@pytest.mark.parametrize("k", range(len(WRITE_ERRORS)))
def test_index_write_errors(torch, k):
    same(torch, lambda lib: WRITE_ERRORS[k](lib, leaf(lib)))


def test_index_writes_gradcheck():
    x = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    s = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    v = minigrad.randn((), dtype=minigrad.float64, requires_grad=True)
    check_gradients(lambda t: t.take(minigrad.tensor([[0, -1], [5, 5]])), x)
    check_gradients(lambda t, u: t.index_copy(1, minigrad.tensor([3, 0]), u[:, :2]), x, s)
    check_gradients(lambda t, u: t.index_fill(1, minigrad.tensor([3, 0]), u), x, v)
    check_gradients(lambda t, u: t.masked_scatter(minigrad.tensor([True, False, True, True]), u), x, s)
    check_gradients(lambda t, u: t.index_put((minigrad.tensor([0, 0]),), u, accumulate=True), x, v)


# --- kthvalue, mode, cummax, cummin ----------------------------------------------------------

SELECTIONS = [
    lambda x: x.kthvalue(2), lambda x: x.kthvalue(3, 0, True), lambda x: x.t().kthvalue(1, dim=0),
    lambda x: x.mode(), lambda x: x.mode(0), lambda x: x.mode(1, keepdim=True),
    lambda x: x.cummax(1), lambda x: x.cummin(0), lambda x: x.t().cummax(0), lambda x: x.cummin(-1),
]
TIES = [[3., 1, 3, 2, 1], [2, 2, 5, 5, 0], [1, 4, 1, 4, 4]]


@pytest.mark.parametrize("k", range(len(SELECTIONS)))
def test_selections_values_grads_and_nodes(torch, k):
    same(torch, lambda lib: with_grad(lib, SELECTIONS[k]))


@pytest.mark.parametrize("k", range(len(SELECTIONS)))
def test_selections_with_ties(torch, k):
    def program(lib):
        x = lib.tensor(TIES, dtype=lib.float64, requires_grad=True)
        out = SELECTIONS[k](x)
        out.values.sum().backward()
        return out, x.grad
    same(torch, program)


def test_selections_of_special_tensors(torch):
    def program(lib):
        nan = lib.tensor([1., float("nan"), 0.5, 2.])
        scalar = lib.tensor(2., requires_grad=True)
        return (nan.cummax(0), nan.cummin(0), lib.cummax(scalar, 0), lib.kthvalue(scalar, 1),
                lib.mode(scalar), lib.tensor([1, 2, 2]).cummin(0), lib.mode(lib.tensor([3, 1, 1, 3])),
                repr(lib.tensor([1., 2.]).kthvalue(1)).replace("minigrad", "torch"),
                type(scalar.cummax(0)).__name__, scalar.cummax(0).indices)
    same(torch, program)


SELECTION_ERRORS = [
    lambda lib, x: x.kthvalue(0), lambda lib, x: x.kthvalue(5), lambda lib, x: x.kthvalue(4, 0),
    lambda lib, x: x.cummax(2), lambda lib, x: x.cummax(), lambda lib, x: lib.ones(2, 0).mode(1),
    lambda lib, x: lib.ones(2, 0).kthvalue(1), lambda lib, x: x.cummin(1.0),
]


@pytest.mark.parametrize("k", range(len(SELECTION_ERRORS)))
def test_selection_errors(torch, k):
    same(torch, lambda lib: SELECTION_ERRORS[k](lib, leaf(lib)))


def test_selections_gradcheck():
    x = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    check_gradients(lambda t: t.kthvalue(2, 1).values, x)
    check_gradients(lambda t: t.mode(0, True).values, x)
    check_gradients(lambda t: t.cummax(1).values, x)
    check_gradients(lambda t: t.cummin(0).values, x)


# --- what a tensor says about itself ---------------------------------------------------------

def test_sizes_offsets_and_signs(torch):
    def program(lib):
        x = lib.ones(3, 4)
        return (x.nbytes, x.itemsize, x.expand(2, 3, 4).nbytes, x[:, :2].nbytes, x.ndimension(),
                x.t()[1:].storage_offset(), x[1, 1:].storage_offset(), x.storage_offset(),
                x[2].unsqueeze(0).storage_offset(), x.is_same_size(x.t().t()), x.is_same_size(x.t()),
                lib.is_same_size(x, lib.zeros(3, 4)), lib.ones(2, dtype=lib.uint8).is_signed(),
                lib.ones(2, dtype=lib.bool).is_signed(), x.is_signed(), lib.is_signed(lib.tensor([1])),
                lib.tensor(1., dtype=lib.float64).nbytes, lib.tensor([1], dtype=lib.int16).itemsize)
    same(torch, program)


def test_new_empty(torch):
    def program(lib):
        x = lib.ones(3, 4, dtype=lib.float64)
        return (tuple(x.new_empty(2, 3).shape), str(x.new_empty((2,)).dtype).split(".")[-1],
                str(x.new_empty([2], dtype=lib.int64).dtype).split(".")[-1],
                x.new_empty(2, requires_grad=True).requires_grad, tuple(x.new_empty(0).shape))
    same(torch, program)
    same(torch, lambda lib: lib.ones(2).new_empty(2.5))
    same(torch, lambda lib: lib.ones(2).is_same_size(3))


# --- views, versions and corner cases --------------------------------------------------------

CORNERS = {
    "movedim to itself": lambda lib: with_grad(lib, lambda x: x.movedim(0, 0)),
    "take_along_dim of a transpose, flat": lambda lib: with_grad(lib, lambda x: lib.take_along_dim(
        x.t(), lib.tensor([0, 5]))),
    "tensor_split by a tensor": lambda lib: with_grad(lib, lambda x: x.tensor_split(lib.tensor([1, 3]), 1)),
    "tensor_split by a 0-d tensor": lambda lib: with_grad(lib, lambda x: x.tensor_split(lib.tensor(2), 1)),
    "hsplit of a vector": lambda lib: with_grad(lib, lambda x: x[0].hsplit(2)),
    "unflatten of a transpose": lambda lib: with_grad(lib, lambda x: x.t().unflatten(0, (2, 2))),
    "unfold's windows changed in place": lambda lib: (lambda y: (y.unfold(1, 2, 2).mul_(2), y))(leaf(lib) * 1),
    "t_ without history": lambda lib: (lambda x: (x.t_(), x._version))(leaf(lib).detach()),
    "t_ of a view": lambda lib: (lambda b: (lambda v: (v.t_(), b._version, v._version, b))(b[1:]))(leaf(lib) * 1),
    "t_ of a view, then its base changes": lambda lib: (lambda b: (lambda v: (v.t_(), b.mul_(2), v))(b[1:]))(
        leaf(lib) * 1),
    "transpose_ of a 0-d tensor": lambda lib: (lambda x: (x.transpose_(0, -1), x.t_()))(lib.tensor(2.)),
    "index_fill_ of a view": lambda lib: (lambda b: (b[0].index_fill_(0, lib.tensor([1]), 0.), b))(leaf(lib) * 1),
    "index_copy of 0-d tensors": lambda lib: with_grad(lib, lambda x: x[0, 0].index_copy(0, lib.tensor(0), x[1, 1])),
    "take with a 0-d index": lambda lib: with_grad(lib, lambda x: x.take(lib.tensor(3))),
    "repeat_interleave of a 0-d tensor": lambda lib: with_grad(lib, lambda x: x[0, 0].repeat_interleave(3)),
    "repeat_interleave with output_size": lambda lib: with_grad(lib, lambda x: x.repeat_interleave(
        lib.tensor([1, 2, 1]), 0, output_size=4)),
    "diag of integers": lambda lib: (lib.arange(4).diag(1), lib.arange(6).reshape(2, 3).diag(-1)),
    "tile with no repeats": lambda lib: with_grad(lib, lambda x: x.tile(())),
    "rot90 of a transpose": lambda lib: with_grad(lib, lambda x: x.t().rot90(1)),
    "broadcast_to a smaller shape": lambda lib: leaf(lib).broadcast_to(2, 3),
    "cummax of integers": lambda lib: lib.tensor([[1, 3, 2]]).cummax(1),
    "kthvalue of integers": lambda lib: lib.tensor([[1, 3, 2]]).kthvalue(2),
    "mode of bools": lambda lib: lib.tensor([True, False, True]).mode(),
    "masked_scatter with a broadcast mask": lambda lib: with_grad(lib, lambda x: x.masked_scatter(
        lib.tensor([[True], [False], [True]]), x * 2)),
    "index_put with a mask": lambda lib: with_grad(lib, lambda x: x.index_put(
        (x > 0,), lib.tensor(1., dtype=lib.float64))),
    "nbytes of an empty tensor": lambda lib: (lib.ones(0, 3).nbytes, lib.ones(2, 3)[:, 1:].storage_offset()),
    "type_as float16": lambda lib: with_grad(lib, lambda x: x.type_as(lib.ones(1, dtype=lib.float16))),
}


@pytest.mark.parametrize("name", list(CORNERS))
def test_corner_cases(torch, name):
    same(torch, CORNERS[name])


def test_saved_settings_under_pytorchs_names(torch):
    def program(lib):
        x = leaf(lib)
        shown = []
        for out in (x.kthvalue(2).values, x.kthvalue(1, -2, True).values, x.mode().values,
                    x.cummax(-1).values, x.cummin(0).values):
            node = out.grad_fn
            names = sorted(n for n in dir(node) if n.startswith("_saved_")
                           and n not in ("_saved_names", "_saved_value", "_saved_versions"))
            shown.append((names, [getattr(node, n).tolist() if hasattr(getattr(node, n), "tolist")
                                  else getattr(node, n) for n in names if n != "_saved_self"]))
        return shown
    same(torch, program)


def test_saved_settings_of_the_other_new_nodes(torch):
    def program(lib):
        x, s = leaf(lib), leaf(lib, seed=1)
        v = lib.tensor(1., dtype=lib.float64, requires_grad=True)
        shown = []
        for out in (x.take(lib.tensor([1])), x.index_copy(-2, lib.tensor([1]), s[:1]),
                    x.index_fill(-1, lib.tensor([1]), 2.), x.index_fill(0, lib.tensor([1]), v),
                    x.masked_scatter(x > 0, s), x.rot90(-1, [-1, 0]), x.unfold(-1, 2, 1),
                    x.diag_embed(-1), x.diag_embed(1, 0, -1), x.diag(-1), x.diag(), x.trace()):
            node = out.grad_fn
            names = sorted(n for n in dir(node) if n.startswith("_saved_")
                           and n not in ("_saved_names", "_saved_value", "_saved_versions"))
            values = [getattr(node, n) for n in names]
            shown.append((names, [value.tolist() if hasattr(value, "tolist") else
                                  list(value) if isinstance(value, tuple) else value for value in values]))
        return shown
    same(torch, program)


SECOND_ORDER = {
    "unfold": lambda lib, x: x.unfold(1, 2, 1), "cummax": lambda lib, x: x.cummax(1).values,
    "kthvalue": lambda lib, x: x.kthvalue(2).values, "rot90": lambda lib, x: x.rot90(),
    "trace": lambda lib, x: x.trace(), "diag_embed": lambda lib, x: x.diag_embed(),
    "index_fill": lambda lib, x: x.index_fill(1, lib.tensor([1]), 0.),
    "index_copy": lambda lib, x: x.index_copy(0, lib.tensor([1]), x[:1] * 2),
    "masked_scatter": lambda lib, x: x.masked_scatter(x > 0, x * 3),
    "repeat_interleave": lambda lib, x: x.repeat_interleave(2, 0), "diag": lambda lib, x: x.diag(),
    "mode": lambda lib, x: x.mode().values,
    "take_along_dim": lambda lib, x: x.take_along_dim(lib.tensor([[0], [1], [2]]), 1),
}


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_gradients_recorded_with_create_graph(torch, name):
    """The gradient's own history (create_graph=True) is PyTorch's, and its gradient too."""
    def program(lib):
        x = leaf(lib)
        out = SECOND_ORDER[name](lib, x)
        weights = lib.arange(out.numel(), dtype=lib.float64).reshape(out.shape).requires_grad_()
        (grad_x,) = lib.autograd.grad(out, x, weights, create_graph=True)
        (grad_weights,) = lib.autograd.grad((grad_x * grad_x).sum(), weights)
        return grad_x, grad_weights
    same(torch, program)


# --- put ------------------------------------------------------------------------------------------

def test_put(torch):
    def program(lib):
        source = lib.tensor([1., 2.], dtype=lib.float64, requires_grad=True)
        out, grad = with_grad(lib, lambda x: (x.put(lib.tensor([1, -1]), source * 2),
                                              lib.put(x, lib.tensor([1, 1]), source, accumulate=True),
                                              (x * 1).put_(lib.tensor([3, 0]), source)))
        return out, grad, source.grad
    same(torch, program)


PUT_ERRORS = [
    lambda lib, x: x.put(lib.tensor([12]), x[0, :1]), lambda lib, x: x.put(lib.tensor([1, 2]), x[0, :1]),
    lambda lib, x: x.put(lib.tensor([1.]), x[0, :1]), lambda lib, x: x.put(lib.tensor([1]), lib.ones(1)),
    lambda lib, x: x.put_(lib.tensor([1]), x[0, :1].detach()),
]


@pytest.mark.parametrize("k", range(len(PUT_ERRORS)))
def test_put_errors(torch, k):
    same(torch, lambda lib: PUT_ERRORS[k](lib, leaf(lib)))


def test_put_gradcheck():
    x = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    s = minigrad.randn(2, dtype=minigrad.float64, requires_grad=True)
    check_gradients(lambda t, u: t.put(minigrad.tensor([1, -1]), u), x, s)
    check_gradients(lambda t, u: t.put(minigrad.tensor([1, 1]), u, accumulate=True), x, s)


def test_take_gradient_recorded_with_create_graph(torch):
    def program(lib):
        x = leaf(lib)
        weights = lib.ones(3, dtype=lib.float64, requires_grad=True)
        (grad_x,) = lib.autograd.grad(x.take(lib.tensor([0, 5, 5])), x, weights, create_graph=True)
        return grad_x, lib.autograd.grad((grad_x * grad_x).sum(), weights)
    same(torch, program)


# --- gather and the scatters of a 0-d tensor, or with a 0-d index (found by the random-program
# test): the index's shape is the result's (gather) or the places written, one element each ---

def _zero_d_programs():
    def with_grads(make, self_shape, src):
        def program(lib):
            x = (lib.arange(2.) + 1.5)[:1].reshape(()) if self_shape == () else lib.arange(2.) + 1.5
            x.requires_grad_(True)
            s = lib.tensor(src, dtype=lib.float64, requires_grad=True)
            out = make(lib, x, s)
            (out * 3).sum().backward()
            return out, x.grad, s.grad
        return program
    cases = {"self, index": ((), [0, 0], [2., 3.]), "self": ((), [0], [4.]), "index": ((2,), 1, 5.),
             "index, src": ((2,), 1, [5., 6.]), "both": ((), 0, 2.)}
    makers = {
        "gather": lambda lib, x, s, i: x.gather(0, i) * s.sum(),
        "scatter": lambda lib, x, s, i: x.scatter(0, i, s),
        "scatter_value": lambda lib, x, s, i: x.scatter(0, i, 2.5) * s.sum(),
        "scatter_add": lambda lib, x, s, i: x.scatter_add(0, i, s),
        "scatter_multiply": lambda lib, x, s, i: x.detach().scatter(0, i, s.detach(), reduce="multiply"),
        "scatter_reduce_amax": lambda lib, x, s, i: x.scatter_reduce(0, i, s, "amax"),
        "scatter_reduce_prod": lambda lib, x, s, i: x.scatter_reduce(0, i, s, "prod", include_self=False),
        "scatter_reduce_mean": lambda lib, x, s, i: x.scatter_reduce(0, i, s, "mean"),
    }
    return {f"{op} of 0-d {case}": with_grads(lambda lib, x, s, make=make, index=index: make(
                lib, x, s, lib.tensor(index)), self_shape, src)
            for op, make in makers.items() for case, (self_shape, index, src) in cases.items()}


ZERO_D_PROGRAMS = _zero_d_programs()


@pytest.mark.parametrize("name", sorted(ZERO_D_PROGRAMS))
def test_gather_and_scatter_of_0d_tensors_and_indices(torch, name):
    same(torch, ZERO_D_PROGRAMS[name])


# --- scatter's number: PyTorch's kernel takes it in self's dtype (refusing one that does not fit,
# before the positions are checked) and combines in that dtype (found by the random-program test:
# an int32 view of float bits multiplied by 2 wraps around) ---

@pytest.mark.parametrize("reduce", [None, "add", "multiply"])
@pytest.mark.parametrize("dtype, value", [
    ("int8", 1000), ("int8", -2.7), ("int8", 2.7), ("uint8", -3), ("float16", 1e5), ("float16", 1.0001),
    ("bool", 2), ("bool", 0.5), ("int32", 2**40), ("int32", 2), ("float32", 1e39), ("int64", 2.5)])
def test_scatter_number_in_the_dtype_of_self(torch, dtype, value, reduce):
    keywords = {} if reduce is None else {"reduce": reduce}
    same(torch, lambda lib: (lib.tensor([100, 3, -5, 7]).to(getattr(lib, dtype)).scatter_(
        0, lib.tensor([0, 2]), value, **keywords)))
    same(torch, lambda lib: lib.tensor([-1080452710, 7], dtype=lib.int32).scatter(
        0, lib.tensor([0]), value, **keywords) if dtype == "int32" else None)
    same(torch, lambda lib: lib.tensor([100, 3], dtype=lib.int8).scatter_(
        0, lib.tensor([0, 9]), value, **keywords))               # (the number before the positions)


def test_scatter_reduce_name_checked_before_the_number(torch):
    same(torch, lambda lib: lib.tensor([100, 3], dtype=lib.int8).scatter_(0, lib.tensor([0]), 1000,
                                                                          reduce="max"))


# --- index_reduce into a dim of size 0, or without include_self (seed 6053): PyTorch's kernel
# fills the places written with index_fill_ first (its checks and messages), then takes the
# first slice along dim (select()) of a tensor of 2 or more dims, then checks each position ---

INDEX_REDUCE_POSITIONS = [
    ((0, 3), 0, [0]), ((0, 3), 0, [1]), ((0, 3), -2, [0]), ((0, 3), 0, [0, 0]), ((0, 3), 0, [-1]),
    ((0, 3), 0, []), ((0, 0), 0, [0]), ((0, 0), 1, [0]), ((3, 0), 1, [0]), ((3, 0), 0, [5]),
    ((2, 0, 3), 1, [0]), ((0, 2, 3), 1, [0]), ((0, 2, 3), 0, [0]), ((0,), 0, [0]), ((2, 3), 0, [-1]),
    ((2, 3), 0, [-3]), ((2, 3), 0, [2]), ((3,), 0, [4]), ((), 0, [4]), ((0, 3), 0, [5, 2]),
]


@pytest.mark.filterwarnings("ignore:index_reduce")
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "amax"])
@pytest.mark.parametrize("shape, dim, index", INDEX_REDUCE_POSITIONS)
def test_index_reduce_positions_checked_as_pytorchs_kernel(torch, shape, dim, index, reduce, include_self):
    def program(lib, in_place=False, index_dtype="int64"):
        x = lib.zeros(shape)
        source_shape = list(shape) or [1]
        source_shape[dim] = len(index)
        source = lib.ones(source_shape) if shape else lib.ones(())
        positions = lib.tensor(index, dtype=getattr(lib, index_dtype))
        if in_place:
            return x.index_reduce_(dim, positions, source, reduce, include_self=include_self)
        return x.index_reduce(dim, positions, source, reduce, include_self=include_self)
    same(torch, program)
    same(torch, lambda lib: program(lib, in_place=True))
    same(torch, lambda lib: program(lib, index_dtype="int32"))


@pytest.mark.parametrize("make", [
    lambda lib: lib.zeros(0, 0).index_fill(0, lib.tensor([0]), 1.),
    lambda lib: lib.zeros(0, 0).index_fill(0, lib.tensor([7]), 1.),
    lambda lib: lib.zeros(2, 0, 0).index_fill(1, lib.tensor([0]), 1.),
    lambda lib: lib.zeros(0, 0).index_copy(0, lib.tensor([0]), lib.ones(1, 0)),
    lambda lib: lib.zeros(0, 0).index_copy(0, lib.tensor([7]), lib.ones(1, 0)),
    lambda lib: lib.zeros(0, 3).index_fill(0, lib.tensor([0, 1]), 1.),
    lambda lib: lib.zeros(0, 3, dtype=lib.float64).index_copy(0, lib.tensor([0]), lib.ones(1, 3, dtype=lib.float64)),
])
def test_index_fill_and_copy_into_a_dim_of_size_0(torch, make):
    # the slices of step 0 the kernel views first need memory only when none of them is empty
    same(torch, make)


# --- the scatters' and gather's shape checks, in PyTorch's order: none for an empty index; self's
# dims, then index's sizes against self's and (if those fit) src's, which src is asked for dim by
# dim, then src's dims, then the sizes' message (numpy's errors leaked before) ---

_INDEX_SHAPES = [(), (1,), (2,), (0,), (1, 1), (0, 1), (1, 0), (2, 2), (1, 3)]
_SRC_SHAPES = [(), (1,), (2,), (1, 1), (2, 2), (3, 3), (1, 1, 1)]


@pytest.mark.parametrize("operation", ["scatter", "scatter_add", "scatter_reduce", "scatter_reduce_add_",
                                       "scatter_value", "gather"])
@pytest.mark.parametrize("self_shape", [(3,), (3, 3), (), (1,)])
@pytest.mark.parametrize("index_shape", _INDEX_SHAPES)
def test_scatter_and_gather_shape_checks_in_pytorchs_order(torch, operation, self_shape, index_shape):
    def program(lib, src_shape):
        x, i, s = lib.ones(self_shape), lib.zeros(index_shape, dtype=lib.long), lib.full(src_shape, 2.)
        return {"scatter": lambda: x.scatter(0, i, s), "scatter_add": lambda: x.scatter_add(0, i, s),
                "scatter_reduce": lambda: x.scatter_reduce(0, i, s, "amax"),
                "scatter_reduce_add_": lambda: x.scatter_(0, i, s, reduce="add"),
                "scatter_value": lambda: x.scatter(0, i, 2.), "gather": lambda: x.gather(0, i)}[operation]()
    for src_shape in _SRC_SHAPES if operation not in ("scatter_value", "gather") else [()]:
        same(torch, lambda lib: program(lib, src_shape))


@pytest.mark.parametrize("make", [
    lambda L: L.ones(1).expand(3).scatter_reduce_(0, L.tensor([0]), L.ones(1, dtype=L.float64), "sum"),
    lambda L: L.ones(1, 3).expand(2, 3).scatter_reduce_(0, L.tensor([[0]]), L.ones(1, 1, dtype=L.float64), "prod"),
    lambda L: L.ones(1).expand(3).scatter_reduce_(0, L.tensor([0.]), L.ones(1), "sum"),
    lambda L: L.ones(1).expand(3).scatter_reduce_(2, L.tensor([0]), L.ones(1), "sum"),
    lambda L: L.ones(1).expand(3).scatter_reduce_(0, L.tensor([[0]]), L.ones(1), "sum"),
    lambda L: L.ones(1).expand(3).scatter_reduce_(0, L.tensor([0, 0]), L.ones(1), "sum"),
    lambda L: L.ones(1).expand(3).scatter_reduce_(0, L.tensor([0]), L.ones(1, 1), "sum"),
    lambda L: L.ones(1).expand(3).scatter_reduce_(0, L.tensor([0]), L.ones(1), "max"),
    lambda L: L.ones(1).expand(3).scatter_reduce_(0, L.tensor([7]), L.ones(1), "sum"),
])
def test_scatter_reduce_into_expanded_memory_checks_its_arguments_first(torch, make):
    # dim, the dtypes and the shapes come before the refusal to write into expanded memory; the
    # reduction's name and the positions after it
    same(torch, make)
