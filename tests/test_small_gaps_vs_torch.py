"""Small differences from PyTorch, closed one by one: each program runs in minigrad and in
PyTorch and must give the same values, gradients, node names, strides, warnings and errors."""
import re
import warnings

import numpy as np
import pytest

import minigrad


def _plain(value):
    """What a learner sees of one result, in a form both libraries compare on."""
    if hasattr(value, "grad_fn") and hasattr(value, "tolist"):
        grad_fn = value.grad_fn
        return ("tensor", value.tolist(), str(value.dtype).split(".")[-1], tuple(value.shape),
                value.stride(), None if grad_fn is None else grad_fn.name().split("::")[-1])
    if isinstance(value, (tuple, list)):
        return tuple(_plain(item) for item in value)
    return value


def outcome(lib, program):
    """Values (or the exception's class and message) and the warnings of ``program(lib)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = _plain(program(lib))
        except Exception as error:       # the class and the text, word for word
            message = str(error).split("\nminigrad hint:")[0]     # (minigrad names its own module)
            value = (type(error).__name__, message)
    # PyTorch's C++ warnings end with the place in its own sources; minigrad leaves that out
    messages = [(w.category.__name__, re.sub(r" \(Triggered internally at .*\)$", "", str(w.message)))
                for w in caught]
    return value, messages


def same(torch, program):
    """``program`` gives the same outcome in minigrad and in PyTorch (and return it)."""
    ours, theirs = outcome(minigrad, program), outcome(torch, program)
    assert ours == theirs
    return ours


# --- masked_fill_ of an expanded tensor: a warning, then the write -----------------------------

EXPANDED_MASKS = [[[True, False, True, False]] * 3,
                  [[False, False, False, True], [False, False, False, False], [True, False, False, False]],
                  [[False] * 4] * 3]


@pytest.mark.parametrize("mask", EXPANDED_MASKS)
@pytest.mark.parametrize("value", ["number", "tensor"])
def test_masked_fill_of_expanded_tensor_warns_and_writes(torch, mask, value):
    def program(lib):
        x = lib.arange(3.).reshape(3, 1).expand(3, 4)
        filled = x.masked_fill_(lib.tensor(mask), 7. if value == "number" else lib.tensor(7.))
        return filled, x._base if lib is minigrad else x._base, filled.stride()
    outcome_ = same(torch, program)
    assert outcome_[1][0][0] == "UserWarning"


def test_masked_fill_of_expanded_tensor_records_the_change(torch):
    def program(lib):
        a = lib.tensor([[1.], [2.], [3.]], dtype=lib.float64, requires_grad=True)
        x = a * 1
        y = x.expand(3, 4)
        y.masked_fill_(lib.tensor([[True, False, False, False], [False] * 4, [False, False, True, True]]), 0.)
        (y * lib.arange(12.).reshape(3, 4)).sum().backward()
        return y, x, a.grad
    same(torch, program)


def test_masked_fill_of_expanded_tensor_bad_mask(torch):
    same(torch, lambda lib: lib.zeros(3, 1).expand(3, 4).masked_fill_(lib.ones(3, 4), 1.))
    same(torch, lambda lib: lib.zeros(3, 1).expand(3, 4).masked_fill_(lib.ones(2, 4, dtype=lib.bool), 1.))
    same(torch, lambda lib: lib.zeros(3, 1).expand(3, 4).masked_fill_(lib.ones(3, 4, dtype=lib.bool),
                                                                      lib.ones(2)))


def test_masked_fill_mask_that_does_not_fit(torch):
    same(torch, lambda lib: lib.zeros(3, 4).masked_fill_(lib.ones(2, 4, dtype=lib.bool), 1.))
    same(torch, lambda lib: lib.zeros(3, 4).masked_fill(lib.ones(2, 4, dtype=lib.bool), 1.))
    same(torch, lambda lib: lib.zeros(3, 4).masked_fill(lib.ones(2, 4, dtype=lib.bool), lib.tensor(1.)))


@pytest.mark.parametrize("mask", [[True, False, True], [[True, False, True, False]] * 3])
@pytest.mark.parametrize("value", [2., "0-d", "1 element", "4 elements"])
def test_writing_at_a_mask_of_an_expanded_tensor(torch, mask, value):
    """x[mask] = one value is a masked_fill_ in PyTorch, with both warnings."""
    def program(lib):
        x = lib.zeros(3, 1).expand(3, 4)
        x[lib.tensor(mask)] = {"0-d": lib.tensor(2.), "1 element": lib.tensor([2.]),
                               "4 elements": lib.arange(4.)}.get(value, value)
        return x
    same(torch, program)


# --- clamp_ with bounds that read the memory it writes: PyTorch's loop order ------------------

BOUND_VIEWS = {"t": lambda x: x.t(), "row0": lambda x: x[0], "col1": lambda x: x[:, 1:2],
               "row1": lambda x: x[1], "t_row0": lambda x: x.t()[0], "t_col2": lambda x: x.t()[:, 2:3],
               "none": lambda x: None}


@pytest.mark.parametrize("seed", range(40))
def test_clamp_with_bounds_over_its_own_memory(torch, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(-5, 5, (3, 3)).astype(float).tolist()
    low, high = rng.choice([name for name in BOUND_VIEWS], 2)
    transposed = bool(rng.integers(0, 2))

    def program(lib):
        x = lib.tensor(values)
        x = x.t() if transposed else x
        return x.clamp_(min=BOUND_VIEWS[low](x), max=BOUND_VIEWS[high](x))
    same(torch, program)


def test_clamp_with_bounds_over_its_own_memory_recorded(torch):
    def program(lib):
        leaf = lib.tensor([[4., 4., 1.], [4., 3., -5.], [-4., 3., -5.]], dtype=lib.float64,
                          requires_grad=True)
        x = (leaf * 1).t()
        x.clamp_(max=x.t()[:, 2:3])
        x.sum().backward()
        return x, leaf.grad
    same(torch, program)


# --- index_add_, scatter_, scatter_add_ reading their own memory ------------------------------

OWN_MEMORY_PROGRAMS = {
    "index_add_ from itself": lambda lib, x: x.index_add_(0, lib.tensor([2, 1, 0]), x),
    "index_add_ from its first rows": lambda lib, x: x.index_add_(0, lib.tensor([1, 2]), x[:2]),
    "index_add_ of a transposed x": lambda lib, x: x.t().index_add_(0, lib.tensor([1, 0, 2, 3]), x.t()),
    "index_add_ columns after columns": lambda lib, x: x.index_add_(1, lib.tensor([1, 2, 3]), x[:, :3]),
    "index_add_ columns backwards": lambda lib, x: x.index_add_(1, lib.tensor([3, 2, 1]), x[:, :3]),
    "index_add_ twice to a column": lambda lib, x: x.index_add_(1, lib.tensor([1, 1, 3]), x[:, :3],
                                                                alpha=2),
    "index_add_ of a vector": lambda lib, x: x.view(-1).index_add_(0, lib.tensor([1, 2, 3]),
                                                                   x.view(-1)[::2][:3]),
    "scatter_add_ from itself": lambda lib, x: x.scatter_add_(0, lib.tensor([[2, 1, 0, 0]]), x),
    "scatter_ from its first row": lambda lib, x: x.scatter_(0, lib.tensor([[2, 1, 0, 0]]), x[:1]),
}


@pytest.mark.parametrize("name", OWN_MEMORY_PROGRAMS)
def test_writing_at_positions_from_its_own_memory(torch, name):
    same(torch, lambda lib: OWN_MEMORY_PROGRAMS[name](lib, lib.arange(12.).reshape(3, 4)))


def test_index_add_from_its_own_memory_recorded(torch):
    def program(lib):
        leaf = lib.arange(12., dtype=lib.float64).reshape(3, 4).requires_grad_()
        x = leaf * 1
        x.index_add_(1, lib.tensor([3, 2, 1]), x[:, :3])
        grad_fn = x.grad_fn.name()
        x.sum().backward()
        return x, grad_fn, leaf.grad
    same(torch, program)


# --- hardtanh / relu6: the gradient at NaN depends on PyTorch's vectorised loop ----------------

@pytest.mark.parametrize("shape", [(3,), (8,), (9,), (16,), (17,), (70,), (4, 9), (3, 20), (20, 3),
                                   (2, 3, 12)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["plain", "transposed", "every second", "weighted"])
@pytest.mark.parametrize("function", ["hardtanh", "relu6"])
def test_hardtanh_gradient_at_nan(torch, shape, dtype, layout, function):
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    values = rng.standard_normal(shape).astype(dtype) * 8
    values[rng.random(shape) < 0.5] = np.nan

    def program(lib):
        x = lib.tensor(values.copy(), requires_grad=True)
        y = {"transposed": lambda: x.transpose(0, -1), "every second": lambda: x[..., ::2]}.get(
            layout, lambda: x)()
        out = getattr(lib.nn.functional, function)(y)
        weights = lib.arange(float(out.numel()), dtype=out.dtype).reshape(out.shape)
        loss = (out * weights).sum() if layout == "weighted" else out.sum()
        (grad,) = lib.autograd.grad(loss, x)
        return out != out, out.grad_fn.name(), grad       # (NaN where out != out)
    same(torch, program)


def test_relu6_in_place_gradient_at_nan(torch):
    def program(lib):
        leaf = lib.tensor([float("nan")] * 20 + [0.5, 7., -1.], requires_grad=True)
        out = lib.nn.functional.relu6(leaf * 1, inplace=True)
        return out.grad_fn.name(), lib.autograd.grad(out.sum(), leaf)[0]
    same(torch, program)


# --- the layout of new results: PyTorch follows its inputs' strides ---------------------------

LAYOUT_PROGRAMS = {
    "x.t() + y": lambda lib, x, y: x.t() + y,
    "y + x.t()": lambda lib, x, y: y + x.t(),
    "x.t() / y": lambda lib, x, y: x.t() / (y + 1),
    "x.t() > y": lambda lib, x, y: x.t() > y,
    "where(x.t() > 3, x.t(), y)": lambda lib, x, y: lib.where(x.t() > 3, x.t(), y),
    "-x.t()": lambda lib, x, y: -x.t(),
    "x.t() + y[0]": lambda lib, x, y: x.t() + y[0],
    "empty_like(x.t())": lambda lib, x, y: lib.empty_like(x.t()).stride(),
    "grad of (x.t() * y) ** 2": lambda lib, x, y: lib.autograd.grad(((x.t() * y) ** 2).sum(), x)[0],
}


@pytest.mark.parametrize("name", LAYOUT_PROGRAMS)
def test_layout_of_pointwise_results(torch, name):
    def program(lib):
        x = lib.arange(12., requires_grad=True).reshape(3, 4)
        y = lib.arange(12., requires_grad=True).reshape(4, 3)
        out = LAYOUT_PROGRAMS[name](lib, x, y)
        return out if isinstance(out, tuple) else out.detach()
    same(torch, program)


@pytest.mark.parametrize("seed", range(60))
def test_layout_of_binary_results_random(torch, seed):
    """Inputs permuted and sliced at random: results and gradients laid out as in PyTorch."""
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(2, 4))
    shape = tuple(int(size) for size in rng.integers(1, 4, ndim) * 2)
    a_values, b_values = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    permutations = rng.permutation(ndim), rng.permutation(ndim)
    sliced, b_one_column = rng.integers(0, 2, 2), rng.integers(0, 2)

    def operand(lib, values, order, slice_it):
        stored = lib.tensor(np.ascontiguousarray(values.transpose(order)), requires_grad=True)
        view = stored.permute(*np.argsort(order).tolist())
        return stored, view[..., ::2] if slice_it else view

    def steps(tensor):        # (those of size-1 dimensions mean nothing; numpy keeps others)
        return [step for step, size in zip(tensor.stride(), tensor.shape) if size != 1]

    for operation in ("add", "mul", "div", "sub", "gt", "where", "maximum", "minimum"):
        def program(lib):
            a_leaf, a = operand(lib, a_values, permutations[0], sliced[0])
            b_leaf, b = operand(lib, b_values, permutations[1], sliced[1])
            b = b[..., :1] if b_one_column else b
            out = lib.where(a > 0, a, b) if operation == "where" else getattr(a, operation)(b)
            if out.dtype == lib.bool:
                return steps(out)
            return steps(out), [steps(g) for g in lib.autograd.grad(out.sum(), (a_leaf, b_leaf))]
        same(torch, program)


# --- clamp_min / clamp_max out of place ----------------------------------------------------------

CLAMP_ONE_SIDE = {
    "torch.clamp_min(x, 0.5)": lambda lib, x, t: lib.clamp_min(x, 0.5),
    "torch.clamp_max(x, 0.5)": lambda lib, x, t: lib.clamp_max(x, 0.5),
    "x.clamp_min(t)": lambda lib, x, t: x.clamp_min(t),
    "x.clamp_max(t)": lambda lib, x, t: x.clamp_max(t),
    "x.clamp_min(t[0])": lambda lib, x, t: x.clamp_min(t[0]),
    "x.clamp_max(2)": lambda lib, x, t: x.clamp_max(2),
    "x.clamp_min(t.t()[:1])": lambda lib, x, t: x.clamp_min(t[:1]),
    "(x * 1).clamp_min_(t)": lambda lib, x, t: (x * 1).clamp_min_(t),
    "(x * 1).clamp_max_(t)": lambda lib, x, t: (x * 1).clamp_max_(t),
    "(x * 1).clamp_min_(0.5)": lambda lib, x, t: (x * 1).clamp_min_(0.5),
}


@pytest.mark.parametrize("name", CLAMP_ONE_SIDE)
def test_clamp_one_side(torch, name):
    values = [[0.5, -1., 2.], [0.2, 0.5, 3.]]        # ties with the bounds too
    bounds = [[0.5, 0.5, 0.], [1., 0.5, 3.]]

    def program(lib):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        t = lib.tensor(bounds, dtype=lib.float64, requires_grad=True)
        out = CLAMP_ONE_SIDE[name](lib, x, t)
        names = sorted(name for name in ("_saved_self", "_saved_min", "_saved_max", "_saved_low",
                                         "_saved_high") if name in dir(out.grad_fn))
        saved = [getattr(out.grad_fn, name) for name in names]     # (values: an in-place change
        saved = [_plain(v.detach() if hasattr(v, "detach") else v) for v in saved]   # saves a clone)
        grads = lib.autograd.grad((out * lib.arange(1., 7.).reshape(2, 3)).sum(), (x, t),
                                  allow_unused=True)
        return out, names, saved, grads
    same(torch, program)


def test_clamp_one_side_gradcheck():
    x = minigrad.tensor([[0.3, -1., 2.], [0.2, 0.9, 3.]], dtype=minigrad.float64, requires_grad=True)
    t = minigrad.tensor([[0.5, 0.4, 0.], [1., 0.5, 2.]], dtype=minigrad.float64, requires_grad=True)
    for function in (minigrad.clamp_min, minigrad.clamp_max):
        assert minigrad.autograd.gradcheck(function, (x, t))
        assert minigrad.autograd.gradgradcheck(function, (x, t))
        assert minigrad.autograd.gradcheck(lambda a: function(a, 0.5), (x,))


@pytest.mark.parametrize("arguments", [(), ("a",), (None,)])
def test_clamp_one_side_bad_bound(torch, arguments):
    for name in ("clamp_min", "clamp_max"):
        ours, theirs = (outcome(lib, lambda lib: getattr(lib, name)(lib.ones(2), *arguments))
                        for lib in (minigrad, torch))
        assert ours[0][0] == theirs[0][0] == "TypeError"
        assert ours[0][1] == theirs[0][1]      # (with the overloads PyTorch lists)


# --- clamp with tensor bounds: ties, NaN and min > max -------------------------------------------

TIES = ([0., 1., 2., 3., 1., 1., 2., 5., 0., np.nan, 1., 1.],     # x
        [0., 0., 2., 1., 1., 2., 2., 3., np.nan, 0., 2., 1.],     # min
        [1., 1., 2., 3., 0., 1., 1., 3., 1., 1., np.nan, 1.])     # max


@pytest.mark.parametrize("bounds", ["both", "min", "max", "min broadcast"])
def test_clamp_tensor_bounds_ties(torch, bounds):
    def program(lib):
        x, low, high = (lib.tensor(values, dtype=lib.float64, requires_grad=True) for values in TIES)
        out = {"both": lambda: x.clamp(low, high), "min": lambda: x.clamp(min=low),
               "max": lambda: lib.clamp(x, max=high),
               "min broadcast": lambda: x.reshape(3, 4).clamp(min=low[:4])}[bounds]()
        weights = lib.arange(1., 13., dtype=lib.float64).reshape(out.shape)
        grads = lib.autograd.grad((out * weights).sum(), (x, low, high), allow_unused=True)
        return out.grad_fn.name(), out != out, grads
    same(torch, program)


def test_clamp_tensor_bounds_gradcheck():
    x, low, high = (minigrad.tensor(values, dtype=minigrad.float64, requires_grad=True)
                    for values in ([0.3, 1.5, -2., 0.7], [0., 1., -1., 0.9], [1., 1.2, 1., 2.]))
    assert minigrad.autograd.gradcheck(lambda a, b, c: a.clamp(b, c), (x, low, high))
    assert minigrad.autograd.gradgradcheck(lambda a, b, c: a.clamp(b, c), (x, low, high))


# --- logsumexp over dim=() -----------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 3), (4,), (), (0, 3)])
@pytest.mark.parametrize("dim", [(), []])
@pytest.mark.parametrize("keepdim", [False, True])
def test_logsumexp_over_no_dims(torch, shape, dim, keepdim):
    def program(lib):
        x = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        out = lib.logsumexp(x, dim, keepdim=keepdim)
        return out, lib.autograd.grad(out.sum(), x)[0] if x.numel() else None
    same(torch, program)


# --- nn.ELU --------------------------------------------------------------------------------------

@pytest.mark.parametrize("arguments", [{}, {"alpha": 0.5}, {"alpha": 2, "inplace": True}])
def test_elu_module(torch, arguments):
    def program(lib):
        layer = lib.nn.ELU(**arguments)
        x = lib.tensor([-2., -0.5, 0., 1.5], dtype=lib.float64, requires_grad=True)
        out = layer(x * 1)
        return repr(layer), repr(lib.nn.Sequential(layer)), out, lib.autograd.grad(out.sum(), x)[0]
    same(torch, program)


# --- torch.normal with tensor mean and std: PyTorch's numbers, zero gradients ---------------------

NORMAL_PROGRAMS = {
    "tensor mean": lambda lib, m, s: lib.normal(m, 2.),
    "tensor std": lambda lib, m, s: lib.normal(1.5, s),
    "both": lambda lib, m, s: lib.normal(m, s),
    "broadcast": lambda lib, m, s: lib.normal(m[:1], s),
    "a column and a row": lambda lib, m, s: lib.normal(m.detach().reshape(-1, 1), s.detach()[:2]),
    "float64": lambda lib, m, s: lib.normal(m.detach().double(), 1.),
    "many (vectorised draws)": lambda lib, m, s: lib.normal(m.repeat(7), 3.),
    "negative std": lambda lib, m, s: lib.normal(m, -1.),
    "negative std tensor": lambda lib, m, s: lib.normal(m, -s),
    "integer mean": lambda lib, m, s: lib.normal(lib.zeros(3, dtype=lib.int64), 1.),
    "shapes that don't fit": lambda lib, m, s: lib.normal(m, s[:2]),
}


@pytest.mark.parametrize("name", NORMAL_PROGRAMS)
def test_normal_with_tensor_mean_or_std(torch, name):
    def program(lib):
        lib.manual_seed(0)
        mean = lib.tensor([0., 10., -3.], requires_grad=True)
        std = lib.tensor([1., 0.5, 2.], requires_grad=True)
        out = NORMAL_PROGRAMS[name](lib, mean, std)
        if out.grad_fn is None:
            return out
        saved = sorted(n for n in ("_saved_mean_sym_sizes", "_saved_std_sym_sizes") if n in dir(out.grad_fn))
        return (out, [getattr(out.grad_fn, n) for n in saved],
                lib.autograd.grad(out.sum(), (mean, std), allow_unused=True))
    same(torch, program)


def test_normal_with_tensor_mean_and_a_size(torch):
    ours, theirs = (outcome(lib, lambda lib: lib.normal(lib.zeros(3), 2., (3,))) for lib in (minigrad, torch))
    assert ours[0][0] == theirs[0][0] == "TypeError"
    assert ours[0][1] == theirs[0][1]


# --- a single bool in an index: an unsqueeze, then [0] or [] -----------------------------------------

def _chain(node):
    names = []
    while node is not None:
        names.append(node.name().split("::")[-1])
        node = next((f for f, _ in node.next_functions if f is not None), None)
    return names


BOOL_INDICES = {"[None, True]": (None, True), "[True, None]": (True, None), "[None, False]": (None, False),
                "[..., True]": (Ellipsis, True), "[True]": True, "[True, True]": (True, True),
                "[None, None, True]": (None, None, True), "[True, 0] of 1-d": (True, 0),
                "[tensor(True), None]": "tensor"}


@pytest.mark.parametrize("name", BOOL_INDICES)
@pytest.mark.parametrize("ndim", [0, 1])
def test_single_bool_index(torch, name, ndim):
    def program(lib):
        index = (lib.tensor(True), None) if BOOL_INDICES[name] == "tensor" else BOOL_INDICES[name]
        leaf = lib.tensor(3., requires_grad=True)
        x = leaf.reshape([1] * ndim)
        out = x[index]
        return out, _chain(out.grad_fn), lib.autograd.grad(out.sum(), leaf)[0]
    same(torch, program)


@pytest.mark.parametrize("index", [(None, True), (None, False), (True, None), True])
def test_writing_at_a_single_bool_index(torch, index):
    def program(lib):
        leaf = lib.tensor(3., requires_grad=True)
        value = lib.tensor(7., requires_grad=True)
        x = leaf * 1
        x[index] = value
        return x, _chain(x.grad_fn), lib.autograd.grad(x.sum(), (leaf, value), allow_unused=True)
    same(torch, program)


@pytest.mark.parametrize("function", ["exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt", "square"])
@pytest.mark.parametrize("view", ["t().unsqueeze(1)", "[:, ::2]", "t()[::2]"])
def test_layout_of_one_input_results(torch, function, view):
    def program(lib):
        x = lib.arange(1., 13.).reshape(3, 4)
        x = {"t().unsqueeze(1)": lambda: x.t().unsqueeze(1), "[:, ::2]": lambda: x[:, ::2],
             "t()[::2]": lambda: x.t()[::2]}[view]()
        return getattr(x, function)().stride()
    same(torch, program)


@pytest.mark.parametrize("seed", range(40))
def test_scatter_from_its_own_memory_random(torch, seed):
    """scatter_/scatter_add_ from a view of their own memory that isn't dense: PyTorch's order."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(size) for size in rng.integers(2, 5, 3))
    dim, order = int(rng.integers(0, 3)), rng.permutation(3).tolist()
    operation = ["scatter_", "scatter_add_"][int(rng.integers(0, 2))]
    which = int(rng.integers(0, 3))
    index_seed = int(rng.integers(0, 1 << 30))

    def program(lib):
        x = lib.arange(float(np.prod(shape))).reshape([shape[i] for i in order])
        x = x.permute(*np.argsort(order).tolist())
        src = [x[:, :, ::2], x[::2], x[:, ::2]][which]
        index_shape = [min(a, b) for a, b in zip(src.shape, x.shape)]
        draw = np.random.default_rng(index_seed)
        index_shape[dim] = int(draw.integers(1, src.shape[dim] + 1))
        index = lib.tensor(draw.integers(0, x.shape[dim], index_shape).tolist())
        return getattr(x, operation)(dim, index, src)
    same(torch, program)


