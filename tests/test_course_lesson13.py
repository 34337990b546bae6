"""The exercise checks of lesson 13 accept the right answers and explain wrong ones."""
import warnings

import pytest

import minigrad as torch
from minigrad.course import lesson13


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson13.exercise_1, lesson13.exercise_2, lesson13.exercise_3,
                     lesson13.exercise_4, lesson13.exercise_6):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_second_backward(capsys):
    def fails_twice():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()

    def saves_nothing():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()

    def retains():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        y.backward()

    result, out = run(capsys, lesson13.exercise_1, fails_twice)
    assert result and out.startswith("✅")
    for wrong_answer in (saves_nothing, retains):
        result, out = run(capsys, lesson13.exercise_1, wrong_answer)
        assert not result and "Hint" in out
    result, out = run(capsys, lesson13.exercise_1, 3)
    assert not result and "function" in out


def exercise_2_inputs():
    return torch.tensor(lesson13.EXERCISE_2_X), torch.tensor(lesson13.EXERCISE_2_W, requires_grad=True)


def test_exercise_2_inference_tensor(capsys):
    x, w = exercise_2_inputs()
    with torch.inference_mode():
        preds = x @ w
    result, out = run(capsys, lesson13.exercise_2, preds)
    assert result and out.startswith("✅")
    with torch.no_grad():
        plain = x @ w
    result, out = run(capsys, lesson13.exercise_2, plain)
    assert not result and "inference_mode" in out
    result, out = run(capsys, lesson13.exercise_2, (x @ w).detach() + 1)
    assert not result and "values" in out
    result, out = run(capsys, lesson13.exercise_2, [0.0, 2.0, -2.5])
    assert not result and "tensor" in out


def test_exercise_3_recomputation_count(capsys):
    calls = []

    def block(h):
        calls.append(1)
        return torch.sin(h * 2)

    h = torch.linspace(-1.0, 1.0, 4, requires_grad=True)
    for _ in range(lesson13.EXERCISE_3_BLOCKS):
        h = torch.utils.checkpoint.checkpoint(block, h, use_reentrant=False)
    h.sum().backward()
    result, out = run(capsys, lesson13.exercise_3, len(calls))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson13.exercise_3, lesson13.EXERCISE_3_BLOCKS)
    assert not result and "forward only" in out
    result, out = run(capsys, lesson13.exercise_3, 7)
    assert not result and "Hint" in out


def nan_node_name(lib):
    v = lib.zeros(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with lib.autograd.detect_anomaly():
            length = (v ** 2).sum().sqrt()
            with pytest.raises(RuntimeError) as error:
                length.backward()
    return str(error.value).split("'")[1]


def test_exercise_4_node_name(capsys):
    name = nan_node_name(torch)
    result, out = run(capsys, lesson13.exercise_4, name)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson13.exercise_4, "SqrtBackward0")
    assert not result and "inf" in out
    result, out = run(capsys, lesson13.exercise_4, "MulBackward0")
    assert not result and "Hint" in out


def test_checks_accept_real_torch_tensors(capsys, request):
    real = request.getfixturevalue("torch")       # real PyTorch (skips, or fails in CI, without it)
    x = real.tensor(lesson13.EXERCISE_2_X)
    w = real.tensor(lesson13.EXERCISE_2_W, requires_grad=True)
    with real.inference_mode():
        preds = x @ w
    result, _ = run(capsys, lesson13.exercise_2, preds)
    assert result
    result, _ = run(capsys, lesson13.exercise_3, real.tensor(10))
    assert result
    result, _ = run(capsys, lesson13.exercise_4, nan_node_name(real))
    assert result


def count_saved_bytes(lib):
    total = []

    def pack(tensor):
        total.append(tensor.numel() * tensor.element_size())
        return tensor

    v = lib.zeros(lesson13.EXERCISE_5_SIZE, requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        (lib.sin(v) * v).sum()
    return sum(total)


def test_exercise_5_saved_bytes(capsys):
    result, out = run(capsys, lesson13.exercise_5, None)
    assert not result and out.startswith("⏳")
    answer = count_saved_bytes(torch)
    result, out = run(capsys, lesson13.exercise_5, answer)
    assert result and out.startswith("✅")
    for wrong_answer, word in ((3, "bytes"), (400, "missing"), (800, "missing"), (5, "Hint")):
        result, out = run(capsys, lesson13.exercise_5, wrong_answer)
        assert not result and word in out


def test_exercise_5_answer_is_pytorchs(request, capsys):
    real = request.getfixturevalue("torch")       # real PyTorch (skips, or fails in CI, without it)
    answer = count_saved_bytes(real)
    assert answer == lesson13.EXERCISE_5_EXPECTED
    result, out = run(capsys, lesson13.exercise_5, real.tensor(answer))
    assert result and out.startswith("✅")


GRADIENT_NORMS = '''
def gradient_norms(model, x):
    names = {module: name for name, module in model.named_modules()}
    norms = {}

    def hook(module, grad_input, grad_output):
        norms[names[module]] = grad_output[0].norm().item()

    handles = [module.register_full_backward_hook(hook)
               for module in model.modules() if isinstance(module, torch.nn.Linear)]
    model(x).sum().backward()
    for handle in handles:
        handle.remove()
    return norms
'''


def learner_function(source, library, name="gradient_norms"):
    """A function defined as in a notebook whose ``torch`` is ``library``."""
    namespace = {"torch": library}
    exec(source, namespace)
    return namespace[name]


def test_exercise_6_gradient_norms(capsys):
    result, out = run(capsys, lesson13.exercise_6, None)
    assert not result and out.startswith("⏳")
    result, out = run(capsys, lesson13.exercise_6, learner_function(GRADIENT_NORMS, torch))
    assert result and out.startswith("✅")
    wrong_answers = [
        (GRADIENT_NORMS.replace("grad_output[0]", "grad_input[0]"), "grad_input"),
        (GRADIENT_NORMS.replace("        handle.remove()", "        pass"), "handle.remove()"),
        (GRADIENT_NORMS.replace("if isinstance(module, torch.nn.Linear)", ""), "names"),
        (GRADIENT_NORMS.replace("return norms", "return list(norms.values())"), "dict"),
        (GRADIENT_NORMS.replace(".norm()", ".sum()"), "not"),
    ]
    for source, word in wrong_answers:
        result, out = run(capsys, lesson13.exercise_6, learner_function(source, torch))
        assert not result and word in out, out
    result, out = run(capsys, lesson13.exercise_6, 3)
    assert not result and "function" in out


def test_exercise_6_with_pytorch(capsys, request):
    real = request.getfixturevalue("torch")       # real PyTorch (skips, or fails in CI, without it)
    result, out = run(capsys, lesson13.exercise_6, learner_function(GRADIENT_NORMS, real))
    assert result and out.startswith("✅")
    result, mine = run(capsys, lesson13.exercise_6, learner_function(GRADIENT_NORMS, torch))
    assert out == mine
    source = GRADIENT_NORMS.replace("grad_output[0]", "grad_input[0]")
    result, out = run(capsys, lesson13.exercise_6, learner_function(source, real))
    assert not result and "grad_input" in out


def test_exercise_6_leaves_the_random_numbers_alone(capsys):
    torch.manual_seed(3)
    expected = torch.rand(3)
    torch.manual_seed(3)
    run(capsys, lesson13.exercise_6, learner_function(GRADIENT_NORMS, torch))
    assert torch.equal(torch.rand(3), expected)
