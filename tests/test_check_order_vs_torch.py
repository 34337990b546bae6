"""Which mistake PyTorch reports first, when a call has several.

A learner's first model often mixes dtypes (a float64 batch from numpy into a float32 layer),
shapes and dims at once. PyTorch checks them in an order of its own for each operation, and its
message names the first failing check; minigrad must name the same one, word for word. Each
test below runs a grid of wrong (and right) calls under both libraries: the matrix products
behind ``nn.Linear`` (``addmm``, ``linear``, ``matmul``, ``addmv``), the convolutions (plain and
transposed), ``batch_norm`` (training and eval) and ``layer_norm``/``group_norm``/``rms_norm``/
``instance_norm``. The grids are sampled with a fixed seed so that the file stays quick.
"""
import itertools
import random
import warnings

import pytest

import minigrad


def outcome(call):
    """'ok', or the exception's class and PyTorch's part of its message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except Exception as error:          # noqa: BLE001 (every exception is compared)
        return f"{type(error).__name__}: {str(error).split(chr(10) + 'minigrad hint')[0]}"
    return "ok"


def sample(cases, count, seed):
    cases = list(cases)
    return random.Random(seed).sample(cases, min(count, len(cases)))


def ones(lib, shape, dtype):
    return None if shape is None else lib.ones(*shape, dtype=getattr(lib, dtype))


# --- matrix products ------------------------------------------------------------------------

def _product_call(name, lib, bias, mat1, mat2):
    if name == "addmm":
        return lib.addmm(bias, mat1, mat2) if bias is not None else lib.mm(mat1, mat2)
    if name == "linear":
        return lib.nn.functional.linear(mat1, mat2.t() if mat2.ndim == 2 else mat2, bias)
    if name == "matmul":
        return lib.matmul(mat1, mat2)
    return lib.addmv(bias, mat2, mat1) if bias is not None else lib.mv(mat2, mat1)


PRODUCT_CASES = sample(itertools.product(
    ["addmm", "linear", "matmul", "addmv"], ["float32", "float64", "int64"], ["float32", "float64"],
    [None, "float32", "float64"], [(2,), (1, 3), (1, 2), (2, 1, 3)], [(3, 2), (2, 2), (3,)], [(2,), (5,)]),
    400, 0)


@pytest.mark.parametrize("name, d1, d2, db, s1, s2, sb", PRODUCT_CASES)
def test_matrix_product_checks(torch, name, d1, d2, db, s1, s2, sb):
    def run(lib):
        bias = None if db is None else ones(lib, sb, db)
        return outcome(lambda: _product_call(name, lib, bias, ones(lib, s1, d1), ones(lib, s2, d2)))
    assert run(minigrad) == run(torch)


def operand(lib, shape, dtype, made):
    """A tensor of ones made as a program might make it: in inference mode, as a view made under
    no_grad of a leaf that requires grad, or as a recorded result."""
    dtype = getattr(lib, dtype)
    if made == "inference":
        with lib.inference_mode():
            return lib.ones(shape, dtype=dtype)
    leaf = lib.ones(shape, dtype=dtype, requires_grad=dtype.is_floating_point)
    if made == "no_grad view":
        with lib.no_grad():
            return leaf[...]
    return leaf * 1


MATMUL_OPERAND_CASES = sample(itertools.product(
    [(2,), (3, 2), (2, 1, 2), (2, 3, 1), (3,), (1, 3, 2), (2, 2, 3, 1), (2, 0, 3)],
    [(2,), (1, 2), (2, 3, 1), (2, 3), (1, 3, 2), (2, 2, 3, 1)],
    [("inference", "no_grad view"), ("no_grad view", "inference"), ("inference", "recorded"),
     ("recorded", "inference"), ("no_grad view", "recorded")],
    [("float32", "float32"), ("float32", "float64"), ("float32", "bool")]), 300, 2)


@pytest.mark.parametrize("s1, s2, made, dtypes", MATMUL_OPERAND_CASES)
def test_matmul_saves_an_operand_before_checking_sizes_and_dtypes(torch, s1, s2, made, dtypes):
    """matmul folds, expands and reshapes its operands (recorded views: a view made under
    no_grad gets an edge that way) before mm, mv or bmm saves each operand for the other's
    gradient: an inference operand is refused before the sizes or the dtypes are compared
    (found by the random-program test)."""
    def run(lib):
        return outcome(lambda: operand(lib, s1, dtypes[0], made[0]) @ operand(lib, s2, dtypes[1], made[1]))
    assert run(minigrad) == run(torch)


# --- convolutions ---------------------------------------------------------------------------

CONVOLUTIONS = {"conv1d": (3, 2, 2), "conv2d": (3, 2, 2, 2), "conv3d": (3, 2, 2, 2, 2),
                "conv_transpose1d": (2, 3, 2), "conv_transpose2d": (2, 3, 2, 2)}
CONVOLUTION_CASES = sample(itertools.product(
    CONVOLUTIONS, [(2, 3), (1, 2, 4, 4), (2, 4, 4), (1, 1, 2, 4, 4), (1, 3, 4, 4), (2,), (1, 2, 4), (1, 2, 1, 1)],
    ["float32", "float64", "int64"], ["float32", "int64"], [None, "float32", "float64"],
    ["own", (3, 2), (3,), (4, 2, 9, 9)], [{}, {"stride": 0}, {"padding": -1}, {"groups": 2}]), 600, 1)


@pytest.mark.parametrize("name, shape, dx, dw, db, weight_shape, settings", CONVOLUTION_CASES)
def test_convolution_checks(torch, name, shape, dx, dw, db, weight_shape, settings):
    weight_shape = CONVOLUTIONS[name] if weight_shape == "own" else weight_shape

    def run(lib):
        function = getattr(lib.nn.functional, name)
        return outcome(lambda: function(ones(lib, shape, dx), ones(lib, weight_shape, dw),
                                        None if db is None else ones(lib, (3,), db), **settings))
    assert run(minigrad) == run(torch)


def test_transposed_convolution_takes_a_bias_of_another_float_dtype(torch):
    """PyTorch adds a transposed convolution's bias to the result in place: a float64 bias of a
    float32 convolution is rounded into it, and its gradient comes back in float64."""
    results = {}
    for lib in (torch, minigrad):
        x = lib.ones(1, 2, 3, 3, requires_grad=True)
        w = lib.ones(2, 3, 2, 2, requires_grad=True)
        b = lib.tensor([0.1, 0.2, 0.3], dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.conv_transpose2d(x, w, b)
        y.sum().backward()
        results[lib.__name__] = (str(y.dtype), y.detach().numpy().tolist(), type(y.grad_fn).__name__,
                                 str(b.grad.dtype), b.grad.numpy().tolist())
    assert results["minigrad"] == results["torch"]


# --- normalization --------------------------------------------------------------------------

BATCH_NORM_CASES = sample(itertools.product(
    [(4, 2), (2, 2, 3), (4,), (0, 2)], ["float32", "float64", "int64"],
    itertools.product([None, 2, 3], repeat=4),
    [("float32",) * 4, ("float64", "float32", "float32", "float32"), ("float32", "float32", "float64", "float32"),
     ("float32", "float32", "float32", "int64")], [True, False]), 500, 2)


@pytest.mark.parametrize("shape, dx, sizes, dtypes, training", BATCH_NORM_CASES)
def test_batch_norm_checks(torch, shape, dx, sizes, dtypes, training):
    """running_mean, running_var, weight, bias in that order (each statistic required in eval),
    then the input's dims, both statistics or neither, the kernel's dtype, mixed dtypes."""
    def run(lib):
        args = [None if size is None else ones(lib, (size,), dtype) for size, dtype in zip(sizes, dtypes)]
        return outcome(lambda: lib.nn.functional.batch_norm(ones(lib, shape, dx), *args, training=training))
    assert run(minigrad) == run(torch)


NORM_CASES = sample(itertools.product(
    ["layer_norm", "group_norm 1", "group_norm 2", "rms_norm", "instance_norm"],
    [(4, 3), (2,), (2, 2, 3), (3,), (4, 2, 3)], ["float32", "float64", "int64"],
    itertools.product([None, 3, 2], repeat=2),
    [("float32", "float32"), ("float64", "float32"), ("float32", "float64"), ("int64", "float32")]), 500, 3)


@pytest.mark.parametrize("name, shape, dx, sizes, dtypes", NORM_CASES)
def test_norm_checks(torch, name, shape, dx, sizes, dtypes):
    """layer_norm: mixed dtypes, shapes, the kernel, then parameters in the input's dtype;
    group_norm: shapes (its bias message shows the weight's shape), then the same."""
    def run(lib):
        F = lib.nn.functional
        x = ones(lib, shape, dx)
        params = [None if size is None else ones(lib, (size,), dtype) for size, dtype in zip(sizes, dtypes)]
        if name == "layer_norm":
            return outcome(lambda: F.layer_norm(x, (3,), *params))
        if name.startswith("group_norm"):
            return outcome(lambda: F.group_norm(x, int(name.split()[1]), *params))
        if name == "rms_norm":
            return outcome(lambda: F.rms_norm(x, (3,), params[0]))
        return outcome(lambda: F.instance_norm(x, None, None, *params))
    assert run(minigrad) == run(torch)


# --- comparisons ----------------------------------------------------------------------------

CLOSE_CASES = list(itertools.product(["allclose", "isclose"], ["float32", "float64", "int64", "bool"],
                                     ["float32", "float64", "int64", "bool", "number"], [(2,), (3,), (2, 2)],
                                     [{}, {"rtol": -1.0}, {"equal_nan": True}]))


@pytest.mark.parametrize("name, da, db, shape, settings", CLOSE_CASES)
def test_closeness_checks(torch, name, da, db, shape, settings):
    """allclose is isclose(...).all(): the same dtype, tolerances and shapes are required."""
    def run(lib):
        other = 1.0 if db == "number" else ones(lib, shape, db)
        result = outcome(lambda: getattr(lib, name)(ones(lib, (2,), da), other, **settings))
        value = getattr(lib, name)(ones(lib, (2,), da), other, **settings) if result == "ok" else None
        return result, (value if isinstance(value, bool) or value is None else value.tolist())
    assert run(minigrad) == run(torch)


# --- in-place forms whose loop checks the cast back before the kernel or the shapes before the dtype
IN_PLACE_DTYPES = ["bool", "int64", "int32", "uint8", "float32", "float64", "float16"]
IN_PLACE_SHAPES = [(), (1,), (2,), (3,), (2, 2)]


@pytest.mark.parametrize("dx, sx, dy, sy", sample(itertools.product(
    IN_PLACE_DTYPES, IN_PLACE_SHAPES, IN_PLACE_DTYPES, IN_PLACE_SHAPES), 250, seed=11))
def test_hypot_inplace_checks(torch, dx, sx, dy, sy):
    """x.hypot_(y): the shapes, then whether the promoted dtype can be written into x (bools and
    ints: refused as a cast), then the kernel's dtypes."""
    def call(lib):
        return lambda: ones(lib, sx, dx).hypot_(ones(lib, sy, dy))
    assert outcome(call(minigrad)) == outcome(call(torch))


@pytest.mark.parametrize("ds, ss, dp, sp", sample(itertools.product(
    IN_PLACE_DTYPES, IN_PLACE_SHAPES, IN_PLACE_DTYPES, IN_PLACE_SHAPES), 250, seed=12))
def test_bernoulli_inplace_checks(torch, ds, ss, dp, sp):
    """s.bernoulli_(p) of a tensor p: p expanded to s's shape first (its error), then the
    kernel's dtype of p (floating only)."""
    def call(lib):
        return lambda: ones(lib, ss, ds).bernoulli_(ones(lib, sp, dp) * 0.5 if dp[0] == "f"
                                                     else ones(lib, sp, dp))
    assert outcome(call(minigrad)) == outcome(call(torch))


BATCHED_OPERAND_CASES = sample(itertools.product(
    ["bmm", "baddbmm"], [((1, 1, 3), (1, 3, 1)), ((1, 0, 3), (1, 3, 1)), ((1, 1, 3), (1, 2, 1))],
    [("recorded", "inference"), ("inference", "recorded"), ("no_grad view", "inference"),
     ("inference", "no_grad view")],
    [("float32", "float64"), ("float64", "float32"), ("bool", "float32"), ("float32", "float32")]), 200, 3)


@pytest.mark.parametrize("name, shapes, made, dtypes", BATCHED_OPERAND_CASES)
def test_batched_products_save_an_operand_before_checking_dtypes(torch, name, shapes, made, dtypes):
    """bmm and baddbmm save each batch for the other's gradient before their kernels compare
    the dtypes (and baddbmm the added term's): an inference batch is refused first (found by the
    random-program test)."""
    def run(lib):
        def call():
            a, b = (operand(lib, shape, dtype, how) for shape, dtype, how in zip(shapes, dtypes, made))
            return lib.bmm(a, b) if name == "bmm" else lib.baddbmm(lib.zeros(1), a, b)
        return outcome(call)
    assert run(minigrad) == run(torch)


# --- baddbmm: the added term's shape, the dtypes, the batches' dims and sizes ------------------

def _baddbmm_call(lib, in_place, input, batch1, batch2):
    if in_place == "expanded":
        return input.expand(2, 3, 4).baddbmm_(batch1, batch2)
    return input.baddbmm_(batch1, batch2) if in_place else lib.baddbmm(input, batch1, batch2)


BADDBMM_CASES = sample(itertools.product(
    [False, True], ["float32", "float64", "int64"], ["float32", "float64"], ["float32", "float64"],
    [(2, 3, 4), (3, 4), (2, 3, 3)], [(2, 3, 5), (3, 5), (2, 3, 5, 1)], [(2, 5, 4), (5, 4), (2, 6, 4)]),
    300, 1) + [("expanded", "float32", "float32", "float64", (1, 3, 4), (2, 3, 5), (2, 5, 4))]


@pytest.mark.parametrize("in_place, di, d1, d2, si, s1, s2", BADDBMM_CASES)
def test_baddbmm_checks(torch, in_place, di, d1, d2, si, s1, s2):
    """x.baddbmm_(b1, b2) with b2 of another dtype than x: PyTorch refuses to change x's dtype
    ("Bad in-place call") once the shapes fit, before the kernel's dtype check and the overlap
    check; the added term is expanded to the result's shape before anything else (seed 6065)."""
    def run(lib):
        return outcome(lambda: _baddbmm_call(lib, in_place, ones(lib, si, di), ones(lib, s1, d1),
                                             ones(lib, s2, d2)))
    assert run(minigrad) == run(torch)
