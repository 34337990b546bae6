"""Arithmetic with zeros, infinities, NaN and huge numbers, against PyTorch.

PyTorch computes 0 * inf (nan), 1e30 * 1e30 in float32 (inf), 1 / 0 (inf) and inf - inf (nan)
without a word, where numpy warns ("invalid value encountered in multiply"). Each case runs
under both libraries with warnings as errors, so a numpy warning leaking out fails, and the
values, dtypes and gradients must be PyTorch's.
"""
import math
import warnings

import pytest

import minigrad
from conftest import import_torch

torch = import_torch()

NUMBERS = [0.0, -0.0, 2.0, math.inf, -math.inf, math.nan, 1e30, 3e38, 1e300, 65504.0, 0, 3, 2 ** 62]
DTYPES = ["float16", "float32", "float64", "int8", "uint8", "int32", "int64", "bool"]

# x (a tensor of zeros, infinities, NaN and huge numbers) with v: a number, a tensor of v's,
# or a 0-d tensor holding v (lib: torch or minigrad)
OPERATORS = {
    "x + v": lambda x, v: x + v, "x - v": lambda x, v: x - v, "x * v": lambda x, v: x * v,
    "x / v": lambda x, v: x / v, "x ** v": lambda x, v: x ** v, "x // v": lambda x, v: x // v,
    "x % v": lambda x, v: x % v,
    "v + x": lambda x, v: v + x, "v - x": lambda x, v: v - x, "v * x": lambda x, v: v * x,
    "v / x": lambda x, v: v / x, "v ** x": lambda x, v: v ** x,
}
IN_PLACE = {
    "x += v": lambda x, v: x.__iadd__(v), "x -= v": lambda x, v: x.__isub__(v),
    "x *= v": lambda x, v: x.__imul__(v), "x /= v": lambda x, v: x.__itruediv__(v),
}
# the same products through functions (warnings only: some of their values have other known
# differences, signs of zeros in addcmul's fused multiply-add among them)
FUNCTIONS = {
    "mul": lambda lib, x, v: lib.mul(x, v), "mul_": lambda lib, x, v: x.clone().mul_(v),
    "div_": lambda lib, x, v: x.clone().div_(v), "add(alpha)": lambda lib, x, v: lib.add(x, v, alpha=3),
    "addcmul": lambda lib, x, v: lib.addcmul(x, x, x, value=v),
    "addcmul(v)": lambda lib, x, v: lib.addcmul(x, x, v) if isinstance(v, lib.Tensor) else x,
    "reciprocal": lambda lib, x, v: lib.reciprocal(x * v),
}


def _values(dtype):
    if dtype.startswith("float"):
        return [0.0, -0.0, 1.0, -3.0, math.inf, math.nan, 60000.0, 1e30]
    return [0, 1, 3, 5]


def _tensor(lib, values, dtype):
    with warnings.catch_warnings():       # (making the operands is not what is tested)
        warnings.simplefilter("ignore")
        return lib.tensor(values, dtype=lib.float64).to(getattr(lib, dtype))


