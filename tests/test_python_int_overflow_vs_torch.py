"""Python ints that no C++ 64-bit integer holds, or that an integer tensor's dtype does not hold,
given to operators and methods: minigrad fails (or computes) as PyTorch does.

PyTorch reads a Python int given for a number as a signed 64-bit integer, or as an unsigned one
from 2**63 up to 2**64 - 1; past both it raises Python's OverflowError ("int too big to convert",
"can't convert negative int to unsigned"). An integer tensor's kernels then keep the number's low
bits (int32 tensor + 2**32 adds 0), bool tensors refuse an unsigned number ("Promotion for ...
UInt64"), and a checked conversion (``fill_``, an integer power) refuses what the dtype cannot hold.
Each case runs once with PyTorch and once with minigrad; the outcomes of all operators for one
tensor and one number are compared together.
"""

import pytest

import minigrad
from conftest import assert_same_values, import_torch, outcome_of
from test_operator_misuse_vs_torch import run_line

torch = import_torch()

NUMBERS = ["2**64", "2**100", "-2**63 - 1", "-2**64", "2**63", "2**64 - 1", "2**63 - 1", "-2**63",
           "2**32 + 5", "300", "-1"]
TENSORS = {"f32": "torch.tensor([1.5, -2.0])", "f16": "torch.tensor([1.5, -2.0], dtype=torch.float16)",
           "f64": "torch.tensor([1.5, -2.0], dtype=torch.float64)", "i64": "torch.tensor([3, -2])",
           "i32": "torch.tensor([3, -2], dtype=torch.int32)", "i16": "torch.tensor([3, -2], dtype=torch.int16)",
           "i8": "torch.tensor([3, -2], dtype=torch.int8)", "u8": "torch.tensor([3, 2], dtype=torch.uint8)",
           "bool": "torch.tensor([True, False])", "0-d f32": "torch.tensor(2.5)", "0-d i64": "torch.tensor(3)",
           "0-d bool": "torch.tensor(True)"}
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"]
COMPARISONS = ["==", "!=", "<", "<=", ">", ">="]
METHODS = ["t.add(v)", "t.sub(v)", "t.mul(v)", "t.div(v)", "t.div(v, rounding_mode='floor')",
           "t.eq(v)", "t.lt(v)", "t.ge(v)", "t.pow(v)", "t.remainder(v)", "t.fmod(v)",
           "t.bitwise_and(v)", "t.bitwise_xor(v)", "torch.add(t, v)", "torch.add(v, t)", "torch.mul(v, t)",
           "torch.eq(t, v)", "torch.pow(v, t)", "t.clone().add_(v)", "t.clone().mul_(v)",
           "t.clone().sub_(v)", "t.clone().fill_(v)", "t.new_full((2,), v)", "torch.full((2,), v)",
           "t.float().clamp(v)", "t.float().clamp(max=v)", "t.float().masked_fill(t.float() > 0, v)",
           "t.float().lerp(t.float(), v)", "t.float().addcmul(t.float(), t.float(), value=v)",
           "torch.nn.functional.threshold(t.float(), v, 1)", "t.float().add(1, alpha=v)",
           "t.clone().lt_(v)",
           # a number given first (PyTorch's uint64 from 2**63 up: an integer tensor takes its low
           # bits, a float one its value, a true division floats; bools and other ints refused)
           "torch.sub(v, t)", "torch.sub(v, t, alpha=2)", "torch.div(v, t)", "torch.true_divide(v, t)",
           "torch.div(v, t, rounding_mode='trunc')", "torch.floor_divide(v, t)", "torch.multiply(v, t)",
           "torch.add(v, 1)", "torch.add(v, 1.5)", "torch.add(v, True)", "torch.add(v, other=t)"]


def _left_out(tensor, number, line):
    """The reason a case is not compared yet (differences README lists), else None."""
    return None


def _lines():
    lines = []
    for op in OPERATORS:
        lines += [f"t {op} v", f"v {op} t", f"c = t.clone(); c {op}= v; r = c"]
    lines += [f"t {op} v" for op in COMPARISONS] + [f"v {op} t" for op in COMPARISONS]
    return lines + METHODS


def _run(module, tensor, number, line):
    names = {"torch": module, "t": eval(tensor, {"torch": module}), "v": eval(number, {"torch": module})}  # noqa: S307
    return run_line(line, names)


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("tensor", TENSORS)
def test_operators_and_methods_take_a_big_python_int_as_torch_does(tensor, number):
    lines = [line for line in _lines() if not _left_out(tensor, number, line)]
    assert _differences(TENSORS[tensor], number, lines) == []


def _differences(tensor, number, lines):
    """Each line whose outcome (or values) under minigrad differs from PyTorch's."""
    differences = []
    for line in lines:
        expected = outcome_of(lambda: _run(torch, tensor, number, line))
        got = outcome_of(lambda: _run(minigrad, tensor, number, line))
        if got != expected:
            differences.append((line, expected, got))
        elif expected == "ok":
            try:
                assert_same_values(_run(torch, tensor, number, line), _run(minigrad, tensor, number, line))
            except AssertionError as error:
                differences.append((line, "values", str(error)[:200]))
    return differences