def test_scatter_add_from_its_own_memory_recorded(torch):
    def program(lib):
        leaf = lib.arange(12., dtype=lib.float64).reshape(3, 4).requires_grad_()
        x = leaf * 1
        x.scatter_add_(1, lib.tensor([[2, 3], [3, 3], [0, 1]]), x[:, ::2])
        grad_fn = x.grad_fn.name()
        return x.detach(), grad_fn
    same(torch, program)


# --- dtypes a factory has no kernel for, and arange into integers -------------------------------
@pytest.mark.parametrize("program", [
    lambda L: L.rand(2, dtype=L.int64), lambda L: L.rand(2, dtype=L.bool),
    lambda L: L.randn(2, dtype=L.int32), lambda L: L.randn(3, dtype=L.uint8),
    lambda L: L.randperm(3, dtype=L.bool), lambda L: L.linspace(0, 1, 3, dtype=L.bool),
    lambda L: L.arange(3, dtype=L.bool), lambda L: L.tensor([True]).cumsum(0, dtype=L.bool),
    lambda L: L.tensor([1., 2.]).cumprod(0, dtype=L.bool),
    lambda L: (L.manual_seed(0), L.rand(5, dtype=L.float16))[1],         # float32 numbers, rounded
    lambda L: (L.manual_seed(0), L.randn(5, dtype=L.float16))[1],
])
def test_factories_refuse_dtypes_without_a_kernel(torch, program):
    same(torch, program)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "int8"])
