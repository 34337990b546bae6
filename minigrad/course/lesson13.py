"""Checks for lesson 13, debugging and memory: freed graphs, inference mode, checkpointing, NaNs,
module backward hooks.

Used from ``notebooks/13_debugging_and_memory.ipynb``::

    from minigrad.course import lesson13 as check
    check.exercise_1(answer)

Every check accepts minigrad tensors and real PyTorch tensors alike.
"""
import numpy as np

import minigrad

from ._check import (_is_tensor, _unanswered, _values, check_equal, check_number, check_raises,
                     right, waiting, wrong)

# Exercise 2: predictions of a tiny linear model, x @ w.
EXERCISE_2_X = [[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]]
EXERCISE_2_W = [2.0, -1.0]
EXERCISE_2_EXPECTED = [0.0, 2.0, -2.5]

# Exercise 3: a network of this many checkpointed blocks, one forward and one backward.
EXERCISE_3_BLOCKS = 5


def exercise_1(function):
    """A function that backpropagates twice through one graph, without retain_graph."""
    return check_raises(
        "Exercise 1", function, RuntimeError, message_contains="a second time",
        hint="Build a small graph whose backward needs a saved tensor (e.g. y = (x * x).sum() or "
             "torch.exp(x).sum()), then call y.backward() twice, with no retain_graph. "
             "(x + 1).sum() saves nothing, so it can run backward twice!",
        success="correct: the first backward freed the saved tensors; the second one needs them.")


def exercise_2(answer):
    """The predictions x @ w computed inside torch.inference_mode()."""
    name = "Exercise 2"
    if _unanswered(answer):
        return waiting(name)
    if not _is_tensor(answer):
        return wrong(name, f"expected a tensor, got {type(answer).__name__}.",
                     "Compute preds = x @ w inside `with torch.inference_mode():` and pass preds.")
    if tuple(answer.shape) != (3,) or not np.allclose(_values(answer), EXERCISE_2_EXPECTED):
        return wrong(name, f"the values should be {EXERCISE_2_EXPECTED}.",
                     "x has 3 rows: preds = x @ w gives one number per row.")
    if not answer.is_inference():
        return wrong(name, "the values are right, but this is not an inference tensor.",
                     "Did you use torch.no_grad()? Use `with torch.inference_mode():` instead.")
    return right(name, "correct: an inference tensor, with no graph and no version counter.")


def exercise_3(answer):
    """How many times the block function runs: once per block in forward, once more in backward."""
    blocks = EXERCISE_3_BLOCKS
    if not _unanswered(answer) and _is_number(answer, blocks):
        return wrong("Exercise 3", f"{blocks} is how often it runs in forward only.",
                     "With checkpointing, backward runs every block once more to recompute what "
                     "it did not save.")
    return check_number(
        "Exercise 3", answer, 2 * blocks,
        hint="Count the calls in forward (one per block), then in backward (checkpointing "
             "recomputes each block once).",
        success=f"correct: {blocks} calls in forward and {blocks} more in backward.")


def _is_number(answer, value):
    try:
        return float(answer.item() if _is_tensor(answer) else answer) == value
    except (TypeError, ValueError):
        return False


def exercise_4(answer):
    """The node anomaly detection names for the NaN in sqrt(sum(v ** 2)) at v = 0."""
    name = "Exercise 4"
    if _unanswered(answer):
        return waiting(name)
    answer = str(answer).strip()
    if answer in ("SqrtBackward0", "SumBackward0"):
        return wrong(name, f"{answer} returns inf or passes inf on, not NaN.",
                     "Run the code inside torch.autograd.detect_anomaly() and read the error: "
                     "which node turns inf into NaN (0 times inf)?")
    return check_equal(
        name, answer, "PowBackward0",
        hint="Run it inside `with torch.autograd.detect_anomaly():` and read the node name in "
             "\"Function '...' returned nan values\".",
        success="correct: sqrt's gradient at 0 is inf, and PowBackward0 computes 2 * v * inf "
                "= 0 * inf = NaN.")


# Exercise 5: bytes saved by (torch.sin(v) * v).sum() for a float32 v of this many elements.
EXERCISE_5_SIZE = 100
EXERCISE_5_EXPECTED = 3 * EXERCISE_5_SIZE * 4      # sin saves v; the product saves sin(v) and v


def exercise_5(answer):
    """The number of bytes the graph of (sin(v) * v).sum() saves, counted with pack hooks."""
    name = "Exercise 5"
    one = EXERCISE_5_SIZE * 4
    if not _unanswered(answer) and _is_number(answer, 3):
        return wrong(name, "3 is the number of saved tensors; the question asks for bytes.",
                     "In pack_hook, add tensor.numel() * tensor.element_size() to a total.")
    if not _unanswered(answer) and (_is_number(answer, one) or _is_number(answer, 2 * one)):
        return wrong(name, "some saved tensors are missing from the count.",
                     "Count inside the hooks: sin saves its input, and the product saves both "
                     "of its factors.")
    return check_number(
        name, answer, EXERCISE_5_EXPECTED,
        hint="Record the graph inside `with torch.autograd.graph.saved_tensors_hooks(pack, "
             "unpack):`, where pack adds tensor.numel() * tensor.element_size() to a total and "
             "returns the tensor, and unpack returns its argument.",
        success=f"correct: 3 tensors of {one} bytes: sin saves v, the product saves sin(v) and v.")


