"""More of torch.linalg against PyTorch: the LDL factorization (ldl_factor, ldl_factor_ex,
ldl_solve: Bunch-Kaufman's pivots and LAPACK's values bit for bit, errors, their missing
derivative), cond(A, 'nuc'), svd's driver=, the removed top-level functions and eig/eigvals."""
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import minigrad
from minigrad._ops.mkl_kernels import MKL_FUSES_MULTIPLY_ADDS

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


# (on Intel's processors MKL fuses the updates of its Bunch-Kaufman steps and of its solve:
# minigrad._ops.ldl)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [3, 5, 8, 12, 24])
def test_ldl_factor_and_solve_of_random_matrices_bit_for_bit(n, dtype):
    if n > 8 and not MKL_FUSES_MULTIPLY_ADDS:
        pytest.xfail("LDL past 8 x 8 is checked with the fused kernels of Intel's processors only")
    torch = import_torch()
    rng = np.random.default_rng(80 + n)
    for _ in range(4):
        x = rng.standard_normal((n, n))
        y = rng.standard_normal((n, n))
        y[np.diag_indices(n)] *= 0.01                # (small diagonals: 2 x 2 pivots and swaps)
        z = rng.integers(-3, 4, (n, n)).astype(float)  # (ties between equal magnitudes)
        for A in (x + x.T, y + y.T, z + z.T):
            A = A.astype(dtype)
            B = rng.standard_normal((n, 3)).astype(dtype)
            ours = minigrad.linalg.ldl_factor_ex(minigrad.tensor(A))
            theirs = torch.linalg.ldl_factor_ex(torch.tensor(A))
            for a, b in zip(ours, theirs):
                assert a.numpy().tobytes() == b.numpy().tobytes()
            X = minigrad.linalg.ldl_solve(ours.LD, ours.pivots, minigrad.tensor(B))
            assert X.numpy().tobytes() == torch.linalg.ldl_solve(theirs.LD, theirs.pivots, torch.tensor(B)).numpy().tobytes()


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
    for shape in ((0, 0), (2, 0, 0)):
        ours = minigrad.linalg.ldl_factor(minigrad.zeros(*shape))
        theirs = torch.linalg.ldl_factor(torch.zeros(*shape))
        for a, b in zip(ours, theirs):
            assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype)
    X = minigrad.linalg.ldl_solve(minigrad.zeros(0, 0), minigrad.zeros(0, dtype=minigrad.int32),
                                  minigrad.zeros(0, 3))
    assert tuple(X.shape) == (0, 3)


# --- the top-level functions: torch.lu, lu_solve, triangular_solve, frobenius_norm, nuclear_norm --

def graph(grad_fn):
    """The graph below ``grad_fn`` as nested (name, children), in next_functions order."""
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple((graph(child), nr) for child, nr in grad_fn.next_functions))


def _run(lib, program, arrays):
    leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = program(lib, *leaves)
    outs = list(out) if isinstance(out, tuple) else [out]
    total = 0
    for o in outs:
        if o.grad_fn is not None:
            total = total + (o * lib.tensor(np.linspace(-1, 2, o.numel()).reshape(tuple(o.shape)))).sum()
    total.backward()
    saved = [sorted(n for n in dir(o.grad_fn) if n.startswith("_saved_")) if o.grad_fn else None
             for o in outs]
    return ([o.detach().numpy() for o in outs], [o.stride() for o in outs],
            [graph(o.grad_fn) for o in outs], saved, [leaf.grad.numpy() for leaf in leaves],
            type(out).__name__)


def _lu_factor(L, A):
    return L.linalg.lu_factor(A)


PROGRAMS = {
    "lu": ([(3, 3)], lambda L, A: L.lu(A)),
    "lu_get_infos": ([(2, 3, 3)], lambda L, A: L.lu(A, get_infos=True)),
    "lu_wide": ([(2, 4)], lambda L, A: L.lu(A)),
    "lu_solve": ([(3, 3), (3, 2)], lambda L, A, B: L.lu_solve(B, *_lu_factor(L, A))),
    "lu_solve_batches": ([(2, 3, 3), (3, 2)], lambda L, A, B: L.lu_solve(B, *_lu_factor(L, A))),
    "triangular_solve": ([(3, 3), (3, 2)], lambda L, A, B: L.triangular_solve(B, A)),
    "triangular_solve_lower_t_unit": ([(3, 3), (3, 2)],
                                      lambda L, A, B: L.triangular_solve(B, A, False, True, True)),
    "triangular_solve_batches": ([(2, 3, 3), (3, 2)], lambda L, A, B: L.triangular_solve(B, A, upper=False)),
    "triangular_solve_transpose": ([(3, 3), (2, 3, 2)],
                                   lambda L, A, B: L.triangular_solve(B, A, transpose=True)),
    "triangular_solve_solution": ([(3, 3), (3, 2)], lambda L, A, B: L.triangular_solve(B, A)[0]),
    "triangular_solve_coefficient": ([(3, 3), (3, 2)], lambda L, A, B: L.triangular_solve(B, A)[1]),
    "frobenius_norm": ([(2, 3, 4)], lambda L, A: L.frobenius_norm(A, (1, 2))),
    "frobenius_norm_keepdim": ([(2, 3, 4)], lambda L, A: L.frobenius_norm(A, (0, 2), True)),
    "frobenius_norm_one_dim": ([(2, 3, 4)], lambda L, A: L.frobenius_norm(A, 1)),
    "frobenius_norm_all": ([(2, 3, 4)], lambda L, A: L.frobenius_norm(A, ())),
    "nuclear_norm": ([(2, 3, 4)], lambda L, A: L.nuclear_norm(A)),
    "nuclear_norm_keepdim": ([(2, 3, 4)], lambda L, A: L.nuclear_norm(A, True)),
    "nuclear_norm_dims": ([(2, 3, 4)], lambda L, A: L.nuclear_norm(A, (0, 2), True)),
    "ormqr": ([(4, 3), (3,), (4, 2)], lambda L, A, t, C: L.ormqr(A, t, C)),
    "ormqr_transpose": ([(4, 3), (3,), (4, 2)], lambda L, A, t, C: L.ormqr(A, t, C, transpose=True)),
    "ormqr_right": ([(4, 3), (3,), (2, 4)], lambda L, A, t, C: L.ormqr(A, t, C, left=False)),
    "ormqr_right_transpose": ([(4, 3), (3,), (2, 4)], lambda L, A, t, C: L.ormqr(A, t, C, False, True)),
    "ormqr_wide": ([(3, 4), (3,), (3, 2)], lambda L, A, t, C: L.ormqr(A, t, C)),
    "ormqr_batches": ([(2, 4, 3), (2, 3), (2, 4, 5)], lambda L, A, t, C: L.ormqr(A, t, C, True, True)),
    "cond_nuc": ([(3, 3)], lambda L, A: L.linalg.cond(A, "nuc")),
    "cond_nuc_batches": ([(2, 3, 3)], lambda L, A: L.linalg.cond(A, "nuc")),
}


