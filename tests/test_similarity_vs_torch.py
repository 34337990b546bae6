"""normalize, cosine_similarity and pairwise_distance against PyTorch: values to the last bit,
the recorded graph (names and next_functions, all the way down), gradients, gradcheck, the
errors for bad input, and the modules' printing."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck

from conftest import import_torch


def graph(grad_fn):
    """The graph below ``grad_fn`` as nested (name, children) pairs, in next_functions order."""
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(child) for child, _ in grad_fn.next_functions))


def run(lib, program, arrays, dtype):
    """``program(lib, *inputs)`` on fresh leaves; the result, its graph and the leaves' grads."""
    leaves = [lib.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    out = program(lib, *leaves)
    weights = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)).astype(dtype))
    (out * weights).sum().backward()
    return out.detach().numpy(), graph(out.grad_fn), [None if leaf.grad is None else leaf.grad.numpy() for leaf in leaves]


PROGRAMS = {
    "normalize": (lambda L, x: L.nn.functional.normalize(x), [(3, 4)]),
    "normalize_dim0_p1": (lambda L, x: L.nn.functional.normalize(x, p=1, dim=0), [(3, 4)]),
    "normalize_p3_eps": (lambda L, x: L.nn.functional.normalize(x, 3.0, -1, 1e-3), [(2, 3, 4)]),
    "normalize_inf": (lambda L, x: L.nn.functional.normalize(x, float("inf"), 1), [(2, 5)]),
    "cosine_similarity": (lambda L, x, y: L.nn.functional.cosine_similarity(x, y), [(3, 4), (3, 4)]),
    "cosine_broadcast": (lambda L, x, y: L.nn.functional.cosine_similarity(x, y, dim=-1), [(3, 4), (1, 4)]),
    "cosine_dim0": (lambda L, x, y: L.cosine_similarity(x, y, 0), [(5, 2), (5, 2)]),
    "cosine_1d": (lambda L, x, y: L.cosine_similarity(x, y, dim=0, eps=1e-3), [(6,), (6,)]),
    "pairwise_distance": (lambda L, x, y: L.nn.functional.pairwise_distance(x, y), [(3, 4), (3, 4)]),
    "pairwise_broadcast": (lambda L, x, y: L.pairwise_distance(x, y, keepdim=True), [(3, 4), (4,)]),
    "pairwise_p1": (lambda L, x, y: L.pairwise_distance(x, y, 1.0, 1e-3), [(2, 3, 4), (2, 3, 4)]),
    "pairwise_p3": (lambda L, x, y: L.pairwise_distance(x, y, p=3), [(4, 2), (4, 2)]),
    "pairwise_inf": (lambda L, x, y: L.pairwise_distance(x, y, p=float("inf")), [(4, 3), (4, 3)]),
    "module_cosine": (lambda L, x, y: L.nn.CosineSimilarity(dim=1, eps=1e-6)(x, y), [(3, 4), (3, 4)]),
    "module_pairwise": (lambda L, x, y: L.nn.PairwiseDistance(p=2.0, keepdim=True)(x, y), [(3, 4), (3, 4)]),
}


def _arrays(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for shape in shapes]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_graph_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    program, shapes = PROGRAMS[name]
    arrays = _arrays(shapes)
    ours, theirs = run(minigrad, program, arrays, dtype), run(torch, program, arrays, dtype)
    np.testing.assert_array_equal(ours[0], theirs[0])          # to the last bit
    assert ours[0].dtype == theirs[0].dtype
    assert ours[1] == theirs[1]
    for our_grad, their_grad in zip(ours[2], theirs[2]):
        tolerance = 1e-6 if dtype == np.float32 else 1e-14
        np.testing.assert_allclose(our_grad, their_grad, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gradcheck_in_float64(name):
    program, shapes = PROGRAMS[name]
    inputs = [minigrad.tensor(a, requires_grad=True) for a in _arrays(shapes, seed=1)]
    assert gradcheck(lambda *xs: program(minigrad, *xs), inputs)


def test_zero_vectors_as_torch():
    """eps keeps a zero vector's direction at zero; its gradient matches PyTorch's."""
    torch = import_torch()
    arrays = [np.zeros((2, 3)), np.array([[0., 0., 0.], [1., 2., 3.]])]
    for program in (lambda L, x, y: L.nn.functional.normalize(x),
                    lambda L, x, y: L.cosine_similarity(x, y),
                    lambda L, x, y: L.pairwise_distance(x, x)):
        ours, theirs = run(minigrad, program, arrays, np.float64), run(torch, program, arrays, np.float64)
        # (the 2-norm of [eps, eps, eps] differs from PyTorch's in the last bit: minigrad's norm
        # sums the squares and takes the root, PyTorch's kernel rounds differently here)
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-15, atol=0)
        assert ours[1] == theirs[1]
        for our_grad, their_grad in zip(ours[2], theirs[2]):
            assert (our_grad is None) == (their_grad is None)
            if our_grad is not None:
                np.testing.assert_allclose(our_grad, their_grad, rtol=1e-15, atol=0)