@pytest.mark.parametrize("start, end, step", [
    (0, 5, 1.5), (0.5, 5, 1.5), (0, 2.5, 1), (-0.5, 3, 0.9), (0, 1, 0.5), (-2.5, -3, -0.9),
    (3.7, -3, -1.5), (-2.5, -0.5, 0.5), (0, 300, 7)])
def test_arange_into_integers_truncates_as_torch(torch, dtype, start, end, step):
    same(torch, lambda L: L.arange(start, end, step, dtype=getattr(L, dtype)))


# --- huber_loss's weight: PyTorch's Python steps, and its size check ----------------------------
@pytest.mark.parametrize("reduction", ["mean", "sum", "none", "bogus"])
@pytest.mark.parametrize("weight", [[1., 1., 1.], [[1., 2., 3.], [0.5, 0., 1.]], [[1., 2., 3.]]])
def test_huber_loss_with_a_weight(torch, reduction, weight):
    def program(lib):
        x = lib.tensor([[0.5, 2.0, -3.0], [1.0, 0.2, 0.0]], requires_grad=True)
        out = lib.nn.functional.huber_loss(x, lib.zeros(2, 3), reduction=reduction, delta=1.5,
                                           weight=lib.tensor(weight))
        grad, = lib.autograd.grad(out.sum(), x)
        return out, out.grad_fn.next_functions[0][0].name(), grad
    same(torch, program)


