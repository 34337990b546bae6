"""``torch.xxx(..., out=t)`` in minigrad against real PyTorch (minigrad/_out.py).

Each function runs in both libraries on the same numpy data, with ``out`` tensors
of every kind (empty, the right shape, the wrong shape, other dtypes, a view, an
input, one that requires grad), and the test compares what a learner sees: the
returned object (``out`` itself), values, dtype, shape, strides, ``_version``,
warnings, and exception classes with PyTorch's own text.
"""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad._out import OUT_RULES, NAMED_OUTS


def data(lib, shape=(2, 3), dtype="float32", seed=0, positive=False):
    rng = np.random.default_rng(seed)
    array = rng.uniform(0.1, 0.9, shape) if positive else rng.standard_normal(shape)
    return lib.tensor(array.astype(dtype))


def mask(lib):
    return data(lib) > 0


UNARY = ("exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "abs",
         "square", "reciprocal", "sign", "neg", "negative", "expm1", "log2", "log10", "exp2",
         "asin", "acos", "atan", "sinh", "cosh", "asinh", "atanh", "erf", "erfc", "erfinv",
         "floor", "ceil", "trunc", "round", "frac", "fix", "sinc", "deg2rad", "rad2deg",
         "lgamma", "digamma", "signbit", "logical_not", "nan_to_num", "logit", "isposinf",
         "isneginf", "arcsin", "arccos", "arctan", "arcsinh", "arctanh")
BINARY = ("add", "sub", "mul", "div", "true_divide", "subtract", "multiply", "divide", "pow",
          "remainder", "fmod", "floor_divide", "maximum", "minimum", "atan2", "arctan2", "hypot",
          "copysign", "logaddexp", "logaddexp2", "fmax", "fmin", "xlogy", "eq", "ne", "lt", "le",
          "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal",
          "logical_and", "logical_or", "logical_xor")