def test_integer_inputs_as_torch():
    torch = import_torch()
    for lib in (minigrad, torch):
        a, b = lib.tensor([1, 2, 3]), lib.tensor([3, 2, 1])
        out = lib.pairwise_distance(a, b)
        if lib is minigrad:
            ours = (out.item(), str(out.dtype))
        else:
            theirs = (out.item(), str(out.dtype))
    assert ours == theirs


def test_saved_attributes_of_pairwise_norm_as_torch():
    torch = import_torch()
    nodes = [lib.pairwise_distance(lib.ones(2, 3, requires_grad=True), lib.zeros(2, 3)).grad_fn
             for lib in (minigrad, torch)]
    assert [type(n).__name__ for n in nodes] == ["NormBackward1", "NormBackward1"]

    def settings(node):
        names = [name for name in dir(node) if name.startswith("_saved_")]
        return names, [getattr(node, name) for name in names if name not in ("_saved_self", "_saved_result")]
    assert settings(nodes[0]) == settings(nodes[1])


@pytest.mark.parametrize("rows", [3, 30])
def test_saved_attributes_of_cdist_as_torch(rows):
    torch = import_torch()
    nodes = []
    for lib in (minigrad, torch):
        node = lib.cdist(lib.ones(rows, 3, requires_grad=True), lib.zeros(2, 3), p=2.0).grad_fn
        node = node.next_functions[0][0] if rows > 25 else node      # (below a ViewBackward0)
        nodes.append((type(node).__name__, [name for name in dir(node) if name.startswith("_saved_")]))
    assert nodes[0] == nodes[1]


def _error(program, lib):
    try:
        program(lib)
    except Exception as error:
        return type(error).__name__, str(error).splitlines()[0]
    return None


BAD_INPUTS = [
    lambda L: L.cosine_similarity(L.tensor([1, 2]), L.tensor([3, 4]), 0),
    lambda L: L.cosine_similarity(L.ones(3, 4), L.ones(2, 4)),
    lambda L: L.cosine_similarity(L.ones(3, 4), L.ones(3, 4), dim=5),
    lambda L: L.nn.functional.normalize(L.tensor([1, 2, 3]), dim=0),
    lambda L: L.nn.functional.normalize(L.ones(3, 4), dim=2),
    lambda L: L.pairwise_distance(L.ones(3, 4), L.ones(2, 4)),
]


@pytest.mark.parametrize("index", range(len(BAD_INPUTS)))
def test_bad_input_as_torch(index):
    torch = import_torch()
    ours, theirs = _error(BAD_INPUTS[index], minigrad), _error(BAD_INPUTS[index], torch)
    assert theirs is not None
    assert ours == theirs


@pytest.mark.parametrize("make", [
    lambda nn: nn.CosineSimilarity(), lambda nn: nn.CosineSimilarity(dim=0, eps=1e-3),
    lambda nn: nn.PairwiseDistance(), lambda nn: nn.PairwiseDistance(p=1.0, eps=0.0, keepdim=True),
    lambda nn: nn.Sequential(nn.Linear(2, 2), nn.PairwiseDistance()),
])
def test_module_printing_and_settings_as_torch(make):
    torch = import_torch()
    ours, theirs = make(minigrad.nn), make(torch.nn)
    assert repr(ours) == repr(theirs)
    for name in ("dim", "eps", "norm", "keepdim"):
        assert getattr(ours, name, None) == getattr(theirs, name, None)


BAD_ARGUMENTS = [
    lambda L: L.cosine_similarity([1.], L.ones(3)),
    lambda L: L.cosine_similarity(L.ones(3), None),
    lambda L: L.cosine_similarity(L.ones(3, 4), L.ones(3, 4), 1.5),
    lambda L: L.cosine_similarity(L.ones(3, 4), L.ones(3, 4), dim=1.5),
    lambda L: L.cosine_similarity(L.ones(3, 4), L.ones(3, 4), eps="a"),
    lambda L: L.nn.functional.cosine_similarity(L.ones(3, 4), L.ones(3, 4), 1, None),
    lambda L: L.pairwise_distance(L.ones(3, 4), "a"),
    lambda L: L.nn.functional.pairwise_distance(L.ones(3, 4), L.ones(3, 4), "a"),
    lambda L: L.pairwise_distance(L.ones(3, 4), L.ones(3, 4), eps=None),
    lambda L: L.pairwise_distance(L.ones(3, 4), L.ones(3, 4), 2, 1e-6, 1),
    lambda L: L.pairwise_distance(L.ones(3, 4), L.ones(3, 4), keepdim=1),
    lambda L: L.nn.functional.normalize([1., 2.]),
]


