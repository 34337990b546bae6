"""torch.linalg and the top-level linear-algebra functions against PyTorch: values (to a
tolerance: LAPACK and numpy may differ in the last bits), dtypes, shapes, the recorded graph
(names and next_functions, all the way down), the names of what each node saved, gradients,
gradcheck and gradgradcheck in float64, and the errors for bad input (class and message)."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch


def graph(grad_fn):
    """The graph below ``grad_fn`` as nested (name, output_nr, children), in next_functions order."""
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__,
            tuple((graph(child), nr) for child, nr in grad_fn.next_functions))


def saved_names(grad_fn):
    """The ``_saved_*`` names of a node (but the sizes and strides minigrad's mm leaves out)."""
    # (and minigrad's CopyBackwards shows a _saved_source_dtype PyTorch's does not)
    return sorted(name for name in dir(grad_fn) if name.startswith("_saved_")
                  and not name.endswith(("_sym_sizes", "_sym_strides", "_saved_source_dtype")))


def _outputs(out):
    return list(out) if isinstance(out, tuple) else [out]


def run(lib, program, arrays, dtype):
    """``program(lib, *inputs)`` on fresh leaves: its outputs, their graphs, saved names and the
    leaves' grads of a weighted sum of the (floating) outputs."""
    leaves = [lib.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = _outputs(program(lib, *leaves))
    total = 0
    for out in outs:
        if out.grad_fn is not None:
            weights = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)).astype(dtype))
            total = total + (out * weights).sum()
    if not isinstance(total, int):
        total.backward()
    values = [out.detach().numpy() for out in outs]
    graphs = [graph(out.grad_fn) for out in outs]
    names = [saved_names(out.grad_fn) if out.grad_fn is not None else None for out in outs]
    grads = [None if leaf.grad is None else leaf.grad.numpy() for leaf in leaves]
    return values, graphs, names, grads


def spd(L, x):
    """A symmetric positive-definite matrix made from ``x`` (square), differentiably."""
    return x @ x.mT + x.shape[-1] * L.eye(x.shape[-1], dtype=x.dtype)


def sym(L, x):
    return x + x.mT


def absolute(outputs):
    return tuple(out.abs() for out in outputs)