def _library_of(function):
    """The module the learner's function calls ``torch``: minigrad, or PyTorch after the switch."""
    library = getattr(function, "__globals__", {}).get("torch")
    return library if all(hasattr(library, name) for name in ("nn", "linspace", "no_grad")) \
        else minigrad


def _exercise_6_model(library):
    """Linear, Tanh, Linear, Tanh, Linear with fixed weights, and an input.

    The layers draw random weights when they are made; the learner's random numbers stay as
    they were (the generator's state is put back), and the weights are overwritten anyway.
    """
    nn = library.nn
    state = library.get_rng_state()
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 2))
    library.set_rng_state(state)
    with library.no_grad():
        for offset, parameter in enumerate(model.parameters()):
            values = library.linspace(-1.0, 1.0, parameter.numel()) * (0.9 - 0.1 * offset)
            parameter.copy_(values.reshape(parameter.shape).flip(0) if offset % 2 else
                            values.reshape(parameter.shape))
    x = library.linspace(-1.0, 1.0, 6).reshape(2, 3).requires_grad_()
    return model, x


def _exercise_6_expected(model, x, library):
    """Norms of the gradient at each Linear's output and input, found without hooks (retain_grad)."""
    h, outputs, inputs = x, {}, {}
    for name, module in model.named_children():
        if isinstance(module, library.nn.Linear):
            inputs[name] = h
        h = module(h)
        h.retain_grad()                        # every output: the next Linear's input too
        if isinstance(module, library.nn.Linear):
            outputs[name] = h
    h.sum().backward()
    norms = ({name: t.grad.norm().item() for name, t in outputs.items()},
             {name: t.grad.norm().item() for name, t in inputs.items()})
    for parameter in model.parameters():
        parameter.grad = None
    x.grad = None
    return norms


def _close_norms(answer, expected):
    try:
        return all(np.isclose(float(answer[name]), value, rtol=1e-4, atol=1e-7)
                   for name, value in expected.items())
    except (TypeError, ValueError, RuntimeError):
        return False


def exercise_6(function):
    """A function ``gradient_norms(model, x)``: {name: norm of grad_output} of every nn.Linear."""
    name = "Exercise 6"
    if _unanswered(function):
        return waiting(name)
    if not callable(function):
        return wrong(name, f"expected a function, got {type(function).__name__}.",
                     "Define it with `def gradient_norms(model, x): ...` and pass "
                     "`gradient_norms` (without parentheses).")
    library = _library_of(function)
    model, x = _exercise_6_model(library)
    at_outputs, at_inputs = _exercise_6_expected(model, x, library)
    try:
        answer = function(model, x)
    except Exception as error:   # noqa: BLE001 - we report whatever it raised
        return wrong(name, f"calling gradient_norms(model, x) raised {type(error).__name__}: "
                           f"{str(error)[:200]}")
    if not isinstance(answer, dict):
        return wrong(name, f"expected a dict, got {type(answer).__name__}.",
                     "Fill a dict in the hook: norms[name] = grad_output[0].norm().item(), "
                     "and return it.")
    if set(answer) != set(at_outputs):
        return wrong(name, f"the keys should be the Linear layers' names {sorted(at_outputs)}, "
                           f"yours are {sorted(map(str, answer))}.",
                     "Use the names of model.named_modules(), and register the hook only on "
                     "modules that are nn.Linear.")
    if not _close_norms(answer, at_outputs):
        if _close_norms(answer, at_inputs):
            return wrong(name, "these are the norms of grad_input: the gradient leaving each "
                               "layer towards its input.",
                         "The gradient that reaches a layer from above is grad_output[0].")
        return wrong(name, "the names are right, the norms are not.",
                     "Run model(x).sum().backward() once, and in the hook take "
                     "grad_output[0].norm().item().")
    left = [module_name for module_name, module in model.named_modules()
            if module._backward_hooks or module._backward_pre_hooks]
    if left:
        return wrong(name, f"the norms are right, but hooks are still registered on {left}: "
                           "they would run again at every later backward.",
                     "Keep the handles that register_full_backward_hook returns and call "
                     "handle.remove() on each before returning.")
    norms = list(at_outputs.values())         # in the model's order, first layer first
    first, last = norms[0], norms[-1]
    return right(name, f"correct: from {last:.2f} at the last layer to {first:.2f} at the first, "
                       "and no hook left behind.")