@pytest.mark.parametrize("index", range(len(BAD_ARGUMENTS)))
def test_bad_arguments_as_torch(index):
    torch = import_torch()
    ours, theirs = _error(BAD_ARGUMENTS[index], minigrad), _error(BAD_ARGUMENTS[index], torch)
    assert theirs is not None
    assert ours == theirs


def test_numbers_of_other_kinds_accepted_as_torch():
    torch = import_torch()
    values = []
    for lib in (minigrad, torch):
        x = lib.tensor([[1., 2., 3.], [0., 1., 0.]])
        values.append([lib.pairwise_distance(x, x.flip(0), True).tolist(),
                       lib.pairwise_distance(x, x.flip(0), 1, 0).tolist(),
                       lib.cosine_similarity(x, x.flip(0), -1, 0).tolist()])
    assert values[0] == values[1]


SECOND_ORDER = {
    "normalize": lambda L, x, y: L.nn.functional.normalize(x) * y,
    "cosine_similarity": lambda L, x, y: L.cosine_similarity(x, y),
    "pairwise_distance": lambda L, x, y: L.pairwise_distance(x, y),
    "pairwise_distance_p3": lambda L, x, y: L.pairwise_distance(x, y, 3),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order_as_torch(name):
    """The gradient's own graph (create_graph=True) and the second derivatives are PyTorch's."""
    torch = import_torch()
    a, b = _arrays([(3, 4), (3, 4)], seed=2)
    results = []
    for lib in (minigrad, torch):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        grad_x, grad_y = lib.autograd.grad(SECOND_ORDER[name](lib, x, y).sum(), (x, y), create_graph=True)
        second = lib.autograd.grad((grad_x * grad_x).sum() + grad_y.sum(), (x, y))
        results.append((graph(grad_x.grad_fn), [t.numpy() for t in second]))
    assert results[0][0] == results[1][0]
    for ours, theirs in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-14)


def test_normalize_into_out_as_torch():
    torch = import_torch()
    a = _arrays([(3, 4)])[0]
    results = []
    for lib in (minigrad, torch):
        out = lib.empty(3, 4, dtype=lib.float64)
        returned = lib.nn.functional.normalize(lib.tensor(a), out=out)
        results.append((returned is out, out.numpy().copy()))
    assert results[0][0] and results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_forward_mode_as_torch(name):
    torch = import_torch()
    a, b, tangent_a, tangent_b = _arrays([(3, 4)] * 4, seed=3)
    tangents = []
    for lib in (minigrad, torch):
        forward_ad = lib.autograd.forward_ad
        with forward_ad.dual_level():
            x = forward_ad.make_dual(lib.tensor(a), lib.tensor(tangent_a))
            y = forward_ad.make_dual(lib.tensor(b), lib.tensor(tangent_b))
            tangents.append(forward_ad.unpack_dual(SECOND_ORDER[name](lib, x, y)).tangent.numpy())
    np.testing.assert_allclose(tangents[0], tangents[1], rtol=1e-13, atol=1e-14)


CDIST_SHAPES = [((3, 4), (5, 4)), ((2, 3, 4), (1, 5, 4)), ((3, 4), (2, 5, 4)), ((0, 4), (2, 4))]


@pytest.mark.parametrize("p", [0, 1, 1.5, 2, 3, float("inf")])
@pytest.mark.parametrize("shapes", CDIST_SHAPES)
def test_cdist_as_torch(shapes, p):
    torch = import_torch()
    arrays = _arrays(shapes, seed=4)
    program = lambda L, x, y: L.cdist(x, y, p)      # noqa: E731
    for dtype in (np.float32, np.float64):
        ours, theirs = run(minigrad, program, arrays, dtype), run(torch, program, arrays, dtype)
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6 if dtype == np.float32 else 1e-15)
        assert ours[1] == theirs[1]
        for our_grad, their_grad in zip(ours[2], theirs[2]):
            tolerance = 1e-5 if dtype == np.float32 else 1e-14
            np.testing.assert_allclose(our_grad, their_grad, rtol=tolerance, atol=tolerance)
    if p not in (0, float("inf")):        # (piecewise constant / a max: finite differences disagree)
        inputs = [minigrad.tensor(a, requires_grad=True) for a in arrays]
        assert gradcheck(lambda x, y: minigrad.cdist(x, y, p), inputs)


def test_cdist_second_order_refused_as_torch():
    torch = import_torch()
    errors = []
    for lib in (minigrad, torch):
        x = lib.tensor(_arrays([(3, 4)])[0], requires_grad=True)
        (grad,) = lib.autograd.grad(lib.cdist(x, lib.ones(2, 4, dtype=lib.float64), p=1.5).sum(), x,
                                    create_graph=True)
        errors.append((type(grad.grad_fn).__name__, _error(lambda L: grad.sum().backward(), lib)))
    assert errors[0] == errors[1]


