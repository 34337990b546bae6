"""The shortcuts a training step takes (relu, matrix products, cross_entropy, the update)
give exactly what the general paths give, and what PyTorch gives.

Each shortcut in the layer-by-layer training step (benchmark W1) skips work only
when nothing can tell the difference: these tests pin the cases it could get wrong
(signed zeros, NaN, dtypes, create_graph, hooks, saved-tensor hooks).
"""
import numpy as np
import pytest

import minigrad

SPECIAL_VALUES = [-0.0, 0.0, np.nan, -np.nan, np.inf, -np.inf, 1.5, -1.5, 1e-45, -1e-45]


def bits(array):
    """The raw bits of a float array, so that -0.0 != 0.0 and NaN == NaN in comparisons."""
    array = np.ascontiguousarray(array)
    return array.view(f"u{array.dtype.itemsize}")


# --- relu's forward ----------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("size", [1, 7, 8, 33, 1000])
def test_relu_gives_pytorchs_values_bit_for_bit(dtype, size):
    """relu compares with an array of zeros (faster); the values are PyTorch's: only a
    negative input becomes +0.0, -0.0 and NaN stay as they are."""
    values = np.random.default_rng(size).choice(np.array(SPECIAL_VALUES), size).astype(dtype)
    out = minigrad.tensor(values).relu()
    expected = np.where(values < 0, values.dtype.type(0), values)
    assert bits(out.numpy()).tolist() == bits(expected).tolist()


def test_relu_of_integers_zero_d_and_transposed_tensors():
    ints = minigrad.tensor([[-2, 3], [4, -5]])
    assert ints.relu().tolist() == [[0, 3], [4, 0]] and ints.relu().dtype == minigrad.int64
    assert minigrad.tensor(-1.5).relu().item() == 0.0 and minigrad.tensor(-1.5).relu().shape == ()
    assert ints.t().relu().tolist() == [[0, 4], [3, 0]]


def test_relu_result_is_new_memory_and_saved_for_backward(torch):
    for library in (minigrad, torch):
        x = library.tensor([-1.0, 2.0], requires_grad=True)
        y = x.relu()
        assert y.grad_fn._saved_result.tolist() == [0.0, 2.0]
        y.backward(library.tensor([5.0, 7.0]))
        assert x.grad.tolist() == [0.0, 7.0] and x.tolist() == [-1.0, 2.0]


# --- matrix product's backward -----------------------------------------------------------------

def _mm_gradients(library, a_values, b_values, create_graph=False, dtype=None):
    a = library.tensor(a_values, requires_grad=True)
    b = library.tensor(b_values, requires_grad=True)
    out = a @ b
    grads = library.autograd.grad(out, (a, b), library.tensor(np.ones(out.shape, a_values.dtype)),
                                  create_graph=create_graph)
    return [g.detach().numpy() for g in grads]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mm_backward_without_create_graph_equals_the_recorded_one_bit_for_bit(torch, dtype):
    rng = np.random.default_rng(0)
    a_values, b_values = rng.standard_normal((5, 4)).astype(dtype), rng.standard_normal((4, 3)).astype(dtype)
    plain = _mm_gradients(minigrad, a_values, b_values)
    recorded = _mm_gradients(minigrad, a_values, b_values, create_graph=True)
    for ours, again in zip(plain, recorded):
        assert bits(ours).tolist() == bits(again).tolist()
    for ours, theirs in zip(plain, _mm_gradients(torch, a_values, b_values)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_mm_backward_computes_only_the_gradients_asked_for():
    x = minigrad.randn(3, 4)
    w = minigrad.randn(4, 2, requires_grad=True)
    (x @ w).sum().backward()
    assert x.grad is None and w.grad.shape == (4, 2)
    np.testing.assert_allclose(w.grad.numpy(), x.numpy().T @ np.ones((3, 2), np.float32), rtol=1e-6)


def test_mm_backward_with_create_graph_still_records(torch):
    for library in (minigrad, torch):
        a = library.tensor([[1.0, 2.0]], requires_grad=True)
        b = library.tensor([[3.0], [4.0]], requires_grad=True)
        (grad_a,) = library.autograd.grad((a @ b).sum(), a, create_graph=True)
        assert type(grad_a.grad_fn).__name__ == "MmBackward0"
        grad_a.sum().backward()
        assert b.grad.tolist() == [[1.0], [1.0]]


def test_mm_backward_with_a_hook_changing_the_gradients_dtype_raises_pytorchs_error(torch):
    messages = []
    for library in (minigrad, torch):
        a = library.tensor([[1.0, 2.0]], requires_grad=True)
        b = library.tensor([[3.0], [4.0]], requires_grad=True)
        out = a @ b
        out.register_hook(lambda grad: grad.double())
        with pytest.raises(RuntimeError) as error:
            out.sum().backward()
        messages.append(str(error.value).split("\n")[0])
    assert messages[0] == messages[1]


def test_mm_backward_with_saved_tensor_hooks_sees_what_unpack_returns(torch):
    grads = []
    for library in (minigrad, torch):
        a = library.tensor([[1.0, 2.0]], requires_grad=True)
        b = library.tensor([[3.0], [4.0]], requires_grad=True)
        with library.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * 2):
            out = a @ b
        out.sum().backward()
        grads.append((a.grad.tolist(), b.grad.tolist()))
    assert grads[0] == grads[1]


