"""torch.lobpcg against PyTorch: eigenpairs of both methods (eigenvectors up to sign), the
defaults and settings (k, n, X, B, iK, niter, tol, largest, ortho_*), the tracker's view of the
iterations, the graph (one LOBPCGAutogradFunctionBackward node after (A + A^T) / 2), gradients
(gradcheck, gradgradcheck) and the errors for bad input."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()
LIBRARIES = (minigrad, torch)


def _spd(m, seed=0, batch=()):
    """A symmetric positive definite m x m matrix (or a batch of them), well separated spectrum."""
    M = np.random.RandomState(seed).randn(*batch, m, m)
    return M @ np.swapaxes(M, -1, -2) + m * np.eye(m)


def _guess(m, n, seed=2, batch=()):
    """An initial guess X of n columns."""
    return np.random.RandomState(seed).randn(*batch, m, n)


def _both(call):
    """call(L) for minigrad and torch, each after seeding its global generator alike (X's
    default is drawn from it); an exception becomes (its class name, its message)."""
    results = []
    for L in LIBRARIES:
        L.manual_seed(0)
        try:
            results.append(call(L))
        except Exception as error:      # noqa: BLE001
            results.append((type(error).__name__, str(error)))
    return results


def _numpy(pair):
    return [t.detach().numpy() for t in pair]


CALLS = {
    "defaults": lambda L: L.lobpcg(L.tensor(_spd(12))),
    "k": lambda L: L.lobpcg(L.tensor(_spd(12)), k=3),
    "smallest": lambda L: L.lobpcg(L.tensor(_spd(9)), k=2, largest=False),
    "basic": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2, method="basic"),
    "basic_smallest": lambda L: L.lobpcg(L.tensor(_spd(9)), k=2, method="basic", largest=False),
    "unknown_method_is_basic": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2, method="other"),
    "n": lambda L: L.lobpcg(L.tensor(_spd(12)), k=1, n=3),
    "X": lambda L: L.lobpcg(L.tensor(_spd(12)), X=L.tensor(_guess(12, 3))),
    "X_and_k": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2, X=L.tensor(_guess(12, 3))),
    "B": lambda L: L.lobpcg(L.tensor(_spd(9)), B=L.tensor(_spd(9, seed=5)), k=2),
    "B_basic": lambda L: L.lobpcg(L.tensor(_spd(9)), B=L.tensor(_spd(9, seed=5)), k=2, method="basic"),
    "iK": lambda L: L.lobpcg(L.tensor(_spd(9)), iK=L.tensor(np.linalg.inv(_spd(9))), k=2, largest=False),
    "niter": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2, niter=1),
    "niter_until_converged": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2, niter=-1),
    "tol": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2, tol=1e-3),
    "ortho_use_drop": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2, ortho_bparams={"ortho_use_drop": True}),
    "ortho_settings": lambda L: L.lobpcg(L.tensor(_spd(12)), k=2,
                                         ortho_iparams={"ortho_i_max": 1, "ortho_j_max": 1},
                                         ortho_fparams={"ortho_tol": 1e-4}),
    "batch": lambda L: L.lobpcg(L.tensor(_spd(9, batch=(2, 1))), k=2),
    "batch_X": lambda L: L.lobpcg(L.tensor(_spd(9, batch=(2,))), X=L.tensor(_guess(9, 2, batch=(2,)))),
    "float32": lambda L: L.lobpcg(L.tensor(_spd(12)).float(), k=2),
    "zeros": lambda L: L.lobpcg(L.zeros(6, 6, dtype=L.float64), niter=5),
}


@pytest.mark.parametrize("name", CALLS)
def test_eigenpairs_match_pytorch(name):
    (E, X), (E_torch, X_torch) = (_numpy(pair) for pair in _both(CALLS[name]))
    assert E.dtype == E_torch.dtype and E.shape == E_torch.shape and X.shape == X_torch.shape
    tolerance = 1e-4 if E.dtype == np.float32 else 1e-9
    np.testing.assert_allclose(E, E_torch, rtol=tolerance, atol=tolerance)
    # (eigenvectors: each column up to its sign, which LAPACK builds choose differently)
    np.testing.assert_allclose(np.abs(X), np.abs(X_torch), rtol=tolerance, atol=tolerance)


def test_the_eigenpairs_are_eigh_s():
    A = _spd(15, seed=3)
    E, X = minigrad.lobpcg(minigrad.tensor(A), k=3, tol=1e-12)
    values, vectors = np.linalg.eigh(A)
    np.testing.assert_allclose(E.numpy(), values[::-1][:3], rtol=1e-12)
    np.testing.assert_allclose(np.abs(X.numpy()), np.abs(vectors[:, ::-1][:, :3]), atol=1e-6)


def test_basic_changes_a_given_X_in_place_as_pytorch():
    seen = []
    for L in LIBRARIES:
        X = L.tensor(_guess(12, 2))
        L.lobpcg(L.tensor(_spd(12)), X=X, method="basic")
        seen.append(np.abs(X.numpy()))
    np.testing.assert_allclose(*seen, atol=1e-9)
    assert not np.allclose(seen[0], np.abs(_guess(12, 2)))


@pytest.mark.parametrize("method", ["ortho", "basic"])
def test_the_tracker_sees_pytorchs_iterations(method):
    def track(L):
        log = []

        def tracker(worker):
            log.append((dict(worker.ivars), sorted(worker.fvars), dict(worker.bvars), sorted(worker.tvars),
                        dict(worker.iparams), dict(worker.fparams), dict(worker.bparams),
                        np.abs(worker.X.numpy()).round(6).tolist(), worker.E.numpy().round(6).tolist()))
            if worker.ivars["istep"] == 3:
                worker.bvars["force_stop"] = True
        L.lobpcg(L.tensor(_spd(15)), k=2, tracker=tracker, method=method)
        return log
    ours, theirs = _both(track)
    assert len(ours) == 3 and ours == theirs


def test_the_worker_prints_as_pytorchs():
    def printed(L):
        seen = []
        L.lobpcg(L.tensor(_spd(6)), tracker=lambda worker: seen.append(str(worker)), niter=1)
        return seen[0].split("\n  fvars=")[0]           # (the float errors after it: rounding)
    ours, theirs = _both(printed)
    assert ours == theirs and ours.startswith("LOBPCG:\n  iparams={'m': 6, 'n': 1, 'k': 1, 'niter': 1,")


ERRORS = {
    "not_square": lambda L: L.lobpcg(L.ones(3, 4)),
    "vector": lambda L: L.lobpcg(L.ones(3)),
    "k_too_large": lambda L: L.lobpcg(L.tensor(_spd(8)), k=3),
    "n_too_large": lambda L: L.lobpcg(L.tensor(_spd(8)), k=1, n=3),
    "X_too_wide": lambda L: L.lobpcg(L.tensor(_spd(8)), X=L.ones(8, 3, dtype=L.float64)),
    "B_shape": lambda L: L.lobpcg(L.tensor(_spd(9)), B=L.eye(8, dtype=L.float64)),
    "X_shape": lambda L: L.lobpcg(L.tensor(_spd(9)), X=L.ones(8, 2, dtype=L.float64)),
    "X_3d": lambda L: L.lobpcg(L.tensor(_spd(9)), X=L.ones(1, 9, 2, dtype=L.float64)),
    "batch_X_shape": lambda L: L.lobpcg(L.tensor(_spd(9, batch=(2,))), X=L.tensor(_guess(8, 2, batch=(2,)))),
    "half": lambda L: L.lobpcg(L.tensor(_spd(9)).half()),
    "not_a_tensor": lambda L: L.lobpcg([[1.0, 2.0], [3.0, 4.0]]),
    "backward_with_B": lambda L: L.lobpcg(L.tensor(_spd(9), requires_grad=True),
                                          B=L.eye(9, dtype=L.float64))[0].sum().backward(),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_pytorch(name):
    ours, theirs = _both(ERRORS[name])
    assert ours == theirs and isinstance(ours, tuple) and isinstance(ours[0], str)


def test_integer_input_fails_in_the_product_as_pytorch():
    ours, theirs = _both(lambda L: L.lobpcg(L.tensor(_spd(9)).long()))
    assert ours[0] == theirs[0] == "RuntimeError"
    assert ours[1].split("\nminigrad hint:")[0] == theirs[1]


# --- the gradient: symmetric A, B=None -----------------------------------------------------------

GRADIENT_CASES = [(2, True, ()), (3, False, ()), (2, None, (2,)), (4, True, ())]


@pytest.mark.parametrize("k, largest, batch", GRADIENT_CASES)
def test_gradient_and_graph_match_pytorch(k, largest, batch):
    def run(L):
        A = L.tensor(_spd(13, seed=1, batch=batch), requires_grad=True)
        E, X = L.lobpcg(A, k=k, largest=largest)
        graph = (type(E.grad_fn).__name__, E.grad_fn is X.grad_fn,
                 [type(node).__name__ for node, _ in E.grad_fn.next_functions])
        weights = L.arange(X.shape[-2], dtype=X.dtype).unsqueeze(-1)
        (E.sum() + (X ** 2 * weights).sum()).backward()       # (sign-blind in X)
        return graph, A.grad.numpy()
    (graph, grad), (torch_graph, torch_grad) = _both(run)
    assert graph == torch_graph == ("LOBPCGAutogradFunctionBackward", True, ["DivBackward0"])
    np.testing.assert_allclose(grad, torch_grad, atol=1e-6)


def test_a_guess_that_requires_grad_is_recorded_step_by_step_as_pytorch():
    """Only A (or B) goes through LOBPCGAutogradFunction; an X that requires grad takes the
    iterations' own operations into the graph (and "basic" writes into X: refused)."""
    def run(L, method):
        X = L.tensor(_guess(12, 2), requires_grad=True)
        try:
            E, V = L.lobpcg(L.tensor(_spd(12)), X=X, method=method)
        except RuntimeError as error:
            return str(error).split("\nminigrad hint:")[0]
        return (type(E.grad_fn).__name__, type(V.grad_fn).__name__, E._version,
                np.abs(V.detach().numpy()).round(8).tolist())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # (PyTorch's float() of a tensor that requires grad)
        for method in ("ortho", "basic"):
            ours, theirs = _both(lambda L: run(L, method))
            assert ours == theirs


