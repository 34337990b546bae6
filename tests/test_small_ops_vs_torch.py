"""Small operations a learner meets early, compared with PyTorch: isnan and its family,
nan_to_num and its gradient, in-place activations (nn.LeakyReLU(inplace=True), F.leaky_relu_,
...), subtraction with bools, add/sub's alpha, var/std without degrees of freedom.

Each program runs in minigrad and in PyTorch and must give the same values, dtypes, strides,
node names, warnings (class and text) and errors (class and text)."""
import re
import warnings

import pytest

import minigrad
from conftest import rounded  # (tests/ is on sys.path under pytest)

NAN, INF = float("nan"), float("inf")
SPECIAL = [1.5, NAN, -INF, INF, -0.0, -2.0]


def _plain(value):
    """What a learner sees of one result, in a form both libraries compare on."""
    if hasattr(value, "grad_fn") and hasattr(value, "tolist"):
        grad_fn = value.grad_fn
        return ("tensor", repr(rounded(value.tolist())), str(value.dtype).split(".")[-1], tuple(value.shape),
                value.stride(), value.requires_grad, value._version,
                None if grad_fn is None else grad_fn.name().split("::")[-1])
    if isinstance(value, (tuple, list)):
        return tuple(_plain(item) for item in value)
    if hasattr(value, "next_functions"):                   # a node: its name and its edges
        return ("node", value.name(), tuple(None if node is None else (node.name(), nr)
                                            for node, nr in value.next_functions))
    return value