INF = float("inf")
PROGRAMS = {
    # norms
    "vector_norm": (lambda L, x: L.linalg.vector_norm(x), [(3, 4)]),
    "vector_norm_p0.5": (lambda L, x: L.linalg.vector_norm(x, 0.5, dim=1), [(3, 4)]),
    "vector_norm_p-1": (lambda L, x: L.linalg.vector_norm(x, -1, dim=(0, 1), keepdim=True), [(3, 4)]),
    "vector_norm_p0": (lambda L, x: L.linalg.vector_norm(x, 0, dim=0), [(3, 4)]),
    "vector_norm_-inf": (lambda L, x: L.linalg.vector_norm(x, -INF, dim=-1), [(3, 4)]),
    "vector_norm_inf": (lambda L, x: L.linalg.vector_norm(x, INF), [(3, 4)]),
    "vector_norm_p3": (lambda L, x: L.linalg.vector_norm(x, 3, dim=1, keepdim=True), [(2, 3, 4)]),
    "torch_norm_p0.5": (lambda L, x: L.norm(x, p=0.5), [(3, 4)]),
    "tensor_norm_p0.3_dim": (lambda L, x: x.norm(0.3, 1), [(3, 4)]),
    "torch_norm_nuc": (lambda L, x: L.norm(x, "nuc"), [(3, 4)]),
    "torch_norm_fro_dim": (lambda L, x: L.norm(x, "fro", dim=(0, 1)), [(2, 3, 4)]),
    "normalize_p0.5": (lambda L, x: L.nn.functional.normalize(x, p=0.5), [(3, 4)]),
    **{f"matrix_norm_{o}_{kd}": (lambda L, x, o=o, kd=kd: L.linalg.matrix_norm(x, o, keepdim=kd), [(2, 3, 4)])
       for o in ("fro", "nuc", 2, -2, 1, -1, INF, -INF) for kd in (False, True)},
    **{f"matrix_norm_{o}_dims20": (lambda L, x, o=o: L.linalg.matrix_norm(x, o, dim=(2, 0), keepdim=True),
                                   [(2, 3, 4)]) for o in ("fro", "nuc", 2, 1, -INF)},
    **{f"matrix_norm_{o}_dtype": (lambda L, x, o=o: L.linalg.matrix_norm(x * 2, o, dtype=L.float64), [(2, 3)])
       for o in ("fro", "nuc", 2, 1, INF)},
    "linalg_norm": (lambda L, x: L.linalg.norm(x), [(2, 3, 4)]),
    "linalg_norm_2d_2": (lambda L, x: L.linalg.norm(x, 2), [(3, 4)]),
    "linalg_norm_1d_3": (lambda L, x: L.linalg.norm(x, 3), [(5,)]),
    "linalg_norm_dim1": (lambda L, x: L.linalg.norm(x, dim=1), [(2, 3, 4)]),
    "linalg_norm_dims": (lambda L, x: L.linalg.norm(x, INF, dim=(1, 0)), [(3, 4)]),
    "dist": (lambda L, x, y: L.dist(x, y), [(3, 4), (3, 4)]),
    "dist_p3_broadcast": (lambda L, x, y: L.dist(x, y, 3), [(3, 4), (4,)]),
    "dist_p0.5": (lambda L, x, y: x.dist(y, 0.5), [(3, 4), (3, 4)]),
    "dist_inf": (lambda L, x, y: L.dist(x, y, INF), [(3, 4), (3, 4)]),
    # determinants and inverses
    "det": (lambda L, x: L.linalg.det(x), [(3, 3)]),
    "det_batch": (lambda L, x: L.det(x), [(2, 3, 3)]),
    "tensor_det": (lambda L, x: x.det(), [(4, 4)]),
    "slogdet": (lambda L, x: L.linalg.slogdet(x), [(3, 3)]),
    "slogdet_batch": (lambda L, x: L.slogdet(x), [(2, 3, 3)]),
    "logdet": (lambda L, x: L.logdet(spd(L, x)), [(3, 3)]),
    "logdet_negative": (lambda L, x: x.logdet(), [(3, 3)]),
    "inv": (lambda L, x: L.linalg.inv(x), [(3, 3)]),
    "inv_batch": (lambda L, x: L.linalg.inv(x), [(2, 3, 3)]),
    "inv_ex": (lambda L, x: L.linalg.inv_ex(x), [(3, 3)]),
    "inverse": (lambda L, x: L.inverse(x), [(3, 3)]),
    "tensor_inverse": (lambda L, x: x.inverse(), [(2, 2)]),
    "solve": (lambda L, a, b: L.linalg.solve(a, b), [(3, 3), (3, 2)]),
    "solve_vector": (lambda L, a, b: L.linalg.solve(a, b), [(3, 3), (3,)]),
    "solve_batch_vector": (lambda L, a, b: L.linalg.solve(a, b), [(2, 3, 3), (2, 3)]),
    "solve_broadcast": (lambda L, a, b: L.linalg.solve(a, b), [(3, 3), (2, 3, 2)]),
    "solve_right": (lambda L, a, b: L.linalg.solve(a, b, left=False), [(3, 3), (2, 3)]),
    "solve_ex": (lambda L, a, b: L.linalg.solve_ex(a, b), [(3, 3), (3, 2)]),
    "cholesky": (lambda L, x: L.linalg.cholesky(spd(L, x)), [(3, 3)]),
    "cholesky_upper": (lambda L, x: L.linalg.cholesky(spd(L, x), upper=True), [(3, 3)]),
    "cholesky_batch": (lambda L, x: L.linalg.cholesky(spd(L, x)), [(2, 3, 3)]),
    "cholesky_ex": (lambda L, x: L.linalg.cholesky_ex(spd(L, x)), [(3, 3)]),
    "torch_cholesky": (lambda L, x: L.cholesky(spd(L, x)), [(3, 3)]),
    "torch_cholesky_upper": (lambda L, x: spd(L, x).cholesky(upper=True), [(3, 3)]),
    # products
    "cross": (lambda L, x, y: L.linalg.cross(x, y), [(4, 3), (4, 3)]),
    "cross_broadcast_dim0": (lambda L, x, y: L.linalg.cross(x, y, dim=0), [(3, 4), (3, 1)]),
    "torch_cross_dim": (lambda L, x, y: L.cross(x, y, dim=1), [(2, 3), (2, 3)]),
    "torch_cross_nodim": (lambda L, x, y: x.cross(y), [(3, 2), (3, 2)]),
    "vecdot": (lambda L, x, y: L.linalg.vecdot(x, y), [(3, 4), (3, 4)]),
    "vecdot_dim0": (lambda L, x, y: L.linalg.vecdot(x, y, dim=0), [(3, 4), (3, 1)]),
    "multi_dot_2": (lambda L, a, b: L.linalg.multi_dot([a, b]), [(2, 3), (3, 4)]),
    "chain_matmul": (lambda L, a, b, c: L.chain_matmul(a, b, c), [(2, 3), (3, 4), (4, 2)]),
    "chain_matmul_one": (lambda L, a: L.chain_matmul(a), [(2, 3)]),
    "multi_dot_3": (lambda L, a, b, c: L.linalg.multi_dot([a, b, c]), [(3, 3), (3, 3), (3, 3)]),
    "multi_dot_vectors": (lambda L, a, b, c: L.linalg.multi_dot([a, b, c]), [(3,), (3, 4), (4,)]),
    "multi_dot_4": (lambda L, a, b, c, d: L.linalg.multi_dot([a, b, c, d]), [(5, 2), (2, 6), (6, 3), (3, 1)]),
    "multi_dot_last_vector": (lambda L, a, b, c: L.linalg.multi_dot([a, b, c]), [(3, 3), (3, 3), (3,)]),
    **{f"matrix_power_{n}": (lambda L, x, n=n: L.linalg.matrix_power(x, n), [(3, 3)])
       for n in (0, 1, 2, 3, 4, 5, 7, -1, -2)},
    "matrix_power_batch": (lambda L, x: L.matrix_power(x, 3), [(2, 3, 3)]),
    "tensor_matrix_power": (lambda L, x: x.matrix_power(2), [(3, 3)]),
    "linalg_diagonal": (lambda L, x: L.linalg.diagonal(x), [(2, 3, 4)]),
    "linalg_diagonal_offset": (lambda L, x: L.linalg.diagonal(x, offset=1, dim1=0, dim2=2), [(3, 2, 4)]),
    "linalg_matmul": (lambda L, x, y: L.linalg.matmul(x, y), [(2, 3), (3, 4)]),
    # orthogonal decompositions
    "svdvals": (lambda L, x: L.linalg.svdvals(x), [(3, 4)]),
    "svdvals_batch": (lambda L, x: L.linalg.svdvals(x), [(2, 4, 3)]),
    # (singular vectors and eigenvectors are defined up to their sign, which LAPACK builds may
    # choose differently: their absolute values are compared)
    "svd_reduced": (lambda L, x: absolute(L.linalg.svd(x, full_matrices=False)), [(4, 3)]),
    "svd_square": (lambda L, x: absolute(L.linalg.svd(x)), [(3, 3)]),
    "svd_full_tall": (lambda L, x: absolute(L.linalg.svd(x)), [(4, 2)]),
    "svd_full_wide": (lambda L, x: absolute(L.linalg.svd(x)), [(2, 4)]),
    "svd_wide": (lambda L, x: absolute(L.linalg.svd(x, full_matrices=False)), [(2, 4)]),
    "svd_batch": (lambda L, x: absolute(L.linalg.svd(x, full_matrices=False)), [(2, 4, 3)]),
    "svd_products": (lambda L, x: L.linalg.svd(x)[0] @ L.linalg.svd(x)[2], [(3, 3)]),
    "torch_svd": (lambda L, x: absolute(L.svd(x)), [(4, 3)]),
    "tensor_svd": (lambda L, x: absolute(x.svd()), [(3, 3)]),
    "eigh": (lambda L, x: absolute(L.linalg.eigh(sym(L, x))), [(3, 3)]),
    "eigh_batch": (lambda L, x: absolute(L.linalg.eigh(sym(L, x))), [(2, 3, 3)]),
    "eigh_upper": (lambda L, x: absolute(L.linalg.eigh(sym(L, x), UPLO="U")), [(3, 3)]),
    "eigvalsh": (lambda L, x: L.linalg.eigvalsh(sym(L, x)), [(4, 4)]),
    "qr": (lambda L, x: absolute(L.linalg.qr(x)), [(4, 3)]),
    "qr_square": (lambda L, x: absolute(L.linalg.qr(x)), [(3, 3)]),
    "qr_batch": (lambda L, x: absolute(L.linalg.qr(x)), [(2, 4, 3)]),
    "qr_wide": (lambda L, x: absolute(L.linalg.qr(x)), [(2, 4)]),
    "qr_wide_batch": (lambda L, x: absolute(L.linalg.qr(x)), [(2, 3, 5)]),
    "torch_qr": (lambda L, x: absolute(L.qr(x)), [(4, 3)]),
    "tensor_qr": (lambda L, x: absolute(x.qr()), [(3, 3)]),
    "pinv": (lambda L, x: L.linalg.pinv(x), [(4, 3)]),
    "pinv_wide": (lambda L, x: L.linalg.pinv(x), [(2, 4)]),
    "pinverse": (lambda L, x: L.pinverse(x), [(3, 3)]),
    "pinv_hermitian": (lambda L, x: L.linalg.pinv(sym(L, x), hermitian=True), [(3, 3)]),
    "tensor_pinverse": (lambda L, x: x.pinverse(), [(2, 3, 2)]),
    "lstsq": (lambda L, a, b: L.linalg.lstsq(a, b)[:2], [(4, 3), (4, 2)]),
    "lstsq_square": (lambda L, a, b: L.linalg.lstsq(a, b)[:2], [(3, 3), (3, 2)]),
    "lstsq_wide": (lambda L, a, b: L.linalg.lstsq(a, b)[:2], [(2, 3), (2, 2)]),
    "lstsq_vector": (lambda L, a, b: L.linalg.lstsq(a, b)[:2], [(4, 3), (4,)]),
    "lstsq_batch": (lambda L, a, b: L.linalg.lstsq(a, b)[:2], [(2, 4, 3), (2, 4, 2)]),
    "lstsq_gelsd": (lambda L, a, b: L.linalg.lstsq(a, b, driver="gelsd")[:2], [(4, 3), (4, 2)]),
    "lstsq_gels_residuals": (lambda L, a, b: L.linalg.lstsq(a, b, driver="gels")[1], [(5, 2), (5, 3)]),
    "matrix_exp": (lambda L, x: L.linalg.matrix_exp(x), [(3, 3)]),
    "lu_factor": (lambda L, x: L.linalg.lu_factor(x)[0], [(3, 3)]),
    "lu_factor_ex_batch": (lambda L, x: L.linalg.lu_factor_ex(x), [(2, 3, 3)]),
    "lu": (lambda L, x: L.linalg.lu(x), [(3, 3)]),
    "lu_batch": (lambda L, x: L.linalg.lu(x), [(2, 4, 4)]),
    "lu_tall": (lambda L, x: L.linalg.lu(x)[1:], [(5, 3)]),
    "lu_wide": (lambda L, x: L.linalg.lu(x)[1:], [(3, 5)]),
    "lu_factor_tall": (lambda L, x: L.linalg.lu_factor(x)[0], [(4, 2)]),
    "lu_unpack": (lambda L, x: L.lu_unpack(*L.linalg.lu_factor(x)), [(3, 3)]),
    "lu_unpack_tall": (lambda L, x: L.lu_unpack(*L.linalg.lu_factor(x)), [(4, 2)]),
    "lu_unpack_wide_batch": (lambda L, x: L.lu_unpack(*L.linalg.lu_factor(x)), [(2, 2, 4)]),
    "lu_factor_wide": (lambda L, x: L.linalg.lu_factor(x)[0], [(2, 4)]),
    "lu_solve": (lambda L, x, b: L.linalg.lu_solve(*L.linalg.lu_factor(x), b), [(3, 3), (3, 2)]),
    "lu_solve_adjoint": (lambda L, x, b: L.linalg.lu_solve(*L.linalg.lu_factor(x), b, adjoint=True),
                         [(3, 3), (3, 2)]),
    "lu_solve_right": (lambda L, x, b: L.linalg.lu_solve(*L.linalg.lu_factor(x), b, left=False),
                       [(3, 3), (2, 3)]),
    "lu_solve_right_adjoint": (lambda L, x, b: L.linalg.lu_solve(*L.linalg.lu_factor(x), b, left=False,
                                                                 adjoint=True), [(3, 3), (2, 3)]),
    "tensorinv": (lambda L, x: L.linalg.tensorinv(x, 2), [(2, 3, 6)]),
    "tensorinv_1": (lambda L, x: L.linalg.tensorinv(x.reshape(6, 6), 1), [(2, 3, 6)]),
    "tensorsolve": (lambda L, a, b: L.linalg.tensorsolve(a.reshape(6, 2, 3), b), [(2, 3, 6), (6,)]),
    "tensorsolve_dims": (lambda L, a, b: L.linalg.tensorsolve(a, b, dims=(0,)), [(2, 6, 3), (6,)]),
    "tensorsolve_matrix_B": (lambda L, a, b: L.linalg.tensorsolve(a, b), [(2, 3, 6), (2, 3)]),
    "cond": (lambda L, x: L.linalg.cond(x), [(3, 3)]),
    "cond_-2_batch": (lambda L, x: L.linalg.cond(x, -2), [(2, 3, 4)]),
    "cond_fro_values": (lambda L, x: L.linalg.cond(x.detach(), "fro"), [(3, 3)]),
    "vander": (lambda L, x: L.linalg.vander(x), [(3,)]),
    "vander_batch_N": (lambda L, x: L.linalg.vander(x, N=4), [(2, 3)]),
    "solve_triangular_upper": (lambda L, a, b: L.linalg.solve_triangular(a, b, upper=True), [(3, 3), (3, 2)]),
    "solve_triangular_lower_right": (lambda L, a, b: L.linalg.solve_triangular(a, b, upper=False, left=False),
                                     [(3, 3), (2, 3)]),
    "solve_triangular_unit": (lambda L, a, b: L.linalg.solve_triangular(a, b, upper=True, unitriangular=True),
                              [(3, 3), (3, 2)]),
    "cholesky_solve": (lambda L, b, x: L.cholesky_solve(b, L.linalg.cholesky(spd(L, x))), [(3, 2), (3, 3)]),
    "cholesky_solve_upper": (lambda L, b, x: b.cholesky_solve(L.linalg.cholesky(spd(L, x), upper=True), True),
                             [(3, 2), (3, 3)]),
    "cholesky_inverse": (lambda L, x: L.cholesky_inverse(L.linalg.cholesky(spd(L, x))), [(3, 3)]),
    "cholesky_inverse_upper": (lambda L, x: L.linalg.cholesky(spd(L, x), upper=True).cholesky_inverse(True),
                               [(2, 2)]),
    "matrix_exp_batch": (lambda L, x: L.matrix_exp(x), [(2, 3, 3)]),
    "tensor_matrix_exp": (lambda L, x: x.matrix_exp(), [(2, 2)]),
}