def _inputs(shapes, seed=0):
    rng = np.random.default_rng(seed)
    # (a dominant diagonal keeps the LU and triangular solves well conditioned)
    return [rng.standard_normal(s) + (3 * np.eye(s[-1]) if len(s) > 1 and s[-1] == s[-2] else 0)
            for s in shapes]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_graph_and_gradients_as_torch(name):
    torch = import_torch()
    shapes, program = PROGRAMS[name]
    arrays = _inputs(shapes)
    ours, theirs = _run(minigrad, program, arrays), _run(torch, program, arrays)
    for a, b in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    assert ours[1:4] == theirs[1:4]
    for a, b in zip(ours[4], theirs[4]):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
    assert ours[5] == theirs[5] or ours[5] == "tuple" == theirs[5]


GRADCHECKED = ["lu_solve", "triangular_solve", "triangular_solve_lower_t_unit", "triangular_solve_batches",
               "triangular_solve_transpose", "frobenius_norm", "nuclear_norm", "cond_nuc", "ormqr",
               "ormqr_right_transpose", "ormqr_wide"]


@pytest.mark.parametrize("name", GRADCHECKED)
def test_gradcheck_and_gradgradcheck_in_float64(name):
    from minigrad.autograd import gradcheck, gradgradcheck
    shapes, program = PROGRAMS[name]
    leaves = [minigrad.tensor(a, requires_grad=True) for a in _inputs(shapes, seed=1)]

    def function(*inputs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = program(minigrad, *inputs)
        return tuple(o for o in out if o.requires_grad) if isinstance(out, tuple) else out

    assert gradcheck(function, leaves)
    assert gradgradcheck(function, leaves)


DEPRECATED_CALLS = ["L.lu(L.eye(2))", "L.triangular_solve(L.ones(2, 1), L.eye(2))",
                    "L.lu_solve(L.ones(2, 1), L.eye(2), L.tensor([1, 2], dtype=L.int32))",
                    "L.frobenius_norm(L.eye(2), (0, 1))", "L.nuclear_norm(L.eye(2))"]


def _warnings_of(module):
    """The warnings each of DEPRECATED_CALLS gives, called twice, in a new process (PyTorch
    gives these once per process), without the place in PyTorch's C++ sources its text ends with."""
    calls = "".join(f"    {call}\n    {call}\n" for call in DEPRECATED_CALLS)
    code = (f"import json, warnings, {module} as L\nwarnings.simplefilter('always')\n"
            f"with warnings.catch_warnings(record=True) as caught:\n{calls}"
            "print(json.dumps([str(w.message).split(' (Triggered internally')[0] for w in caught]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    return json.loads(done.stdout)


def test_deprecation_warnings_once_as_torch():
    import_torch()
    ours = _warnings_of("minigrad")
    assert len(ours) == len(DEPRECATED_CALLS)
    assert ours == _warnings_of("torch")


TOP_LEVEL_ERRORS = {
    "ormqr_input_vector": lambda L: L.ormqr(L.ones(3), L.ones(2), L.ones(3, 2)),
    "ormqr_other_vector": lambda L: L.ormqr(L.ones(4, 3), L.ones(3), L.ones(3)),
    "ormqr_other_rows": lambda L: L.ormqr(L.ones(4, 3), L.ones(3), L.ones(3, 2)),
    "ormqr_other_columns": lambda L: L.ormqr(L.ones(4, 3), L.ones(3), L.ones(2, 3), left=False),
    "ormqr_tau_size": lambda L: L.ormqr(L.ones(4, 3), L.ones(2), L.ones(4, 2)),
    "ormqr_tau_dims": lambda L: L.ormqr(L.ones(4, 3), L.ones(2, 3), L.ones(4, 2)),
    "ormqr_other_dims": lambda L: L.ormqr(L.ones(2, 4, 3), L.ones(2, 3), L.ones(4, 2)),
    "ormqr_tau_batch": lambda L: L.ormqr(L.ones(2, 4, 3), L.ones(3, 3), L.ones(2, 4, 2)),
    "ormqr_other_batch": lambda L: L.ormqr(L.ones(2, 4, 3), L.ones(2, 3), L.ones(3, 4, 2)),
    "ormqr_tau_dtype": lambda L: L.ormqr(L.ones(4, 3), L.ones(3).double(), L.ones(4, 2)),
    "ormqr_other_dtype": lambda L: L.ormqr(L.ones(4, 3), L.ones(3), L.ones(4, 2).double()),
    "ormqr_integers": lambda L: L.ormqr(L.ones(4, 3).long(), L.ones(3).long(), L.ones(4, 2).long()),
    "ormqr_half": lambda L: L.ormqr(L.ones(4, 3).half(), L.ones(3).half(), L.ones(4, 2).half()),
    "ormqr_list": lambda L: L.ormqr([1], L.ones(3), L.ones(3, 2)),
    "lu_list": lambda L: L.lu([1.0]),
    "lu_vector": lambda L: L.lu(L.ones(3)),
    "lu_solve_list": lambda L: L.lu_solve(L.ones(2, 2), [1], L.ones(2, dtype=L.int32)),
    "lu_solve_pivots": lambda L: L.lu_solve(L.ones(3, 2), L.eye(3), L.ones(2, dtype=L.int32)),
    "triangular_solve_b_vector": lambda L: L.triangular_solve(L.ones(3), L.eye(3)),
    "triangular_solve_A_vector": lambda L: L.triangular_solve(L.ones(3, 2), L.ones(3)),
    "triangular_solve_dtypes": lambda L: L.triangular_solve(L.ones(3, 2).double(), L.eye(3)),
    "triangular_solve_not_square": lambda L: L.triangular_solve(L.ones(3, 2), L.ones(3, 2)),
    "triangular_solve_rows": lambda L: L.triangular_solve(L.ones(2, 2), L.eye(3)),
    "triangular_solve_batches": lambda L: L.triangular_solve(L.ones(2, 3, 2), L.eye(3).expand(3, 3, 3)),
    "triangular_solve_integers": lambda L: L.triangular_solve(L.ones(3, 2).long(), L.eye(3).long()),
    "triangular_solve_half": lambda L: L.triangular_solve(L.ones(3, 2).half(), L.eye(3).half()),
    "triangular_solve_list": lambda L: L.triangular_solve(L.ones(2, 2), [1]),
    "frobenius_norm_three_dims": lambda L: L.frobenius_norm(L.ones(2, 2, 2), (0, 1, 2)),
    "frobenius_norm_integers": lambda L: L.frobenius_norm(L.ones(2, 2).long(), (0, 1)),
    "symeig": lambda L: L.symeig(L.eye(2)),
    "eig": lambda L: L.eig(L.eye(2)),
    "lstsq": lambda L: L.lstsq(L.eye(2), L.eye(2)),
    "matrix_rank": lambda L: L.matrix_rank(L.eye(2)),
    "solve": lambda L: L.solve(L.eye(2), L.eye(2)),
    "linalg_eig_vector": lambda L: L.linalg.eig(L.ones(3)),
    "linalg_eig_not_square": lambda L: L.linalg.eig(L.ones(3, 2)),
    "linalg_eig_integers": lambda L: L.linalg.eig(L.ones(3, 3).long()),
    "linalg_eig_half": lambda L: L.linalg.eig(L.ones(3, 3).half()),
    "linalg_eigvals_not_square": lambda L: L.linalg.eigvals(L.ones(3, 2)),
    "linalg_eigvals_list": lambda L: L.linalg.eigvals([1.0]),
    "lu_solve_pivots_int64": lambda L: L.linalg.lu_solve(L.eye(3), L.ones(3, dtype=L.int64), L.ones(3, 2)),
    "lu_solve_dtypes": lambda L: L.linalg.lu_solve(L.eye(3), L.ones(3, dtype=L.int32), L.ones(3, 2).double()),
    "lu_solve_integers": lambda L: L.linalg.lu_solve(L.eye(3).long(), L.ones(3, dtype=L.int32), L.ones(3, 2).long()),
    "lu_solve_vector_LU": lambda L: L.linalg.lu_solve(L.ones(3), L.ones(3, dtype=L.int32), L.ones(3, 2)),
    "lu_solve_not_square": lambda L: L.linalg.lu_solve(L.ones(3, 2), L.ones(3, dtype=L.int32), L.ones(3, 2)),
    "lu_solve_vector_B": lambda L: L.linalg.lu_solve(L.eye(3), L.ones(3, dtype=L.int32), L.ones(3)),
    "lu_solve_pivot_count": lambda L: L.linalg.lu_solve(L.eye(3), L.ones(2, dtype=L.int32), L.ones(3, 2)),
    "lu_solve_pivots_shape": lambda L: L.linalg.lu_solve(L.eye(3), L.ones(2, 3, dtype=L.int32), L.ones(3, 2)),
    "lu_solve_batches": lambda L: L.linalg.lu_solve(L.eye(3).expand(2, 3, 3), L.ones(2, 3, dtype=L.int32),
                                                    L.ones(4, 3, 2)),
    "lu_solve_pivot_large": lambda L: L.linalg.lu_solve(L.eye(3), L.tensor([4, 1, 1], dtype=L.int32), L.ones(3, 2)),
    "lu_solve_pivot_zero": lambda L: L.linalg.lu_solve(L.eye(3).half(), L.tensor([0, 1, 1], dtype=L.int32),
                                                       L.ones(3, 2).half()),
    "lu_solve_half": lambda L: L.linalg.lu_solve(L.eye(3).half(), L.ones(3, dtype=L.int32), L.ones(3, 2).half()),
    "lu_factor_vector": lambda L: L.linalg.lu_factor(L.ones(3)),
}


@pytest.mark.parametrize("name", sorted(TOP_LEVEL_ERRORS))
def test_top_level_and_removed_function_errors_as_torch(name):
    _same_error(TOP_LEVEL_ERRORS[name])


def test_eig_and_eigvals_refuse_with_a_hint():
    for function in (minigrad.linalg.eig, minigrad.linalg.eigvals):
        with pytest.raises(NotImplementedError) as error:
            function(minigrad.eye(3))
        assert "\nminigrad hint:" in str(error.value) and "eigh" in str(error.value)


def test_cond_nuc_of_singular_matrices_as_torch():
    torch = import_torch()
    for A in ([[1.0, 2], [2, 4]], [[0.0, 0], [0, 0]], [[1.0, 0], [0, 0]]):
        ours = minigrad.linalg.cond(minigrad.tensor(A, dtype=minigrad.float64), "nuc")
        theirs = torch.linalg.cond(torch.tensor(A, dtype=torch.float64), "nuc")
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    empty = minigrad.linalg.cond(minigrad.zeros(2, 0, 0), "nuc")
    assert empty.tolist() == torch.linalg.cond(torch.zeros(2, 0, 0), "nuc").tolist()


SVD_DRIVER_ERRORS = {
    "svd": lambda L: L.linalg.svd(L.ones(3, 3), driver="gesvd"),
    "svd_empty_name": lambda L: L.linalg.svd(L.ones(3, 3), driver=""),
    "svd_half": lambda L: L.linalg.svd(L.ones(3, 3).half(), driver="gesvdj"),
    "svd_vector": lambda L: L.linalg.svd(L.ones(3), driver="gesvd"),
    "svd_integers": lambda L: L.linalg.svd(L.ones(3, 3).long(), driver="gesvd"),
    "svd_not_str": lambda L: L.linalg.svd(L.ones(3, 3), driver=3),
    "svdvals": lambda L: L.linalg.svdvals(L.ones(3, 3), driver="gesvda"),
}


@pytest.mark.parametrize("name", sorted(SVD_DRIVER_ERRORS))
def test_svd_driver_refused_on_the_cpu_as_torch(name):
    _same_error(SVD_DRIVER_ERRORS[name])


def test_svd_driver_none_is_the_default():
    A = minigrad.tensor([[2.0, 1], [1, 3]])
    assert minigrad.linalg.svdvals(A, driver=None).tolist() == minigrad.linalg.svdvals(A).tolist()


# --- out= ---------------------------------------------------------------------------------------

def _out_inputs(L):
    A = L.tensor([[4.0, 1, 0.5], [1, 3, 1], [0.5, 1, 2]], dtype=L.float64)
    B = L.tensor([[1.0, -1], [2, 0.5], [0, 3]], dtype=L.float64)
    v = L.tensor([0.5, -1.0, 2.0], dtype=L.float64)
    return A, B, v


OUT_CALLS = {
    "linalg.det": (lambda L, A, B, v, out: L.linalg.det(A, out=out), ()),
    "linalg.inv": (lambda L, A, B, v, out: L.linalg.inv(A, out=out), (3, 3)),
    "linalg.solve": (lambda L, A, B, v, out: L.linalg.solve(A, B, out=out), (3, 2)),
    "linalg.cholesky": (lambda L, A, B, v, out: L.linalg.cholesky(A, out=out), (3, 3)),
    "linalg.matrix_norm": (lambda L, A, B, v, out: L.linalg.matrix_norm(A, out=out), ()),
    "linalg.vector_norm": (lambda L, A, B, v, out: L.linalg.vector_norm(A, out=out), ()),
    "linalg.norm": (lambda L, A, B, v, out: L.linalg.norm(A, out=out), ()),
    "linalg.cond": (lambda L, A, B, v, out: L.linalg.cond(A, out=out), ()),
    "linalg.svdvals": (lambda L, A, B, v, out: L.linalg.svdvals(A, out=out), (3,)),
    "linalg.eigvalsh": (lambda L, A, B, v, out: L.linalg.eigvalsh(A, out=out), (3,)),
    "linalg.pinv": (lambda L, A, B, v, out: L.linalg.pinv(A, out=out), (3, 3)),
    "linalg.matrix_rank": (lambda L, A, B, v, out: L.linalg.matrix_rank(A, out=out), ()),
    "linalg.matrix_exp": (lambda L, A, B, v, out: L.linalg.matrix_exp(A, out=out), (3, 3)),
    "linalg.matrix_power": (lambda L, A, B, v, out: L.linalg.matrix_power(A, 2, out=out), (3, 3)),
    "linalg.multi_dot": (lambda L, A, B, v, out: L.linalg.multi_dot([A, B], out=out), (3, 2)),
    "linalg.cross": (lambda L, A, B, v, out: L.linalg.cross(A, A.flip(0), out=out), (3, 3)),
    "linalg.vecdot": (lambda L, A, B, v, out: L.linalg.vecdot(A, A, out=out), (3,)),
    "linalg.solve_triangular": (lambda L, A, B, v, out: L.linalg.solve_triangular(A, B, upper=True, out=out),
                                (3, 2)),
    "linalg.lu_solve": (lambda L, A, B, v, out: L.linalg.lu_solve(*L.linalg.lu_factor(A), B, out=out), (3, 2)),
    "linalg.householder_product": (lambda L, A, B, v, out: L.linalg.householder_product(A, v, out=out),
                                   (3, 3)),
    "linalg.tensorinv": (lambda L, A, B, v, out: L.linalg.tensorinv(A, ind=1, out=out), (3, 3)),
    "linalg.tensorsolve": (lambda L, A, B, v, out: L.linalg.tensorsolve(A, v, out=out), (3,)),
    "linalg.ldl_solve": (lambda L, A, B, v, out: L.linalg.ldl_solve(*L.linalg.ldl_factor(A), B, out=out),
                         (3, 2)),
    "linalg.matmul": (lambda L, A, B, v, out: L.linalg.matmul(A, B, out=out), (3, 2)),
    "inverse": (lambda L, A, B, v, out: L.inverse(A, out=out), (3, 3)),
    "matrix_power": (lambda L, A, B, v, out: L.matrix_power(A, 3, out=out), (3, 3)),
    "cholesky": (lambda L, A, B, v, out: L.cholesky(A, out=out), (3, 3)),
    "cholesky_solve": (lambda L, A, B, v, out: L.cholesky_solve(B, A.tril(), out=out), (3, 2)),
    "cholesky_inverse": (lambda L, A, B, v, out: L.cholesky_inverse(A.tril(), out=out), (3, 3)),
    "lu_solve": (lambda L, A, B, v, out: L.lu_solve(B, *L.linalg.lu_factor(A), out=out), (3, 2)),
    "cross": (lambda L, A, B, v, out: L.cross(A, A.flip(0), dim=1, out=out), (3, 3)),
    "dist": (lambda L, A, B, v, out: L.dist(A, B.sum(1), out=out), ()),
}


def _with_out(lib, call, out):
    """(error class name and message without minigrad's hint, or the values written, out's
    shape, strides and version; the warnings given)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            back = call(lib, *_out_inputs(lib), out)
            outcome = (back is out, out.detach().numpy().tolist(), tuple(out.shape), out.stride(),
                       out._version, type(out.grad_fn).__name__)
        except Exception as error:
            outcome = (type(error).__name__, str(error).split("\nminigrad hint:")[0])
    texts = [str(w.message).split(" (Triggered internally")[0] for w in caught
             if "deprecated in favor" not in str(w.message)]
    return outcome, texts


@pytest.mark.parametrize("kind", ["float64", "float32", "int64", "resized", "empty", "requires_grad"])
@pytest.mark.parametrize("name", sorted(OUT_CALLS))
def test_out_as_torch(name, kind):
    torch = import_torch()
    call, shape = OUT_CALLS[name]
    seen = []
    for lib in (minigrad, torch):
        dtype = getattr(lib, kind) if kind in ("float64", "float32", "int64") else lib.float64
        size = {"resized": (5,), "empty": (0,)}.get(kind, shape)
        out = lib.zeros(size, dtype=dtype, requires_grad=kind == "requires_grad")
        seen.append(_with_out(lib, call, out))
    (ours, our_warnings), (theirs, their_warnings) = seen
    assert our_warnings == their_warnings
    if isinstance(theirs[0], bool):
        assert ours[0] is theirs[0] and ours[2:] == theirs[2:]
        np.testing.assert_allclose(np.array(ours[1]), np.array(theirs[1]), rtol=1e-6, atol=1e-9)
    else:
        assert ours == theirs


def test_composite_out_records_its_copy_as_torch():
    torch = import_torch()
    names = []
    for lib in (minigrad, torch):
        A = lib.tensor([[4.0, 1], [1, 3]], requires_grad=True)
        out = lib.empty(())
        lib.linalg.matrix_norm(A, out=out)
        out.backward()
        names.append((graph(out.grad_fn), out._version, A.grad.numpy().tolist()))
    assert names[0] == names[1]


SEVERAL_OUT_CALLS = {
    "linalg.slogdet": (lambda L, A, B, o: L.linalg.slogdet(A, out=o), ("d", "d")),
    "slogdet": (lambda L, A, B, o: L.slogdet(A, out=o), ("d", "d")),
    "linalg.inv_ex": (lambda L, A, B, o: L.linalg.inv_ex(A, out=o), ("d", "i")),
    "linalg.cholesky_ex": (lambda L, A, B, o: L.linalg.cholesky_ex(A, out=o), ("d", "i")),
    "linalg.solve_ex": (lambda L, A, B, o: L.linalg.solve_ex(A, B, out=o), ("d", "i")),
    "linalg.lu_factor": (lambda L, A, B, o: L.linalg.lu_factor(A, out=o), ("d", "i")),
    "linalg.lu_factor_ex": (lambda L, A, B, o: L.linalg.lu_factor_ex(A, out=o), ("d", "i", "i")),
    "linalg.lu": (lambda L, A, B, o: L.linalg.lu(A, out=o), ("d", "d", "d")),
    "linalg.svd": (lambda L, A, B, o: L.linalg.svd(A, out=o), ("d", "d", "d")),
    "svd": (lambda L, A, B, o: L.svd(A, out=o), ("d", "d", "d")),
    "linalg.eigh": (lambda L, A, B, o: L.linalg.eigh(A, out=o), ("d", "d")),
    "linalg.qr": (lambda L, A, B, o: L.linalg.qr(A, out=o), ("d", "d")),
    "qr": (lambda L, A, B, o: L.qr(A, out=o), ("d", "d")),
    "linalg.ldl_factor": (lambda L, A, B, o: L.linalg.ldl_factor(A, out=o), ("d", "i")),
    "linalg.ldl_factor_ex": (lambda L, A, B, o: L.linalg.ldl_factor_ex(A, out=o), ("d", "i", "i")),
    "lu_unpack": (lambda L, A, B, o: L.lu_unpack(*L.linalg.lu_factor(A), out=o), ("d", "d", "d")),
    "triangular_solve": (lambda L, A, B, o: L.triangular_solve(B, A, out=o), ("d", "d")),
    "linalg.lstsq": (lambda L, A, B, o: L.linalg.lstsq(A, B, out=o), ("d", "d", "l", "d")),
    "linalg.lstsq_gelsd": (lambda L, A, B, o: L.linalg.lstsq(A, B, driver="gelsd", out=o), ("d", "d", "l", "d")),
    "geqrf": (lambda L, A, B, o: L.geqrf(A, out=o), ("d", "d")),
}


def _outcome(lib, call, dtypes, requires_grad=False):
    A, B, _ = _out_inputs(lib)
    A.requires_grad_(requires_grad)
    outs = tuple(lib.empty(0, dtype=dtype) for dtype in dtypes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            back = call(lib, A, B, outs)
        except Exception as error:
            return type(error).__name__, str(error).split("\nminigrad hint:")[0]
    # (signs of singular vectors and eigenvectors can differ between LAPACK builds: |values|)
    return (type(back).__name__, all(b is o for b, o in zip(back, outs)), back._fields if hasattr(back, "_fields")
            else None, [(tuple(o.shape), o.stride(), o._version, o.requires_grad) for o in outs],
            [np.round(np.abs(o.detach().numpy()), 8).tolist() for o in outs])


@pytest.mark.parametrize("variant", ["right", "wrong_dtype_0", "wrong_dtype_last", "requires_grad",
                                     "not_a_tuple", "too_few"])
@pytest.mark.parametrize("name", sorted(SEVERAL_OUT_CALLS))
def test_out_of_several_results_as_torch(name, variant):
    torch = import_torch()
    call, kinds = SEVERAL_OUT_CALLS[name]
    seen = []
    for lib in (minigrad, torch):
        dtypes = [{"d": lib.float64, "i": lib.int32, "l": lib.int64}[kind] for kind in kinds]
        if variant == "wrong_dtype_0":
            dtypes[0] = lib.float32
        elif variant == "wrong_dtype_last":
            dtypes[-1] = lib.int64
        if variant == "not_a_tuple":
            seen.append(_outcome(lib, lambda L, A, B, o: call(L, A, B, o[0]), dtypes))
        elif variant == "too_few":
            seen.append(_outcome(lib, lambda L, A, B, o: call(L, A, B, o[:1]), dtypes))
        else:
            seen.append(_outcome(lib, call, dtypes, requires_grad=variant == "requires_grad"))
    assert seen[0] == seen[1]


def test_ldl_out_records_its_node_when_an_input_requires_grad_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        A = lib.eye(3, dtype=lib.float64, requires_grad=True)
        outs = (lib.empty(0, dtype=lib.float64), lib.empty(0, dtype=lib.int32))
        lib.linalg.ldl_factor(A, out=outs)
        X = lib.empty(0, dtype=lib.float64)
        lib.linalg.ldl_solve(outs[0], outs[1], lib.ones(3, 2, dtype=lib.float64), out=X)
        seen.append([(graph(t.grad_fn), t.requires_grad, t._version) for t in (*outs, X)])
    assert seen[0] == seen[1]


# --- svd_lowrank and pca_lowrank (random: the same seed draws the same matrix in both) ----------

LOWRANK = {
    "svd_lowrank": ((8, 5), lambda L, A: L.svd_lowrank(A, q=3)),
    "svd_lowrank_wide": ((5, 8), lambda L, A: L.svd_lowrank(A, q=3, niter=1)),
    "svd_lowrank_mean": ((2, 8, 5), lambda L, A: L.svd_lowrank(A, q=4, M=L.ones(5, dtype=L.float64))),
    "pca_lowrank": ((8, 5), lambda L, A: L.pca_lowrank(A)),
    "pca_lowrank_uncentered": ((8, 5), lambda L, A: L.pca_lowrank(A, q=2, center=False)),
}


@pytest.mark.parametrize("name", sorted(LOWRANK))
def test_lowrank_as_torch(name):
    torch = import_torch()
    shape, call = LOWRANK[name]
    a = np.random.default_rng(0).standard_normal(shape)
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        A = lib.tensor(a, requires_grad=True)
        U, S, V = call(lib, A)
        # (a loss that does not depend on the signs QR gives its columns: they can differ
        # between LAPACK builds)
        ((U * S.unsqueeze(-2)) @ V.mT).pow(2).sum().backward()
        seen.append(([np.abs(x.detach().numpy()) for x in (U, S, V)], A.grad.numpy(),
                     [graph(x.grad_fn) for x in (U, S, V)]))
    (ours, our_grad, our_graphs), (theirs, their_grad, their_graphs) = seen
    for x, y in zip(ours, theirs):
        np.testing.assert_allclose(x, y, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-9, atol=1e-9)
    assert our_graphs == their_graphs


@pytest.mark.parametrize("call", [lambda L: L.pca_lowrank(L.ones(4, 3), q=4),
                                  lambda L: L.pca_lowrank(L.ones(4, 3), q=-1),
                                  lambda L: L.pca_lowrank(L.ones(4, 3), niter=-1)])
def test_pca_lowrank_errors_as_torch(call):
    _same_error(call)


# --- forward mode ---------------------------------------------------------------------------------

FORWARD = {
    "triangular_solve": ((3, 3), (3, 2), lambda L, A, B: L.triangular_solve(B, A)[0]),
    "triangular_solve_transpose_unit": ((3, 3), (3, 2),
                                        lambda L, A, B: L.triangular_solve(B, A, False, True, True)[0]),
    "triangular_solve_coefficient": ((3, 3), (3, 2), lambda L, A, B: L.triangular_solve(B, A)[1]),
    "lu_solve": ((3, 3), (3, 2), lambda L, A, B: L.lu_solve(B, *L.linalg.lu_factor(A))),
    "linalg_lu_solve_adjoint": ((3, 3), (3, 2), lambda L, A, B: L.linalg.lu_solve(
        *L.linalg.lu_factor(A), B, adjoint=True)),
    "linalg_lu_solve_right": ((3, 3), (2, 3), lambda L, A, B: L.linalg.lu_solve(
        *L.linalg.lu_factor(A), B, left=False)),
    "lu": ((3, 3), (3, 2), lambda L, A, B: L.lu(A)[0]),
    "lu_factor_tall": ((4, 3), (3, 2), lambda L, A, B: L.linalg.lu_factor_ex(A)[0]),
    "lu_factor_wide": ((3, 5), (3, 2), lambda L, A, B: L.linalg.lu_factor_ex(A)[0]),
    "linalg_lu_L_tall": ((4, 3), (3, 2), lambda L, A, B: L.linalg.lu(A)[1]),
    "linalg_lu_U_wide": ((3, 5), (3, 2), lambda L, A, B: L.linalg.lu(A)[2]),
    "frobenius_norm": ((3, 3), (3, 2), lambda L, A, B: L.frobenius_norm(A, (0, 1))),
    "nuclear_norm": ((3, 3), (3, 2), lambda L, A, B: L.nuclear_norm(A)),
    "cond_nuc": ((3, 3), (3, 2), lambda L, A, B: L.linalg.cond(A, "nuc")),
    "ormqr": ((3, 3), (3, 2), lambda L, A, B: L.ormqr(A, L.ones(3, dtype=L.float64), B)),
}


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_mode_as_torch(name):
    torch = import_torch()
    shape_A, shape_B, call = FORWARD[name]
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal(s) for s in (shape_A, shape_B, shape_A, shape_B)]
    arrays[0] = arrays[0] + 3 * np.eye(*shape_A)
    seen = []
    for lib in (minigrad, torch):
        fwAD = lib.autograd.forward_ad
        A, B, A_t, B_t = (lib.tensor(a) for a in arrays)
        with fwAD.dual_level(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = call(lib, fwAD.make_dual(A, A_t), fwAD.make_dual(B, B_t))
                seen.append(fwAD.unpack_dual(out).tangent.numpy())
            except Exception as error:
                seen.append((type(error).__name__, str(error)))
    ours, theirs = seen
    if isinstance(theirs, tuple):
        assert ours == theirs
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


# --- vmap -----------------------------------------------------------------------------------------

VMAPPED = {
    "ldl_factor": lambda L, A, B: L.vmap(lambda a: L.linalg.ldl_factor(a).LD)(A),
    "ldl_factor_ex_pivots": lambda L, A, B: L.vmap(lambda a: L.linalg.ldl_factor_ex(a)[1])(A),
    "ldl_solve": lambda L, A, B: L.vmap(L.linalg.ldl_solve)(*L.linalg.ldl_factor(A), B),
    "ormqr": lambda L, A, B: L.vmap(lambda a, b: L.ormqr(a, L.ones(4, dtype=L.float64), b))(A, B),
    "triangular_solve": lambda L, A, B: L.vmap(lambda a, b: L.triangular_solve(b, a)[0])(A, B),
    "frobenius_norm": lambda L, A, B: L.vmap(lambda a: L.frobenius_norm(a, (0, 1)))(A),
    "nuclear_norm": lambda L, A, B: L.vmap(L.nuclear_norm)(A),
}


@pytest.mark.parametrize("name", sorted(VMAPPED))
def test_vmap_as_torch(name):
    torch = import_torch()
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((3, 4, 4)), rng.standard_normal((3, 4, 2))
    a = a + np.swapaxes(a, -1, -2) + 4 * np.eye(4)
    seen = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = VMAPPED[name](lib, lib.tensor(a), lib.tensor(b))
        seen.append((out.numpy(), [str(w.message).split(" (Triggered internally")[0] for w in caught
                                   if "performance drop" in str(w.message)]))
    (ours, our_warnings), (theirs, their_warnings) = seen
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    assert our_warnings == their_warnings


@pytest.mark.parametrize("dtypes", [("float32", "float64", "int64", "float64"), ("float64", "int64", "int64", "float64"),
                                    ("float64", "float64", "int32", "float64"), ("float64", "float64", "float32", "float64"),
                                    ("float64", "float64", "int64", "float32"), ("float64", "float64", "int64", "int64")])
def test_lstsq_out_casts_as_torch(dtypes):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        A, B, _ = _out_inputs(lib)
        outs = tuple(lib.empty(0, dtype=getattr(lib, d)) for d in dtypes)
        try:
            lib.linalg.lstsq(A, B, driver="gelsd", out=outs)
            seen.append([(str(o.dtype), tuple(o.shape), np.round(o.numpy().astype(float), 5).tolist()) for o in outs])
        except RuntimeError as error:
            seen.append(str(error))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "int64"), ("int64", "float64")])
def test_geqrf_out_casts_as_torch(dtypes):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        A, _, _ = _out_inputs(lib)
        outs = tuple(lib.empty(0, dtype=getattr(lib, d)) for d in dtypes)
        try:
            back = lib.geqrf(A, out=outs)
            seen.append((type(back).__name__, [(str(o.dtype), np.round(np.abs(o.numpy()), 5).tolist()) for o in outs]))
        except RuntimeError as error:
            seen.append(str(error))
    assert seen[0] == seen[1]


def test_torch_lu_under_vmap_matches_torch():
    """torch.lu lives in minigrad.functional, which vmap must batch (it is not minigrad.func)."""
    torch = import_torch()
    data = np.random.default_rng(3).standard_normal((3, 4, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = minigrad.vmap(minigrad.lu)(minigrad.tensor(data))
        theirs = torch.vmap(torch.lu)(torch.tensor(data))
    for a, b in zip(ours, theirs):
        assert np.allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)
        assert a.dtype.__str__().split(".")[-1] == str(b.dtype).split(".")[-1]


# --- x.geqrf(), x.orgqr(tau), x.ormqr(tau, other), x.triangular_solve(A); argument errors (also torch.*) ---

def _qr_inputs(lib):
    rng = np.random.default_rng(11)
    a = lib.tensor(rng.standard_normal((4, 3)))
    other = lib.tensor(rng.standard_normal((4, 2)))
    triangle = lib.tensor(np.triu(rng.standard_normal((4, 4))) + 4 * np.eye(4))
    return a, other, triangle


METHOD_CALLS = {
    "geqrf": lambda L, a, b, T: a.geqrf(),
    "orgqr": lambda L, a, b, T: a.geqrf()[0].orgqr(a.geqrf()[1]),
    "orgqr_keyword": lambda L, a, b, T: a.geqrf()[0].orgqr(input2=a.geqrf()[1]),
    "ormqr": lambda L, a, b, T: a.geqrf()[0].ormqr(a.geqrf()[1], b),
    "ormqr_right_transposed": lambda L, a, b, T: a.geqrf()[0].ormqr(a.geqrf()[1], b.mT, False, True),
    "ormqr_keywords": lambda L, a, b, T: a.geqrf()[0].ormqr(input2=a.geqrf()[1], input3=b, transpose=True),
    "triangular_solve": lambda L, a, b, T: b.triangular_solve(T),
    "triangular_solve_lower_transposed": lambda L, a, b, T: b.triangular_solve(
        A=T.mT, upper=False, transpose=True, unitriangular=True),
}


@pytest.mark.parametrize("name", sorted(METHOD_CALLS))
def test_qr_and_triangular_methods_match_torch(name):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results = METHOD_CALLS[name](lib, *_qr_inputs(lib))
        results = results if isinstance(results, tuple) else (results,)
        seen.append((type(results).__name__, [np.round(r.numpy(), 10).tolist() for r in results]))
    assert seen[0] == seen[1]


METHOD_ERRORS = {
    "geqrf_argument": lambda L, a, b, T: a.geqrf(1),
    "geqrf_keyword": lambda L, a, b, T: a.geqrf(1, mode=2),
    "orgqr_missing": lambda L, a, b, T: a.orgqr(),
    "orgqr_too_many": lambda L, a, b, T: a.orgqr(a, a),
    "orgqr_number": lambda L, a, b, T: a.orgqr(1),
    "orgqr_keyword_number": lambda L, a, b, T: a.orgqr(input2=1),
    "orgqr_unknown_keyword": lambda L, a, b, T: a.orgqr(a, tau=a),
    "orgqr_tau_matrix": lambda L, a, b, T: a.orgqr(a),
    "orgqr_tau_0d": lambda L, a, b, T: a.orgqr(L.tensor(1.0, dtype=L.float64)),
    "orgqr_tau_ndim": lambda L, a, b, T: a.expand(2, 4, 3).orgqr(L.ones(3, dtype=L.float64)),
    "ormqr_missing_two": lambda L, a, b, T: a.ormqr(),
    "ormqr_too_many": lambda L, a, b, T: a.ormqr(a, b, True, False, 1),
    "ormqr_list": lambda L, a, b, T: a.ormqr([1.0], b),
    "ormqr_left_number": lambda L, a, b, T: a.ormqr(a[0], b, 1),
    "ormqr_transpose_keyword_number": lambda L, a, b, T: a.ormqr(a[0], b, transpose=0),
    "triangular_solve_missing": lambda L, a, b, T: b.triangular_solve(),
    "triangular_solve_number": lambda L, a, b, T: b.triangular_solve(3),
    "triangular_solve_upper_none": lambda L, a, b, T: b.triangular_solve(T, upper=None),
    "triangular_solve_too_many": lambda L, a, b, T: b.triangular_solve(T, True, False, True, 1),
    "triangular_solve_not_square": lambda L, a, b, T: b.triangular_solve(T[:3]),
    "torch_ormqr_left_number": lambda L, a, b, T: L.ormqr(a, a[0], b, 1),
    "torch_ormqr_left_none": lambda L, a, b, T: L.ormqr(a, a[0], b, left=None),
    "torch_ormqr_missing": lambda L, a, b, T: L.ormqr(a, a[0]),
    "torch_orgqr_missing": lambda L, a, b, T: L.orgqr(a),
    "torch_orgqr_too_many": lambda L, a, b, T: L.orgqr(a, a[0], 1),
    "torch_householder_product_missing": lambda L, a, b, T: L.linalg.householder_product(a),
    "torch_triangular_solve_upper_number": lambda L, a, b, T: L.triangular_solve(b, T, 1),
    "torch_triangular_solve_missing": lambda L, a, b, T: L.triangular_solve(b),
    "torch_triangular_solve_unitriangular_number": lambda L, a, b, T: L.triangular_solve(b, T, unitriangular=0),
}


@pytest.mark.parametrize("name", sorted(METHOD_ERRORS))
def test_qr_and_triangular_method_errors_match_torch(name):
    _same_error(lambda L: METHOD_ERRORS[name](L, *_qr_inputs(L)))


def test_triangular_solve_method_gradient_matches_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        _, b, T = _qr_inputs(lib)
        T.requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            X = b.triangular_solve(T).solution
        X.sum().backward()
        seen.append((X.grad_fn.name(), np.round(T.grad.numpy(), 10).tolist()))
    assert seen[0] == seen[1]


# --- linalg.eig / eigvals: PyTorch's checks of arguments and input, in its order, then the refusal ---

_NAN = float("nan")
EIG_ERRORS = {
    "vector": lambda L, f: f(L.ones(3)),
    "vector_integers": lambda L, f: f(L.ones(3).long()),
    "vector_nan": lambda L, f: f(L.tensor([1.0, _NAN])),
    "not_square_integers": lambda L, f: f(L.ones(2, 3).long()),
    "not_square_nan": lambda L, f: f(L.tensor([[1.0, _NAN, 2.0], [1.0, 1.0, 1.0]])),
    "batch_not_square": lambda L, f: f(L.ones(2, 2, 3)),
    "bool": lambda L, f: f(L.ones(3, 3).bool()),
    "half_not_square": lambda L, f: f(L.ones(2, 3).half()),
    "half_nan": lambda L, f: f(L.tensor([[1.0, _NAN], [0.0, 1.0]]).half()),
    "inf": lambda L, f: f(L.tensor([[1.0, float("inf")], [0.0, 1.0]])),
    "none": lambda L, f: f(None),
    "keyword_A": lambda L, f: f(A=L.eye(3)),
    "unknown_keyword": lambda L, f: f(L.eye(3), foo=1),
    "two_arguments": lambda L, f: f(L.eye(3), L.eye(3)),
    "no_arguments": lambda L, f: f(),
    "out_tensor": lambda L, f: f(L.eye(3), out=L.empty(3)),
    "out_pair": lambda L, f: f(L.eye(3), out=(L.empty(3), L.empty(3, 3))),
    "out_list": lambda L, f: f(L.eye(3), out=[L.empty(3), L.empty(3, 3)]),
    "out_one": lambda L, f: f(L.eye(3), out=(L.empty(3),)),
    "out_three": lambda L, f: f(L.eye(3), out=(L.eye(3),) * 3),
    "out_numbers": lambda L, f: f(L.eye(3), out=(L.eye(3), 2, 3)),
    "out_number": lambda L, f: f(L.eye(3), out=1),
    "out_integers": lambda L, f: f(L.eye(3), out=L.empty(3).long()),
    "out_float_for_double": lambda L, f: f(L.eye(3).double(), out=(L.empty(3), L.empty(3))),
    "out_not_square": lambda L, f: f(L.ones(2, 3), out=L.empty(3)),
    "out_integer_input": lambda L, f: f(L.eye(3).long(), out=(L.empty(3), L.empty(3))),
    "out_half_input": lambda L, f: f(L.eye(3).half(), out=L.empty(3)),
    "out_requires_grad": lambda L, f: f(L.eye(3).requires_grad_(), out=(L.empty(3), L.empty(3))),
    "out_requires_grad_nan": lambda L, f: f(L.tensor([[1.0, _NAN], [0.0, 1.0]]).requires_grad_(),
                                            out=(L.empty(3), L.empty(3))),
    "out_nan": lambda L, f: f(L.tensor([[1.0, _NAN], [0.0, 1.0]]), out=(L.empty(3), L.empty(3))),
}


# (eigvals has no check for infs and NaNs: of a square matrix with one PyTorch computes them)
@pytest.mark.parametrize("function, name", [("eig", name) for name in sorted(EIG_ERRORS)]
                         + [("eigvals", name) for name in sorted(EIG_ERRORS) if name != "inf"])
def test_eig_and_eigvals_errors_as_torch(function, name):
    _same_error(lambda L: EIG_ERRORS[name](L, getattr(L.linalg, function)))


def test_eig_and_eigvals_of_float16_warn_as_torch_before_refusing():
    """PyTorch makes its ComplexHalf results first, with a warning given once per process."""
    import minigrad._warnings as minigrad_warnings
    minigrad_warnings._warned_once.discard("ComplexHalf support is experimental and many operators "
                                           "don't support it yet.")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        for _ in range(2):
            with pytest.raises(NotImplementedError, match="linalg_eig_out_cpu"):
                minigrad.linalg.eigvals(minigrad.eye(3).half())
    assert [str(w.message) for w in seen] == [
        "ComplexHalf support is experimental and many operators don't support it yet."]


def test_householder_product_gradient_runs_through_the_saved_result():
    """Differentiated again (create_graph=True), householder_product's gradient passes through
    the node's saved result, as PyTorch's does: that second backward frees the node, so a
    later backward through the product fails; the first and second derivatives agree."""
    torch = import_torch()

    def run(lib):
        A = lib.tensor([[1.0, 0.2], [0.3, -0.5], [0.7, 0.1]], dtype=lib.float64, requires_grad=True)
        tau = lib.tensor([1.2, 0.4], dtype=lib.float64, requires_grad=True)
        Q = lib.linalg.householder_product(A, tau)
        grad_A, grad_tau = lib.autograd.grad((Q * Q.detach().cos()).sum(), (A, tau),
                                             create_graph=True)
        seen = [grad_A.detach().numpy().copy(), grad_tau.detach().numpy().copy()]
        (grad_A.sum() + grad_tau.sum()).backward()
        seen += [A.grad.numpy().copy(), tau.grad.numpy().copy()]
        try:
            Q.sum().backward()
            seen.append("no error")
        except RuntimeError as error:
            seen.append(str(error).split(".")[0])
        return seen
    ours, theirs = run(minigrad), run(torch)
    for got, expected in zip(ours[:4], theirs[:4]):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    assert ours[4] == theirs[4] == ("Trying to backward through the graph a second time (or "
                                    "directly access saved tensors after they have already been "
                                    "freed)")


@pytest.mark.parametrize("unitriangular", [False, True])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("upper", [False, True])
def test_solve_triangular_by_substitution_as_torch(upper, left, unitriangular):
    # PyTorch's BLAS substitutes one row at a time: a 0 on the diagonal gives inf or nan (no
    # error), and a nan in A reaches only the rows that read it
    torch = import_torch()
    nan = float("nan")
    lower = [[[2.0, 0, 0], [1, 3, 0], [nan, 1, 4]],
             [[0.0, 0, 0], [1, 2, 0], [1, 1, 4]],
             [[1.0, 0, 0], [1, 0, 0], [5, 1, 4]],
             [[nan, 0, 0], [1, 3, 0], [1, 1, 4]]]
    rhs = [[1.0, -2.0], [2.0, 0.5], [3.0, 1.0]]
    seen = []
    for lib in (minigrad, torch):
        A = lib.tensor(lower, dtype=lib.float64)
        A = A.mT if upper else A
        B = lib.tensor(rhs, dtype=lib.float64)
        B = B if left else B.mT
        X = lib.linalg.solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)
        seen.append(X.numpy())
    np.testing.assert_allclose(seen[0], seen[1], rtol=1e-12, equal_nan=True)