# --- the sign of sqrt's NaN (a random program found it through copysign) ------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("in_place", [False, True])
def test_the_nan_of_a_negative_square_root_has_torch_sign(torch, dtype, in_place):
    def program(lib):
        x = lib.tensor([-1., -0., float("-inf"), float("nan"), -float("nan"), 4.],
                       dtype=getattr(lib, dtype))
        root = x.sqrt_() if in_place else x.sqrt()
        return root.signbit(), lib.ones(6, dtype=getattr(lib, dtype)).copysign(root)
    same(torch, program)


# --- the stacks numpy has (hstack, vstack, dstack, column_stack) and atleast_Nd -----------------
def _stacking_inputs(lib):
    vector = lib.tensor([1., 2., 3.], requires_grad=True)
    matrix = lib.arange(6.).reshape(2, 3).requires_grad_()
    number = lib.tensor(2., requires_grad=True)
    return vector, matrix, number


@pytest.mark.parametrize("program", [
    lambda L, v, m, s: L.hstack([v, v * 2]), lambda L, v, m, s: L.hstack((m, m)),
    lambda L, v, m, s: L.hstack((s, s)), lambda L, v, m, s: L.vstack([v, m]),
    lambda L, v, m, s: L.row_stack([v, v]), lambda L, v, m, s: L.dstack([m, m]),
    lambda L, v, m, s: L.dstack([s, v]), lambda L, v, m, s: L.column_stack([v, v]),
    lambda L, v, m, s: L.column_stack([s, s]), lambda L, v, m, s: L.column_stack([m, m.t()]),
    lambda L, v, m, s: L.atleast_1d(s), lambda L, v, m, s: L.atleast_2d(v),
    lambda L, v, m, s: L.atleast_2d(s), lambda L, v, m, s: L.atleast_3d(v),
    lambda L, v, m, s: L.atleast_3d(m), lambda L, v, m, s: L.atleast_3d(s),
    lambda L, v, m, s: L.atleast_1d(v) is v, lambda L, v, m, s: L.atleast_2d(v, m),
    lambda L, v, m, s: L.atleast_3d([v, s]),
    lambda L, v, m, s: L.hstack([v, m]), lambda L, v, m, s: L.hstack([]),
    lambda L, v, m, s: L.hstack(v), lambda L, v, m, s: L.vstack([v, 3]),
])
def test_stacks_and_atleast_as_torch(torch, program):
    def run(lib):
        out = program(lib, *_stacking_inputs(lib))
        if isinstance(out, lib.Tensor):        # the graph and the gradient of every input
            inputs = _stacking_inputs(lib)
            out = program(lib, *inputs)
            grads = lib.autograd.grad((out * out).sum(), inputs, allow_unused=True)
            return out, [n and n.name() for n, _ in out.grad_fn.next_functions], grads
        return out
    same(torch, run)


