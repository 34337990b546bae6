"""Small differences from PyTorch closed one by one, compared with real PyTorch.

* wrong and edge inputs (0-d, empty, integer and bool dtypes, dims out of range, negative
  sizes, non-square matrices) of diag_embed, size(dim), unbind, slice_scatter, cummax and
  cummin, tensor_split, repeat_interleave, histc and histogram, prelu, svd, cholesky, geqrf
  and a few more: PyTorch's exception class and message, in PyTorch's order of checks;
* add, sub and subtract taking alpha by position (``x.sub(alpha, other)``, the old order;
  ``x.subtract(number, alpha)``, SubBackward1);
* put_ with an index or source over self's memory;
* integer division by 0 in place: the elements PyTorch's loop writes before it meets the 0;
* poisson_nll_loss(full=True) without numpy warnings.
"""
import warnings

import numpy as np
import pytest

import minigrad


def _shown(value):
    """What a result shows, comparable across the two libraries."""
    if isinstance(value, (tuple, list)):
        return tuple(_shown(v) for v in value)
    if hasattr(value, "grad_fn") and hasattr(value, "dtype"):
        node = type(value.grad_fn).__name__ if value.grad_fn is not None else None
        return (str(value.dtype).split(".")[-1], tuple(value.shape),
                repr(value.detach().numpy().tolist()), node)
    return value


