"""The exercise checks of lesson 8 (Jacobian products) accept right answers and explain wrong ones."""
import minigrad as torch
from minigrad.course import lesson08


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def g(x):
    return torch.stack([x[0] * x[1], x[0] + x[1], x[1] ** 3])


def point():
    return torch.tensor([2.0, 3.0], requires_grad=True)


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson08.exercise_1, lesson08.exercise_2, lesson08.exercise_3,
                     lesson08.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_jacobian(capsys):
    J = torch.autograd.functional.jacobian(g, point())
    result, out = run(capsys, lesson08.exercise_1, J)
    assert result and out.startswith("✅")

    x = point()
    y = g(x)
    rows = []
    for i in range(3):
        e_i = torch.zeros(3)
        e_i[i] = 1.0
        rows.append(torch.autograd.grad(y, x, grad_outputs=e_i, retain_graph=True)[0])
    result, out = run(capsys, lesson08.exercise_1, torch.stack(rows))
    assert result

    result, out = run(capsys, lesson08.exercise_1, J.T)
    assert not result and "transpose" in out
    result, out = run(capsys, lesson08.exercise_1, torch.zeros(3, 2))
    assert not result and "Hint" in out


def test_exercise_2_one_backward_gives_v_transpose_j(capsys):
    x = point()
    g(x).backward(torch.tensor([1.0, -1.0, 2.0]))
    result, out = run(capsys, lesson08.exercise_2, x.grad)
    assert result and out.startswith("✅")

    x = point()
    g(x).sum().backward()
    result, out = run(capsys, lesson08.exercise_2, x.grad)
    assert not result and "y.backward(v)" in out
    result, out = run(capsys, lesson08.exercise_2, torch.zeros(3))
    assert not result and "shape" in out


def test_exercise_3_reverse_mode_for_few_outputs(capsys):
    result, out = run(capsys, lesson08.exercise_3, "reverse")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson08.exercise_3, " Reverse ")
    assert result
    result, out = run(capsys, lesson08.exercise_3, "forward")
    assert not result and "Hint" in out and "one pass per" in out
    result, out = run(capsys, lesson08.exercise_3, "sideways")
    assert not result and "choose one of" in out


def test_exercise_4_jacobian_vector_product(capsys):
    _, Ju = torch.autograd.functional.jvp(g, point(), torch.tensor([1.0, 0.0]))
    result, out = run(capsys, lesson08.exercise_4, Ju)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson08.exercise_4, torch.tensor([3.0, 2.0]))     # a row instead
    assert not result and "ROW" in out
    result, out = run(capsys, lesson08.exercise_4, torch.tensor([2.0, 1.0, 27.0]))
    assert not result and "Hint" in out