# numbers a tensor's dtype cannot hold, given where PyTorch converts them with a check (fill
# values, clamp and hardtanh bounds, add's and sub's alpha, where's number, addcmul's value,
# a float16 tensor's exponent): PyTorch's "value cannot be converted to type ... without overflow"
CHECKED_TENSORS = {"f16": "torch.tensor([1.5, -2.0], dtype=torch.float16)", "f32": "torch.tensor([1.5, -2.0])",
                   "f64": "torch.tensor([1.5, -2.0], dtype=torch.float64)", "i64": "torch.tensor([3, -2])",
                   "i32": "torch.tensor([3, -2], dtype=torch.int32)", "u8": "torch.tensor([3, 2], dtype=torch.uint8)",
                   "i8": "torch.tensor([3, -2], dtype=torch.int8)", "bool": "torch.tensor([True, False])"}
CHECKED_NUMBERS = ["7e4", "-7e4", "65504", "65505", "1e39", "3.4028234663852886e38", "1e300", "float('inf')",
                   "2**63", "2**64 - 1", "2**31", "-2**31 - 1", "2**32 + 5", "300", "-1", "-129", "256", "-2**63"]
CHECKED_CALLS = [
    "t ** v", "t.pow(v)", "t.clone().pow_(v)", "t.clone().fill_(v)", "t.clamp(v)", "t.clamp(max=v)",
    "t.clone().clamp_(v)", "t.clamp(-v, v) if v > 0 else t.clamp(v, -v)", "t.masked_fill(t > 0, v)",
    "t.clone().masked_fill_(t > 0, v)", "t.add(t, alpha=v)", "t.sub(t, alpha=v)", "t.clone().add_(t, alpha=v)",
    "t.clone().sub_(t, alpha=v)", "torch.rsub(t, t, alpha=v)", "t.new_full((2,), v)", "torch.full((2,), v, dtype=t.dtype)",
    "torch.full_like(t, v)", "torch.where(t > 0, t, v)", "torch.where(t > 0, v, t)",
    "t.index_fill(0, torch.tensor([0]), v)", "t.addcmul(t, t, value=v)", "t.float().addcdiv(t.float(), t.float(), value=v)",
    "t.lerp(t, v)", "torch.nn.functional.hardtanh(t, -abs(v), abs(v))", "torch.nn.functional.threshold(t, 1, v)",
]


@pytest.mark.parametrize("number", CHECKED_NUMBERS)
@pytest.mark.parametrize("tensor", CHECKED_TENSORS)
def test_numbers_a_dtype_cannot_hold_are_refused_as_torch_does(tensor, number):
    assert _differences(CHECKED_TENSORS[tensor], number, CHECKED_CALLS) == []


# a 0-d tensor of a wider type next to a tensor: PyTorch converts it to the result's dtype first
# (an int8 tensor and tensor(1000): 1000 wraps to -24), in arithmetic, comparisons and clamp
WIDER_ZERO_DIM = ["torch.tensor(1000)", "torch.tensor(-1000)", "torch.tensor(2**40 + 7)", "torch.tensor(1.0001, dtype=torch.float64)"]
WIDER_CALLS = ["torch.add(t, v)", "torch.mul(t, v)", "torch.floor_divide(t, v)", "torch.remainder(t, v)",
               "torch.fmod(t, v)", "torch.maximum(t, v)", "torch.minimum(t, v)", "t < v", "v >= t", "t == v",
               "t.clamp(min=v)", "t.clamp(max=v)", "torch.bitwise_and(t, v) if not t.is_floating_point() else t"]


@pytest.mark.parametrize("number", WIDER_ZERO_DIM)
@pytest.mark.parametrize("tensor", ["i8", "u8", "i16", "i32", "f16", "f32"])
def test_a_wider_zero_dim_tensor_is_converted_first_as_torch_does(tensor, number):
    tensors = dict(TENSORS, **{k: v for k, v in CHECKED_TENSORS.items() if k not in TENSORS})
    assert _differences(tensors[tensor], number, WIDER_CALLS) == []


@pytest.mark.parametrize("operation", ["maximum", "minimum"])
@pytest.mark.parametrize("dtypes", [("float64", "float32"), ("float32", "float16"), ("float64", "float16")])
def test_a_wider_zero_dim_tensor_ties_in_the_gradient_as_torch_does(operation, dtypes):
    """maximum's and minimum's gradients compare the inputs as PyTorch's comparisons do, in the
    result's dtype: a float64 0-d 0.54781 and its float32 rounding tie there, and share the
    gradient (found by the random-program test)."""
    import numpy as np
    from conftest import import_torch
    import minigrad

    def gradients(L):
        wide, narrow = (getattr(L, name) for name in dtypes)
        a = L.tensor(0.54781, dtype=wide, requires_grad=True)
        x = L.tensor([0.54781, -1.0, 2.0], dtype=narrow, requires_grad=True)
        out = [getattr(L, operation)(a, x), getattr(L, operation)(x, a)]
        return [[g.tolist() for g in L.autograd.grad(y, (a, x), L.ones_like(y))] for y in out]
    assert gradients(minigrad) == gradients(torch)