def _outcome(run):
    """('ok', what run() returned) or (exception class name, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("ok", _shown(run()))
    except Exception as error:       # (the class and the message are what is compared)
        return (type(error).__name__, str(error))


def _tensor(L, shape, dtype="float32"):
    """0.5 steps from -1, of ``shape`` and ``dtype`` (1.5 for a 0-d tensor)."""
    if shape == ():
        return L.tensor(1.5).to(getattr(L, dtype))
    count = int(np.prod(shape))
    return (L.arange(count).reshape(shape) * 0.5 - 1).to(getattr(L, dtype))


def _positive_definite(L, shape, dtype="float64"):
    n = shape[-1]
    return L.tensor(np.broadcast_to(np.eye(n) * 3 + 0.5, shape).copy()).to(getattr(L, dtype))


T = _tensor
EDGES = {
    # diag_embed: the message shows the dims as given
    "diag_embed_same_dims": lambda L: L.diag_embed(T(L, (3,)), dim1=-1, dim2=-1),
    "diag_embed_dim_out": lambda L: L.diag_embed(T(L, (2, 3)), dim1=5),
    "diag_embed_bool_empty": lambda L: L.diag_embed(T(L, (2, 0), "bool"), offset=1),
    # size(dim) of a 0-d tensor, whatever the dim
    "size_0d_dim0": lambda L: T(L, ()).size(0),
    "size_0d_dim-1": lambda L: T(L, ()).size(-1),
    "size_0d_dim2": lambda L: T(L, ()).size(2),
    # unbind: the dim first, then "no dimensions"
    "unbind_0d_dim0": lambda L: L.unbind(T(L, ()), 0),
    "unbind_0d_dim1": lambda L: T(L, ()).unbind(1),
    "unbind_copy_empty": lambda L: L.unbind_copy(T(L, (0,))),
    "slice_scatter_0d": lambda L: L.slice_scatter(T(L, ()), T(L, (), "int64"), dim=2, step=0),
    "slice_copy_0d": lambda L: L.slice_copy(T(L, ())),
    "cummax_0d_dim1": lambda L: L.cummax(T(L, ()), 1),
    "cummin_0d_dim-2": lambda L: L.cummin(T(L, (), "int64"), -2),
    "cummax_empty_dim_out": lambda L: L.cummax(T(L, (2, 0)), 2),
    "cummin_empty_dim_out": lambda L: L.cummin(T(L, (0,), "int64"), -2),
    "sum_to_size_wrong": lambda L: T(L, (2, 3)).sum_to_size(4),
    # tensor_split: long split points only, checked before the dim
    "tensor_split_float_points": lambda L: L.tensor_split(T(L, (5,)), L.tensor([1.0]), dim=3),
    "tensor_split_bool_points": lambda L: L.tensor_split(T(L, (2, 3)), L.tensor([True]), dim=1),
    "tensor_split_int32_points": lambda L: L.tensor_split(T(L, (5,)), L.tensor([1], dtype=L.int32)),
    "tensor_split_2d_points": lambda L: L.tensor_split(T(L, (5,)), L.tensor([[1]]), dim=3),
    "tensor_split_0d": lambda L: L.tensor_split(T(L, ()), L.tensor([1.0])),
    # repeat_interleave
    "repeat_interleave_0d_dim": lambda L: L.repeat_interleave(T(L, ()), 2, dim=0),
    "repeat_interleave_0d_tensor_dim": lambda L: L.repeat_interleave(T(L, ()), L.tensor([2]), dim=-1),
    "repeat_interleave_output_size": lambda L: L.repeat_interleave(T(L, (2, 3)), 2, dim=0, output_size=1),
    "repeat_interleave_tensor_output_size": lambda L: L.repeat_interleave(T(L, (3,)), L.tensor([1, 0, 2]),
                                                                          output_size=6),
    "repeat_interleave_negative_sum": lambda L: L.repeat_interleave(T(L, (3,)), L.tensor([1, -1, 2]),
                                                                    output_size=2),
    "repeat_interleave_negative_size": lambda L: L.repeat_interleave(L.tensor([-3, 1]), output_size=-2),
    "repeat_interleave_float_counts": lambda L: L.repeat_interleave(T(L, (3,)), L.tensor([1.0, 2.0, 1.0])),
    "repeat_interleave_int8_counts": lambda L: L.repeat_interleave(L.tensor([1, 2], dtype=L.int8)),
    "repeat_interleave_int32_counts": lambda L: L.repeat_interleave(L.tensor([1, 2], dtype=L.int32)),
    "repeat_interleave_0d_counts": lambda L: L.repeat_interleave(L.tensor(2)),
    "repeat_interleave_2d_counts_dim": lambda L: L.repeat_interleave(T(L, (3,)), L.tensor([[1]]), dim=2),
    "repeat_interleave_size_dim_as_given": lambda L: L.repeat_interleave(T(L, (2, 3)), L.tensor([1, 2]), dim=-1),
    "repeat_interleave_one_count": lambda L: L.repeat_interleave(T(L, (2, 3)).requires_grad_(), L.tensor([2]),
                                                                 dim=1),
    # histc and histogram: PyTorch's order of checks, nan's sign
    "histc_nan_min": lambda L: L.histc(T(L, (5,)), bins=3, min=float("nan"), max=2.0),
    "histc_int_order": lambda L: L.histc(T(L, (5,), "int64"), bins=3, min=2, max=1),
    "histc_bool_range": lambda L: L.histc(T(L, (5,), "bool"), bins=3, min=0, max=float("inf")),
    "histc_int": lambda L: L.histc(T(L, (5,), "int64"), bins=3, min=0, max=3),
    # ... the nan of an input of one element keeps its sign (of more, PyTorch's reduction makes
    # -nan), and a single value too large for +-1 to widen the range takes the next numbers of
    # its dtype (found by the random-program test)
    "histc_one_nan": lambda L: L.histc(L.tensor([float("nan")]), 4),
    "histc_one_nan_0d_double": lambda L: L.histc(L.tensor(float("nan"), dtype=L.float64), 4),
    "histc_one_negative_nan": lambda L: L.histc(L.tensor([-float("nan")]), 4),
    "histc_two_nans": lambda L: L.histc(L.tensor([float("nan"), float("nan")]), 4),
    "histc_one_inf": lambda L: L.histc(L.tensor([float("inf")]), 4),
    "histc_minus_infs_double": lambda L: L.histc(L.tensor([-float("inf")] * 2, dtype=L.float64), 4),
    "histc_one_large": lambda L: L.histc(L.tensor([1e38]), 4),
    "histc_one_large_double": lambda L: L.histc(L.tensor([1e300], dtype=L.float64), 4, min=1e300, max=1e300),
    "histogram_weight_after_bins": lambda L: L.histogram(T(L, (5,)), 0, weight=L.ones(7)),
    "histogram_edges_dtype": lambda L: L.histogram(T(L, (5,), "float64"), L.tensor([0.0, 1.0, 2.0])),
    "histogram_one_edge": lambda L: L.histogram(T(L, (5,)), L.tensor([1.0])),
    "histogram_int_range": lambda L: L.histogram(T(L, (5,), "int64"), 3, range=(3.0, 0.0)),
    "histogram_default_bins": lambda L: L.histogram(T(L, (5,))),
    "histogramdd_0d": lambda L: L.histogramdd(T(L, ()), 2),
    # prelu: the count of slopes before the weight's dims
    "prelu_0d": lambda L: L.prelu(T(L, ()), T(L, (3,))),
    "prelu_2d_weight_mismatch": lambda L: L.nn.functional.prelu(T(L, (2, 0)), T(L, (1, 3))),
    "prelu_2d_weight": lambda L: L.nn.functional.prelu(T(L, (2, 3)), T(L, (1, 3))),
    # svd and cholesky
    "svd_1d": lambda L: L.svd(T(L, (3,))),
    "svd_0d_method": lambda L: T(L, ()).svd(compute_uv=False),
    "linalg_svd_1d": lambda L: L.linalg.svd(T(L, (3,))),
    "linalg_svd_empty_driver": lambda L: L.linalg.svd(T(L, (0, 3)), driver="gesvd"),
    "linalg_svd_driver": lambda L: L.linalg.svd(T(L, (3, 3)), driver="gesvd"),
    "linalg_svd_empty_half": lambda L: L.linalg.svd(T(L, (3, 0), "float16")),
    "cholesky_1d": lambda L: L.cholesky(T(L, (3,))),
    "cholesky_not_square": lambda L: L.cholesky(T(L, (2, 3), "int64")),
    "cholesky_int": lambda L: L.cholesky(_positive_definite(L, (3, 3), "int64")),
    "cholesky_half": lambda L: L.cholesky(_positive_definite(L, (3, 3), "float16")),
    "cholesky_empty_int": lambda L: L.cholesky(T(L, (2, 0, 0), "int64")),
    "cholesky_empty_vector": lambda L: L.cholesky(T(L, (0,))),
    "cholesky_not_definite": lambda L: L.cholesky(-_positive_definite(L, (2, 3, 3))),
    "linalg_cholesky_int": lambda L: L.linalg.cholesky(_positive_definite(L, (3, 3), "int64")),
    "linalg_cholesky_empty_half": lambda L: L.linalg.cholesky(T(L, (0, 3, 3), "float16")),
    "cholesky_ex_empty_half": lambda L: L.linalg.cholesky_ex(T(L, (2, 0, 0), "float16")),
    "linalg_cholesky_not_definite": lambda L: L.linalg.cholesky(-_positive_definite(L, (3, 3))),
    # geqrf
    "geqrf_int": lambda L: L.geqrf(T(L, (3, 2), "int64")),
    "geqrf_int32_empty": lambda L: T(L, (0, 3), "int32").geqrf(),
    "geqrf_bool": lambda L: L.geqrf(T(L, (2, 2, 3), "bool")),
    "geqrf_half": lambda L: L.geqrf(T(L, (2, 3), "float16")),
    "geqrf_empty": lambda L: L.geqrf(T(L, (0, 3), "float64")),
    # more edges of single-tensor functions
    "pixel_shuffle_0d": lambda L: L.nn.functional.pixel_shuffle(T(L, ()), 0),
    "pixel_unshuffle_2d": lambda L: L.nn.functional.pixel_unshuffle(T(L, (2, 3)), -1),
    "isin_bool": lambda L: L.isin(T(L, (2,), "bool"), 1),
    "adjoint_0d": lambda L: L.adjoint(T(L, ())),
    "trace_bool": lambda L: L.trace(T(L, (2,), "bool")),
    "cumulative_trapezoid_0d": lambda L: L.cumulative_trapezoid(T(L, ()), dim=3),
    "logit_eps_above_half": lambda L: L.logit(L.tensor([3, -1, 2]), 1),
    "copysign_bool": lambda L: L.copysign(T(L, (2,), "bool"), -1),
    "copysign_int_tensor": lambda L: L.copysign(L.tensor([[1, 0]]).t(), L.tensor([-1, -2])),
    "pow_bool_negative": lambda L: L.pow(T(L, (2,), "bool"), -1),
    "searchsorted_number_2d": lambda L: L.searchsorted(T(L, (2, 3)), 1.5),
    "searchsorted_0d_boundaries": lambda L: L.searchsorted(T(L, ()), T(L, ())),
    "searchsorted_0d_boundaries_vector": lambda L: L.searchsorted(T(L, ()), T(L, (3,))),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edge_inputs_as_torch(torch, name):
    assert _outcome(lambda: EDGES[name](minigrad)) == _outcome(lambda: EDGES[name](torch))


# --- alpha by position ----------------------------------------------------------------------

ALPHA_FORMS = {
    "x.subtract(1, 2)": lambda L, x: x.subtract(1, 2),
    "x.subtract(1, 2.5)": lambda L, x: x.subtract(1, 2.5),
    "x.subtract(tensor(1.), 2)": lambda L, x: x.subtract(L.tensor(1.0), 2),
    "torch.subtract(x, 1, 2)": lambda L, x: L.subtract(x, 1, 2),
    "x.subtract(1, alpha=2)": lambda L, x: x.subtract(1, alpha=2),
    "x.subtract_(1, 2)": lambda L, x: x.subtract_(1, 2),
    "x.sub(1, 2)": lambda L, x: x.sub(1, 2),
    "x.sub(1.5, 2)": lambda L, x: x.sub(1.5, 2),
    "x.sub(2, tensor(1.))": lambda L, x: x.sub(2, L.tensor(1.0)),
    "x.sub(tensor(1.), 2)": lambda L, x: x.sub(L.tensor(1.0), 2),
    "x.sub(1, alpha=2)": lambda L, x: x.sub(1, alpha=2),
    "x.sub_(1, 2)": lambda L, x: x.sub_(1, 2),
    "x.add(1, 2)": lambda L, x: x.add(1, 2),
    "x.add(2, vector)": lambda L, x: x.add(2, L.tensor([1.0, 2.0, 3.0])),
    "x.add(True, 2)": lambda L, x: x.add(True, 2),
    "x.add_(2, 1)": lambda L, x: x.add_(2, 1),
    "x.add(1.5, alpha=0.5)": lambda L, x: x.add(1.5, alpha=0.5),
    "torch.rsub(x, 1, alpha=2)": lambda L, x: L.rsub(x, 1, alpha=2),
    "1 - x": lambda L, x: 1 - x,
    "x - 1": lambda L, x: x - 1,
}


def _with_alpha(L, form, dtype):
    leaf = L.tensor([1.0, 2.0, 3.0], dtype=getattr(L, dtype), requires_grad=dtype == "float32")
    x = leaf * 1 if leaf.requires_grad else leaf.clone()
    out = ALPHA_FORMS[form](L, x)
    node = out.grad_fn
    seen = (_shown(out), getattr(node, "_saved_alpha", None), x._version)
    if leaf.requires_grad:
        out.sum().backward()
        seen += (leaf.grad.tolist(),)
    return seen


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize("form", sorted(ALPHA_FORMS))
def test_alpha_forms_as_torch(torch, form, dtype):
    assert _outcome(lambda: _with_alpha(minigrad, form, dtype)) == \
        _outcome(lambda: _with_alpha(torch, form, dtype))


# --- put_ over self's memory ----------------------------------------------------------------

PUT_FROM_ITSELF = {
    "source_is_self": lambda L, x: x.put_(L.arange(6), x),
    "source_a_row": lambda L, x: x.put_(L.tensor([0, 1]), x[1, :2]),
    "source_overlapping": lambda L, x: x.put_(L.tensor([0, 1]), x[0, 1:], accumulate=True),
    "source_strided": lambda L, x: x.put_(L.tensor([0, 1]), x[:, 0]),        # (not dense: let through)
    "source_elsewhere": lambda L, x: x[0].put_(L.tensor([0, 1]), x[1, :2]),
    "source_empty": lambda L, x: x.put_(L.tensor([], dtype=L.long), x.view(-1)[:0]),
    "bad_index_first": lambda L, x: x.put_(L.tensor([0, 1], dtype=L.int32), x.view(-1)[:2]),
    "index_is_self": lambda L, x: x.long().put_(L.tensor([0, 1]), L.tensor([7, 8])),
}


def _put(L, name):
    x = L.arange(6.0).reshape(2, 3)
    out = PUT_FROM_ITSELF[name](L, x)
    return _shown(out), x.tolist(), x._version


def _put_into_own_index(L, accumulate):
    x = L.tensor([1, 0, 3, 2])
    x.put_(x[1:3], L.tensor([7, 8]), accumulate=accumulate)
    return x.tolist()


@pytest.mark.parametrize("name", sorted(PUT_FROM_ITSELF))
def test_put_from_itself_as_torch(torch, name):
    assert _outcome(lambda: _put(minigrad, name)) == _outcome(lambda: _put(torch, name))


@pytest.mark.parametrize("accumulate", [False, True])
def test_put_into_its_own_index_as_torch(torch, accumulate):
    assert _outcome(lambda: _put_into_own_index(minigrad, accumulate)) == \
        _outcome(lambda: _put_into_own_index(torch, accumulate))


# --- integer division by zero in place ------------------------------------------------------

DIVISIONS = {
    "//=": lambda L, x, d: x.__ifloordiv__(d),
    "div_floor": lambda L, x, d: x.div_(d, rounding_mode="floor"),
    "div_trunc": lambda L, x, d: x.div_(d, rounding_mode="trunc"),
    "remainder_": lambda L, x, d: x.remainder_(d),
    "%=": lambda L, x, d: x.__imod__(d),
    "fmod_": lambda L, x, d: x.fmod_(d),
    "floor_divide_": lambda L, x, d: x.floor_divide_(d),
    "//": lambda L, x, d: x // d,
}
TARGETS = {"whole": lambda b: b, "row": lambda b: b[1], "column": lambda b: b[:, 1], "transposed": lambda b: b.t(),
           "int32": lambda b: b}
DIVISORS = {
    "0": lambda L, shape: 0,
    "tensor(0)": lambda L, shape: L.tensor(0),
    "middle 0": lambda L, shape: L.tensor([1, 0, 2][:shape[-1]] + [3] * (shape[-1] - 3)),
    "last 0": lambda L, shape: L.tensor([2] * (shape[-1] - 1) + [0]),
    "a later 0": lambda L, shape: L.arange(1, int(np.prod(shape)) + 1).reshape(shape) % 5,
    "column of a 0": lambda L, shape: L.tensor([[1]] * (shape[0] - 1) + [[0]]),
    "wrong shape": lambda L, shape: L.tensor([1, 0, 2, 4, 5, 6, 7]),
}


def _divide(L, operation, target, divisor):
    base = L.tensor([[6, 7, 8], [9, 10, 11]], dtype=L.int32 if target == "int32" else L.int64)
    x = TARGETS[target](base)
    outcome = _outcome(lambda: DIVISIONS[operation](L, x, DIVISORS[divisor](L, tuple(x.shape))))
    return outcome, base.tolist(), base._version, x._version


@pytest.mark.parametrize("divisor", list(DIVISORS))
@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("operation", list(DIVISIONS))
def test_integer_division_by_zero_in_place_as_torch(torch, operation, target, divisor):
    assert _divide(minigrad, operation, target, divisor) == _divide(torch, operation, target, divisor)


# --- poisson_nll_loss(full=True) --------------------------------------------------------------

TARGETS_OF_COUNTS = [[0.0, 1.0, 2.0, 0.5, 3.0, 0.0], [1.0] * 6, [0.0] * 6, [5.0, 2.0, 1.5, 0.9, 1.1, 7.0]]


def _poisson(L, log_input, reduction, targets, dtype):
    """(the loss, the two gradients, the module's loss) as numpy arrays, and the loss's node."""
    x = L.tensor([0.5, -0.3, 1.2, 0.0, 2.0, 0.7], dtype=getattr(L, dtype), requires_grad=True)
    rates = x if log_input else x.abs() + 0.1
    t = L.tensor(targets, dtype=getattr(L, dtype), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")        # (no numpy warning may escape)
        out = L.nn.functional.poisson_nll_loss(rates, t, log_input=log_input, full=True, reduction=reduction)
        out.sum().backward()
        module = L.nn.PoissonNLLLoss(log_input=log_input, full=True, reduction=reduction)
        by_module = module(rates.detach(), t.detach())
    arrays = [out.detach().numpy(), x.grad.numpy(), t.grad.numpy(), by_module.numpy()]
    return [a.copy() for a in arrays], (str(out.dtype), type(out.grad_fn).__name__)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("targets", range(len(TARGETS_OF_COUNTS)))
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("log_input", [True, False])
def test_poisson_nll_loss_full_as_torch(torch, log_input, reduction, targets, dtype):
    targets = TARGETS_OF_COUNTS[targets]
    ours, our_kind = _poisson(minigrad, log_input, reduction, targets, dtype)
    theirs, their_kind = _poisson(torch, log_input, reduction, targets, dtype)
    assert our_kind == their_kind
    # float64 to the last bit; float32 within a few ulps (float32 log may round differently,
    # see the README), nan where PyTorch has nan
    tolerance = 0 if dtype == "float64" else 1e-6
    for mine, real in zip(ours, theirs):
        np.testing.assert_allclose(mine, real, rtol=tolerance, atol=0)


@pytest.mark.parametrize("name, form", [("hardshrink", "function"), ("hardshrink", "method"),
                                        ("softshrink", "function")])     # (no Tensor.softshrink)
@pytest.mark.parametrize("lambd", [True, False, 1, 0.25, "a", None])
def test_shrink_takes_a_bool_as_a_number(torch, name, lambd, form):
    # PyTorch's Scalar takes True and False (as 1 and 0), and the node saves them as given
    def run(L):
        x = L.tensor([-1.0, 0.3, 2.0], requires_grad=True)
        call = getattr(L.nn.functional, name) if form == "function" else getattr(L.Tensor, name)
        try:
            out = call(x, lambd)
        except TypeError as error:
            return str(error)
        return out.tolist(), repr(out.grad_fn._saved_lambd)
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("make", [
    lambda L: L.cumulative_trapezoid(L.zeros(0, requires_grad=True), L.zeros(0)),
    lambda L: L.cumulative_trapezoid(L.zeros(2, 0, requires_grad=True), L.zeros(2, 0)),
    lambda L: L.cumulative_trapezoid(L.zeros(0, 2, requires_grad=True), L.zeros(0), dim=0),
])
def test_cumulative_trapezoid_of_an_empty_dim_with_points(torch, make):
    """Given sample points, an empty dim takes the usual steps (DivBackward1 of a cumsum): only
    trapezoid has a shortcut there (found by the random-program test)."""
    seen = []
    for L in (minigrad, torch):
        out = make(L)
        seen.append((tuple(out.shape), out.grad_fn.name(),
                     [n.name() for n, _ in out.grad_fn.next_functions]))
    assert seen[0] == seen[1]
