"""Fixtures shared by the library tests: PyTorch as the reference, and data for both libraries.

The differential tests compare minigrad with real PyTorch. On a laptop without
PyTorch they skip; in CI (``MINIGRAD_CI=1``) a missing PyTorch is a failure,
because CI installs torch==2.13.0 and the tests must run there.

Data is always made once with numpy and then handed to both libraries, so the
two computations start from exactly the same numbers, independently of either
library's random generator.
"""
import gc
import os

import numpy as np
import pytest

import minigrad

IN_CI = os.environ.get("MINIGRAD_CI", "") not in ("", "0")


def rounded(values):
    """Numbers (in nested lists) to 6 significant digits, for comparing results the two
    libraries may compute differently in the last bit (atan2, exp, ...)."""
    if isinstance(values, list):
        return [rounded(v) for v in values]
    return float(f"{values:.6g}") if isinstance(values, float) else values


def every_node_saved(grad_fn, seen, _visited=None):
    """(name, what each _saved_ attribute shows) of every node below ``grad_fn``, depth first,
    each node once (a graph that reuses results, as attention's does, would otherwise be
    walked once per path through it)."""
    visited = set() if _visited is None else _visited
    if grad_fn is None or id(grad_fn) in visited:
        return seen
    visited.add(id(grad_fn))          # (the graph holds its nodes alive while it is walked)
    shown = {}
    for name in dir(grad_fn):
        if name.startswith("_saved_"):
            value = getattr(grad_fn, name)
            shown[name] = (tuple(value.shape), str(value.dtype)) if hasattr(value, "shape") else value
    seen.append((type(grad_fn).__name__, shown))
    for child, _ in grad_fn.next_functions:
        every_node_saved(child, seen, visited)
    return seen


def failure_of(call):
    """(exception class name, message without minigrad's hint) of ``call()``, which must fail;
    warnings on the way are ignored."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as caught:
            call()
    return type(caught.value).__name__, str(caught.value).split("\nminigrad hint:")[0]


def outcome_of(call):
    """"ok", or (exception class name, message without minigrad's hint) of ``call()``;
    warnings on the way are ignored."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call()
        except Exception as error:        # noqa: BLE001  (any exception is compared)
            return type(error).__name__, str(error).split("\nminigrad hint:")[0]
    return "ok"


def assert_same_values(expected, got):
    """``got`` (minigrad's) holds what ``expected`` (PyTorch's) holds: tensors of the same shape,
    dtype and values (to 1e-5), in the same nesting of tuples and lists."""
    import numpy as np
    import minigrad
    torch = import_torch()
    if isinstance(expected, torch.Tensor):
        assert isinstance(got, minigrad.Tensor)
        assert tuple(got.shape) == tuple(expected.shape)
        assert str(got.dtype) == str(expected.dtype)
        np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-5,
                                   equal_nan=True)
    elif isinstance(expected, (tuple, list)) and not isinstance(expected, torch.Size):
        assert len(got) == len(expected)
        for e, g in zip(expected, got):
            assert_same_values(e, g)


def item_or_refusal(tensor):
    """"item" if ``tensor.sum().item()`` works (a value not batched by vmap), else the start of
    the refusal."""
    try:
        tensor.sum().item()
        return "item"
    except RuntimeError as error:
        return str(error)[:40]


def import_torch():
    """PyTorch, or a skip (a failure in CI) with a reason that says it is missing."""
    try:
        import torch
    except ImportError as error:
        message = f"PyTorch is needed for the differential tests and is not installed ({error})"
        if IN_CI:
            pytest.fail(message + "; CI must install torch==2.13.0", pytrace=False)
        # a module that calls this at import time skips whole, as importorskip would
        pytest.skip(message, allow_module_level=True)
    return torch


# Tests that take seconds each, longest first. They run before the rest, so that under
# pytest-xdist none of them starts last and leaves the other workers idle at the end. (A
# worker's first share of tests is the front of the list, so a whole module with an
# expensive module-scoped fixture, as the benchmarks' quick run, still runs in one worker.)
LONG_FIRST = (
    "test_lessons_under_torch.py::test_lesson_prints_the_same_under_torch[12_",
    "test_lessons_under_torch.py::test_lesson_prints_the_same_under_torch[09_",
    "test_benchmarks_smoke.py::",
    "test_training_fuzz_vs_torch.py::",
    "test_fuzz_vs_torch.py::test_random_programs_match_pytorch",
    "test_sampling_vs_torch.py::",
    "test_lessons_under_torch.py::",
)


# Tests of results PyTorch takes from MKL's LAPACK and vector math compared to the last bit,
# where minigrad follows only the kernels MKL takes on AMD's processors. MKL picks its kernels
# by the CPU it runs on: for LU, det, slogdet, solve and inv up to 16 x 16 (float64 LU up to
# 64 x 64) and LDL (but for NaN pivots) minigrad follows both kinds
# (minigrad/_ops/mkl_kernels.py), so those tests must pass everywhere; for these it follows only
# AMD's: LDL's NaN pivots, Cholesky, the SVD of
# singular matrices, erf, sqrt (README: "the bits may change with the CPU"). Where a probe
# shows that this machine's MKL takes other kernels, these tests still run and report, but as
# expected failures; everywhere else they must pass.
CPU_DEPENDENT_KERNELS = (
    "test_linalg_more_vs_torch.py::test_ldl_factor_with_nan_pivots_as_torch",
    "test_linalg_more_vs_torch.py::test_cond_nuc_of_singular_matrices_as_torch",
    "test_linalg_vs_torch.py::test_results_print_as_torch[cholesky_",
    "test_vmap_whole_batch_more_vs_torch.py::test_cond_nuc_of_a_singular_matrix_is_torchs",
    "test_distributions_gamma_vs_torch.py::test_lkj_cholesky_and_wishart_as_torch",
    "test_distributions_vs_torch.py::test_values_samples_graph_and_gradients_as_torch[MultivariateNormal-",
    "test_optim_more_vs_torch.py::test_steps_match_torch_bit_for_bit[Adadelta-",
    "test_quiet_numpy_vs_torch.py::test_values_at_the_edges_are_torchs[gelu]",
)


