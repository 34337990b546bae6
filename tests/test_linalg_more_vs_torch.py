"""More of torch.linalg against PyTorch: the LDL factorization (ldl_factor, ldl_factor_ex,
ldl_solve: Bunch-Kaufman's pivots and LAPACK's values bit for bit, errors, their missing
derivative), cond(A, 'nuc'), svd's driver=, the removed top-level functions and eig/eigvals."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _symmetric_matrices():
    """Symmetric matrices of each kind Bunch-Kaufman treats differently: random (mostly 1 x 1
    pivots), small diagonals (2 x 2 pivots and swaps), integer entries (ties between equal
    magnitudes), a zero diagonal, singular ones (info > 0)."""
    rng = np.random.default_rng(7)
    matrices = []
    for n in (1, 2, 3, 5, 8):
        x = rng.standard_normal((n, n))
        matrices.append(x + x.T)
        y = rng.standard_normal((n, n))
        y[np.diag_indices(n)] *= 0.01
        matrices.append(y + y.T)
        z = rng.integers(-3, 4, (n, n)).astype(float)
        matrices.append(z + z.T)
        w = rng.integers(-1, 2, (n, n)).astype(float)
        w[np.diag_indices(n)] = 0
        matrices.append(np.tril(w) + np.tril(w, -1).T)
    matrices += [np.zeros((3, 3)), np.array([[1.0, 2], [2, 4]]), np.array([[0.0, 1], [1, 0]])]
    return matrices


MATRICES = _symmetric_matrices()


def _arrays(values):
    return [v.detach().numpy() for v in values]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("index", range(len(MATRICES)))
def test_ldl_factor_ex_and_solve_bit_for_bit(index, dtype):
    torch = import_torch()
    A = MATRICES[index].astype(dtype)
    B = np.linspace(-2, 3, 2 * A.shape[0]).reshape(A.shape[0], 2).astype(dtype)
    outs = []
    for lib in (minigrad, torch):
        LD, pivots, info = lib.linalg.ldl_factor_ex(lib.tensor(A))
        X = lib.linalg.ldl_solve(LD, pivots, lib.tensor(B))
        outs.append((LD, pivots, info, X))
    for ours, theirs in zip(*outs):
        assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
        assert ours.stride() == theirs.stride()
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_ldl_factor_reads_the_lower_triangle_and_batches_as_torch():
    torch = import_torch()
    rng = np.random.default_rng(3)
    A = rng.standard_normal((2, 3, 4, 4))
    B = rng.standard_normal((4, 3))
    outs = []
    for lib in (minigrad, torch):
        LD, pivots = lib.linalg.ldl_factor(lib.tensor(A).tril(), hermitian=True)
        X = lib.linalg.ldl_solve(LD, pivots.long(), lib.tensor(B))
        outs.append((LD, pivots, X))
    for ours, theirs in zip(*outs):
        assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-12)


def test_ldl_factor_with_nan_pivots_as_torch():
    torch = import_torch()
    nan = float("nan")
    for A in ([[nan, 1], [1, 2]], [[1, nan], [1, 2]], [[1, 0], [nan, 2]],
              [[1, 0, 0], [nan, 2, 0], [3, 1, 5]]):
        ours = minigrad.linalg.ldl_factor_ex(minigrad.tensor(A))
        theirs = torch.linalg.ldl_factor_ex(torch.tensor(A))
        for a, b in zip(ours, theirs):
            np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_ldl_results_print_as_torch():
    torch = import_torch()
    A = [[4.0, 1, 2], [1, -3, 0], [2, 0, 1]]
    for name in ("ldl_factor", "ldl_factor_ex"):
        ours = getattr(minigrad.linalg, name)(minigrad.tensor(A))
        theirs = getattr(torch.linalg, name)(torch.tensor(A))
        assert repr(ours) == repr(theirs)
        assert ours._fields if hasattr(ours, "_fields") else True
        assert ours.LD.numpy().tolist() == theirs.LD.numpy().tolist()


def _ldl_program(lib, A, B):
    LD, pivots = lib.linalg.ldl_factor(A)
    return LD, lib.linalg.ldl_solve(LD, pivots, B)


def test_ldl_records_a_node_that_refuses_backward_as_torch():
    torch = import_torch()
    A = np.array([[4.0, 1, 2], [1, -3, 0], [2, 0, 1]])
    B = np.ones((3, 2))
    seen = []
    for lib in (minigrad, torch):
        a = lib.tensor(A, requires_grad=True)
        b = lib.tensor(B, requires_grad=True)
        LD, pivots, info = lib.linalg.ldl_factor_ex(a)
        X = lib.linalg.ldl_solve(LD, pivots, b)
        X_b = lib.linalg.ldl_solve(LD.detach(), pivots, b)
        names = [(type(t.grad_fn).__name__, t.grad_fn.name(), len(t.grad_fn.next_functions))
                 for t in (LD, X, X_b)]
        assert pivots.grad_fn is None and info.grad_fn is None and not pivots.requires_grad
        errors = []
        for out in (LD, X, X_b):
            with pytest.raises(RuntimeError) as error:
                out.sum().backward(retain_graph=True)
            errors.append(str(error.value))
        seen.append((names, errors))
    assert seen[0] == seen[1]


def test_ldl_forward_mode_refused_as_torch():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        fwAD = lib.autograd.forward_ad
        A = lib.tensor([[4.0, 1], [1, -3]])
        LD, pivots = lib.linalg.ldl_factor(A)
        found = []
        with fwAD.dual_level():
            for call in (lambda: lib.linalg.ldl_factor(fwAD.make_dual(A, lib.ones(2, 2))),
                         lambda: lib.linalg.ldl_solve(LD, pivots, fwAD.make_dual(A, lib.ones(2, 2)))):
                with pytest.raises(NotImplementedError) as error:
                    call()
                found.append(str(error.value))
        messages.append(found)
    assert messages[0] == messages[1]


LDL_ERRORS = {
    "singular": lambda L: L.linalg.ldl_factor(L.zeros(3, 3)),
    "singular_batch": lambda L: L.linalg.ldl_factor(L.stack([L.eye(2), L.tensor([[1.0, 2], [2, 4]])])),
    "singular_ex_checked": lambda L: L.linalg.ldl_factor_ex(L.zeros(2, 2), check_errors=True),
    "not_square": lambda L: L.linalg.ldl_factor(L.zeros(3, 4)),
    "vector": lambda L: L.linalg.ldl_factor_ex(L.zeros(3)),
    "integers": lambda L: L.linalg.ldl_factor(L.zeros(3, 3, dtype=L.int64)),
    "half": lambda L: L.linalg.ldl_factor(L.zeros(3, 3, dtype=L.float16)),
    "list": lambda L: L.linalg.ldl_factor([[1.0]]),
    "solve_rows": lambda L: L.linalg.ldl_solve(L.eye(4), L.arange(1, 5, dtype=L.int32), L.ones(3, 2)),
    "solve_dtypes": lambda L: L.linalg.ldl_solve(L.eye(2, dtype=L.float64), L.ones(2, dtype=L.int32), L.ones(2, 1)),
    "solve_vector_b": lambda L: L.linalg.ldl_solve(L.eye(2), L.ones(2, dtype=L.int32), L.ones(2)),
    "solve_not_square": lambda L: L.linalg.ldl_solve(L.ones(2, 3), L.ones(2, dtype=L.int32), L.ones(2, 1)),
    "solve_pivots_shape": lambda L: L.linalg.ldl_solve(L.eye(2), L.ones(3, dtype=L.int32), L.ones(2, 1)),
    "solve_pivots_float": lambda L: L.linalg.ldl_solve(L.eye(2), L.ones(2), L.ones(2, 1)),
    "solve_integers": lambda L: L.linalg.ldl_solve(L.eye(2, dtype=L.int64), L.ones(2, dtype=L.int32),
                                                   L.ones(2, 1, dtype=L.int64)),
    "solve_half": lambda L: L.linalg.ldl_solve(L.eye(2, dtype=L.float16), L.ones(2, dtype=L.int32),
                                               L.ones(2, 1, dtype=L.float16)),
    "solve_pivot_large": lambda L: L.linalg.ldl_solve(L.eye(2), L.tensor([3, 2], dtype=L.int32), L.ones(2, 1)),
    "solve_pivot_zero": lambda L: L.linalg.ldl_solve(L.eye(2), L.tensor([0, 2], dtype=L.int32), L.ones(2, 1)),
    "solve_batches": lambda L: L.linalg.ldl_solve(L.eye(2).expand(3, 2, 2), L.ones(3, 2, dtype=L.int32),
                                                  L.ones(2, 2, 1)),
    "solve_list": lambda L: L.linalg.ldl_solve([1.0], L.ones(2, dtype=L.int32), L.ones(2, 1)),
}


def _same_error(program):
    torch = import_torch()
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as error, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            program(lib)
        caught.append(error.value)
    ours, theirs = caught
    assert [c.__name__ for c in type(ours).__mro__] == [c.__name__ for c in type(theirs).__mro__]
    # (minigrad's own advice, on a line of its own, comes after PyTorch's message)
    assert str(ours).split("\nminigrad hint:")[0] == str(theirs)


@pytest.mark.parametrize("name", sorted(LDL_ERRORS))
def test_ldl_errors_as_torch(name):
    _same_error(LDL_ERRORS[name])


def test_ldl_of_empty_matrices_as_torch():
    torch = import_torch()
    for lib_shapes in ((0, 0), (2, 0, 0)):
        ours = minigrad.linalg.ldl_factor(minigrad.zeros(*lib_shapes))
        theirs = torch.linalg.ldl_factor(torch.zeros(*lib_shapes))
        for a, b in zip(ours, theirs):
            assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype)
    X = minigrad.linalg.ldl_solve(minigrad.zeros(0, 0), minigrad.zeros(0, dtype=minigrad.int32),
                                  minigrad.zeros(0, 3))
    assert tuple(X.shape) == (0, 3)