def test_without_grad_the_results_are_not_in_a_graph():
    for L in LIBRARIES:
        E, X = L.lobpcg(L.tensor(_spd(9)))
        assert E.grad_fn is None and X.grad_fn is None and not E.requires_grad


def test_gradcheck_and_gradgradcheck():
    X0 = minigrad.tensor(_guess(6, 2))
    A = minigrad.tensor(_spd(6), requires_grad=True)

    def eigenvalues(A):
        return minigrad.lobpcg(A, X=X0.clone(), tol=1e-13, niter=-1)[0]
    assert minigrad.autograd.gradcheck(eigenvalues, (A,), atol=1e-5, rtol=1e-4)
    assert minigrad.autograd.gradgradcheck(eigenvalues, (A,), atol=1e-4, rtol=1e-3)


def test_second_derivative_matches_pytorch():
    def run(L):
        A = L.tensor(_spd(9), requires_grad=True)
        E, X = L.lobpcg(A, X=L.tensor(_guess(9, 2)), tol=1e-13, niter=-1)
        grad, = L.autograd.grad(E.sum() + (X ** 2).sum(1)[0], A, create_graph=True)
        names = (type(grad.grad_fn).__name__,
                 [type(node).__name__ for node, _ in grad.grad_fn.next_functions])
        return names, L.autograd.grad(grad.pow(2).sum(), A)[0].numpy()
    (names, hessian_vector), (torch_names, torch_hessian_vector) = _both(run)
    assert names == torch_names
    np.testing.assert_allclose(hessian_vector, torch_hessian_vector, rtol=1e-8, atol=1e-12)