def mkl_takes_the_followed_kernels():
    """True when PyTorch's LDL factorization of a fixed 2 x 2 matrix with a NaN below the
    diagonal gives minigrad's pivots and info (MKL's kernels are the ones minigrad follows
    everywhere: AMD's; Intel's pick another pivot there); None without PyTorch."""
    try:
        import torch
    except ImportError:
        return None
    matrix = [[1.0, 0.0], [float("nan"), 2.0]]
    theirs = torch.linalg.ldl_factor_ex(torch.tensor(matrix))
    ours = minigrad.linalg.ldl_factor_ex(minigrad.tensor(matrix))
    return bool(np.array_equal(theirs.pivots.numpy(), ours.pivots.numpy())
                and np.array_equal(theirs.info.numpy(), ours.info.numpy()))


def pytest_collection_modifyitems(items):
    """The long tests (``LONG_FIRST``) to the front, in that order; the rest keep theirs. On a
    machine whose MKL takes other kernels, ``CPU_DEPENDENT_KERNELS`` are expected failures."""
    def rank(item):
        return next((i for i, start in enumerate(LONG_FIRST) if start in item.nodeid), len(LONG_FIRST))
    items.sort(key=rank)
    dependent = [item for item in items if any(start in item.nodeid for start in CPU_DEPENDENT_KERNELS)]
    if dependent and mkl_takes_the_followed_kernels() is False:
        mark = pytest.mark.xfail(strict=False, reason="this CPU's MKL takes other kernels than the "
                                 "ones minigrad follows (tests/conftest.py: CPU_DEPENDENT_KERNELS)")
        for item in dependent:
            item.add_marker(mark)


def pytest_collection_finish(session):
    """Once every test module is imported (PyTorch, the tables of cases: a heap of some
    million objects that live to the end), move them out of the garbage collector's way
    (``gc.freeze``): its full collections, and ``gc.get_referrers``, which minigrad calls when
    a leaf changes dtype or shape in place (``Module.to(torch.float64)``), then walk only
    what the tests make, not that heap again each time. (So those two do not see objects made
    at import time: a tensor a test changes in place that way is made in the test.)"""
    gc.collect()
    gc.freeze()


_module_running = [None]


def pytest_runtest_teardown(item):
    """After the first test of each test module, and so before the second, freeze again
    (``gc.collect``, then ``gc.freeze``) what the tests so far left alive: above all the
    PyTorch and minigrad submodules and caches that a module's first test brings in on first
    use (some hundred thousand objects), which ``gc.get_referrers`` otherwise walked whole at
    every call (some 25 ms each, a third of the recurrent layers' tests). Garbage is
    collected first, so nothing dead is kept; a test module's later tests stay in view. (As
    with the freeze after collection, those two then do not see what the first test left
    alive: a tensor that a test changes in place that way is made in that test.)"""
    if item.module is not _module_running[0]:
        _module_running[0] = item.module
        gc.collect()
        gc.freeze()


@pytest.fixture(scope="session")
def torch():
    """The real ``torch`` module, to compare against."""
    return import_torch()


class Pair:
    """Builds the same tensors in minigrad and PyTorch from numpy arrays."""

    def __init__(self, torch_module):
        self.torch = torch_module

    def tensors(self, array, requires_grad=False):
        """(minigrad tensor, torch tensor) holding separate copies of ``array``."""
        array = np.asarray(array)
        ours = minigrad.tensor(array.copy(), requires_grad=requires_grad)
        theirs = self.torch.tensor(array.copy(), requires_grad=requires_grad)
        return ours, theirs

    def randn(self, *shape, dtype=np.float64, seed=0, requires_grad=False):
        array = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
        return self.tensors(array, requires_grad)

    @staticmethod
    def assert_close(ours, theirs, rtol=None, atol=None, check_dtype=True):
        """Same shape, (by default) same dtype name, values close for the dtype."""
        if theirs is None or ours is None:
            assert ours is None and theirs is None, (ours, theirs)
            return
        assert tuple(ours.shape) == tuple(theirs.shape)
        if check_dtype:
            assert ours.dtype.name == str(theirs.dtype).replace("torch.", "")
        expected = theirs.detach().numpy()
        got = ours.detach().numpy()
        if rtol is None:
            rtol = 1e-5 if expected.dtype == np.float32 else 1e-10
        if atol is None:
            atol = 1e-6 if expected.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


@pytest.fixture(scope="session")
def pair(torch):
    """Helper to build the same data in both libraries and compare results."""
    return Pair(torch)


@pytest.fixture(autouse=True)
def _restore_grad_mode():
    """A failing test must not leave recording switched off for the next one."""
    yield
    minigrad.autograd.grad_mode._State.enabled = True
    minigrad.autograd.grad_mode._State.inference = False
    minigrad.autograd.anomaly_mode._Anomaly.enabled = False
    minigrad.autograd.anomaly_mode._Anomaly.check_nan = True
