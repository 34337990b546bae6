"""Rare differences the random-program test found, each checked against PyTorch.

Each test runs the same small program in minigrad and in PyTorch and compares what a
learner sees: values, versions, grad_fn names, and the exception class and message.
"""
import warnings

import numpy as np
import pytest

import minigrad


def _versions(value):
    """The version of each tensor in ``value`` ('inference' for an inference tensor)."""
    values = value if isinstance(value, tuple) else (value,)
    return [v._version if not v.is_inference() else "inference" for v in values]


def _failure(call):
    """(exception class name, message) of ``call()``, or None if it works."""
    try:
        call()
    except Exception as error:      # noqa: BLE001 - the class is what is compared
        return type(error).__name__, str(error)
    return None


# --- 1. results of inference tensors, computed outside inference mode --------------------------
# PyTorch's kernel runs without its autograd layer (inference tensors have none); its own
# in-place steps on the new result (resize_, an out= call, div_) each count a version.

INFERENCE_INPUT_OPS = {
    "adaptive_avg_pool1d": lambda L, x: L.nn.functional.adaptive_avg_pool1d(x.reshape(1, -1), 2),
    "adaptive_avg_pool1d_1": lambda L, x: L.nn.functional.adaptive_avg_pool1d(x.reshape(1, -1), 1),
    "adaptive_avg_pool2d": lambda L, x: L.nn.functional.adaptive_avg_pool2d(x.reshape(1, 2, 3), 2),
    "adaptive_avg_pool2d_1": lambda L, x: L.nn.functional.adaptive_avg_pool2d(x.reshape(1, 2, 3), 1),
    "adaptive_avg_pool3d": lambda L, x: L.nn.functional.adaptive_avg_pool3d(x.reshape(1, 1, 2, 3), 2),
    "adaptive_avg_pool3d_1": lambda L, x: L.nn.functional.adaptive_avg_pool3d(x.reshape(1, 1, 2, 3), 1),
    "sum": lambda L, x: x.sum(),
    "sum_dim": lambda L, x: x.sum(0, keepdim=True),
    "sum_dtype": lambda L, x: x.sum(dtype=L.float64),
    "mean": lambda L, x: x.mean(),
    "mean_dims": lambda L, x: x.mean((0, 1)),
    "clone": lambda L, x: x.clone(),
    "detach": lambda L, x: x.detach(),
    "view_dtype": lambda L, x: x.view(L.int32),
    "neg": lambda L, x: -x,
}


@pytest.mark.parametrize("name", sorted(INFERENCE_INPUT_OPS))
@pytest.mark.parametrize("mode", ["inference tensor", "normal tensor", "inside inference_mode"])
def test_result_version_of_inference_input(torch, name, mode):
    op = INFERENCE_INPUT_OPS[name]
    seen = []
    for L in (minigrad, torch):
        data = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
        if mode == "normal tensor":
            x = L.tensor(data)
        else:
            with L.inference_mode():
                x = L.tensor(data)
        if mode == "inside inference_mode":
            with L.inference_mode():
                out = op(L, x)
        else:
            out = op(L, x)
        seen.append((_versions(out), np.asarray(out.tolist()).tolist()))
    assert seen[0] == seen[1]


def test_adaptive_avg_pool1d_program_of_the_random_test(torch):
    """The program: a leaf, adaptive_avg_pool1d of it in inference mode, then again outside."""
    seen = []
    for L in (minigrad, torch):
        leaf = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        with L.no_grad(), L.inference_mode():
            inner = L.nn.functional.adaptive_avg_pool1d(leaf.reshape(1, -1), 2)
        with L.no_grad():
            outer = L.nn.functional.adaptive_avg_pool1d(inner.reshape(1, -1), 2)
        seen.append((outer._version, outer.is_inference(), outer.tolist()))
    assert seen[0] == seen[1] == (1, False, seen[1][2])


# --- 2. an in-place change of a view made in inference mode -----------------------------------
# PyTorch's message names inference mode (and "normal mode", and the inference_mode block)
# where a view made under no_grad gets no_grad's words.

def _view_in_inference_changed(L):
    leaf = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    with L.inference_mode():
        view = leaf[:1]
    view.mul_(2)


def _result_view_in_inference_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y.view(6)
    view.add_(1)


def _unbind_piece_in_inference_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        piece = y.unbind(0)[0]
    piece.mul_(2)


def _view_of_inference_view_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y[0]
    view[:2].mul_(2)


def _inference_view_after_base_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y[0]
    y.add_(1)
    return view * 2


def _view_of_inference_view_after_base_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y[0]
    inner = view[:2]
    y.add_(1)
    return inner.grad_fn


def _inference_view_of_plain_tensor_plus_leaf(L):
    plain = L.zeros(3)
    with L.inference_mode():
        view = plain[:2]
    view.add_(L.tensor([1., 2.], requires_grad=True))


def _inference_view_changed_under_no_grad(L):
    leaf = L.tensor([1., 2., 3.], requires_grad=True)
    with L.inference_mode():
        view = leaf[:2]
    with L.no_grad():
        view.mul_(2)
    return view.tolist()


def _no_grad_view_changed(L):
    leaf = L.tensor([1., 2., 3.], requires_grad=True)
    with L.no_grad():
        view = leaf[:2]
    view.mul_(2)


INFERENCE_VIEW_PROGRAMS = [_view_in_inference_changed, _result_view_in_inference_changed,
                           _unbind_piece_in_inference_changed, _view_of_inference_view_changed,
                           _inference_view_after_base_changed,
                           _view_of_inference_view_after_base_changed,
                           _inference_view_of_plain_tensor_plus_leaf,
                           _inference_view_changed_under_no_grad, _no_grad_view_changed]


@pytest.mark.parametrize("program", INFERENCE_VIEW_PROGRAMS, ids=lambda p: p.__name__.strip("_"))
def test_inplace_change_of_view_made_in_inference_mode(torch, program):
    assert _failure(lambda: program(minigrad)) == _failure(lambda: program(torch))


def test_inference_view_message_word_for_word():
    message = ("A view was created in inference mode and is being modified inplace in normal "
               "mode. Given that this use case is ambiguous and error-prone, it is forbidden. You "
               "can clarify your code by moving both the view and the inplace either both inside "
               "the inference_mode block (if you don't want the inplace to be tracked) or both "
               "outside (if you want the inplace to be tracked).")
    assert _failure(lambda: _view_in_inference_changed(minigrad)) == ("RuntimeError", message)