def test_atleast_1d_of_a_number_is_refused_as_torch(torch):
    def first_line(lib):       # (PyTorch lists its two signatures on the lines after)
        with pytest.raises(TypeError) as error:
            lib.atleast_1d(3)
        return str(error.value).splitlines()[0]
    assert first_line(minigrad) == first_line(torch)


# --- selections that PyTorch's kernels refuse for bools (a random program found kthvalue) -------
@pytest.mark.parametrize("program", [
    lambda L: L.tensor([False, True, False]).kthvalue(1),
    lambda L: L.tensor([False, True, False]).kthvalue(5),
    lambda L: L.tensor(True).kthvalue(1),
    lambda L: L.tensor([False, True]).median(),
    lambda L: L.tensor([False, True]).median(0),
    lambda L: L.tensor([False, True]).median(5),
    lambda L: L.tensor([False, True]).nanmedian(0),
    lambda L: L.tensor(True).median(0),
    lambda L: L.tensor([False, True]).topk(1),
    lambda L: L.tensor(True).topk(1),
])
def test_bool_selections_as_torch(torch, program):
    same(torch, program)


# --- take and put_ on a tensor without elements (a random program found take's message) ---------
@pytest.mark.parametrize("program", [
    lambda L: L.zeros(0).take(L.tensor([0])), lambda L: L.zeros(0).take(L.tensor([], dtype=L.int64)),
    lambda L: L.zeros(0, 3).take(L.tensor([[0]])),
    lambda L: L.zeros(0).put(L.tensor([0]), L.tensor([1.])),
    lambda L: L.zeros(0).put_(L.tensor([], dtype=L.int64), L.tensor([])),
    lambda L: L.ones(3).take(L.tensor([5])),
])
def test_take_and_put_of_nothing_as_torch(torch, program):
    same(torch, program)
