"""Tensor printing must match PyTorch character for character.

Every test builds the same numpy data as a torch tensor and as a minigrad
tensor, and compares ``repr`` of the two, with ``torch.`` read as ``minigrad.``.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad import _tensor_str
from minigrad._tensor_str import get_printoptions, set_printoptions

# --------------------------------------------------------------------------
# Helpers (the ``torch`` fixture comes from conftest.py)
# --------------------------------------------------------------------------


def expected(torch_tensor):
    """PyTorch's repr, with its module name replaced by ours."""
    return repr(torch_tensor)


def assert_prints_like_torch(torch, array, requires_grad=False):
    """Build ``array`` in both libraries and compare what they print."""
    reference = torch.from_numpy(array.copy()).requires_grad_(requires_grad)
    ours = minigrad.tensor(array.copy(), requires_grad=requires_grad)
    assert ours.dtype.name == str(reference.dtype).replace("torch.", "")
    assert repr(ours) == expected(reference)
    assert str(ours) == str(reference)


@pytest.fixture(autouse=True)
def default_print_options(torch):
    """Every test starts, and leaves, with the default options in both libraries."""
    torch.set_printoptions(profile="default")
    set_printoptions(profile="default")
    yield
    torch.set_printoptions(profile="default")
    set_printoptions(profile="default")
    torch.set_default_dtype(torch.float32)


# --------------------------------------------------------------------------
# Hand-picked cases: one per rule a learner will meet
# --------------------------------------------------------------------------

nan, inf = math.nan, math.inf
f32, f64 = np.float32, np.float64

CASES = {
    "scalar whole float": np.array(3.0, f32),
    "scalar small float": np.array(0.0051, f32),
    "scalar tiny float": np.array(1e-5, f32),
    "scalar negative": np.array(-2.5, f64),
    "scalar zero": np.array(0.0, f32),
    "scalar negative zero": np.array(-0.0, f32),
    "scalar nan": np.array(nan, f32),
    "scalar int": np.array(7),
    "scalar bool": np.array(True),
    "scalar int8": np.array(-5, np.int8),
    "vector ints": np.array([1, 2]),
    "vector whole floats": np.array([1.0, 2.0, 3.0], f32),
    "vector fixed": np.array([1.0, 1.5], f32),
    "vector negatives": np.array([-1.25, 3.5, -100.0], f32),
    "vector with zero and negative zero": np.array([-0.0, 0.0, 1.0], f32),
    "mixed magnitudes": np.array([0.001, 1.0, 0.5], f32),
    "ratio just below 1000": np.array([0.01, 9.99], f64),
    "ratio above 1000": np.array([0.01, 10.01], f64),
    "scientific": np.array([1e-5, 1e5], f32),
    "large floats": np.array([1e9, 2e9], f64),
    "whole floats in sci mode": np.array([1.0, 123456789.0], f64),
    "inf and nan": np.array([inf, -inf, nan, 1.5], f32),
    "only inf and nan": np.array([inf, nan, -inf], f32),
    "zeros only": np.zeros(4, f32),
    "nan with whole numbers": np.array([nan, 2.0, -inf], f64),
    "large ints": np.array([2**62, -(2**63), 5]),
    "uint8": np.array([0, 255, 7], np.uint8),
    "int32": np.array([[1, -2], [300, 4]], np.int32),
    "bools": np.array([True, False, True]),
    "bool matrix": np.array([[True], [False]]),
    "float64 vector": np.array([1.0, 2.5]),
    "float16": np.array([0.1, 1.5, 65504.0], np.float16),
    "float16 tiny": np.array([6e-8, 1.0], np.float16),
    "matrix": np.arange(6, dtype=f32).reshape(2, 3) / 4,
    "3-D": np.arange(24, dtype=f32).reshape(2, 3, 4),
    "4-D": np.arange(16).reshape(2, 2, 2, 2),
    "5-D with unit sides": np.ones((1, 2, 1, 2, 1), f64),
    "empty": np.zeros(0, f32),
    "empty matrix": np.zeros((0, 3), f32),
    "empty int": np.zeros(0, np.int64),
    "empty bool 3-D": np.zeros((2, 0, 1), bool),
    "empty float64": np.zeros((0,), f64),
    "long row wraps": np.linspace(-1, 1, 30, dtype=f32),
    "long int row wraps": np.arange(100) * 997,
    "long float64 row wraps with dtype": np.linspace(0, 1, 25),
    "summarised vector": np.arange(2000, dtype=f32),
    "summarised matrix": np.arange(40 * 40).reshape(40, 40),
    "summarised 3-D": np.linspace(-5, 5, 11 * 12 * 13).reshape(11, 12, 13),
    "summarised but short rows": np.arange(2002, dtype=f64).reshape(1001, 2),
    "summary hides outlier": np.concatenate([np.ones(500), [1e-9], np.ones(500)]),
}


@pytest.mark.parametrize("name", CASES)
def test_prints_like_torch(torch, name):
    assert_prints_like_torch(torch, CASES[name])