def _warned_once(function, *args):
    """Call ``function`` once, and once with out=, its warnings silenced (a warning given once
    per process is then given, in both libraries, before the call the test compares)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = function(*args)
        function(*args, out=out.detach().clone())


# name -> the arguments (built the same way in both libraries)
CASES = {
    **{name: lambda lib: (data(lib, positive=True),) for name in UNARY},
    **{name: lambda lib: (data(lib, positive=True), data(lib, seed=1, positive=True))
       for name in BINARY},
    "acosh": lambda lib: (data(lib, positive=True) + 1,),
    "arccosh": lambda lib: (data(lib, positive=True) + 1,),
    "sum": lambda lib: (data(lib), 0),
    "mean": lambda lib: (data(lib), 1),
    "nansum": lambda lib: (data(lib), 1),
    "nonzero": lambda lib: (mask(lib),),
    "prod": lambda lib: (data(lib), 1),
    "amax": lambda lib: (data(lib), 1),
    "amin": lambda lib: (data(lib), 1),
    "argmax": lambda lib: (data(lib), 1),
    "argmin": lambda lib: (data(lib), 1),
    "all": lambda lib: (mask(lib), 1),
    "any": lambda lib: (mask(lib), 1),
    "std": lambda lib: (data(lib), 1),
    "var": lambda lib: (data(lib), 1),
    "cumsum": lambda lib: (data(lib), 1),
    "cumprod": lambda lib: (data(lib), 1),
    "max": lambda lib: (data(lib), 1),
    "min": lambda lib: (data(lib), 1),
    "sort": lambda lib: (data(lib), 1),
    "median": lambda lib: (data(lib), 1),
    "nanmedian": lambda lib: (data(lib), 1),
    "kthvalue": lambda lib: (data(lib), 2, 1),
    "mode": lambda lib: (lib.tensor([[1.0, 2.0, 2.0], [3.0, 3.0, 0.0]]), 1),
    "cummax": lambda lib: (data(lib), 1),
    "cummin": lambda lib: (data(lib), 1),
    "logsumexp": lambda lib: (data(lib), 1),
    "take": lambda lib: (data(lib), lib.tensor([4, 0])),
    "topk": lambda lib: (data(lib), 2),
    "matmul": lambda lib: (data(lib), data(lib, (3, 4), seed=1)),
    "mm": lambda lib: (data(lib), data(lib, (3, 4), seed=1)),
    "bmm": lambda lib: (data(lib, (2, 2, 3)), data(lib, (2, 3, 4), seed=1)),
    "mv": lambda lib: (data(lib), data(lib, (3,), seed=1)),
    "dot": lambda lib: (data(lib, (3,)), data(lib, (3,), seed=1)),
    "outer": lambda lib: (data(lib, (3,)), data(lib, (2,), seed=1)),
    "addmm": lambda lib: (data(lib, (2, 4)), data(lib), data(lib, (3, 4), seed=1)),
    "addmv": lambda lib: (data(lib, (2,)), data(lib), data(lib, (3,), seed=1)),
    "baddbmm": lambda lib: (data(lib, (2, 2, 4)), data(lib, (2, 2, 3)), data(lib, (2, 3, 4), seed=1)),
    "addcmul": lambda lib: (data(lib), data(lib, seed=1), data(lib, seed=2)),
    "addcdiv": lambda lib: (data(lib), data(lib, seed=1), data(lib, seed=2, positive=True)),
    "lerp": lambda lib: (data(lib), data(lib, seed=1), 0.3),
    "addr": lambda lib: (data(lib), data(lib, (2,), seed=1), data(lib, (3,), seed=2)),
    "polygamma": lambda lib: (1, data(lib, positive=True)),
    "i0": lambda lib: (data(lib),), "mvlgamma": lambda lib: (data(lib, positive=True) + 2, 2),
    "heaviside": lambda lib: (data(lib), data(lib, seed=1)),
    "float_power": lambda lib: (data(lib, positive=True), data(lib, seed=1)),
    "take_along_dim": lambda lib: (data(lib), lib.tensor([[2, 0], [1, 1]]), 1),
    "cat": lambda lib: ([data(lib), data(lib, seed=1)],),
    "concat": lambda lib: ([data(lib), data(lib, seed=1)], 1),
    "stack": lambda lib: ([data(lib), data(lib, seed=1)],),
    "where": lambda lib: (mask(lib), data(lib), data(lib, seed=1)),
    "clamp": lambda lib: (data(lib), -0.5, 0.5),
    "clip": lambda lib: (data(lib), -0.5, 0.5),
    "clamp_min": lambda lib: (data(lib), -0.5),
    "clamp_max": lambda lib: (data(lib), 0.5),
    "softmax": lambda lib: (data(lib), 1),
    "log_softmax": lambda lib: (data(lib), 1),
    "index_select": lambda lib: (data(lib), 1, lib.tensor([2, 0])),
    "gather": lambda lib: (data(lib), 1, lib.tensor([[2, 0], [1, 1]])),
    "masked_select": lambda lib: (data(lib), mask(lib)),
    "tril": lambda lib: (data(lib),),
    "triu": lambda lib: (data(lib),),
    "diag": lambda lib: (data(lib, (3, 3)),),
    "index_add": lambda lib: (data(lib), 1, lib.tensor([2, 0]), data(lib, (2, 2))),
    "scatter": lambda lib: (data(lib), 1, lib.tensor([[2, 0], [1, 1]]), data(lib, (2, 2))),
    "scatter_add": lambda lib: (data(lib), 1, lib.tensor([[2, 0], [1, 1]]), data(lib, (2, 2))),
    "norm": lambda lib: (data(lib),),
    "zeros": lambda lib: (2, 3),
    "ones": lambda lib: ((2, 3),),
    "full": lambda lib: ((2, 3), 1.5),
    "arange": lambda lib: (5,),
    "rand": lambda lib: (2, 3),
    "randn": lambda lib: (2, 3),
    "bernoulli": lambda lib: (data(lib, positive=True),),
    "normal": lambda lib: (data(lib), data(lib, seed=1, positive=True)),
    "randint": lambda lib: (5, (2, 3)),
    "randperm": lambda lib: (5,),
    "eye": lambda lib: (3,),
    "linspace": lambda lib: (0, 1, 5),
    "empty": lambda lib: (2, 3),
    **{name: lambda lib: (lib.tensor([[12, -18, 5], [0, 7, 255]]), lib.tensor([[8, 12, 3], [0, -21, 2]]))
       for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                    "bitwise_right_shift", "gcd", "lcm")},
    "bitwise_not": lambda lib: (lib.tensor([[12, -18, 5], [0, 7, 255]]),),
    **{name: lambda lib: (data(lib),) for name in ("angle", "sgn", "absolute", "conj_physical")},
    "ldexp": lambda lib: (data(lib), lib.tensor([[1, -2, 3], [0, 2, -1]])),
    "nextafter": lambda lib: (data(lib), data(lib, seed=1)),
    **{name: lambda lib: (data(lib, positive=True) + 1, data(lib, seed=1, positive=True)) for name in ("igamma", "igammac")},
    # products composed of others (minigrad/_ops/products.py)
    "kron": lambda lib: (data(lib), data(lib, (2, 2), seed=1)),
    "addbmm": lambda lib: (data(lib, (2, 4)), data(lib, (2, 2, 3)), data(lib, (2, 3, 4), seed=1)),
    "tensordot": lambda lib: (data(lib), data(lib, (3, 4), seed=1), 1),
    "inner": lambda lib: (data(lib), data(lib, (4, 3), seed=1)),
    "vdot": lambda lib: (data(lib, (3,)), data(lib, (3,), seed=1)),
    # (chain_matmul's deprecation warnings come once per process: given here, before the
    # compared call; ger's out= variant warns at every call)
    "ger": lambda lib: (data(lib, (3,)), data(lib, (2,), seed=1)),
    "chain_matmul": lambda lib: (_warned_once(lib.chain_matmul, data(lib), data(lib, (3, 4))),
                                 data(lib), data(lib, (3, 4), seed=1), data(lib, (4, 2), seed=2))[1:],
    "quantile": lambda lib: (data(lib), 0.3, 1),
    "nanquantile": lambda lib: (data(lib), 0.3, 1),
    "msort": lambda lib: (data(lib),),
    "histc": lambda lib: (data(lib), 4),
    "diff": lambda lib: (data(lib),),
    "renorm": lambda lib: (data(lib), 2, 0, 1.0),
    "scatter_reduce": lambda lib: (data(lib), 1, lib.tensor([[2, 0], [1, 1]]), data(lib, (2, 2)), "prod"),
    "index_reduce": lambda lib: (data(lib), 1, lib.tensor([2, 0]), data(lib, (2, 2)), "amax"),
    "searchsorted": lambda lib: (lib.tensor([-0.5, 0.0, 0.5]), data(lib)),
    "bucketize": lambda lib: (data(lib), lib.tensor([-0.5, 0.0, 0.5])),
}
# (its values are whatever out held: compared in test_special_cases only)
VALUES_UNDEFINED = ("empty",)
WITH_VALUES = [name for name in CASES if name not in VALUES_UNDEFINED]
PAIRS = ("max", "min", "sort", "topk", "median", "nanmedian", "kthvalue", "mode", "cummax",
         "cummin")                             # out=(values, indices)
CREATION = ("zeros", "ones", "full", "arange", "rand", "randn", "randint", "randperm", "eye",
            "linspace", "empty")
KEYWORDS = {"norm": {"dim": 1}}


# (the linear-algebra functions' out= is compared in test_linalg_more_vs_torch.py)
LINALG = {name for name in OUT_RULES if name.startswith("linalg_")} | set(NAMED_OUTS) | {
    "inverse", "matrix_power", "cholesky", "cholesky_solve", "cholesky_inverse", "lu_solve", "cross",
    "geqrf"}


def test_every_function_with_out_is_tested():
    assert set(OUT_RULES) - LINALG <= set(CASES)


def _message(error):
    """An exception as a learner reads it (minigrad's extra hint lines left out)."""
    text = "\n".join(line for line in str(error).split("\n") if not line.startswith("minigrad hint:"))
    return type(error).__name__, text


def _warning_text(w):
    return str(w.message).split(" (Triggered internally at ")[0]


def _warning_place(w):
    """The file a warning names: the learner's (PyTorch's own Python files, as torch.norm is,
    count as the caller: minigrad names the learner's line there too)."""
    return __file__ if "site-packages/torch/" in w.filename else w.filename


def call(lib, name, make_out, *, grad=True, args=None):
    """Run ``lib.name(*args, out=make_out(lib, result))``; what a learner would see."""
    lib.manual_seed(0)
    args = CASES[name](lib) if args is None else args(lib)
    reference = getattr(lib, name)(*args, **KEYWORDS.get(name, {}))
    lib.manual_seed(0)
    out = make_out(lib, reference)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with lib.set_grad_enabled(grad):
                returned = getattr(lib, name)(*args, **KEYWORDS.get(name, {}), out=out)
        except Exception as error:      # noqa: BLE001 (the error is what is compared)
            return {"error": _message(error)}
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    seen = {
        "warnings": [(w.category.__name__, _warning_text(w), _warning_place(w)) for w in caught],
        "returned is out": all(r is o for r, o in zip(returned, outs)) if len(outs) > 1
        else returned is out,
        "type": type(returned).__name__,
        "version": [o._version for o in outs],
        "dtype": [str(o.dtype).split(".")[-1] for o in outs],
        "shape": [tuple(o.shape) for o in outs],
        "stride": [o.stride() for o in outs],
        "values": [o.detach().numpy().copy() for o in outs],
    }
    if len(outs) > 1:
        seen["fields"] = (returned.values is outs[0], returned.indices is outs[1])
    return seen


def assert_same(ours, theirs, float32_digits=False):
    """Same outcome; ``float32_digits``: values compared to float32's precision whatever the dtype
    (PyTorch computes float32 inputs into a float64 out with other kernels: see the README)."""
    assert ("error" in ours) == ("error" in theirs), (ours, theirs)
    if "error" in theirs:
        assert ours["error"] == theirs["error"]
        return
    ours_values, theirs_values = ours.pop("values"), theirs.pop("values")
    assert ours == theirs
    for mine, expected in zip(ours_values, theirs_values):
        tolerance = 1e-6 if expected.dtype == np.float32 or float32_digits else 1e-12
        np.testing.assert_allclose(mine, expected, rtol=tolerance, atol=tolerance)


def like(lib, result, dtype=None, shape=None):
    """An out tensor for ``result`` (or each of a pair), of ``dtype`` and ``shape`` if given."""
    if isinstance(result, tuple):
        return tuple(like(lib, r, dtype if i == 0 else None, shape) for i, r in enumerate(result))
    return lib.zeros(result.shape if shape is None else shape,
                     dtype=result.dtype if dtype is None else getattr(lib, dtype))


SHAPES = {"empty": (0,), "right": None, "wrong": (5,), "scalar": ()}


# An out of the wrong size is resized, and when it had elements the tensors over its memory are
# looked for among all live objects (minigrad/_ops/resize.py): every function with every kind
# (cheap since the test run's imported heap is kept out of that search: tests/conftest.py).
@pytest.mark.parametrize("name, kind", [(name, kind) for name in WITH_VALUES for kind in SHAPES])
def test_result_written_into_out(torch, name, kind):
    """The same tensor comes back holding the result, one version later; an out of another
    shape is resized, with PyTorch's warning unless it was empty."""
    make_out = lambda lib, result: like(lib, result, shape=SHAPES[kind])      # noqa: E731
    assert_same(call(minigrad, name, make_out), call(torch, name, make_out))


DTYPES = ("float32", "float64", "int64", "int32", "bool")


# (ldexp into float64 is left out: PyTorch fails an internal assert there, Loops.h's
# needs_dynamic_casting, which is nothing to compare with)
@pytest.mark.parametrize("name, dtype", [(name, dtype) for name in WITH_VALUES for dtype in DTYPES
                                         if (name, dtype) != ("ldexp", "float64")])
def test_out_of_another_dtype(torch, name, dtype):
    """Each function's own rule: cast into out, compute in out's dtype, or refuse (PyTorch's text)."""
    make_out = lambda lib, result: like(lib, result, dtype, shape=(0,))       # noqa: E731
    assert_same(call(minigrad, name, make_out), call(torch, name, make_out), float32_digits=True)


@pytest.mark.parametrize("dtype", ("int32", "float32"))
@pytest.mark.parametrize("name", PAIRS)
def test_indices_of_another_dtype(torch, name, dtype):
    def make_out(lib, result):
        return lib.empty(0), lib.empty(0, dtype=getattr(lib, dtype))
    assert_same(call(minigrad, name, make_out), call(torch, name, make_out))


@pytest.mark.parametrize("name", [n for n in CASES if n not in CREATION])
def test_autograd_refuses_out_when_an_input_requires_grad(torch, name):
    def requiring_grad(lib):
        args = CASES[name](lib)
        first = args[0][0] if isinstance(args[0], list) else args[0]
        if not isinstance(first, lib.Tensor):      # polygamma(n, input)
            first = args[1]
        if first.is_floating_point():
            first.requires_grad_()
        else:
            args = tuple(a.requires_grad_() if isinstance(a, lib.Tensor) and a.is_floating_point()
                         else a for a in args)
        return args
    make_out = lambda lib, result: like(lib, result, shape=(0,))      # noqa: E731
    for grad in (True, False):       # under no_grad it works
        assert_same(call(minigrad, name, make_out, grad=grad, args=requiring_grad),
                    call(torch, name, make_out, grad=grad, args=requiring_grad))


@pytest.mark.parametrize("name", ["add", "exp", "sum", "matmul", "cat", "max", "where", "clamp",
                                  "zeros", "ones", "full", "arange", "rand", "randn", "randint",
                                  "eye", "linspace", "randperm", "empty"])
@pytest.mark.parametrize("grad", [True, False])
def test_out_that_requires_grad(torch, name, grad):
    """A leaf out that requires grad: refused while recording, written under no_grad."""
    def make_out(lib, result):
        out = like(lib, result, "float32" if name in CREATION else None, shape=(0,))
        (out[0] if isinstance(out, tuple) else out).requires_grad_()
        return out
    ours, theirs = call(minigrad, name, make_out, grad=grad), call(torch, name, make_out, grad=grad)
    assert_same(ours, theirs)


@pytest.mark.parametrize("name, position", [
    ("exp", 0), ("neg", 0), ("abs", 0), ("sigmoid", 0), ("add", 0), ("add", 1), ("mul", 1),
    ("div", 0), ("clamp", 0), ("where", 1), ("where", 2), ("cumsum", 0), ("softmax", 0),
    ("addmm", 0), ("lerp", 1), ("addcmul", 0)])
def test_out_is_an_input(torch, name, position):
    """torch.add(x, 1, out=x): the result replaces the input's values, one version later."""
    def run(lib):
        args = CASES[name](lib)
        if name == "addmm":
            args = (data(lib, (3, 3)), data(lib, (3, 3), seed=1), data(lib, (3, 3), seed=2))
        target = args[position]
        returned = getattr(lib, name)(*args, out=target)
        return returned is target, target._version, target.detach().numpy().copy()
    ours, theirs = run(minigrad), run(torch)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("call_text", [
    "lib.add(x * 2, 1, out=lib.empty(0))",
    "lib.neg(x, out=(x * 2)[0])",
    "lib.cat([lib.ones(2), x[0]], out=lib.empty(0))",
    "lib.mm(x.t(), x, out=lib.empty(0))",
    "lib.sum(x[1], 0, out=lib.empty(0))",
])
def test_autograd_sees_tensors_computed_from_ones_that_require_grad(torch, call_text):
    def run(lib, grad):
        x = lib.ones(2, 3, requires_grad=True)
        try:
            with lib.set_grad_enabled(grad), warnings.catch_warnings():
                warnings.simplefilter("ignore")          # (the resize warning: tested above)
                out = eval(call_text)
        except RuntimeError as error:
            return _message(error)
        return out.tolist(), out.requires_grad, out.grad_fn
    for grad in (True, False):
        assert run(minigrad, grad) == run(torch, grad)


def test_partial_overlap_with_an_input_is_refused(torch):
    for lib in (minigrad, torch):
        x = lib.arange(6.)
        with pytest.raises(RuntimeError) as caught:
            lib.add(x[:3], 1, out=x[1:4])
        assert str(caught.value) == (
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")


@pytest.mark.parametrize("call_text", [
    "lib.cat([x, y], out=x)", "lib.cat([y, x[1:]], out=x)", "lib.concat([y, x], out=x)",
    "lib.index_select(x, 0, lib.tensor([1, 0]), out=x)",
    "lib.gather(x, 0, lib.tensor([1, 0]), out=x)",
    "lib.where(x > 0, x, y, out=x)", "lib.clamp(x, y, y, out=y)", "lib.cumsum(x, 0, out=x)",
    "lib.softmax(x, 0, out=x)", "lib.sort(x, out=(x, lib.empty(0, dtype=lib.long)))",
    "lib.add(x, 1, out=x.unsqueeze(1).expand(3, 2))",
])
def test_out_sharing_memory_with_an_input(torch, call_text):
    """cat, gather and index_select refuse any overlap; elementwise ones only a partial one."""
    def run(lib):
        x, y = lib.tensor([1.0, -2.0, 3.0]), lib.tensor([4.0, 5.0, -6.0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                eval(call_text)
            except RuntimeError as error:
                return _message(error), [_warning_text(w) for w in caught], tuple(x.shape)
        return x.tolist(), y.tolist(), x._version, y._version, [_warning_text(w) for w in caught]
    assert run(minigrad) == run(torch)


def test_inference_tensor_as_out(torch):
    def run(lib):
        with lib.inference_mode():
            out = lib.ones(2)
            lib.add(lib.ones(2), 1, out=out)         # fine inside inference_mode
        try:
            lib.add(lib.ones(2), 1, out=out)
        except RuntimeError as error:
            return out.tolist(), _message(error)
    assert run(minigrad) == run(torch)


def test_out_that_is_a_view_writes_into_its_base(torch):
    def run(lib):
        base = lib.zeros(2, 3)
        row, column = base[0], base[:, 1]
        lib.add(lib.ones(3), 1, out=row)
        lib.mul(lib.ones(2), 5, out=column)
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            resized = base[1]
            lib.add(lib.ones(1, 3), 2, out=resized)       # the view is resized within its base
        transposed = lib.zeros(2, 3).t()
        lib.add(lib.ones(3, 2), 1, out=transposed)
        return (base.tolist(), base._version, tuple(resized.shape), resized.stride(),
                transposed.tolist(), transposed.stride())
    assert run(minigrad) == run(torch)


def test_resized_out_takes_the_results_layout(torch):
    def run(lib):
        x = lib.tensor(np.arange(6.0).reshape(3, 2)).t()
        out = lib.empty(0)
        lib.exp(x, out=out)
        return out.stride(), tuple(out.shape)
    assert run(minigrad) == run(torch)


def test_resize_warning_text_and_place(torch):
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning) as caught:
            lib.add(lib.ones(2, 3), 1, out=lib.empty(5))
        assert _warning_text(caught[0]) == (
            "An output with one or more elements was resized since it had shape [5], which does not "
            "match the required output shape [2, 3]. This behavior is deprecated, and in a future "
            "PyTorch release outputs will not be resized unless they have zero elements. You can "
            "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
            "t.resize_(0).")
        assert caught[0].filename == __file__


@pytest.mark.parametrize("call_text", [
    "lib.sum(lib.ones(3), 0, dtype=lib.float64, out=lib.empty(0))",
    "lib.sum(lib.ones(3), 0, dtype=lib.float64, out=lib.empty(0, dtype=lib.float64))",
    "lib.cumsum(lib.ones(3), 0, dtype=lib.float64, out=lib.empty(0))",
    "lib.mean(lib.ones(3), 0, dtype=lib.float64, out=lib.empty(0))",
    "lib.zeros(2, dtype=lib.float64, out=lib.empty(0))",
    "lib.ones(2, dtype=lib.float64, out=lib.empty(0, dtype=lib.long))",
    "lib.arange(3, dtype=lib.float64, out=lib.empty(0, dtype=lib.float64))",
    "lib.full((2,), 1.7, out=lib.empty(0, dtype=lib.long))",
    "lib.sum(lib.tensor([1.6, 1.6, 0.3]), 0, out=lib.empty(0, dtype=lib.long))",
    "lib.cumsum(lib.tensor([1.6, 1.6, 0.3]), 0, out=lib.empty(0, dtype=lib.long))",
    "lib.mean(lib.tensor([0.1, 0.2, 0.7]), 0, out=lib.empty(0, dtype=lib.float64))",
    "lib.add(lib.ones(2), 1, out=[lib.empty(0)])",
    "lib.max(lib.ones(2), 0, out=(lib.empty(0),))",
    "lib.max(lib.ones(2), 0, out=lib.empty(0))",
    "lib.max(lib.ones(2), out=lib.empty(0))",
    "lib.max(lib.ones(2), lib.ones(2), out=lib.empty(0))",
    "lib.matmul(lib.ones(2), lib.ones(2), out=lib.empty(0, dtype=lib.float64))",
    "lib.add(lib.ones(2), 1, out=lib.ones(1).expand(2))",
    "lib.add(lib.ones(2), 1, out=None)",
    "lib.sum(lib.ones(2), out=lib.empty(0))",
    "lib.add(lib.tensor([1, 2]), lib.tensor([3, 4]), out=lib.empty(0))",
    "lib.add(lib.ones(2), 1, alpha=3, out=lib.empty(0, dtype=lib.float64))",
    "lib.neg(lib.tensor([1, 2]), out=lib.empty(0))",
    "lib.sqrt(lib.tensor([2, 3]), out=lib.empty(0, dtype=lib.float64))",
    "lib.div(lib.tensor([1, 2]), 2, out=lib.empty(0, dtype=lib.long))",
    "lib.eq(lib.ones(2), 1, out=lib.empty(0))",
    "lib.clamp(lib.tensor([1, 2]), 0.5, 1, out=lib.empty(0))",
    "lib.clamp(lib.tensor([1, 2]), 0, 1, out=lib.empty(0))",
    "lib.empty(2, 3, out=lib.full((2, 3), 7.0))",
    "lib.empty((2, 3), dtype=lib.float64, out=lib.full((2, 3), 7.0))",
    "lib.empty(3, out=lib.full((2, 3), 7.0))",
    "lib.empty(2, 3, out=lib.full((6,), 7.0))",
    # baddbmm lays out its result in batch2's dtype before its kernel compares the batches' dtypes
    "lib.baddbmm(lib.ones(2, 2, 2), lib.ones(2, 2, 3), lib.ones(2, 3, 2, dtype=lib.float64), out=lib.empty(0))",
    "lib.baddbmm(lib.ones(2, 2, 2), lib.ones(2, 2, 3), lib.ones(2, 3, 2, dtype=lib.long), out=lib.empty(0))",
    "lib.baddbmm(lib.ones(2, 2, 2), lib.ones(2, 2, 3), lib.ones(2, 3, 2, dtype=lib.float64), "
    "out=lib.empty(0, dtype=lib.float64))",
    "lib.baddbmm(lib.ones(2, 1, 2, dtype=lib.long), lib.ones(2, 2, 0, dtype=lib.long), lib.ones(2, 0, 2), "
    "out=lib.empty(0, dtype=lib.long))",
    "lib.baddbmm(lib.ones(3, 2, 2), lib.ones(2, 2, 3), lib.ones(2, 3, 2, dtype=lib.float64), out=lib.empty(0))",
    "lib.baddbmm(lib.ones(2, 2, 2), lib.ones(2, 2, 3), lib.ones(2, 2, 2, dtype=lib.float64), out=lib.empty(0))",
])
def test_special_cases(torch, call_text):
    def run(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                result = eval(call_text)
            except Exception as error:      # noqa: BLE001
                return _message(error)[0], _message(error)[1].split("\n")[0]
        if isinstance(result, tuple):
            return [r.tolist() for r in result]
        return result.tolist(), str(result.dtype).split(".")[-1], result._version
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("call_text", [
    "lib.relu(x, out=x)", "lib.clone(x, out=x)", "lib.reshape(x, (6,), out=x)", "lib.t(x, out=x)",
    "lib.transpose(x, 0, 1, out=x)", "lib.numel(x, out=x)", "lib.flip(x, (0,), out=x)",
    "lib.roll(x, 1, 0, out=x)", "lib.isnan(x, out=x)", "lib.positive(x, out=x)",
    "lib.isfinite(x, out=x)", "lib.trace(x, out=x)", "lib.squeeze(x, out=x)",
    "lib.relu(x, out=None)", "lib.nn.functional.relu(x, out=x)",
    "lib.nn.functional.softmax(x, 0, out=x)", "x.add(x, out=x)", "x.sum(0, out=x)",
])
def test_functions_without_out(torch, call_text):
    """Functions whose PyTorch signature has no out= refuse it, in PyTorch's words."""
    def run(lib):
        x = lib.ones(2, 3)
        with pytest.raises(TypeError) as caught:
            eval(call_text)
        return str(caught.value).split("\n")[0]
    assert run(minigrad) == run(torch)


def test_named_pair(torch):
    def run(lib):
        values, indices = lib.empty(0), lib.empty(0, dtype=lib.long)
        returned = lib.max(lib.tensor([[1.0, 3.0], [2.0, 0.0]]), 1, out=(values, indices))
        return (type(returned).__name__, returned.values is values, returned.indices is indices,
                returned[0] is values, values.tolist(), indices.tolist())
    assert run(minigrad) == run(torch)
