"""Second-order graphs of the matrix operations, node by node against PyTorch.

``g, = grad(f(x) weighted and summed, x, create_graph=True)`` records the operations of f's
backward formula as a graph of their own. That graph must be PyTorch's: the same node names
(LinalgSolveTriangularBackward0, CopySlices, MulBackward1...), in the same next_functions
order, with the same settings. Each test builds one program in minigrad and in PyTorch and
compares that graph recursively, the values of g, and the second derivatives (the gradient
of a weighted sum of g); gradgradcheck checks the second derivatives against finite
differences in float64.

The programs keep the inputs where the operations are smooth and well conditioned:
symmetric positive-definite matrices for Cholesky, diagonally dominant ones for solves and
inverses, and only sign-free functions of eigenvectors and singular vectors (their signs are
a free choice of LAPACK).
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

# minigrad's own Node internals that happen to start with "_saved" (not saved values)
INTERNALS = {"_saved", "_saved_names", "_saved_value", "_saved_versions", "_raw_saved_value"}


def settings(node):
    """The numbers a node shows (``_saved_upper``, ``_saved_dim0``...), not its tensors."""
    shown = {}
    for name in dir(node):
        if name.startswith("_saved_") and name not in INTERNALS:
            value = getattr(node, name)
            if value is None or isinstance(value, (int, float, str, tuple)):
                shown[name] = value
    return shown


def structure(node):
    """A node as nested (name, settings, children), children in next_functions order."""
    if node is None:
        return None
    return (node.name(), settings(node), tuple(structure(child) for child, _ in node.next_functions))


# ---- the inputs ------------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def spd(n, batch=(), seed=0):
    """A symmetric positive-definite matrix (or batch), well conditioned."""
    a = _rng(seed).standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def dominant(n, batch=(), seed=0):
    """A matrix far from singular: random, plus 3 on the diagonal."""
    return _rng(seed).standard_normal(batch + (n, n)) + 3 * np.eye(n)


def lower(n, batch=(), seed=0, upper=False):
    """A triangular matrix with a diagonal near 2."""
    a = 0.3 * _rng(seed).standard_normal(batch + (n, n)) + 2 * np.eye(n)
    return np.triu(a) if upper else np.tril(a)


def noise(*shape, seed=1):
    return _rng(seed).standard_normal(shape)


def _abs_all(results):
    """Eigenvectors and singular vectors up to their signs: only sign-free functions of them
    are well defined, so the programs take their absolute values."""
    return tuple(r.abs() for r in results)


def _svd(L, a, **options):
    U, S, Vh = L.linalg.svd(a, **options)
    return U.abs(), S, Vh.abs()


# name -> (input arrays, program); every input requires grad
PROGRAMS = {
    # Cholesky: two triangular solves, a MulBackward1 and no inverse
    "linalg.cholesky": ([spd(3)], lambda L, a: L.linalg.cholesky(a)),
    "linalg.cholesky-upper": ([spd(3)], lambda L, a: L.linalg.cholesky(a, upper=True)),
    "linalg.cholesky-batched": ([spd(3, (2,))], lambda L, a: L.linalg.cholesky(a)),
    "linalg.cholesky_ex": ([spd(4)], lambda L, a: L.linalg.cholesky_ex(a).L),
    "cholesky": ([spd(3)], lambda L, a: L.cholesky(a)),
    "cholesky-upper": ([spd(3)], lambda L, a: L.cholesky(a, upper=True)),
    "cholesky_solve": ([noise(3, 2), lower(3)], lambda L, b, c: L.cholesky_solve(b, c)),
    "cholesky_solve-upper": ([noise(3, 2), lower(3, upper=True)],
                             lambda L, b, c: L.cholesky_solve(b, c, upper=True)),
    "cholesky_solve-of-cholesky": ([noise(2, 3, 2), spd(3, (2,))],
                                   lambda L, b, a: L.cholesky_solve(b, L.linalg.cholesky(a))),
    "cholesky_inverse": ([lower(3)], lambda L, c: L.cholesky_inverse(c)),
    "cholesky_inverse-upper": ([lower(3, upper=True)], lambda L, c: L.cholesky_inverse(c, upper=True)),
    # solve: a vector right-hand side is solved as a one-column matrix
    "linalg.solve-vector": ([dominant(3), noise(3)], lambda L, a, b: L.linalg.solve(a, b)),
    "linalg.solve-vectors": ([dominant(3, (2,)), noise(2, 3)], lambda L, a, b: L.linalg.solve(a, b)),
    "linalg.solve-vector-broadcast": ([dominant(3, (2,)), noise(3)], lambda L, a, b: L.linalg.solve(a, b)),
    "linalg.solve-matrix": ([dominant(3), noise(3, 2)], lambda L, a, b: L.linalg.solve(a, b)),
    "linalg.solve-right": ([dominant(3), noise(2, 3)], lambda L, a, b: L.linalg.solve(a, b, left=False)),
    "linalg.solve_triangular": ([lower(3), noise(3, 2)],
                                lambda L, a, b: L.linalg.solve_triangular(a, b, upper=False)),
    "triangular_solve": ([noise(3, 2), lower(3, upper=True)], lambda L, b, a: L.triangular_solve(b, a)[0]),
    # matrix_exp: the block matrix [[A^T, grad], [0, A^T]] built by copies into zeros
    "linalg.matrix_exp": ([0.5 * noise(3, 3)], lambda L, a: L.linalg.matrix_exp(a)),
    "linalg.matrix_exp-batched": ([0.5 * noise(2, 3, 3)], lambda L, a: L.linalg.matrix_exp(a)),
    "matrix_exp": ([0.5 * noise(3, 3)], lambda L, a: L.matrix_exp(a)),
    # inverses and determinants
    "linalg.inv": ([dominant(3)], lambda L, a: L.linalg.inv(a)),
    "inverse": ([dominant(3, (2,))], lambda L, a: L.inverse(a)),
    "linalg.matrix_power--2": ([dominant(3)], lambda L, a: L.linalg.matrix_power(a, -2)),
    "linalg.matrix_power-3": ([0.3 * dominant(3)], lambda L, a: L.linalg.matrix_power(a, 3)),
    "linalg.tensorinv": ([dominant(4).reshape(2, 2, 2, 2)], lambda L, a: L.linalg.tensorinv(a, ind=2)),
    "linalg.tensorsolve": ([dominant(4).reshape(2, 2, 2, 2), noise(2, 2)],
                           lambda L, a, b: L.linalg.tensorsolve(a, b)),
    "linalg.det": ([dominant(3)], lambda L, a: L.linalg.det(a)),
    "linalg.slogdet": ([dominant(3)], lambda L, a: L.linalg.slogdet(a)[1]),
    "logdet": ([spd(3)], lambda L, a: L.logdet(a)),
    # LU: through lu_unpack, PyTorch's order of triangular solves
    "linalg.lu_factor": ([dominant(3)], lambda L, a: L.linalg.lu_factor(a)[0]),
    "linalg.lu_factor-tall": ([noise(4, 3)], lambda L, a: L.linalg.lu_factor(a)[0]),
    "linalg.lu_factor-wide": ([noise(3, 4)], lambda L, a: L.linalg.lu_factor(a)[0]),
    "linalg.lu": ([dominant(3)], lambda L, a: L.linalg.lu(a)[1:]),
    "linalg.lu-tall-U": ([noise(4, 3)], lambda L, a: L.linalg.lu(a)[2]),
    "linalg.lu-wide-L": ([noise(3, 4)], lambda L, a: L.linalg.lu(a)[1]),
    "linalg.lu_solve": ([dominant(3), noise(3, 2)],
                        lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b)),
    "linalg.lu_solve-adjoint": ([dominant(3), noise(3, 2)],
                                lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b, adjoint=True)),
    "linalg.lu_solve-right": ([dominant(3), noise(2, 3)],
                              lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b, left=False)),
    "linalg.lu_solve-right-adjoint": ([dominant(3), noise(2, 3)], lambda L, a, b: L.linalg.lu_solve(
        *L.linalg.lu_factor(a), b, left=False, adjoint=True)),
    "lu_unpack-tall": ([noise(4, 3)], lambda L, a: L.lu_unpack(*L.linalg.lu_factor(a))[1:]),
    # eigh, svd, qr
    "linalg.eigh": ([spd(3)], lambda L, a: (lambda w, v: (w, v.abs()))(*L.linalg.eigh(a))),
    "linalg.eigh-vectors-batched": ([spd(3, (2,))], lambda L, a: L.linalg.eigh(a)[1].abs()),
    "linalg.eigvalsh": ([spd(3)], lambda L, a: L.linalg.eigvalsh(a)),
    "linalg.svd": ([noise(3, 3)], lambda L, a: _svd(L, a)),
    "linalg.svd-tall-reduced": ([noise(4, 3)], lambda L, a: _svd(L, a, full_matrices=False)),
    "linalg.svd-wide-reduced": ([noise(3, 4)], lambda L, a: _svd(L, a, full_matrices=False)),
    "linalg.svd-wide-full": ([noise(3, 4)], lambda L, a: (lambda U, S, Vh: (U, S, Vh[:3]))(*_svd(L, a))),
    "svd": ([noise(4, 3)], lambda L, a: _abs_all(L.svd(a))),
    "linalg.svdvals": ([noise(4, 3)], lambda L, a: L.linalg.svdvals(a)),
    "linalg.matrix_norm-nuc": ([dominant(3)], lambda L, a: L.linalg.matrix_norm(a, "nuc")),
    "linalg.cond": ([dominant(3)], lambda L, a: L.linalg.cond(a)),
    "linalg.pinv": ([noise(4, 3)], lambda L, a: L.linalg.pinv(a)),
    "linalg.qr": ([noise(4, 3)], lambda L, a: L.linalg.qr(a)),
    "linalg.qr-R": ([noise(3, 3)], lambda L, a: L.linalg.qr(a)[1]),
    "linalg.qr-wide": ([noise(3, 4)], lambda L, a: L.linalg.qr(a)),
    "qr": ([noise(2, 4, 3)], lambda L, a: L.qr(a)),
    "linalg.lstsq": ([noise(4, 3), noise(4, 2, seed=2)], lambda L, a, b: L.linalg.lstsq(a, b).solution),
    # Householder reflections: K updated reflection by reflection, columns copied in
    "linalg.householder_product": ([noise(4, 3), 0.5 * noise(3, seed=2)],
                                   lambda L, a, t: L.linalg.householder_product(a, t)),
    "linalg.householder_product-batched": ([noise(2, 5, 3), 0.5 * noise(2, 2, seed=2)],
                                           lambda L, a, t: L.linalg.householder_product(a, t)),
    "orgqr": ([noise(3, 3), 0.5 * noise(3, seed=2)], lambda L, a, t: L.orgqr(a, t)),
    "ormqr": ([noise(4, 3), 0.5 * noise(3, seed=2), noise(4, 2, seed=3)],
              lambda L, a, t, c: L.ormqr(a, t, c)),
    "ormqr-transpose": ([noise(3, 3), 0.5 * noise(3, seed=2), noise(3, 2, seed=3)],
                        lambda L, a, t, c: L.ormqr(a, t, c, transpose=True)),
    "ormqr-right": ([noise(3, 3), 0.5 * noise(3, seed=2), noise(2, 3, seed=3)],
                    lambda L, a, t, c: L.ormqr(a, t, c, left=False)),
    "ormqr-right-transpose": ([noise(4, 2), 0.5 * noise(2, seed=2), noise(3, 4, seed=3)],
                              lambda L, a, t, c: L.ormqr(a, t, c, left=False, transpose=True)),
}

# Checked against finite differences (these pass gradgradcheck in PyTorch too, in float64).
# Cholesky and eigh read one triangle of A only: finite differences of the other triangle
# see nothing, where the gradient (symmetric, as A is) does, so they are checked on the
# symmetric part of their input.
GRADGRADCHECKED = [
    "linalg.cholesky", "linalg.cholesky-upper", "cholesky_solve-of-cholesky", "linalg.solve-vector",
    "linalg.solve-vectors", "linalg.solve-right", "linalg.matrix_exp", "linalg.inv",
    "linalg.lu_factor", "linalg.lu_factor-wide", "linalg.lu_solve", "linalg.lu_solve-right-adjoint",
    "linalg.eigh", "linalg.svd-tall-reduced", "linalg.qr", "linalg.qr-wide",
    "linalg.householder_product", "ormqr-right",
]
READS_ONE_TRIANGLE = {"linalg.cholesky": 0, "linalg.cholesky-upper": 0, "linalg.eigh": 0,
                      "cholesky_solve-of-cholesky": 1}      # (which input)


def _weights(L, shape, seed):
    return L.tensor(np.random.default_rng(seed).uniform(0.5, 1.5, shape), dtype=L.float64)


def _weighted_sum(L, results, seed):
    """Each result times fixed weights, all summed: one number that every output reaches."""
    if not isinstance(results, (tuple, list)):
        results = (results,)
    return sum((r * _weights(L, tuple(r.shape), seed + i)).sum() for i, r in enumerate(results))


def _run(L, name):
    arrays, program = PROGRAMS[name]
    inputs = [L.tensor(a, dtype=L.float64, requires_grad=True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # (the deprecated cholesky, qr, svd, ... warn)
        gradients = L.autograd.grad(_weighted_sum(L, program(L, *inputs), 10), inputs,
                                    create_graph=True)
        graphs = [structure(g.grad_fn) for g in gradients]      # (before the graph is freed)
        second = L.autograd.grad(_weighted_sum(L, gradients, 20), inputs, allow_unused=True)
    return graphs, gradients, second


def _assert_close(ours, theirs):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_second_order_graph_as_torch(name):
    torch = import_torch()
    graphs, gradients, second = _run(minigrad, name)
    t_graphs, t_gradients, t_second = _run(torch, name)
    assert graphs == t_graphs
    for g, t_g in zip(gradients, t_gradients):
        _assert_close(g, t_g)
    for h, t_h in zip(second, t_second):
        assert (h is None) == (t_h is None)
        if t_h is not None:
            _assert_close(h, t_h)


@pytest.mark.parametrize("name", GRADGRADCHECKED)
def test_second_derivatives_gradgradcheck(name):
    arrays, program = PROGRAMS[name]
    inputs = tuple(minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrays)

    def function(*xs):
        if name in READS_ONE_TRIANGLE:
            i = READS_ONE_TRIANGLE[name]
            xs = xs[:i] + ((xs[i] + xs[i].mT) / 2,) + xs[i + 1:]
        return _weighted_sum(minigrad, program(minigrad, *xs), 10)
    assert minigrad.autograd.gradgradcheck(function, inputs)


def test_transpose_backward_keeps_negative_dims_as_torch(torch):
    """The gradient of x.transpose(-2, -1) is transposed back with -2 and -1 (as given)."""
    def graph(L):
        x = L.tensor(noise(2, 3, 4), dtype=L.float64, requires_grad=True)
        (g,) = L.autograd.grad((x.transpose(-2, -1) ** 2).sum(), x, create_graph=True)
        return structure(g.grad_fn)
    assert graph(minigrad) == graph(torch)


@pytest.mark.parametrize("index", ["[:, 1:]", "[1:3]", "[..., -3:-1]", "[:, ::2]", "[-3:]"])
def test_slice_backward_backward_settings_as_torch(torch, index):
    """The recorded gradient of a slice shows the slice's dim, start, end and step."""
    def graph(L):
        x = L.tensor(noise(4, 5), dtype=L.float64, requires_grad=True)
        y = eval("x" + index)
        (g,) = L.autograd.grad((y * y).sum(), x, create_graph=True)
        return structure(g.grad_fn)
    assert graph(minigrad) == graph(torch)


def test_solve_right_hand_side_laid_out_as_torch(torch):
    """X A = B gives X row by row (LAPACK solves A^T X^T = B^T, column by column)."""
    def strides(L):
        A, B = L.tensor(dominant(3, (2,))), L.tensor(noise(2, 2, 3))
        LU, pivots = L.linalg.lu_factor(A)
        return (L.linalg.solve(A, B, left=False).stride(),
                L.linalg.lu_solve(LU, pivots, B, left=False).stride(),
                L.linalg.lu_solve(LU, pivots, B, left=False, adjoint=True).stride())
    assert strides(minigrad) == strides(torch)