FLOAT_CASES = [
    np.array(3.0, f32),
    np.array([1.0, 1.5], f32),
    np.array([1.0, 2.0], f64),
    np.zeros((0, 2), f64),
    np.arange(12, dtype=f32).reshape(3, 4),
    np.linspace(0, 1, 12),  # wraps, then suffixes wrap too
    np.linspace(0, 1, 8),  # fits, but dtype + requires_grad do not
    np.arange(3000, dtype=np.float16),  # summarised, and float16 is named
]


@pytest.mark.parametrize("array", FLOAT_CASES, ids=range(len(FLOAT_CASES)))
def test_requires_grad_suffix(torch, array):
    assert_prints_like_torch(torch, array, requires_grad=True)


@pytest.mark.parametrize(
    "array",
    [np.array(2.0, f32), np.array([1.0, 2.5], f64), np.linspace(0, 1, 9)],
    ids=["scalar", "float64", "long"],
)
def test_grad_fn_suffix(torch, array):
    """A non-leaf shows where it came from instead of requires_grad=True."""
    results = []
    for library in (torch, minigrad):
        leaf = library.tensor(array.copy(), requires_grad=True)
        results.append((leaf * 2, (leaf + leaf).sum()))
    for reference, ours in zip(*results):
        assert repr(ours) == expected(reference)


def test_default_dtype_is_not_named(torch, monkeypatch):
    """With float64 as default, float64 goes unnamed and float32 is named."""
    torch.set_default_dtype(torch.float64)
    monkeypatch.setattr(_tensor_str, "_default_dtype_repr", lambda: "torch.float64")
    for array in [np.array([1.5, 2.0]), np.array([1.5], f32), np.zeros(0), np.zeros(0, f32)]:
        assert_prints_like_torch(torch, array)


# --------------------------------------------------------------------------
# Print options
# --------------------------------------------------------------------------


def test_defaults():
    assert get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }


def test_profiles():
    set_printoptions(profile="short")
    assert get_printoptions()["precision"] == 2
    assert get_printoptions()["edgeitems"] == 2
    set_printoptions(profile="full")
    assert get_printoptions()["threshold"] == math.inf
    set_printoptions(profile="default", precision=6)
    assert get_printoptions()["precision"] == 6


def test_sci_mode_resets_when_not_given():
    set_printoptions(sci_mode=True)
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None


def test_printoptions_context_restores():
    with _tensor_str.printoptions(precision=1, linewidth=40):
        assert get_printoptions()["precision"] == 1
    assert get_printoptions()["precision"] == 4
    assert get_printoptions()["linewidth"] == 80


OPTION_CASES = [
    dict(precision=2),
    dict(precision=0),
    dict(precision=10),
    dict(threshold=5),
    dict(threshold=5, edgeitems=1),
    dict(threshold=5, edgeitems=0),
    dict(edgeitems=0),
    dict(linewidth=30),
    dict(linewidth=1),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(profile="short"),
    dict(profile="full"),
]
OPTION_ARRAYS = [
    np.array(0.123456, f32),
    np.array([1.123456, -2.0, 1e-6]),
    np.array([1e10, 3.0], f32),
    np.array([1.0, 2.0, 3.0], f32),
    np.arange(10),
    np.arange(2 * 3 * 8, dtype=f32).reshape(2, 3, 8) / 7,
    np.arange(1500, dtype=f32),
    np.zeros((0, 2), f32),
    np.array([True, False]),
]


@pytest.mark.parametrize("options", OPTION_CASES, ids=str)
def test_print_options_match_torch(torch, options):
    torch.set_printoptions(**options)
    set_printoptions(**options)
    for array in OPTION_ARRAYS:
        assert_prints_like_torch(torch, array)
    assert_prints_like_torch(torch, OPTION_ARRAYS[1], requires_grad=True)


# --------------------------------------------------------------------------
# Random tensors and options
# --------------------------------------------------------------------------

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]


def _float_values():
    """Floats that exercise every format: whole, fractional, huge, tiny, special."""
    mantissa = st.floats(-10, 10, allow_nan=False)
    scaled = st.builds(lambda m, e: m * 10.0**e, mantissa, st.integers(-12, 12))
    whole = st.integers(-3000, 3000).map(float)
    special = st.sampled_from([0.0, -0.0, nan, inf, -inf])
    return st.one_of(scaled, whole, special, st.floats())


@st.composite
def arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6))
    if dtype.kind == "f":
        values = draw(hnp.arrays(np.float64, shape, elements=_float_values()))
        with np.errstate(over="ignore"):
            return values.astype(dtype)  # float16 overflow becomes inf, as intended
    return draw(hnp.arrays(dtype, shape))


print_options = st.fixed_dictionaries(
    {},
    optional={
        "precision": st.integers(0, 8),
        "threshold": st.integers(0, 300),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 120),
        "sci_mode": st.sampled_from([None, True, False]),
    },
)


@settings(max_examples=400, deadline=None)
@given(array=arrays(), options=print_options, requires_grad=st.booleans())
def test_random_tensors_print_like_torch(torch, array, options, requires_grad):
    torch.set_printoptions(profile="default", **options)
    set_printoptions(profile="default", **options)
    assert_prints_like_torch(torch, array, requires_grad and array.dtype.kind == "f")