# programs whose graph includes a node minigrad does not build the same way, or is not smooth
# enough at random points for gradcheck
NO_GRADCHECK = {"vector_norm_p0", "matrix_norm_1_False", "matrix_norm_1_True", "cond_fro_values",
                # the columns that only complete U (rows of Vh) are not functions of A: PyTorch's
                # gradient (and minigrad's) leaves them out, finite differences do not
                "svd_full_tall", "svd_full_wide"}


def _arrays(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for shape in shapes]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_graph_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    program, shapes = PROGRAMS[name]
    arrays = _arrays(shapes)
    ours, theirs = run(minigrad, program, arrays, dtype), run(torch, program, arrays, dtype)
    tolerance = 2e-4 if dtype == np.float32 else 1e-9
    assert len(ours[0]) == len(theirs[0])
    for our_value, their_value in zip(ours[0], theirs[0]):
        assert our_value.dtype == their_value.dtype
        assert our_value.shape == their_value.shape
        np.testing.assert_allclose(our_value, their_value, rtol=tolerance, atol=tolerance)
    assert ours[1] == theirs[1]                 # the graphs
    assert ours[2] == theirs[2]                 # what each output's node saved, by name
    for our_grad, their_grad in zip(ours[3], theirs[3]):
        assert (our_grad is None) == (their_grad is None)
        if our_grad is not None:
            np.testing.assert_allclose(our_grad, their_grad, rtol=tolerance * 10, atol=tolerance * 10)