def test_mm_backward_with_a_saved_tensor_hook_returning_a_wrong_shape_raises_pytorchs_error(torch):
    errors = []
    for library in (minigrad, torch):
        a = library.tensor([[1.0, 2.0]], requires_grad=True)
        b = library.tensor([[3.0], [4.0]], requires_grad=True)
        with library.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.reshape(-1)[:1].reshape(1, 1)):
            out = a @ b
        with pytest.raises(RuntimeError) as error:
            out.sum().backward()
        errors.append(str(error.value).split("\n")[0])
    assert errors[0] == errors[1]


# --- AccumulateGrad: the first gradient and PyTorch's layout contract ---------------------------

def _leaves(library):
    """Leaves laid out in memory in different ways."""
    return {
        "row-major": library.randn(3, 2).requires_grad_(),
        "transposed": library.randn(4, 3).t().detach().requires_grad_(),
        "permuted": library.randn(2, 3, 4).permute(2, 0, 1).detach().requires_grad_(),
        "sliced with a step": library.randn(4, 6)[:, ::2].detach().requires_grad_(),
        "permuted with a size-1 dim": library.randn(1, 3, 2).permute(2, 0, 1).detach().requires_grad_(),
    }


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
@pytest.mark.parametrize("name", ["row-major", "transposed", "permuted", "sliced with a step",
                                  "permuted with a size-1 dim"])
def test_the_first_grad_is_laid_out_like_its_leaf_as_in_pytorch(torch, name):
    """A gradient kept as .grad must step through memory as the leaf does (if the leaf's elements
    fill one block, else be contiguous); a copied one is made so (CloneBackward0 when recorded
    for a leaf that does not fill one block)."""
    seen = []
    for library in (minigrad, torch):
        w = _leaves(library)[name]
        steps = []
        (w * 2).sum().backward()                          # the engine's own gradient
        steps.append(w.grad.stride())
        w.grad = None
        w.backward(library.ones(*w.shape) * 3)                # the caller's gradient
        steps.append((w.grad.stride(), w.grad.tolist()))
        w.grad = None
        (w * w).sum().backward(create_graph=True)             # recorded
        steps.append((w.grad.stride(), type(w.grad.grad_fn).__name__, w.grad.requires_grad))
        w.grad.sum().backward()
        steps.append(w.grad.stride())
        seen.append(steps)
    assert seen[0] == seen[1]


def test_later_gradients_are_added_in_place_into_the_same_grad(torch):
    for library in (minigrad, torch):
        w = library.randn(4, 3).t().detach().requires_grad_()
        (w * 2).sum().backward()
        grad, version = w.grad, w.grad._version
        (w * 3).sum().backward()
        assert w.grad is grad and w.grad._version == version + 1 and w.grad.stride() == (1, 3)
        assert w.grad.tolist() == [[5.0] * 4] * 3
        w.grad.zero_()
        (w * 2).sum().backward()
        assert w.grad is grad and w.grad.tolist() == [[2.0] * 4] * 3


