"""The exercise checks accept real PyTorch objects, and explain a None the learner's code computed."""
import linecache

import pytest

import minigrad
from minigrad.course import lesson02, lesson03, lesson04, lesson09, lesson10


def run_cell(source, namespace):
    """Run ``source`` the way a notebook runs a cell: its code is in linecache under a cell name."""
    filename = f"<cell-{abs(hash(source))}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)


def test_a_none_left_in_the_cell_asks_for_an_answer(capsys):
    run_cell("answer = None\nresult = check.exercise_1(answer)\n", {"check": lesson02})
    assert "⏳ Exercise 1: replace the None" in capsys.readouterr().out


def test_a_computed_none_gets_a_hint_about_backward_and_retain_grad(capsys, torch):
    namespace = {"check": lesson02, "torch": torch}
    run_cell("x = torch.ones(3, requires_grad=True)\ny = x * 2\nz = y.sum()\n"
             "z.backward()\nanswer = y.grad\nok = check.exercise_1(answer)\n", namespace)
    out = capsys.readouterr().out
    assert "❌ Exercise 1: your answer is None, computed by your code." in out
    assert "retain_grad()" in out and "backward()" in out
    assert not namespace["ok"]


def _exp_function(torch, save="result", scale=1.0):
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = torch.exp(x)
            if save == "result":
                ctx.save_for_backward(result)
            elif save == "input":
                ctx.save_for_backward(x)
            else:
                ctx.result = result
            return result

        @staticmethod
        def backward(ctx, grad_output):
            if save == "attribute":
                return grad_output * ctx.result * scale
            (saved,) = ctx.saved_tensors
            return grad_output * torch.exp(saved) * scale if save == "input" \
                else grad_output * saved * scale
    return Exp


@pytest.mark.parametrize("library", ["minigrad", "torch"])
def test_exercise_9_4_accepts_a_pytorch_function_and_uses_its_gradcheck(library, torch, capsys):
    lib = minigrad if library == "minigrad" else torch
    assert lesson10.exercise_4(_exp_function(lib))
    assert "correct: gradcheck passes" in capsys.readouterr().out
    assert lesson10.exercise_4(_exp_function(lib, save="input"))
    assert "you saved the input" in capsys.readouterr().out
    assert not lesson10.exercise_4(_exp_function(lib, scale=2.0))
    assert "gradcheck says the gradient is wrong" in capsys.readouterr().out


@pytest.mark.parametrize("library", ["minigrad", "torch"])
def test_exercise_9_4_wants_save_for_backward_not_an_attribute_of_ctx(library, torch, capsys):
    lib = minigrad if library == "minigrad" else torch
    assert not lesson10.exercise_4(_exp_function(lib, save="attribute"))
    assert "nothing was saved with ctx.save_for_backward" in capsys.readouterr().out


def test_checks_take_pytorch_tensors(torch, capsys):
    a, b = torch.tensor([1., 2.]), torch.tensor([3., 4.])
    assert lesson03.exercise_1((b, a))
    assert lesson09.exercise_1(torch.tensor([-2.0, 2.0]))
    assert not lesson09.exercise_1(torch.tensor([2.0, -2.0]))
    assert "both signs are flipped" in capsys.readouterr().out
    w, bias = lesson04._gradient_descent(zero_each_step=True)
    assert lesson04.exercise_3((torch.tensor(w), torch.tensor(bias)))


def test_exercise_3_3_tells_one_step_too_many_or_too_few(capsys):
    for steps in (lesson04.EXERCISE_3_STEPS - 1, lesson04.EXERCISE_3_STEPS + 1):
        assert not lesson04.exercise_3(lesson04._gradient_descent(True, steps=steps))
        assert f"after {steps} steps" in capsys.readouterr().out