def outcome(lib, program):
    """The result of ``program(lib)`` (or its exception's class and message) and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = _plain(program(lib))
        except Exception as error:       # the class and the text, word for word
            message = str(error).split("\nminigrad hint:")[0]
            value = (type(error).__name__, message)
    # PyTorch's C++ warnings end with the place in its own sources; minigrad leaves that out
    messages = [(w.category.__name__, re.sub(r" \(Triggered internally at .*\)$", "", str(w.message)),
                 w.filename == __file__) for w in caught
                if "torch.jit" not in str(w.message)]      # (PyTorch importing its own modules)
    return value, messages


def same(torch, program):
    """``program`` gives the same outcome in minigrad and in PyTorch (and return it)."""
    ours, theirs = outcome(minigrad, program), outcome(torch, program)
    assert ours == theirs
    return ours


# --- isnan, isinf, isfinite, isposinf, isneginf -----------------------------------------------

QUESTIONS = ["isnan", "isinf", "isfinite", "isposinf", "isneginf"]


@pytest.mark.parametrize("name", QUESTIONS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "uint8", "bool"])
def test_questions_about_each_element(torch, name, dtype):
    def program(lib):
        values = SPECIAL if dtype.startswith("float") else [1, 0, 3] if dtype != "bool" else [True, False]
        x = lib.tensor(values, dtype=getattr(lib, dtype))
        return getattr(lib, name)(x), getattr(x, name)()
    same(torch, program)


@pytest.mark.parametrize("name", QUESTIONS)
def test_questions_are_never_recorded_and_keep_the_layout(torch, name):
    def program(lib):
        x = lib.tensor([[1., NAN, INF], [-INF, 0., 2.]], requires_grad=True)
        return getattr(x, name)(), getattr(lib, name)(x.t()), getattr(x[:, 1], name)(), \
            getattr(lib, name)(lib.tensor(NAN))
    same(torch, program)


@pytest.mark.parametrize("name", QUESTIONS)
def test_questions_refuse_what_is_not_a_tensor(torch, name):
    same(torch, lambda lib: getattr(lib, name)([1.0, 2.0]))
    same(torch, lambda lib: getattr(lib, name)(lib.tensor([1.]), 1))


def test_finding_where_a_loss_went_wrong(torch):
    def program(lib):
        w = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        loss = (lib.tensor([1.0, 0.0, 4.0]) / (w + 1)).log()
        return lib.isnan(loss), loss.isinf().any(), loss.isfinite().all(), lib.isfinite(loss).sum()
    same(torch, program)


# --- nan_to_num ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("arguments", [{}, {"nan": 2.0}, {"posinf": 1.0}, {"neginf": -3},
                                       {"nan": None}, {"nan": 1e50}, {"posinf": True},
                                       {"nan": INF, "posinf": NAN}])
def test_nan_to_num_values(torch, dtype, arguments):
    def program(lib):
        x = lib.tensor(SPECIAL, dtype=getattr(lib, dtype))
        return lib.nan_to_num(x, **arguments), x.nan_to_num(**arguments)
    same(torch, program)


def test_nan_to_num_by_position_and_with_a_tensor_replacement(torch):
    same(torch, lambda lib: lib.tensor(SPECIAL).nan_to_num(2.0, 3.0, 4.0))
    same(torch, lambda lib: lib.tensor(SPECIAL).nan_to_num(posinf=lib.tensor(2.)))
    same(torch, lambda lib: lib.nan_to_num(lib.tensor([[1., NAN], [INF, 2.]]).t()))


@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_nan_to_num_of_integers_is_a_copy(torch, dtype):
    def program(lib):
        x = lib.tensor([1, 0, 1], dtype=getattr(lib, dtype))
        y = x.nan_to_num(nan=5.0)
        y[0] = 0
        return x, y, x.nan_to_num_()
    same(torch, program)


def test_nan_to_num_wrong_arguments(torch):
    same(torch, lambda lib: lib.tensor([1.]).nan_to_num(nan="a"))
    same(torch, lambda lib: lib.tensor([1.]).nan_to_num(posinf=[1.]))
    same(torch, lambda lib: lib.nan_to_num(lib.tensor([1.]), foo=1))
    same(torch, lambda lib: lib.nan_to_num(3.0))
    same(torch, lambda lib: lib.tensor([1., NAN], requires_grad=True).nan_to_num_())


def test_nan_to_num_gradient(torch):
    def program(lib):
        x = lib.tensor(SPECIAL, dtype=lib.float64, requires_grad=True)
        y = lib.nan_to_num(x, posinf=9.0, neginf=-9.0)
        seen = _plain((y, y.grad_fn, y.grad_fn._saved_self))
        (y * lib.arange(6.)).sum().backward()
        return seen, x.grad
    same(torch, program)


def test_nan_to_num_in_place_gradient(torch):
    def program(lib):
        a = lib.tensor(SPECIAL, requires_grad=True)
        x = a * 2
        y = x.nan_to_num_(nan=1.0)
        z = lib.nan_to_num_(x[1:3], neginf=-1.0)
        x.sum().backward()
        return x, y is x, z, x.grad_fn, a.grad
    same(torch, program)


def test_nan_to_num_second_order_and_forward_mode(torch):
    def program(lib):
        x = lib.tensor([1., NAN, 3.], dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad((lib.nan_to_num(x) ** 2).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        with lib.autograd.forward_ad.dual_level():
            dual = lib.autograd.forward_ad.make_dual(lib.tensor([1., INF, -2.]), lib.tensor([3., 4., 5.]))
            tangent = lib.autograd.forward_ad.unpack_dual(dual.nan_to_num()).tangent
        return g, gg, tangent
    same(torch, program)


# --- activations that change their input: inplace=True ---------------------------------------

ACTIVATION_LAYERS = [
    ("LeakyReLU", (0.1,)), ("LeakyReLU", ()), ("ReLU", ()), ("ELU", (0.5,)), ("Hardtanh", (-0.5, 0.5)),
    ("ReLU6", ()), ("Threshold", (0.1, 2.0)), ("Dropout", (0.3,)),
]


@pytest.mark.parametrize("layer, arguments", ACTIVATION_LAYERS)
def test_activation_layers_in_place(torch, layer, arguments):
    def program(lib):
        lib.manual_seed(0)
        module = getattr(lib.nn, layer)(*arguments, inplace=True)
        a = lib.tensor([-2., -0.2, 0., 0.3, 7.], requires_grad=True)
        x = a * 1
        y = module(x)
        (y * lib.tensor([1., 2., 3., 4., 5.])).sum().backward()
        return repr(module), y is x, y, y.grad_fn, a.grad
    same(torch, program)


@pytest.mark.parametrize("layer, arguments", ACTIVATION_LAYERS)
def test_activation_layers_in_place_on_a_leaf(torch, layer, arguments):
    def program(lib):
        lib.manual_seed(0)
        return getattr(lib.nn, layer)(*arguments, inplace=True)(lib.tensor([-1., 1.], requires_grad=True))
    same(torch, program)


@pytest.mark.parametrize("call", [
    lambda F, x: F.leaky_relu_(x), lambda F, x: F.leaky_relu_(x, 0.3),
    lambda F, x: F.leaky_relu(x, 0.2, inplace=True), lambda F, x: F.hardtanh_(x),
    lambda F, x: F.hardtanh_(x, -0.1, 0.1), lambda F, x: F.threshold_(x, 0.1, 2.0),
    lambda F, x: F.threshold_(x, threshold=0.0, value=-1.0), lambda F, x: F.relu_(x), lambda F, x: F.elu_(x),
])
def test_in_place_activation_functions(torch, call):
    def program(lib):
        a = lib.tensor([-2., -0.2, 0., 0.3, 7.], dtype=lib.float64, requires_grad=True)
        x = a * 1
        y = call(lib.nn.functional, x)
        (g,) = lib.autograd.grad((y * y).sum(), a)
        return y is x, y, y.grad_fn, x._version, g
    same(torch, program)


def test_leaky_relu_in_place_saves_its_result(torch):
    def program(lib):
        x = lib.tensor([-2., 0.5], requires_grad=True) * 1
        y = lib.nn.functional.leaky_relu_(x, 0.25)
        return y.grad_fn._saved_result, y.grad_fn._saved_negative_slope
    same(torch, program)


def test_leaky_relu_in_place_wrong_input(torch):
    same(torch, lambda lib: lib.nn.functional.leaky_relu_([1.0]))
    same(torch, lambda lib: lib.nn.functional.leaky_relu_(lib.tensor([1, -2])))


def test_a_model_with_in_place_layers_prints_and_trains(torch):
    def program(lib):
        lib.manual_seed(0)
        nn = lib.nn
        model = nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2, inplace=True), nn.Linear(4, 4),
                              nn.ReLU(inplace=True), nn.Dropout(0.25, inplace=True), nn.Linear(4, 1))
        loss = model(lib.randn(5, 3)).pow(2).mean()
        loss.backward()
        return repr(model), loss, model[0].weight.grad, model[2].bias.grad
    same(torch, program)


# --- subtraction with bools ----------------------------------------------------------------------

@pytest.mark.parametrize("program", [
    lambda lib: lib.tensor([True, False]) - lib.tensor([1., 2.]),
    lambda lib: lib.tensor([1., 2.]) - lib.tensor([True, False]),
    lambda lib: lib.tensor([1, 2]) - lib.tensor([True, False]),
    lambda lib: lib.tensor([True, False]) - lib.tensor([True, True]),
    lambda lib: lib.tensor([True]) - 1.0,
    lambda lib: 1.0 - lib.tensor([True]),
    lambda lib: lib.tensor([1.]) - True,
    lambda lib: True - lib.tensor([1.]),
    lambda lib: lib.tensor([True]) - True,
    lambda lib: lib.sub(lib.tensor([True]), lib.tensor([True])),
    lambda lib: lib.subtract(lib.tensor([True]), 1),
    lambda lib: lib.tensor([True]).sub(lib.tensor([1.]), alpha=2),
    lambda lib: lib.tensor([True]).sub(lib.tensor([True]), alpha=1.5),
    lambda lib: lib.tensor([1.]).sub_(lib.tensor([True])),
    lambda lib: lib.tensor([True]).sub_(lib.tensor([True])),
    lambda lib: -lib.tensor([True]),
    lambda lib: lib.tensor([True]).neg(),
    lambda lib: lib.tensor([True]) + lib.tensor([True]),
    lambda lib: lib.tensor([True]) + 1.5,
    lambda lib: ~lib.tensor([True, False]),
])
def test_bools_refuse_subtraction(torch, program):
    same(torch, program)


def test_bool_subtraction_refused_before_anything_is_recorded(torch):
    def program(lib):
        x = lib.tensor([1., 2.], requires_grad=True)
        mask = x > 1.5
        try:
            x - mask
        except RuntimeError as error:
            return str(error), x.grad_fn, (x * ~mask).sum()
    same(torch, program)


# --- add and sub with alpha -----------------------------------------------------------------------

ALPHAS = [1, 2, -1, 0, 1.0, 2.0, 0.5, True, False, 1j, "a", None]
OPERANDS = [("int64", "int64"), ("uint8", "uint8"), ("float32", "int64"), ("int64", "float32"),
            ("bool", "bool"), ("int64", "number"), ("int64", "float number"), ("float32", "number")]


@pytest.mark.parametrize("alpha", ALPHAS, ids=repr)
@pytest.mark.parametrize("first, second", OPERANDS)
@pytest.mark.parametrize("name", ["add", "sub", "add_", "sub_"])
def test_alpha_checks(torch, alpha, first, second, name):
    def program(lib):
        x = lib.tensor([1, 0, 3], dtype=getattr(lib, first))
        other = 2 if second == "number" else 2.5 if second == "float number" else \
            lib.tensor([1, 1, 0], dtype=getattr(lib, second))
        return getattr(x, name)(other, alpha=alpha), x
    same(torch, program)


def test_alpha_as_a_tensor_and_as_torch_add(torch):
    same(torch, lambda lib: lib.tensor([1., 2.]).add(lib.tensor([1, 2]), alpha=lib.tensor(2.)))
    same(torch, lambda lib: lib.tensor([1, 2]).add(lib.tensor([1, 2]), alpha=lib.tensor(1.0)))
    same(torch, lambda lib: lib.tensor([1, 2]).add(lib.tensor([1, 2]), alpha=lib.tensor(True)))
    same(torch, lambda lib: lib.tensor([1.]).sub(lib.tensor([1.]), alpha=lib.tensor([2.])))
    same(torch, lambda lib: lib.add(lib.tensor([1, 2]), lib.tensor([1, 2]), alpha=1.0))
    same(torch, lambda lib: lib.sub(lib.tensor([1, 2]), 1, alpha=True))


def test_alpha_one_as_a_float_on_floats_is_recorded_with_it(torch):
    def program(lib):
        a = lib.tensor([1., 2.], requires_grad=True)
        b = lib.tensor([3., 4.], requires_grad=True)
        y = a.add(b, alpha=1.0)
        z = a.sub(b, alpha=1.0)
        (y * z).sum().backward()
        return y, z, y.grad_fn._saved_alpha, z.grad_fn._saved_alpha, a.grad, b.grad
    same(torch, program)


# --- var and std without degrees of freedom -------------------------------------------------------

@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("shape, arguments", [
    ((0,), {}), ((1,), {}), ((), {}), ((1,), {"correction": 0}), ((2,), {"correction": 2}),
    ((2,), {"correction": 3}), ((2, 0), {"dim": 1}), ((2, 0), {"dim": 0}),
    ((2, 0), {"dim": 0, "keepdim": True}), ((0, 3), {"dim": 0}), ((2, 2), {"dim": 1, "correction": 2}),
    ((2, 2), {"dim": 1, "correction": 3}), ((2, 2), {"dim": 1, "correction": -1}),
    ((2, 2), {"dim": 1, "correction": 1.5}), ((1, 3), {"dim": 0}), ((3,), {"unbiased": False}),
    ((1, 3), {"dim": 0, "unbiased": True}),
])
def test_var_and_std_without_degrees_of_freedom(torch, name, shape, arguments):
    def program(lib):
        x = lib.arange(float(max(1, len(shape) and shape[0] * (shape[1] if len(shape) > 1 else 1))))
        x = x[:int(lib.tensor(shape).prod())].reshape(shape)
        return getattr(x, name)(**arguments), getattr(lib, name)(x, **arguments)
    outcome_ = same(torch, program)
    for warning in outcome_[1]:
        assert warning[2], "the warning points at the learner's own line"


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("values, correction", [([1.], 1), ([1., 2.], 2), ([1., 1.], 2), ([1., 2.], 3),
                                               ([2., 1., 2.], 3)])
@pytest.mark.parametrize("dim", [None, 0])
def test_var_and_std_gradients_without_degrees_of_freedom(torch, name, values, correction, dim):
    def program(lib):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        y = getattr(x, name)(dim, correction=correction)
        y.backward()
        return y, x.grad
    same(torch, program)


@pytest.mark.parametrize("program", [
    lambda lib: lib.tensor([1.], requires_grad=True).sub_(lib.tensor([True])),
    lambda lib: lib.tensor([1.], requires_grad=True).sub_(lib.tensor([True]), alpha="a"),
    lambda lib: lib.tensor([1.], requires_grad=True).add_(lib.tensor([1]), alpha=True),
    lambda lib: lib.tensor([1.]).expand(3).sub_(lib.tensor([True])),
    lambda lib: lib.tensor([1.]).expand(3).add_(lib.tensor([1]), alpha=True),
    lambda lib: lib.tensor([1]).add_(lib.tensor([1.]), alpha=True),
])
def test_in_place_checks_come_in_pytorch_order(torch, program):
    """autograd's rules first, then bools, then memory seen twice, then the result's dtype, then alpha."""
    same(torch, program)


# --- more that beginners call: other logarithms, logical operations, sgn, nonzero -----------------

@pytest.mark.parametrize("name", ["log2", "log10", "expm1"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_other_logarithms_values(torch, name, dtype):
    def program(lib):
        values = [1e-10, 2., 0., -1., 100.] if dtype.startswith("float") else [1, 0] if dtype == "bool" \
            else [1, 2, 0]
        x = lib.tensor(values, dtype=getattr(lib, dtype))
        return getattr(x, name)(), getattr(lib, name)(x.reshape(1, -1).t())
    same(torch, program)


@pytest.mark.parametrize("name", ["log2", "log10", "expm1"])
def test_other_logarithms_gradients(torch, name):
    def program(lib):
        x = lib.tensor([0.5, 2., 3.], dtype=lib.float64, requires_grad=True)
        y = getattr(x, name)()
        saved = _plain(getattr(y.grad_fn, "_saved_result" if name == "expm1" else "_saved_self"))
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        with lib.autograd.forward_ad.dual_level():
            dual = lib.autograd.forward_ad.make_dual(x.detach(), lib.ones(3, dtype=lib.float64))
            tangent = lib.autograd.forward_ad.unpack_dual(getattr(dual, name)()).tangent
        return y, saved, g, g.grad_fn, gg, tangent
    same(torch, program)


@pytest.mark.parametrize("program", [
    lambda lib: lib.tensor([1., 0.]).logical_not(),
    lambda lib: ~lib.tensor([True, False]) == lib.tensor([True, False]).logical_not(),
    lambda lib: lib.logical_not(lib.tensor([2, 0])),
    lambda lib: lib.logical_and(lib.tensor([1., 0.]), 2),
    lambda lib: lib.tensor([1, 0]).logical_xor(lib.tensor([1., 1.])),
    lambda lib: lib.logical_or(lib.tensor([1, 0]), lib.tensor([[0], [1]])),
    lambda lib: lib.logical_and(lib.tensor([1., 0.]), lib.ones(3)),
    lambda lib: lib.logical_not([1.]),
    lambda lib: lib.tensor([1., -2., 0.], requires_grad=True).sgn(),
    lambda lib: lib.tensor([[1., 0.], [0., 3.]]).nonzero(),
    lambda lib: lib.tensor([1., 0.]).nonzero(as_tuple=True),
    lambda lib: lib.empty(3, dtype=lib.int64).normal_(),
    lambda lib: lib.empty(3, dtype=lib.bool).uniform_(),
])
def test_more_beginner_calls(torch, program):
    same(torch, program)


@pytest.mark.parametrize("make", [
    lambda lib: lib.tensor(1.).isnan(), lambda lib: lib.tensor(1.).logical_not(),
    lambda lib: lib.tensor(1.).nan_to_num(), lambda lib: lib.tensor(1).isposinf(),
    lambda lib: lib.tensor(1.).isfinite(), lambda lib: lib.logical_and(lib.tensor(1.), lib.tensor(0.)),
])
def test_zero_dim_answers_have_memory_of_their_own(torch, make):
    def program(lib):
        x = make(lib)
        return x.add_(x), x.stride()
    same(torch, program)


@pytest.mark.parametrize("program", [
    lambda lib: lib.nn.functional.hardtanh(lib.tensor([True])),
    lambda lib: lib.nn.functional.relu6(lib.tensor([True])),
    lambda lib: lib.nn.functional.hardtanh_(lib.tensor([True])),
    lambda lib: lib.nn.functional.threshold(lib.tensor([True]), 0.5, 1.),
    lambda lib: lib.nn.functional.hardtanh(lib.tensor([1, 2])),
])
def test_activations_of_bool_tensors(torch, program):
    same(torch, program)


@pytest.mark.parametrize("program", [
    lambda lib: lib.ones(2, 3, 1) @ lib.ones(2, 1, 0, dtype=lib.float64),
    lambda lib: lib.ones(2, 3, 0, dtype=lib.float64) @ lib.ones(2, 0, 2),
    lambda lib: lib.bmm(lib.ones(0, 3, 1), lib.ones(0, 1, 2, dtype=lib.float64)),
    lambda lib: lib.bmm(lib.ones(2, 3, 0), lib.ones(2, 0, 2, dtype=lib.int64)),
    lambda lib: lib.bmm(lib.ones(2, 3, 1), lib.ones(2, 1, 2, dtype=lib.float64)),
])
def test_batched_products_with_nothing_to_multiply(torch, program):
    """PyTorch's batched kernel returns before comparing dtypes when there is nothing to multiply."""
    same(torch, program)


@pytest.mark.parametrize("dtype", ["float32", "bool", "int64", "float64"])
def test_expand_to_fewer_dimensions_names_the_type(torch, dtype):
    same(torch, lambda lib: lib.ones(2, 3, dtype=getattr(lib, dtype)).expand(1))