# --- cross_entropy: the check that every label is a class ---------------------------------------

@pytest.mark.parametrize("labels", [[0, 2, 1], [0, -1, 1], [0, 3, 1], [-100, 2, 1], [-2**63, 2, 1]])
def test_cross_entropy_with_labels_outside_the_classes_matches_pytorch(torch, labels):
    """Every label is checked in one pass (negative labels read as unsigned are huge)."""
    logits = np.random.default_rng(2).standard_normal((3, 3)).astype(np.float32)
    outcomes = []
    for library in (minigrad, torch):
        x = library.tensor(logits, requires_grad=True)
        try:
            loss = library.nn.functional.cross_entropy(x, library.tensor(labels))
            loss.backward()
            outcomes.append((round(loss.item(), 5), np.round(x.grad.numpy(), 5).tolist()))
        except IndexError as error:
            outcomes.append(("IndexError", str(error).split("\n")[0]))
    assert outcomes[0] == outcomes[1]


def test_nll_loss_with_byte_labels_matches_pytorch(torch):
    logp = np.log(np.array([[0.2, 0.8], [0.6, 0.4]], dtype=np.float32))
    results = []
    for library in (minigrad, torch):
        x = library.tensor(logp, requires_grad=True)
        loss = library.nn.functional.nll_loss(x, library.tensor([1, 0], dtype=library.uint8))
        loss.backward()
        results.append((loss.item(), x.grad.tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize("weights", [None, [1.0, 1.0], [1e-3, 2e-3], [0.0, 0.0]])
@pytest.mark.parametrize("labels", [[1, 0], [-100, -100]])
def test_nll_loss_backward_for_any_total_weight_matches_pytorch_without_warnings(torch, weights, labels):
    """The mean's division skips numpy's errstate when the total weight is at least 1; below
    it (small class weights, every label ignored: 0 / 0) the gradient is PyTorch's, silently."""
    import warnings
    logp = np.log(np.array([[0.2, 0.8], [0.6, 0.4]], dtype=np.float32))
    results = []
    for library in (minigrad, torch):
        x = library.tensor(logp, requires_grad=True)
        weight = None if weights is None else library.tensor(weights)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            loss = library.nn.functional.nll_loss(x, library.tensor(labels), weight=weight)
            grad, = library.autograd.grad(loss, x, library.tensor(3e38))
        results.append((bits(loss.detach().numpy()).tolist(), bits(grad.numpy()).tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize("which", ["input", "target"])
def test_cross_entropy_of_something_not_a_tensor_raises_pytorchs_type_error(torch, which):
    messages = []
    for library in (minigrad, torch):
        arguments = {"input": library.zeros(2, 3), "target": library.tensor([0, 1])}
        arguments[which] = np.zeros(2)
        with pytest.raises(TypeError) as error:
            library.nn.functional.cross_entropy(**arguments)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def _relu_inputs(library):
    return {"expanded rows": library.randn(3, 1).expand(3, 4),
            "expanded columns": library.randn(1, 4).expand(3, 4),
            "transposed": library.randn(3, 4).t(),
            "permuted": library.randn(2, 3, 4).permute(2, 0, 1),
            "sliced with a step": library.randn(4, 6)[:, ::2],
            "expanded and permuted": library.randn(2, 1, 4).expand(2, 3, 4).permute(1, 2, 0),
            "row-major": library.randn(3, 4)}


@pytest.mark.parametrize("name", ["expanded rows", "expanded columns", "transposed", "permuted",
                                  "sliced with a step", "expanded and permuted", "row-major"])
def test_relu_result_is_laid_out_as_in_pytorch(torch, name):
    assert _relu_inputs(minigrad)[name].relu().stride() == _relu_inputs(torch)[name].relu().stride()
