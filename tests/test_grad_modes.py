"""inference_mode, inference tensors and per-thread grad mode, compared with PyTorch.

Each test runs the same small program with ``lib`` = minigrad and ``lib`` =
torch and compares what it records: flags, and the exception class and
message of every error.
"""
import threading

import pytest

import minigrad


def outcome(action):
    """What ``action()`` does: its result, or (exception class name, message)."""
    try:
        return action()
    except Exception as error:            # the error itself is the observation
        return (type(error).__name__, str(error))


def run_both(torch, program):
    ours, theirs = program(minigrad), program(torch)
    assert ours == theirs
    return ours


def test_inference_mode_flags(torch):
    def program(lib):
        x = lib.ones(3, requires_grad=True)
        seen = [lib.is_inference_mode_enabled()]
        with lib.inference_mode():
            seen += [lib.is_inference_mode_enabled(), lib.is_grad_enabled()]
            y = x * 2
            seen += [y.requires_grad, y.is_inference(), y.grad_fn is None, x.is_inference()]
            seen += [lib.ones(2).is_inference(), x[0:2].is_inference(), x.detach().is_inference()]
            with lib.inference_mode(False):
                seen += [lib.is_inference_mode_enabled(), lib.is_grad_enabled()]
                z = x * 2
                seen += [z.requires_grad, z.is_inference()]
            with lib.enable_grad():           # grad mode on, but still nothing is recorded
                q = x * 2
                seen += [lib.is_grad_enabled(), q.requires_grad, q.is_inference()]
        seen += [lib.is_inference_mode_enabled(), lib.is_grad_enabled(), y.clone().is_inference()]
        with lib.no_grad():
            with lib.inference_mode(False):
                seen.append(lib.is_grad_enabled())
        return seen
    run_both(torch, program)


def test_inference_mode_as_decorator(torch):
    def program(lib):
        @lib.inference_mode()
        def called():
            return lib.is_inference_mode_enabled()

        @lib.inference_mode
        def bare():
            return lib.is_inference_mode_enabled()

        @lib.inference_mode(False)
        def switched_off():
            return lib.is_inference_mode_enabled()

        with lib.inference_mode():
            off = switched_off()
        return [called(), bare(), off, lib.is_inference_mode_enabled()]
    assert run_both(torch, program) == [True, True, False, False]


def test_inference_tensor_errors(torch):
    def program(lib):
        x = lib.ones(3, requires_grad=True)
        normal = lib.ones(3)
        with lib.inference_mode():
            t = lib.ones(3)
            normal.add_(1)                     # allowed: a normal tensor changes in place
            t.add_(1)                          # allowed inside inference mode
        return [
            outcome(lambda: (t * x).requires_grad),          # mul saves t: refused
            outcome(lambda: (x * t).requires_grad),
            outcome(lambda: (x + t).requires_grad),          # add saves nothing: fine
            outcome(lambda: lib.exp(t).sum().item()),        # nothing recorded: fine
            outcome(lambda: t.add_(1)),
            outcome(lambda: t.requires_grad_()),
            outcome(lambda: t._version),
            outcome(lambda: normal._version),
            outcome(lambda: (t.clone() * x).requires_grad),  # the documented workaround
        ]
    seen = run_both(torch, program)
    assert seen[0][0] == "RuntimeError" and seen[0][1].startswith("Inference tensors cannot be saved")


def test_grad_mode_is_per_thread(torch):
    def program(lib):
        seen = []

        def in_thread():
            x = lib.ones(1, requires_grad=True)
            seen.append((lib.is_grad_enabled(), (x * 2).requires_grad,
                         lib.is_inference_mode_enabled()))
        for mode in (lib.no_grad(), lib.inference_mode()):
            with mode:
                thread = threading.Thread(target=in_thread)
                thread.start()
                thread.join()
                seen.append(lib.is_grad_enabled())

        # a thread's no_grad does not switch recording off in the main thread
        entered, release = threading.Event(), threading.Event()

        def holds_no_grad():
            with lib.no_grad():
                entered.set()
                release.wait(5)
        thread = threading.Thread(target=holds_no_grad)
        thread.start()
        entered.wait(5)
        seen.append(lib.is_grad_enabled())
        release.set()
        thread.join()
        return seen
    assert run_both(torch, program) == [(True, True, False), False, (True, True, False), False, True]


def test_inference_mode_exports():
    assert minigrad.autograd.inference_mode is minigrad.inference_mode
    assert minigrad.autograd.grad_mode.inference_mode.__doc__


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_mode_restored_after_an_exception(torch, mode):
    def program(lib):
        with pytest.raises(KeyError):
            with getattr(lib, mode)():
                raise KeyError("inside")
        return [lib.is_grad_enabled(), lib.is_inference_mode_enabled()]
    assert run_both(torch, program) == [True, False]


def test_is_inference_function(torch):
    def program(lib):
        with lib.inference_mode():
            made_inside = lib.ones(2)
        return [lib.is_inference(made_inside), lib.is_inference(lib.ones(2))]
    assert run_both(torch, program) == [True, False]