CDIST_BAD_INPUTS = [
    lambda L: L.cdist(L.ones(3), L.ones(3, 3)),
    lambda L: L.cdist(L.ones(3, 3), L.ones(3)),
    lambda L: L.cdist(L.ones(2, 3), L.ones(3, 4)),
    lambda L: L.cdist(L.ones(2, 3), L.ones(3, 3), p=-1),
    lambda L: L.cdist(L.ones(2, 3, dtype=L.long), L.ones(3, 3, dtype=L.long)),
    lambda L: L.cdist(L.ones(2, 3), L.ones(3, 3, dtype=L.float64)),
    lambda L: L.cdist(L.ones(2, 3), L.ones(3, 3), compute_mode="x"),
    lambda L: L.cdist(L.ones(2, 2, 3), L.ones(3, 3, 3)),
]


@pytest.mark.parametrize("index", range(len(CDIST_BAD_INPUTS)))
def test_cdist_bad_input_as_torch(index):
    torch = import_torch()
    ours, theirs = _error(CDIST_BAD_INPUTS[index], minigrad), _error(CDIST_BAD_INPUTS[index], torch)
    assert theirs is not None
    assert ours == theirs


EUCLIDEAN_BY_MATRIX_PRODUCT = [((30, 4), (5, 4), None), ((3, 4), (5, 4), "use_mm_for_euclid_dist"),
                               ((2, 30, 4), (1, 26, 4), None), ((2, 30, 4), (2, 26, 4), None),
                               ((30, 4), (5, 4), "donot_use_mm_for_euclid_dist")]


@pytest.mark.parametrize("shape1, shape2, mode", EUCLIDEAN_BY_MATRIX_PRODUCT)
def test_cdist_by_matrix_product_as_torch(shape1, shape2, mode):
    """Many rows: PyTorch's matrix-product formula, its graph and its gradient's graph."""
    torch = import_torch()
    a, b = _arrays([shape1, shape2], seed=5)
    results = []
    for lib in (minigrad, torch):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        out = lib.cdist(x, y, compute_mode=mode) if mode else lib.cdist(x, y)
        weights = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)))
        grad_x, grad_y = lib.autograd.grad((out * weights).sum(), (x, y), create_graph=True)
        results.append((graph(out.grad_fn), graph(grad_x.grad_fn), graph(grad_y.grad_fn),
                        [t.detach().numpy() for t in (out, grad_x, grad_y)]))
    assert results[0][:3] == results[1][:3]
    for ours, theirs in zip(results[0][3], results[1][3]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-13)
    inputs = [minigrad.tensor(a, requires_grad=True), minigrad.tensor(b, requires_grad=True)]
    assert gradcheck(lambda x, y: minigrad.cdist(x, y, compute_mode=mode or "use_mm_for_euclid_dist"), inputs)


@pytest.mark.parametrize("p", [0, 0.5, -1, float("-inf"), -2.5])
def test_pairwise_distance_below_one_as_torch(p):
    """PyTorch's older norm takes p < 1 (p = 0 counts, -inf is the smallest |x|)."""
    torch = import_torch()
    a = np.array([[1., 0., 3.], [0.5, 2., 0.], [-1., 2., -3.]])
    b = np.array([[0., 0., 0.], [0., 1., 0.], [0.5, 0.25, 2.]])
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(a, requires_grad=True)
        out = lib.pairwise_distance(x, lib.tensor(b), p, eps=0.0)
        out.sum().backward()
        results.append((out.tolist(), type(out.grad_fn).__name__, None if x.grad is None else x.grad.tolist()))
    assert results[0][:2] == results[1][:2]
    assert (results[0][2] is None) == (results[1][2] is None)
    if results[0][2] is not None:
        np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("name", ["normalize", "cosine_similarity", "pairwise_distance", "cdist", "cdist_p1"])
def test_under_vmap_as_torch(name):
    torch = import_torch()
    program = {
        "normalize": lambda L, x, y: L.nn.functional.normalize(x, dim=-1),
        "cosine_similarity": lambda L, x, y: L.cosine_similarity(x, y, dim=-1),
        "pairwise_distance": lambda L, x, y: L.pairwise_distance(x, y),
        "cdist": lambda L, x, y: L.cdist(x, y),
        "cdist_p1": lambda L, x, y: L.cdist(x, y, p=1),
    }[name]
    a, b = _arrays([(5, 3, 4), (5, 3, 4)], seed=6)
    ours, theirs = [lib.vmap(lambda x, y: program(lib, x, y))(lib.tensor(a), lib.tensor(b)).numpy()
                    for lib in (minigrad, torch)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-14, atol=1e-15)