HELPERS = {
    "is_sparse": lambda L, u: u.is_sparse(L.ones(2)),
    "is_sparse_list": lambda L, u: u.is_sparse([1.0]),
    "get_floating_dtype": lambda L, u: [str(u.get_floating_dtype(L.ones(1, dtype=d)))
                                        for d in (L.int64, L.float16, L.float64)],
    "matmul_identity": lambda L, u: u.matmul(None, L.ones(2)).tolist(),
    "qform": lambda L, u: u.qform(L.tensor(_spd(3)), L.tensor(_guess(3, 2))).numpy().round(10).tolist(),
    "bform": lambda L, u: u.bform(L.tensor(_guess(3, 2)), None,
                                  L.tensor(_guess(3, 2, seed=4))).numpy().round(10).tolist(),
    "basis": lambda L, u: np.abs(u.basis(L.tensor(_guess(4, 2))).numpy()).round(10).tolist(),
    "symeig_largest": lambda L, u: u.symeig(L.tensor(_spd(4)), True)[0].numpy().round(10).tolist(),
    "symeig": lambda L, u: u.symeig(L.tensor(_spd(4)))[0].numpy().round(10).tolist(),
}


@pytest.mark.parametrize("name", HELPERS)
def test_the_helpers_lobpcg_is_written_in_match_pytorchs(name):
    ours, theirs = _both(lambda L: HELPERS[name](L, L._linalg_utils))
    assert ours == theirs