def _outcome(lib, compute, dtype, number, kind, with_grad):
    """What ``compute(x, v)`` gives under ``lib``: the exception's class, or the result's dtype
    and values with the gradients of the inputs that require grad (NaN written as a string)."""
    x = _tensor(lib, _values(dtype), dtype)
    other = {"number": number, "tensor": _tensor(lib, [number] * len(_values(dtype)), dtype),
             "0-d tensor": _tensor(lib, number, dtype)}[kind]
    if with_grad:
        x.requires_grad_(True)
        if kind == "tensor":
            other.requires_grad_(True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = compute(x, other)
            if not with_grad or not out.requires_grad:
                return str(out.dtype), [repr(v) for v in out.tolist()]
            inputs = [t for t in (x, other) if isinstance(t, lib.Tensor) and t.requires_grad]
            grads = lib.autograd.grad(out.sum(), inputs)
    except Exception as error:      # noqa: BLE001 - the exception is what is compared
        return type(error).__name__
    return str(out.dtype), [repr(v) for v in out.tolist()], [[repr(v) for v in g.tolist()] for g in grads]


def _both(compute_with, dtype, number, kind, with_grad):
    return [_outcome(lib, compute_with(lib), dtype, number, kind, with_grad) for lib in (torch, minigrad)]


@pytest.mark.parametrize("kind", ["number", "tensor", "0-d tensor"])
@pytest.mark.parametrize("name", sorted(OPERATORS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_operators_with_special_values(name, dtype, kind):
    if name.startswith("v ") and kind != "number":
        return                            # (a tensor on the left is the forward form)
    for number in NUMBERS:
        for with_grad in ([False, True] if dtype.startswith("float") else [False]):
            expected, got = _both(lambda lib: OPERATORS[name], dtype, number, kind, with_grad)
            assert got == expected, (name, dtype, kind, number, with_grad)


@pytest.mark.parametrize("name", sorted(IN_PLACE))
@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place_operators_with_special_values(name, dtype):
    for kind in ("number", "0-d tensor"):
        for number in NUMBERS:
            expected, got = _both(lambda lib: IN_PLACE[name], dtype, number, kind, False)
            assert got == expected, (name, dtype, kind, number)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32"])
def test_products_through_functions_warn_as_pytorch(name, dtype):
    """Where PyTorch does not warn, minigrad does not either (its gradient included)."""
    for kind in ("number", "tensor"):
        for number in NUMBERS:
            for with_grad in ([False, True] if dtype.startswith("float") else [False]):
                outcomes = _both(lambda lib: lambda x, v: FUNCTIONS[name](lib, x, v), dtype, number, kind,
                                 with_grad)
                warned = [outcome == "RuntimeWarning" for outcome in outcomes]
                assert warned[1] == warned[0], (name, dtype, kind, number, with_grad, outcomes)


def test_the_gradient_of_a_product_with_inf_is_nan_silently():
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor([0.0, 2.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            (x * math.inf).sum().backward()
            (grad,) = lib.autograd.grad((x * x * math.inf).sum(), x, create_graph=True)
            grad.sum().backward()
        results.append([repr(v) for v in x.grad.tolist() + grad.tolist()])
    assert results[1] == results[0]


def test_silent_in_threads_and_in_a_function_the_arithmetic_runs():
    """minigrad's arithmetic runs numpy in a context where its warnings are off, which one
    thread at a time may enter, once: another thread inside it (numpy lets go of Python's lock
    for large arrays), or a function that runs there already, computes as quietly."""
    import threading
    from minigrad._ops.pointwise import _binary

    for lib in (torch, minigrad):
        x, caught = lib.zeros(300_000), []

        def work():
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                for _ in range(5):
                    (x * math.inf) + x / 0
            caught.extend(seen)
        threads = [threading.Thread(target=work) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert caught == [], lib.__name__

    def inner(a, b):        # (its own 0 * inf while the outer product runs in the quiet context)
        return (minigrad.tensor([0.0]) * math.inf)._array + a * b
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = _binary(inner, minigrad.tensor([2.0]), minigrad.tensor([3.0]))
    assert repr(out.tolist()) == "[nan]"


@pytest.mark.parametrize("form", ["a // b", "div floor", "div trunc", "a //= b"])
def test_bool_floor_division_reports_the_shapes_first(form):
    """Bools have no floor or trunc division, but shapes that do not broadcast are named first."""
    outcomes = []
    for lib in (torch, minigrad):
        a, b = lib.tensor([True, False]), lib.tensor([True, False, True])
        compute = {"a // b": lambda: a // b, "div floor": lambda: lib.div(a, b, rounding_mode="floor"),
                   "div trunc": lambda: lib.div(a, b, rounding_mode="trunc"),
                   "a //= b": lambda: a.floor_divide_(b)}[form]
        with pytest.raises(Exception) as caught:
            compute()
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[1] == outcomes[0]


_SPECIAL = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["dot", "vdot", "inner", "@"])
def test_dot_products_of_one_element_sum_from_plus_zero(name, dtype):
    """PyTorch's dot and vdot add the products to a sum that starts at +0, so the one product
    -0.0 gives +0.0 (found by the random-program test)."""
    import numpy as np

    def run(lib):
        kind = getattr(lib, dtype)
        results = []
        for first, second in [([-0.0], [1.0]), ([0.0], [-1.0]), ([-0.0], [-0.0]), ([-0.0, -0.0], [1.0, 1.0]),
                              ([-1.5], [2.0]), ([math.nan], [1.0]), ([-math.inf], [0.5])]:
            a, b = lib.tensor(first, dtype=kind), lib.tensor(second, dtype=kind)
            results.append(getattr(lib, name)(a, b) if name != "@" else a @ b)
        return results

    for theirs, ours in zip(run(torch), run(minigrad)):
        assert str(ours.dtype) == str(theirs.dtype)
        assert np.array_equal(theirs.numpy().reshape(1).view(np.uint8), ours.numpy().reshape(1).view(np.uint8))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["addcmul", "addcdiv", "lerp", "lerp(tensor weight)"])
def test_fused_multiply_adds_keep_the_signs_of_zeros_and_nans(name, dtype):
    """addcmul, addcdiv and lerp add a product to a tensor in one fused step, as PyTorch's
    kernels: an exact 0 keeps the sign the CPU gives it, and a NaN from inf - inf its sign."""
    import itertools
    import numpy as np

    def run(lib):
        kind = getattr(lib, dtype)
        # (where two NaNs meet, which one's sign the result keeps depends on the order of the
        # CPU's operands, not followed: a NaN input with a NaN product, a NaN factor with a NaN
        # from value 0 times inf, a NaN lerp weight with a NaN difference (inf - inf))
        def two_nans_meet(a, b, c):
            if name.startswith("add"):
                return math.isnan(a) or (math.isnan(c) and math.isinf(b))
            return math.isnan(c) and math.isnan(b - a)
        rows = [row for row in itertools.product(_SPECIAL, repeat=3) if not two_nans_meet(*row)]
        first, second, third = (lib.tensor(column, dtype=kind) for column in zip(*rows))
        if name == "lerp":
            return [lib.lerp(first, second, w) for w in (0.0, -0.0, 0.3, 0.5, 1.0, 2.0, -1.0, math.inf)]
        if name == "lerp(tensor weight)":
            return [lib.lerp(first, second, third)]
        return [getattr(lib, name)(first, second, third, value=v) for v in (1, -1, 0.5, 0.0, -0.0)]

    for theirs, ours in zip(run(torch), run(minigrad)):
        assert np.array_equal(theirs.numpy().view(np.uint8), ours.numpy().view(np.uint8))


@pytest.mark.parametrize("exponent", [-2 ** 63, 2 ** 63 - 1, -2 ** 62, 3, True])
def test_the_gradient_of_a_power_takes_the_exponent_as_a_float(exponent):
    """PyTorch's pow backward computes with the exponent as a double: x ** -2**63 has a
    gradient (minigrad's int exponent - 1 overflowed), and create_graph records float powers."""
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor([2.0, 0.5, 1.0, 0.0], dtype=lib.float64, requires_grad=True)
        (grad,) = lib.autograd.grad((x ** exponent).sum(), x, create_graph=True)
        nodes, seen = [grad.grad_fn], []
        while nodes:                             # (every node of the gradient's graph)
            node = nodes.pop()
            seen.append((node.name(), repr(getattr(node, "_saved_exponent", None))))
            nodes.extend(next_node for next_node, _ in node.next_functions if next_node is not None)
        results.append((grad.detach().numpy().tobytes(), seen))
    assert results[0] == results[1]
