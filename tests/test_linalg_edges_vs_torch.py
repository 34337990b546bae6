"""The edges of torch.linalg against PyTorch: det's gradient at singular matrices bit for bit
(signs of zero included), its create_graph gradient through the SVD near singular matrices
(values, recorded nodes, gradgradcheck), the versions of inference results (cond and the
other linalg functions), and vmap's graph with in_dims=1."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()


def _singular_matrices():
    """Singular matrices of the kinds whose det gradient is 0 with some sign of zero: rank
    deficient (a row a combination of others, a low-rank product), a zero row or column,
    -0.0 entries (also the zeros of a low-rank product), with small integer entries so that
    LU factors have exact zeros."""
    rng = np.random.default_rng(3)
    matrices = []
    for n in range(1, 8):
        for t in range(12):
            a = rng.integers(-3, 4, (n, n)).astype(float)
            kind = t % 4
            if kind == 0 and n > 1:
                a[-1] = 2 * a[0] - a[1 % n]
            elif kind == 1:
                a[rng.integers(n)] = -0.0 if t % 2 else 0.0
            elif kind == 2:
                a[:, rng.integers(n)] = -0.0
                a[a == 0] = -0.0
            else:
                r = max(n - 2, 0)
                a = rng.integers(-2, 3, (n, r)) @ rng.integers(-2, 3, (r, n)).astype(float)
                a[a == 0] = -0.0 if t % 3 else 0.0
            matrices.append(a)
    return matrices


SINGULAR = _singular_matrices()


def _bits(array):
    return np.ascontiguousarray(array).tobytes()


def _det_grad(L, a, dtype, by_columns):
    x = L.tensor(np.asfortranarray(a).T if by_columns else a, dtype=dtype).detach()
    x = (x.mT if by_columns else x).requires_grad_(True)
    L.linalg.det(x).backward()
    return x.grad.numpy()


def _same_lu(a, dtype, by_columns):
    """Whether minigrad's LU loop factors the matrix to PyTorch's bits (the gradient is
    computed from them; where MKL's blocked LU rounds otherwise, so does the gradient)."""
    from minigrad._ops.decompositions import lu_factor, _as_lapack_sees_it
    array = np.asarray(a, dtype={torch.float32: np.float32, torch.float64: np.float64}[dtype])
    array = np.asfortranarray(array) if by_columns else array
    mine = lu_factor(_as_lapack_sees_it(array))[0]
    theirs = torch.linalg.lu_factor_ex(torch.tensor(array).mT if not by_columns else torch.tensor(array))[0]
    return _bits(mine) == _bits(theirs.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("by_columns", [False, True])
def test_det_gradient_of_singular_matrices_bit_for_bit(dtype, by_columns):
    # (A laid out by columns is solved transposed, in MKL's order up to 4 x 4)
    matrices = [a for a in SINGULAR if not by_columns or a.shape[0] <= 4]
    compared = 0
    for a in matrices:
        if not _same_lu(a, getattr(torch, dtype), by_columns):
            continue
        compared += 1
        expected = _det_grad(torch, a, getattr(torch, dtype), by_columns)
        got = _det_grad(minigrad, a, getattr(minigrad, dtype), by_columns)
        assert _bits(got) == _bits(expected), (a, expected, got)
    assert compared >= 0.6 * len(matrices)


def test_det_gradient_of_a_one_by_one_matrix_is_grad():
    for value in (0.0, -0.0, 3.0, 1e-30):
        results = []
        for L in (torch, minigrad):
            x = L.tensor([[[value]], [[2.0]]], requires_grad=True)
            g = L.tensor([0.1, -0.0])
            (grad,) = L.autograd.grad(L.linalg.det(x), x, g)
            results.append(grad.numpy())
        assert _bits(results[0]) == _bits(results[1])


def _chain(fn):
    """The graph below a node, depth first: names only."""
    if fn is None:
        return None
    return (type(fn).__name__, tuple(_chain(f) for f, _ in fn.next_functions))


NEAR_SINGULAR = {
    "rank1": [[1.0, 2], [2, 4]],
    "rank2": [[1.0, 2, 3], [4, 5, 6], [7, 8, 9]],
    "rank1_3x3": [[1.0, 2, 3], [2, 4, 6], [3, 6, 9]],
    "zero_row": [[0.0, 0, 0], [1, 2, 3], [4, 5, 7]],
    "negative_zeros": [[-0.0, 1], [-0.0, 2]],
    "tiny": [[1e-9, 0], [0, 1e-9]],
    "cofactors_only": [[2.0, 1, 0], [1, 2, 1], [3, 3, 1]],
    "invertible": [[2.0, 1, 0], [1, 2, 1], [3, 3, 2]],
    "batch_singular_first": [[[1.0, 2], [2, 4]], [[1.0, 2], [3, 4]]],
    "batch_singular_last": [[[1.0, 2], [3, 4]], [[1.0, 2], [2, 4]], [[3.0, 1], [1, 3]]],
    "one_by_one": [[[0.0]], [[2.0]]],
}


# (float32 rank1_3x3 left out: its two zero singular values are equal or not depending on
# the SVD's rounding, and PyTorch's second derivative is NaN where they are equal)
@pytest.mark.parametrize("name, dtype", [(name, dtype) for name in sorted(NEAR_SINGULAR)
                                         for dtype in ("float32", "float64")
                                         if (name, dtype) != ("rank1_3x3", "float32")])
def test_det_create_graph_gradient_as_torch(name, dtype):
    a = NEAR_SINGULAR[name]
    results = []
    for L in (torch, minigrad):
        x = L.tensor(a, dtype=getattr(L, dtype), requires_grad=True)
        d = L.linalg.det(x)
        g = L.full(tuple(d.shape), 0.5, dtype=getattr(L, dtype), requires_grad=True)
        (first,) = L.autograd.grad(d, x, g, create_graph=True)
        (second,) = L.autograd.grad(first.sum(), x, allow_unused=True, materialize_grads=True)
        results.append((first.detach().numpy(), _chain(first.grad_fn), second.numpy()))
    (first_t, graph_t, second_t), (first_m, graph_m, second_m) = results
    tolerance = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(first_m, first_t, atol=tolerance)
    np.testing.assert_allclose(second_m, second_t, atol=tolerance * 10)
    assert graph_m == graph_t


@pytest.mark.parametrize("name", ["rank1", "rank2", "rank1_3x3", "zero_row", "negative_zeros",
                                  "cofactors_only", "invertible", "batch_singular_first",
                                  "batch_singular_last", "one_by_one"])
def test_det_gradgradcheck_where_torch_passes(name):
    a = NEAR_SINGULAR[name]
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradgradcheck(torch.linalg.det, (x,))
    x = minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(minigrad.linalg.det, (x,))


# --- vmap with the batch elsewhere than in front -------------------------------------------------

def _graph_with_settings(fn):
    """The graph below a node with the dims its views and transposes saved."""
    if fn is None:
        return None
    saved = tuple((name, getattr(fn, name)) for name in ("_saved_dims", "_saved_dim0", "_saved_dim1")
                  if name in dir(fn))
    return (type(fn).__name__, saved, tuple(_graph_with_settings(f) for f, _ in fn.next_functions))


VMAP_FUNCTIONS = {
    "mul_number": lambda L, t: t * 2,
    "number_mul": lambda L, t: 2 * t,
    "add_number": lambda L, t: t + 1,
    "torch_add_alpha": lambda L, t: L.add(t, 1, alpha=2),
    "sub_number": lambda L, t: t - 1,
    "number_sub": lambda L, t: 1 - t,
    "div_number": lambda L, t: t / 2,
    "number_div": lambda L, t: 2 / t,
    "div_floor": lambda L, t: L.div(t, 2, rounding_mode="floor"),
    "number_pow": lambda L, t: 2 ** t,
    "pow_number": lambda L, t: t ** 2,
    "clamp": lambda L, t: t.clamp(0.7, 1.5),
    "remainder": lambda L, t: L.remainder(t, 2),
    "mul_tensors": lambda L, t: t * t,
    "exp": lambda L, t: t.exp(),
    "lerp": lambda L, t: L.lerp(t, t * t, 0.5),
    "xlogy_number": lambda L, t: L.xlogy(t, 2.0),
    "matmul_mT": lambda L, t: t @ t.mT,
    "sum": lambda L, t: t.sum(0, keepdim=True),
    "exp_then_mul": lambda L, t: t.exp() * 3,
}


@pytest.mark.parametrize("in_dims, out_dims", [(1, 1), (1, 0), (2, 1), (0, 2), (1, -1)])
@pytest.mark.parametrize("name", sorted(VMAP_FUNCTIONS))
def test_vmap_graph_with_the_batch_elsewhere(name, in_dims, out_dims):
    data = np.random.default_rng(0).uniform(0.5, 2, (3, 4, 5)).astype(np.float32)
    results = []
    for L in (torch, minigrad):
        x = L.tensor(data, requires_grad=True)
        out = L.func.vmap(lambda t: VMAP_FUNCTIONS[name](L, t), in_dims=in_dims, out_dims=out_dims)(x)
        results.append((_graph_with_settings(out.grad_fn), tuple(out.shape), out.stride(),
                        out._base is not None, out.detach().numpy()))
    (graph_t, shape_t, stride_t, view_t, value_t), (graph_m, shape_m, stride_m, view_m, value_m) = results
    assert (graph_m, shape_m, stride_m, view_m) == (graph_t, shape_t, stride_t, view_t)
    np.testing.assert_allclose(value_m, value_t, rtol=1e-6)


# --- the version of a gradient added up from several uses ----------------------------------------

def _version_after_uses(L, kind, shape, uses):
    source = L.zeros(shape, requires_grad=True)
    index = L.tensor([1] * shape[0] if shape else [1], dtype=L.int64)
    total = 0
    for use in range(uses):
        base = L.zeros(2, *shape[1:]) if shape else L.zeros(2)
        if kind == "index_copy":
            out = base.index_copy(0, index, source)
        else:
            out = base.index_put((index,), source, accumulate=use % 2 == 1)
        total = total + (out * (use + 1)).sum()
    total.backward()
    return source.grad._version, source.grad.tolist(), source.grad._base is not None


@pytest.mark.parametrize("kind", ["index_copy", "index_put"])
@pytest.mark.parametrize("shape", [(0, 3), (1, 3), ()])
@pytest.mark.parametrize("uses", [1, 2, 3])
def test_gradient_version_of_a_source_used_several_times(kind, shape, uses):
    """index_copy's gradient for source is PyTorch's expand_as view, which the engine does not
    add a second gradient into in place (index_put's is a new tensor: it does)."""
    if kind == "index_put" and shape == ():
        shape = (1,)
    assert _version_after_uses(minigrad, kind, shape, uses) == _version_after_uses(torch, kind, shape, uses)


@pytest.mark.parametrize("name", sorted(NEAR_SINGULAR))
def test_det_forward_mode_at_singular_matrices(name):
    """PyTorch's jvp solves with the LU factors, a 0 pivot replaced by eps: no error."""
    results = []
    for L in (torch, minigrad):
        x = L.tensor(NEAR_SINGULAR[name], dtype=L.float64)
        tangent = L.ones_like(x)
        value, derivative = L.func.jvp(L.linalg.det, (x,), (tangent,))
        results.append((value.numpy(), derivative.numpy()))
    np.testing.assert_allclose(results[1][0], results[0][0], atol=1e-12)
    np.testing.assert_allclose(results[1][1], results[0][1], atol=1e-9)


# --- det's gradient inside torch.func transforms ------------------------------------------------

@pytest.mark.parametrize("name", ["invertible", "rank2", "batch_singular_last"])
def test_det_gradient_inside_func_transforms_takes_the_svd(name):
    # (PyTorch's tensors are wrapped there, and its formula takes the SVD for every matrix)
    a = NEAR_SINGULAR[name]
    results = []
    for L in (torch, minigrad):
        x = L.tensor(a, dtype=L.float64, requires_grad=True)
        fn = (lambda m: L.linalg.det(m).sum()) if x.ndim > 2 else L.linalg.det
        g = L.func.grad(fn)(x)
        batched = L.func.vmap(L.func.grad(L.linalg.det))(x if x.ndim > 2 else x[None])
        results.append((g.detach().numpy(), batched.detach().numpy(), _chain(g.grad_fn)))
    (g_t, b_t, chain_t), (g_m, b_m, chain_m) = results
    np.testing.assert_allclose(g_m, g_t, atol=1e-12)
    np.testing.assert_allclose(b_m, b_t, atol=1e-12)
    if len(np.shape(a)) == 2:   # (a batch's matmul records ReshapeAliasBackward0 where PyTorch's View)
        assert chain_m == chain_t


NAN = float("nan")


@pytest.mark.parametrize("matrix", [
    [[0.75, NAN], [NAN, 1.25]], [[NAN, 1.0], [1.0, 2.0]], [[4.0, 2.0], [2.0, NAN]],
    [[4.0, 2.0, 1.0], [2.0, NAN, 0.0], [1.0, 0.0, 3.0]], [[4.0, 2.0, 1.0], [2.0, 3.0, 0.0], [1.0, 0.0, NAN]],
    [[4.0, 2.0], [2.0, 5.0]], [[-1.0, 0.0], [0.0, 1.0]]], ids=str)
def test_cholesky_stops_at_a_nan(matrix):
    """A NaN that reaches the diagonal is not positive: the Cholesky factorization stops at that
    leading minor and reports it, as PyTorch's does (numpy's LAPACK carries the NaN on)
    (found by the random-program test)."""
    def outcome(L):
        info = L.linalg.cholesky_ex(L.tensor(matrix))[1]
        try:
            L.linalg.cholesky(L.tensor(matrix, dtype=L.float64))
        except RuntimeError as error:
            return info.item(), type(error).__name__, str(error)
        return info.item(), "no error"
    assert outcome(minigrad) == outcome(torch)


INF = float("inf")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("matrix", [
    [[INF, NAN], [NAN, INF]], [[INF, 0.0], [0.0, 1.0]], [[INF, 1.0], [1.0, 4.0]],
    [[INF, 0.0], [INF, INF]], [[INF, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    [[1.0, 0.0, 0.0], [0.0, INF, 0.0], [0.0, 0.0, 1.0]], [[4.0, 0.0], [0.0, INF]],
    [[-INF, 0.0], [0.0, 1.0]], [[4.0, 0.0, 0.0], [INF, 1.0, 0.0], [0.0, 0.0, 1.0]]], ids=str)
def test_cholesky_of_infinite_values(matrix, dtype):
    """Infinities on the way: float32 makes the column under an infinite diagonal value NaN and
    stops at the next leading minor, float64 divides by inf and goes on; a NaN below an
    infinite diagonal value is not lost (found by the random-program test)."""
    def outcome(L):
        A = L.tensor(matrix, dtype=getattr(L, dtype))
        factor, info = L.linalg.cholesky_ex(A)
        try:
            L.linalg.cholesky(A)
        except RuntimeError as error:
            return factor.numpy().tobytes(), info.item(), type(error).__name__, str(error)
        return factor.numpy().tobytes(), info.item(), "no error"
    assert outcome(minigrad) == outcome(torch)
