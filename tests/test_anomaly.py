"""Anomaly detection compared with PyTorch: flags, the NaN error, the forward-traceback warning."""
import warnings

import pytest

import minigrad


def user_warnings(caught):
    """The UserWarnings among caught warnings (numpy's RuntimeWarnings are not the point)."""
    return [(w.category.__name__, str(w.message)) for w in caught if w.category is UserWarning]


def strip_cpp_suffix(message):
    # PyTorch's C++ warnings end with " (Triggered internally at <its source file>.)"
    return message.split(" (Triggered internally at")[0]


def test_flags_and_switches(torch):
    def program(lib):
        seen = [lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            detector = lib.autograd.detect_anomaly(check_nan=False)
        seen.append(user_warnings(caught))
        with detector:
            seen += [lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()]
        seen += [lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()]
        switch = lib.autograd.set_detect_anomaly(True, check_nan=False)   # switches now
        seen += [lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()]
        with switch:
            pass
        seen += [lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()]
        lib.autograd.set_detect_anomaly(True)
        seen.append(lib.is_anomaly_enabled())
        lib.autograd.set_detect_anomaly(False)
        try:
            lib.autograd.detect_anomaly()(lambda: None)       # not a decorator in 2.13
        except TypeError as error:
            seen.append(str(error))
        return seen
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = program(minigrad), program(torch)
    assert ours == theirs
    assert ours[2] == [("UserWarning", minigrad.autograd.anomaly_mode.ENABLED_WARNING)]


def nan_in_backward(lib, op):
    """Backward of a graph with a NaN gradient: (error, anomaly warnings, metadata keys)."""
    x = lib.tensor([0.0, 2.0], requires_grad=True)
    b = lib.tensor([0.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly():
            if op == "log":
                y = lib.log(x) * 0                                   # FORWARD-LINE log
            elif op == "div":
                y = x / b                                            # FORWARD-LINE div
            else:
                y = lib.sqrt(x - 1)                                  # FORWARD-LINE sqrt
            keys = sorted(y.grad_fn.metadata) if op != "log" else sorted(y.grad_fn.next_functions[0][0].metadata)
            try:
                y.sum().backward()
                error = None
            except RuntimeError as caught_error:
                error = str(caught_error)
    messages = [strip_cpp_suffix(m) for _, m in user_warnings(caught)]
    return error, messages, keys


@pytest.mark.parametrize("op", ["log", "div", "sqrt"])
def test_nan_error_and_forward_traceback(torch, op):
    ours, theirs = nan_in_backward(minigrad, op), nan_in_backward(torch, op)
    assert ours == theirs
    error, messages, keys = ours
    assert error.startswith("Function '") and "returned nan values in its" in error
    assert keys == ["traceback_"]
    assert messages[1].startswith("Error detected in ")
    assert f"# FORWARD-LINE {op}" in messages[1]        # the warning quotes the forward line
    package_dir = minigrad.__file__.rsplit("/", 1)[0]
    assert package_dir not in messages[1]               # no frame from inside the library


def test_no_forward_information_and_other_errors(torch):
    def program(lib):
        x = lib.tensor([0.0], requires_grad=True)
        y = lib.log(x) * 0                        # made before anomaly mode was switched on

        class Fails(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t * 1

            @staticmethod
            def backward(ctx, grad):
                raise ValueError("boom")
        seen = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with lib.autograd.set_detect_anomaly(True):
                try:
                    y.sum().backward()
                except RuntimeError as error:
                    seen.append(str(error))
                z = Fails.apply(lib.ones(1, requires_grad=True))
                try:
                    z.sum().backward()
                except ValueError as error:
                    seen.append(str(error))
        seen += [strip_cpp_suffix(m).split(" Traceback")[0] for _, m in user_warnings(caught)]
        return seen
    assert program(minigrad) == program(torch)


def test_check_nan_false_and_mode_off(torch):
    def program(lib):
        seen = []
        x = lib.tensor([0.0], requires_grad=True)
        (lib.log(x) * 0).sum().backward()                      # off: NaN flows silently
        seen.append(str(x.grad.tolist()))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with lib.autograd.detect_anomaly(check_nan=False):
                x.grad = None
                (lib.log(x) * 0).sum().backward()
                seen.append(str(x.grad.tolist()))
                x.grad = None
                (x * 2).backward(lib.tensor([float("nan")]))     # no check: no error
                seen.append(str(x.grad.tolist()))
        return seen
    assert program(minigrad) == program(torch) == ["[nan]", "[nan]", "[nan]"]