def _differentiable(program):
    def function(*xs):
        outs = [out for out in _outputs(program(minigrad, *xs)) if out.dtype.is_floating_point
                and out.grad_fn is not None]
        return tuple(outs)
    return function


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - NO_GRADCHECK))
def test_gradcheck_and_gradgradcheck_in_float64(name):
    program, shapes = PROGRAMS[name]
    inputs = [minigrad.tensor(a, requires_grad=True) for a in _arrays(shapes, seed=1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(_differentiable(program), inputs)
        assert gradgradcheck(_differentiable(program), inputs)


# --- errors: PyTorch's exception class and message, word for word ----------------------------

def _singular(L):
    return L.tensor([[1., 2.], [2., 4.]])


def _view_with_lost_history(L):
    """A view made under no_grad of a result that then changed in place: its history is lost."""
    base = L.ones(3, requires_grad=True) * 2
    with L.no_grad():
        view = base[1:]
        base.mul_(2)
    return view


ERRORS = {
    "inv_singular": lambda L: L.linalg.inv(_singular(L)),
    "inverse_singular": lambda L: L.inverse(_singular(L)),
    "inv_singular_batch": lambda L: L.linalg.inv(L.stack([L.eye(2), _singular(L)])),
    "inv_not_square": lambda L: L.linalg.inv(L.ones(2, 3)),
    "inv_1d": lambda L: L.linalg.inv(L.ones(3)),
    "inv_int": lambda L: L.linalg.inv(L.ones(2, 2, dtype=L.int64)),
    "det_not_square": lambda L: L.linalg.det(L.ones(2, 3)),
    "det_1d": lambda L: L.det(L.ones(3)),
    "det_int": lambda L: L.det(L.ones(2, 2, dtype=L.int64)),
    "slogdet_not_square": lambda L: L.linalg.slogdet(L.ones(2, 3)),
    "logdet_not_square": lambda L: L.logdet(L.ones(2, 3)),
    "solve_singular": lambda L: L.linalg.solve(_singular(L), L.ones(2)),
    "solve_not_square": lambda L: L.linalg.solve(L.ones(2, 3), L.ones(2)),
    "solve_shapes": lambda L: L.linalg.solve(L.eye(2), L.ones(3)),
    "solve_shapes_matrix": lambda L: L.linalg.solve(L.eye(2), L.ones(3, 1)),
    "solve_dtypes": lambda L: L.linalg.solve(L.eye(2), L.ones(2, dtype=L.float64)),
    "cholesky_not_pd": lambda L: L.linalg.cholesky(L.tensor([[1., 2.], [2., 1.]])),
    "cholesky_not_pd_first": lambda L: L.linalg.cholesky(-L.eye(3)),
    "cholesky_not_pd_batch": lambda L: L.linalg.cholesky(L.stack([L.eye(2), -L.eye(2)])),
    "cholesky_not_square": lambda L: L.linalg.cholesky(L.ones(2, 3)),
    "cholesky_int": lambda L: L.linalg.cholesky(L.ones(2, 2, dtype=L.int64)),
    "cross_length": lambda L: L.linalg.cross(L.ones(2, 2), L.ones(2, 2)),
    "cross_broadcast": lambda L: L.linalg.cross(L.ones(3, 3), L.ones(2, 3)),
    "torch_cross_no_3": lambda L: L.cross(L.ones(2, 2), L.ones(2, 2)),
    "matrix_power_not_square": lambda L: L.linalg.matrix_power(L.ones(2, 3), 2),
    "matrix_power_int_negative": lambda L: L.linalg.matrix_power(L.ones(2, 2, dtype=L.int64), -1),
    "multi_dot_one": lambda L: L.linalg.multi_dot([L.ones(2, 2)]),
    "multi_dot_none": lambda L: L.linalg.multi_dot([]),
    "multi_dot_3d_last": lambda L: L.linalg.multi_dot([L.ones(2, 2), L.ones(1, 2, 2)]),
    "multi_dot_3d_first": lambda L: L.linalg.multi_dot([L.ones(1, 2, 2), L.ones(2, 2)]),
    "multi_dot_3d_middle": lambda L: L.linalg.multi_dot([L.ones(2, 2), L.ones(1, 2, 2), L.ones(2, 2)]),
    "multi_dot_shapes": lambda L: L.linalg.multi_dot([L.ones(3, 3), L.ones(2, 2)]),
    "multi_dot_dtypes": lambda L: L.linalg.multi_dot([L.ones(3, 3, dtype=L.float64), L.ones(3, 3)]),
    "dist_shapes": lambda L: L.dist(L.ones(2), L.ones(3)),
    "dist_int": lambda L: L.dist(L.ones(2, dtype=L.int64), L.ones(2, dtype=L.int64)),
    # (a view whose history was lost: that error comes before the shapes', as for every recorded op)
    "dist_lost_history": lambda L: L.dist(L.ones(3, requires_grad=True), _view_with_lost_history(L)),
    "dist_bools": lambda L: L.dist(L.ones(2, dtype=L.bool), L.ones(2)),
    "dist_two_bools": lambda L: L.dist(L.ones(2, dtype=L.bool), L.ones(2, dtype=L.bool)),
    # (the subtraction refuses bools before the shapes are broadcast: found by the random-program test)
    "dist_bools_of_other_shapes": lambda L: L.dist(L.ones(2, 3), L.ones(2, dtype=L.bool)),
    "dist_two_bools_of_other_shapes": lambda L: L.dist(L.ones(3, dtype=L.bool), L.ones(2, dtype=L.bool)),
    "vecdot_sizes": lambda L: L.linalg.vecdot(L.ones(2), L.ones(3)),
    "vecdot_dtypes": lambda L: L.linalg.vecdot(L.ones(2), L.ones(2, dtype=L.float64)),
    "qr_mode": lambda L: L.linalg.qr(L.eye(2), mode="x"),
    "qr_1d": lambda L: L.linalg.qr(L.ones(3)),
    "eigh_uplo": lambda L: L.linalg.eigh(L.eye(2), UPLO="x"),
    "eigh_not_square": lambda L: L.linalg.eigh(L.ones(2, 3)),
    "svd_int": lambda L: L.linalg.svd(L.ones(2, 3, dtype=L.int64)),
    "svd_1d": lambda L: L.linalg.svd(L.ones(3)),
    "pinv_int": lambda L: L.linalg.pinv(L.ones(2, 3, dtype=L.int64)),
    "matrix_exp_not_square": lambda L: L.linalg.matrix_exp(L.ones(2, 3)),
    "vector_norm_int": lambda L: L.linalg.vector_norm(L.tensor([1, 2])),
    "vector_norm_str": lambda L: L.linalg.vector_norm(L.ones(2), "fro"),
    "vector_norm_-inf_empty": lambda L: L.linalg.vector_norm(L.ones(0), -INF),
    "vector_norm_-inf_empty_dim": lambda L: L.linalg.vector_norm(L.ones(0, 3), -INF, dim=0),
    "vector_norm_-1_empty": lambda L: L.linalg.vector_norm(L.ones(0), -1),
    "vector_norm_-0.5_empty": lambda L: L.linalg.vector_norm(L.ones(0), -0.5),
    "matrix_norm_1d": lambda L: L.linalg.matrix_norm(L.ones(3)),
    "matrix_norm_order": lambda L: L.linalg.matrix_norm(L.ones(2, 2), 3),
    "matrix_norm_order_str": lambda L: L.linalg.matrix_norm(L.ones(2, 2), "abc"),
    "matrix_norm_same_dims": lambda L: L.linalg.matrix_norm(L.ones(2, 2), dim=(0, 0)),
    "matrix_norm_int": lambda L: L.linalg.matrix_norm(L.tensor([[1, 2]])),
    "linalg_norm_3d_ord": lambda L: L.linalg.norm(L.ones(2, 2, 2), "fro"),
    "linalg_norm_3_dims": lambda L: L.linalg.norm(L.ones(2, 2, 2), dim=(0, 1, 2)),
    "linalg_norm_order": lambda L: L.linalg.norm(L.ones(2, 2), 3),
    "norm_nuc_3d": lambda L: L.norm(L.ones(2, 3, 4), "nuc"),
    "norm_nuc_one_dim": lambda L: L.norm(L.ones(2, 3), "nuc", dim=1),
    "lstsq_sizes": lambda L: L.linalg.lstsq(L.ones(4, 3), L.ones(3, 2)),
    "solve_triangular_shapes": lambda L: L.linalg.solve_triangular(L.eye(3), L.ones(2, 2), upper=True),
    "solve_triangular_not_square": lambda L: L.linalg.solve_triangular(L.ones(2, 3), L.ones(3, 2), upper=False),
    "cholesky_solve_sizes": lambda L: L.cholesky_solve(L.ones(2, 2), L.eye(3)),
    "vander_N": lambda L: L.linalg.vander(L.ones(2, 2), N=1),
    "cond_not_square": lambda L: L.linalg.cond(L.ones(2, 3), "fro"),
    "cond_order": lambda L: L.linalg.cond(L.eye(3), 3),
    "tensorinv_shape": lambda L: L.linalg.tensorinv(L.ones(2, 3, 6), 1),
    "tensorsolve_shape": lambda L: L.linalg.tensorsolve(L.ones(2, 3, 6), L.ones(6)),
    "lu_factor_singular": lambda L: L.linalg.lu_factor(_singular(L)),
    "chain_matmul_none": lambda L: L.chain_matmul(),
    "chain_matmul_vector": lambda L: L.chain_matmul(L.ones(3), L.ones(3, 3)),
    "lu_factor_singular_batch": lambda L: L.linalg.lu_factor(L.stack([L.eye(2), _singular(L)])),
    "lu_factor_int": lambda L: L.linalg.lu_factor(L.ones(2, 2, dtype=L.int64)),
    "lu_solve_shapes": lambda L: L.linalg.lu_solve(*L.linalg.lu_factor(L.eye(2)), L.ones(3, 1)),
    "vector_norm_repeated_dims": lambda L: L.linalg.vector_norm(L.ones(2, 3), dim=(0, 0)),
    "vector_norm_dim_range": lambda L: L.linalg.vector_norm(L.ones(2, 3), dim=5),
    "matrix_norm_dim_range": lambda L: L.linalg.matrix_norm(L.ones(2, 3), dim=(0, 5)),
    "linalg_norm_fro_of_vector": lambda L: L.linalg.norm(L.ones(3), "fro"),
    "linalg_norm_nuc_one_dim": lambda L: L.linalg.norm(L.ones(2, 3), "nuc", dim=1),
    "inverse_0d": lambda L: L.inverse(L.tensor(2.)),
    "vecdot_int": lambda L: L.linalg.vecdot(L.tensor([1, 2]), L.tensor([3, 4])),
    "solve_batches_clash": lambda L: L.linalg.solve(L.ones(2, 3, 3), L.ones(3, 3, 1)),
    **{f"half_{name}": (lambda L, f=f: f(L, L.eye(2, dtype=L.float16))) for name, f in {
        "det": lambda L, h: L.linalg.det(h), "slogdet": lambda L, h: L.linalg.slogdet(h),
        "logdet": lambda L, h: L.logdet(h), "inv": lambda L, h: L.linalg.inv(h),
        "inv_ex": lambda L, h: L.linalg.inv_ex(h), "solve": lambda L, h: L.linalg.solve(h, h),
        "cholesky": lambda L, h: L.linalg.cholesky(h), "cholesky_ex": lambda L, h: L.linalg.cholesky_ex(h),
        "qr": lambda L, h: L.linalg.qr(h), "eigh": lambda L, h: L.linalg.eigh(h),
        "eigvalsh": lambda L, h: L.linalg.eigvalsh(h), "svd": lambda L, h: L.linalg.svd(h),
        "svdvals": lambda L, h: L.linalg.svdvals(h), "cond": lambda L, h: L.linalg.cond(h),
        "pinv": lambda L, h: L.linalg.pinv(h), "lstsq": lambda L, h: L.linalg.lstsq(h, h),
        "matrix_rank": lambda L, h: L.linalg.matrix_rank(h), "lu_factor": lambda L, h: L.linalg.lu_factor(h),
        "lu": lambda L, h: L.linalg.lu(h), "matrix_norm_2": lambda L, h: L.linalg.matrix_norm(h, 2),
        "solve_triangular": lambda L, h: L.linalg.solve_triangular(h, h, upper=True),
        "cholesky_solve": lambda L, h: L.cholesky_solve(h, h),
        "cholesky_inverse": lambda L, h: L.cholesky_inverse(h),
        "lu_solve": lambda L, h: L.linalg.lu_solve(h, L.ones(2, dtype=L.int32), h)}.items()},
    "vector_norm_dtype_int": lambda L: L.linalg.vector_norm(L.ones(3), dtype=L.int64),
    "vector_norm_dtype_narrower": lambda L: L.linalg.vector_norm(L.ones(3, dtype=L.float64), dtype=L.float32),
    "solve_int": lambda L: L.linalg.solve(L.ones(2, 2, dtype=L.int64), L.ones(2, dtype=L.int64)),
    "cross_dims": lambda L: L.linalg.cross(L.ones(3), L.ones(2, 3)),
    "lstsq_driver": lambda L: L.linalg.lstsq(L.ones(4, 3), L.ones(4, 2), driver="x"),
    "lstsq_dtypes": lambda L: L.linalg.lstsq(L.ones(4, 3, dtype=L.float64), L.ones(4, 2)),
    "lstsq_1d": lambda L: L.linalg.lstsq(L.ones(3), L.ones(4, 2)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_as_torch(name):
    torch = import_torch()
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as error, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ERRORS[name](lib)
        caught.append(error.value)
    ours, theirs = caught
    assert [c.__name__ for c in type(ours).__mro__] == [c.__name__ for c in type(theirs).__mro__]
    assert str(ours) == str(theirs)


def test_linalg_error_is_a_runtime_error_named_as_torch():
    torch = import_torch()
    assert issubclass(minigrad.linalg.LinAlgError, RuntimeError)
    assert minigrad.linalg.LinAlgError.__name__ == torch.linalg.LinAlgError.__name__
    with pytest.raises(minigrad.linalg.LinAlgError):
        minigrad.linalg.inv(minigrad.zeros(2, 2))


# --- results without gradients: info, ranks, named results as printed ------------------------

RESULTS = {
    "inv_ex_singular_info": lambda L: L.linalg.inv_ex(_singular(L)).info,
    "inv_ex_info": lambda L: L.linalg.inv_ex(L.eye(2)),
    "solve_ex_singular_info": lambda L: L.linalg.solve_ex(_singular(L), L.ones(2)).info,
    "solve_ex": lambda L: L.linalg.solve_ex(L.eye(2), L.ones(2)),
    "cholesky_ex_not_pd": lambda L: L.linalg.cholesky_ex(L.tensor([[1., 2.], [2., 1.]])),
    "cholesky_ex_batch_info": lambda L: L.linalg.cholesky_ex(L.stack([L.eye(2), -L.eye(2)])).info,
    "cholesky_ex": lambda L: L.linalg.cholesky_ex(L.eye(2)),
    "slogdet": lambda L: L.slogdet(L.eye(2)),
    "linalg_slogdet_negative": lambda L: L.linalg.slogdet(L.tensor([[0., 1.], [1., 0.]])),
    "logdet_negative": lambda L: L.logdet(L.tensor([[0., 1.], [1., 0.]])),
    "logdet_singular": lambda L: L.logdet(_singular(L)),
    "det_singular": lambda L: L.det(_singular(L)),
    "det_gradient_singular_in_batch": lambda L: (lambda x: L.autograd.grad(L.det(x).sum(), x)[0].abs())(
        L.stack([_singular(L), L.tensor([[2., 1.], [1., 3.]])]).requires_grad_()),
    "svd": lambda L: L.svd(L.eye(2)),
    "svd_no_uv": lambda L: L.svd(L.tensor([[3., 0., 0.], [0., 2., 0.]]), compute_uv=False),
    "svd_some_false": lambda L: [tuple(t.shape) for t in L.svd(L.ones(4, 2), some=False)],
    "eigh": lambda L: L.linalg.eigh(L.eye(2)),
    # (not eye(2): which zeros of its Q are -0 depends on numpy's LAPACK build, see README)
    "qr": lambda L: L.linalg.qr(L.tensor([[3.0, 1.0], [4.0, 2.0]])),
    "qr_complete_shapes": lambda L: [tuple(t.shape) for t in L.linalg.qr(L.ones(4, 2), mode="complete")],
    "qr_r": lambda L: [tuple(t.shape) for t in L.linalg.qr(L.ones(4, 2), mode="r")],
    "matrix_rank": lambda L: L.linalg.matrix_rank(L.eye(3)),
    "matrix_rank_singular": lambda L: L.linalg.matrix_rank(L.stack([_singular(L), L.eye(2)])),
    "matrix_rank_atol": lambda L: L.linalg.matrix_rank(L.tensor([[1., 0.], [0., 1e-3]]), atol=1e-2),
    "pinv_rtol": lambda L: L.linalg.pinv(L.tensor([[1., 0.], [0., 1e-3]]), rtol=1e-2),
    "pinv_singular": lambda L: L.linalg.pinv(_singular(L)),
    "pinv_hermitian_reads_lower": lambda L: L.linalg.pinv(L.tensor([[2., 7.], [1., 3.]]), hermitian=True),
    "matrix_rank_hermitian_reads_lower": lambda L: L.linalg.matrix_rank(L.tensor([[1., 9.], [1., 1.]]),
                                                                      hermitian=True),
    "vector_norm_dtype": lambda L: L.linalg.vector_norm(L.tensor([3., 4.]), dtype=L.float64),
    "vector_norm_p0": lambda L: L.linalg.vector_norm(L.tensor([3., 0., 4.]), 0),
    "vector_norm_negative_zero": lambda L: L.linalg.vector_norm(L.tensor([3., 0., 4.]), -2),
    "vector_norm_p0_empty": lambda L: L.linalg.vector_norm(L.ones(0), 0),
    "norm_p0.5_saved_ord": lambda L: L.norm(L.ones(2, requires_grad=True), 0.5).grad_fn._saved_ord,
    "linalg_norm_saved_ord": lambda L: L.linalg.norm(L.ones(2, requires_grad=True)).grad_fn._saved_ord,
    "matrix_norm_fro_saved": lambda L: L.linalg.matrix_norm(L.ones(2, 2, 2, requires_grad=True)).grad_fn._saved_dim,
    "cross_saved_dim": lambda L: L.linalg.cross(L.ones(3, requires_grad=True), L.ones(3)).grad_fn._saved_dim,
    "svd_saved": lambda L: [L.linalg.svd(L.ones(3, 2, requires_grad=True)).S.grad_fn._saved_full_matrices,
                            L.linalg.svd(L.ones(3, 2, requires_grad=True)).S.grad_fn._saved_S_sym_argsize_minus_1],
    "qr_saved_mode": lambda L: L.linalg.qr(L.ones(3, 2, requires_grad=True)).Q.grad_fn._saved_mode,
    "solve_saved_left": lambda L: L.linalg.solve(L.eye(2, requires_grad=True), L.ones(2)).grad_fn._saved_left,
    "cholesky_saved_upper": lambda L: L.linalg.cholesky(L.eye(2, requires_grad=True), upper=True).grad_fn._saved_upper,
    "dist_saved_p": lambda L: L.dist(L.ones(2, requires_grad=True), L.zeros(2), 3).grad_fn._saved_p,
    "det_saved_pivots": lambda L: L.det(L.tensor([[1., 2.], [3., 4.]], requires_grad=True)).grad_fn._saved_pivots,
    "slogdet_output_nrs": lambda L: [edge(t) for t in L.linalg.slogdet(L.eye(2, requires_grad=True))],
    "svdvals_output_nr": lambda L: edge(L.linalg.svdvals(L.eye(2, requires_grad=True))),
    "eigvalsh_output_nr": lambda L: edge(L.linalg.eigvalsh(L.eye(2, requires_grad=True))),
    "matrix_power_int": lambda L: L.linalg.matrix_power(L.tensor([[1, 1], [0, 1]]), 5),
    **{f"lstsq_{driver}": lambda L, driver=driver: [
        tuple(t.shape) if i != 2 else t for i, t in enumerate(
            L.linalg.lstsq(L.tensor([[1., 0.], [0., 1.], [1., 1.]]), L.ones(3, 2), driver=driver))]
       for driver in ("gels", "gelsy", "gelsd", "gelss")},
    "lstsq_rank_deficient": lambda L: L.linalg.lstsq(_singular(L), L.ones(2, 1)).rank,
    "inv_ex_singular": lambda L: L.linalg.inv_ex(_singular(L)).inverse,
    "solve_ex_singular": lambda L: L.linalg.solve_ex(_singular(L), L.ones(2)).result,
    "slogdet_singular": lambda L: L.linalg.slogdet(_singular(L)),
    "det_empty": lambda L: [L.det(L.ones(0, 0)), L.det(L.ones(2, 0, 0))],
    "inv_empty": lambda L: L.linalg.inv(L.ones(2, 0, 0)),
    "cholesky_empty": lambda L: L.linalg.cholesky(L.ones(0, 0)),
    "svd_empty": lambda L: L.linalg.svd(L.ones(0, 3)),
    "matrix_norms_empty": lambda L: [L.linalg.matrix_norm(L.ones(0, 3), o) for o in ("fro", "nuc", 2, 1, INF)],
    "matrix_rank_tol": lambda L: L.linalg.matrix_rank(_singular(L), tol=0.1),
    "matrix_rank_hermitian": lambda L: L.linalg.matrix_rank(_singular(L), hermitian=True),
    "pinv_rcond": lambda L: L.linalg.pinv(L.tensor([[1., 0.], [0., 1e-3]]), 1e-2),
    "eigvalsh_upper": lambda L: L.linalg.eigvalsh(L.tensor([[1., 5.], [0., 2.]]), UPLO="U"),
    "cholesky_reads_lower": lambda L: L.linalg.cholesky(L.tensor([[4., 100.], [2., 5.]])),
    "logdet_batch": lambda L: L.logdet(L.stack([L.eye(2), -L.eye(2), L.tensor([[0., 1], [1, 0]])])),
    "norm_p0.5_out": lambda L: (lambda o: [L.norm(L.ones(2, 3), 0.5, out=o), o])(L.empty(0)),
    "norm_p0.5_dim_keepdim": lambda L: L.ones(2, 3).norm(0.5, 1, True),
    "vector_norm_inf_empty_dim_kept": lambda L: L.linalg.vector_norm(L.ones(0, 3), INF, dim=1),
    "matrix_norm_nuc_keepdim_shape": lambda L: tuple(L.linalg.matrix_norm(L.ones(2, 2, 2), "nuc", keepdim=True).shape),
    "half_norms": lambda L: [L.linalg.vector_norm(L.eye(2, dtype=L.float16)),
                             L.linalg.matrix_norm(L.eye(2, dtype=L.float16)),
                             L.dist(L.ones(2, dtype=L.float16), L.zeros(2, dtype=L.float16))],
    "cond_singular": lambda L: [L.linalg.cond(_singular(L), p) for p in ("fro", 1, INF)],
    "lu_factor_ex_singular": lambda L: L.linalg.lu_factor_ex(_singular(L)),
    "lu_singular": lambda L: L.linalg.lu(_singular(L)),
    "lu_tall": lambda L: L.linalg.lu(L.tensor([[1., 2.], [3., 4.], [5., 7.]])),
    "lu_wide": lambda L: L.linalg.lu(L.tensor([[1., 2., 3.], [3., 4., 0.]])),
    "lu_factor_wide": lambda L: L.linalg.lu_factor(L.tensor([[1., 2., 3.], [3., 4., 0.]])),
    "lu_saved": lambda L: saved_names(L.linalg.lu(L.eye(2, requires_grad=True)).L.grad_fn),
    "lu_unpack_saved": lambda L: [getattr(L.lu_unpack(*L.linalg.lu_factor_ex(L.ones(3, 2).requires_grad_())[:2]).L.grad_fn,
                                          name) for name in ("_saved_LU_data_sym_argsize_minus_1",
                                                             "_saved_LU_data_sym_argsize_minus_2")],
    "lu_unpack_no_data": lambda L: L.lu_unpack(*L.linalg.lu_factor(L.tensor([[1., 2.], [3., 4.]])),
                                               unpack_data=False),
    "lu_unpack_no_pivots": lambda L: L.lu_unpack(*L.linalg.lu_factor(L.tensor([[1., 2.], [3., 4.]])),
                                                 unpack_pivots=False),
    "lu_factor_saved": lambda L: [L.linalg.lu_factor(L.eye(2, requires_grad=True)).LU.grad_fn._saved_pivot,
                                  L.linalg.lu_factor(L.eye(2, requires_grad=True)).LU.grad_fn._saved_pivots],
    "cond_not_square_2": lambda L: L.linalg.cond(L.tensor([[1., 2., 0.], [0., 1., 1.]])),
}


def edge(tensor):
    """The (node name, output number) a use of ``tensor`` points to."""
    node, output_nr = (tensor * 1).grad_fn.next_functions[0]
    return type(node).__name__, output_nr


def _shown(value):
    return repr(value) if not isinstance(value, list) else repr([_shown(v) for v in value])


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_results_print_as_torch(name):
    torch = import_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = RESULTS[name](minigrad), RESULTS[name](torch)
    assert _shown(ours) == _shown(theirs)


WRONG_KINDS = [
    *[(name, ([[1., 2.], [3., 4.]],)) for name in (
        "det", "logdet", "slogdet", "inverse", "cholesky", "matrix_exp", "pinverse", "svd", "qr",
        "linalg.det", "linalg.inv", "linalg.vector_norm", "linalg.matrix_norm", "linalg.norm",
        "linalg.svd", "linalg.eigh", "linalg.cholesky", "linalg.qr", "linalg.svdvals",
        "linalg.slogdet", "linalg.matrix_exp", "linalg.eigvalsh", "linalg.inv_ex",
        "linalg.cholesky_ex")],
    *[(name, args) for name in ("cross", "dist", "linalg.solve", "linalg.cross", "linalg.vecdot",
                                "linalg.solve_ex")
      for args in (([[1., 2.], [3., 4.]], "tensor"), ("tensor", [[1., 2.], [3., 4.]]))],
    ("matrix_power", ([[1., 2.], [3., 4.]], 2)), ("matrix_power", ("tensor", 2.5)),
    ("linalg.matrix_power", ([[1., 2.], [3., 4.]], 2)), ("linalg.matrix_power", ("tensor", 2.5)),
    ("linalg.multi_dot", ("tensor",)), ("linalg.multi_dot", (["tensor", 3],)),
]


@pytest.mark.parametrize("name, args", WRONG_KINDS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(WRONG_KINDS)])
def test_arguments_of_the_wrong_kind_as_torch(name, args):
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        function = lib
        for part in name.split("."):
            function = getattr(function, part)
        given = [lib.eye(2) if a == "tensor" else [lib.eye(2) if b == "tensor" else b for b in a]
                 if isinstance(a, list) and "tensor" in a else a for a in args]
        with pytest.raises(TypeError) as error, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            function(*given)
        messages.append(str(error.value).split("\n")[0])
    assert messages[0] == messages[1]


# --- forward mode: the tangent of each result, as torch.func.jvp gives it ----------------------

FORWARD = {name: PROGRAMS[name] for name in (
    "vector_norm", "vector_norm_p0.5", "vector_norm_-inf", "vector_norm_p3", "matrix_norm_fro_False",
    "matrix_norm_1_True", "dist", "det", "det_batch", "slogdet", "inv", "inv_batch", "solve",
    "solve_vector", "solve_right", "cholesky", "cholesky_upper", "cross", "multi_dot_3",
    "matrix_power_5", "matrix_power_-2", "svdvals", "svd_products", "eigvalsh", "pinv",
    "matrix_exp", "qr", "qr_wide", "logdet", "lstsq", "svd_full_tall", "svd_full_wide", "lstsq_vector", "lstsq_wide", "eigh", "svd_reduced")}


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_mode_as_torch(name):
    torch = import_torch()
    program, shapes = FORWARD[name]
    arrays, tangents = _arrays(shapes), _arrays(shapes, seed=2)
    results = []
    for lib in (minigrad, torch):
        primals = tuple(lib.tensor(a) for a in arrays)
        directions = tuple(lib.tensor(t) for t in tangents)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, out_tangents = lib.func.jvp(lambda *xs: tuple(_outputs(program(lib, *xs))), primals, directions)
        results.append([t.numpy(force=True) for t in out_tangents])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-8, atol=1e-8)


def test_forward_mode_of_old_cholesky_refused_as_torch():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        x = lib.tensor([[2., 1.], [1., 2.]])
        with pytest.raises(NotImplementedError) as error, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.func.jvp(lambda a: lib.cholesky(a), (x,), (x,))
        messages.append(str(error.value))
    assert messages[0] == messages[1]


VMAPPED = {
    "det": (lambda L: L.linalg.det, {}),
    "det_in_dims1": (lambda L: L.det, {"in_dims": 1}),
    "inv": (lambda L: L.linalg.inv, {"in_dims": 1}),
    "slogdet": (lambda L: L.linalg.slogdet, {}),
    "svdvals": (lambda L: L.linalg.svdvals, {"in_dims": 1}),
    "vector_norm": (lambda L: lambda a: L.linalg.vector_norm(a, 0.5), {}),
    "matrix_norm": (lambda L: lambda a: L.linalg.matrix_norm(a, 1), {"in_dims": 1}),
    "solve": (lambda L: lambda a: L.linalg.solve(a, a[0]), {"in_dims": 1}),
    "grad_of_det": (lambda L: L.func.grad(L.linalg.det), {}),
    "cholesky": (lambda L: lambda a: L.linalg.cholesky(a @ a.mT + 3 * L.eye(3, dtype=a.dtype)), {}),
    "eigvalsh": (lambda L: lambda a: L.linalg.eigvalsh(a + a.mT), {}),
}


@pytest.mark.parametrize("name", sorted(VMAPPED))
def test_vmap_as_torch(name):
    torch = import_torch()
    make, options = VMAPPED[name]
    array = np.random.default_rng(3).standard_normal((3, 3, 3))
    results = []
    for lib in (minigrad, torch):
        out = lib.vmap(make(lib), **options)(lib.tensor(array))
        results.append([t.numpy() for t in _outputs(out)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-10)


# --- memory layout: LAPACK's results are column-major matrices, as in PyTorch -----------------

LAYOUTS = {
    "inv": lambda L, a, b: L.linalg.inv(a),
    "inv_ex": lambda L, a, b: L.linalg.inv_ex(a),
    "det": lambda L, a, b: L.linalg.det(a),
    "slogdet": lambda L, a, b: L.linalg.slogdet(a),
    "solve": lambda L, a, b: L.linalg.solve(a, b),
    "solve_vector": lambda L, a, b: L.linalg.solve(a, b[..., 0]),
    "cholesky": lambda L, a, b: L.linalg.cholesky(spd(L, a)),
    "cholesky_upper": lambda L, a, b: L.linalg.cholesky(spd(L, a), upper=True),
    "torch_cholesky": lambda L, a, b: L.cholesky(spd(L, a)),
    "qr": lambda L, a, b: L.linalg.qr(a),
    "eigh": lambda L, a, b: L.linalg.eigh(sym(L, a)),
    "svd": lambda L, a, b: L.linalg.svd(a),
    "svd_reduced": lambda L, a, b: L.linalg.svd(a, full_matrices=False),
    "pinv": lambda L, a, b: L.linalg.pinv(a),
    "matrix_exp": lambda L, a, b: L.linalg.matrix_exp(a),
    "lstsq": lambda L, a, b: L.linalg.lstsq(a, b),
    "lu_factor": lambda L, a, b: L.linalg.lu_factor(a),
    "lu": lambda L, a, b: L.linalg.lu(a),
    "lu_solve": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b),
    "solve_triangular": lambda L, a, b: L.linalg.solve_triangular(a, b, upper=True),
    "cholesky_solve": lambda L, a, b: L.cholesky_solve(b, a),
    "cholesky_inverse": lambda L, a, b: L.cholesky_inverse(a),
}


@pytest.mark.parametrize("batched", [False, True])
@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_result_strides_as_torch(name, batched):
    torch = import_torch()
    shapes = [(2, 3, 3), (2, 3, 2)] if batched else [(3, 3), (3, 2)]
    arrays = _arrays(shapes)
    strides = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outs = _outputs(LAYOUTS[name](lib, *(lib.tensor(a) for a in arrays)))
        strides.append([tuple(out.stride()) for out in outs])
    assert strides[0] == strides[1]


def test_a_column_major_result_cannot_be_viewed_flat_as_in_torch():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError) as error:
            lib.linalg.inv(lib.eye(3) * 2).view(9)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
