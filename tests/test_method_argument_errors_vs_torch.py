"""x.method(...) called wrongly fails in minigrad as in PyTorch: same exception class, same message.

PyTorch parses the arguments of a Tensor method with the same parser as torch.X's, against the
method's own signatures (python_variable_methods.cpp); a method that takes nothing is refused by
Python itself (``TensorBase.exp() takes no arguments (1 given)``). Here each method minigrad has
is called on a fresh tensor, with a fixed seed, with no argument, with one or two arguments drawn
from a pool of learner-like values, and with an unknown or a known keyword, in both libraries.
When PyTorch refuses the call with a TypeError, minigrad must raise the same TypeError with the
same text (up to a "minigrad hint:" line); when PyTorch accepts it, minigrad must accept it too
and give the same values. PyTorch's deprecated signatures (``x.add(2, y)``, ``torch.addmm(2, x,
3, a, b)``, ...) are checked for their values, graphs and warning.
"""
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import _python_arg_parser
from minigrad._tensor_signature_table import SIGNATURES, NO_ARGUMENTS, DEPRECATED
from minigrad._signature_table import DEPRECATED as FUNCTIONS_DEPRECATED
from conftest import assert_same_values, import_torch

torch = import_torch()

VALUES = {
    "float tensor": lambda m: m.tensor([[1.5, -2.0], [0.5, 3.0]]),
    "int tensor": lambda m: m.tensor([[1, 2], [3, 4]]),
    "bool tensor": lambda m: m.tensor([[True, False], [False, True]]),
    "1-d tensor": lambda m: m.tensor([0.25, 0.75]),
    "1": lambda m: 1, "2.5": lambda m: 2.5, "-1": lambda m: -1, "None": lambda m: None,
    "'a'": lambda m: "a", "[1, 2]": lambda m: [1, 2], "(2, 2)": lambda m: (2, 2),
    "0": lambda m: 0, "True": lambda m: True, "float64": lambda m: m.float64,
}

# methods left out, with the reason
LEFT_OUT = {
    **dict.fromkeys(("bernoulli", "bernoulli_", "multinomial", "normal_", "uniform_", "random_",
                     "exponential_", "geometric_", "cauchy_", "log_normal_", "new_empty",
                     "new_empty_strided", "set_"), "random or uninitialized values"),
    **dict.fromkeys(("resize_", "resize_as_", "storage_offset", "data_ptr", "untyped_storage",
                     "element_size", "__dlpack__"), "memory, not arguments"),
    "tolist": "a list, not a tensor",
    "histogram": "minigrad's histogram needs bins (PyTorch's default is 100)",
    "take_along_dim": "PyTorch reads past the end for an index out of range (no check there)",
    "qr": "last-bit values of R differ (not argument parsing)",
    **dict.fromkeys(("logit", "logit_"), "minigrad's logit refuses eps=True and differs at eps=1"),
}


def _methods():
    """The methods minigrad parses as PyTorch does."""
    names = []
    for name in sorted(set(SIGNATURES) | NO_ARGUMENTS):
        method = getattr(minigrad.Tensor, name, None)
        if getattr(method, "parsed_as_pytorch", None) == name and name not in LEFT_OUT:
            names.append(name)
    return names


def _cases(seed=0):
    rng = random.Random(seed)
    labels = list(VALUES)
    cases = []
    for name in _methods():
        if name in NO_ARGUMENTS:
            cases.append((name, (rng.choice(labels),) if rng.random() < 0.7 else ("x=1",)))
            continue
        cases.append((name, ()))
        cases += [(name, (label,)) for label in rng.sample(labels, 2)]
        cases.append((name, (rng.choice(labels), rng.choice(labels))))
        known = sorted({spec.partition("=")[0].rpartition(" ")[2]
                        for signature in SIGNATURES[name] for spec in signature.split(", ")
                        if spec and spec != "*"})
        if known and rng.random() < 0.5:
            cases.append((name, (f"{rng.choice(known)}={rng.choice(labels)}",)))
        else:
            cases.append((name, ("x=1",)))
    return cases


def _is_keyword(label):
    return "=" in label and label[0] not in "'([-"


def _outcome(module, name, labels):
    args = [VALUES[label](module) for label in labels if not _is_keyword(label)]
    kwargs = {label.partition("=")[0]: VALUES[label.partition("=")[2]](module)
              for label in labels if _is_keyword(label)}
    x = module.tensor([[1.0, -0.5], [2.0, 0.25]])
    # (torch's methods called through their class, as x.exp(1) calls them: its message names
    # TensorBase; a bound method, as getattr(x, name)(...) makes, would name Tensor)
    method = getattr(torch._C.TensorBase, name) if module is torch else getattr(module.Tensor, name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", method(x, *args, **kwargs)
    except Exception as error:          # noqa: BLE001 (any error is compared)
        return "error", error


def _message(error):
    return str(error).split("\nminigrad hint:")[0]


@pytest.mark.parametrize("name, labels", _cases(), ids=lambda v: v if isinstance(v, str) else ",".join(v))
def test_wrong_method_call_fails_as_in_torch(name, labels):
    kind, expected = _outcome(torch, name, labels)
    got_kind, got = _outcome(minigrad, name, labels)
    if kind == "error" and isinstance(expected, TypeError):
        assert got_kind == "error", f"minigrad accepted what PyTorch refuses: {expected}"
        assert type(got) is type(expected), got
        assert _message(got) == str(expected)
    elif kind == "ok":
        assert got_kind == "ok", f"minigrad refused what PyTorch accepts: {got!r}"
        assert_same_values(expected, got)
    assert minigrad.ones(2).add(1).tolist() == [2.0, 2.0]


# --- the deprecated signatures -------------------------------------------------------------

def _operands(module, name):
    """(the tensor the call is about, requiring grad, and its two other tensors), shaped for ``name``."""
    base = name.rstrip("_")
    sizes = {"addmv": ((2,), (2, 2), (2,)), "addr": ((2, 2), (2,), (2,)),
             "addbmm": ((2, 2), (3, 2, 2), (3, 2, 2)), "baddbmm": ((3, 2, 2), (3, 2, 2), (3, 2, 2))}
    shapes = sizes.get(base, ((2, 2), (2, 2), (2, 2)))
    rng = np.random.default_rng(len(name))
    return [module.tensor(rng.uniform(0.5, 2.0, shape).astype(np.float32)) for shape in shapes]


def _deprecated_cases():
    """(name, form, index of the deprecated signature): torch.X(...), x.X(...) and x.X_(...)."""
    cases = [(name, "function", i) for name, shown in FUNCTIONS_DEPRECATED.items() for i in range(len(shown))]
    return cases + [(name, "method", i) for name, shown in DEPRECATED.items() for i in range(len(shown))]


def _deprecated_call(module, name, form, index):
    shown = (FUNCTIONS_DEPRECATED if form == "function" else DEPRECATED)[name][index]
    operands = _operands(module, name)
    base = operands[0].clone().requires_grad_() if not name.endswith("_") else operands[0].clone()
    leaf = operands[1].requires_grad_()
    others = iter([leaf, operands[2]] if name.rstrip("_") not in ("add", "sub") else [leaf])
    scalars = iter([2, 0.5])
    args = []
    for spec in shown.split(", "):
        if spec == "*" or spec.endswith("=None"):
            continue
        if spec.endswith(" input"):
            args.append(base)
        else:
            args.append(next(scalars) if spec.startswith("Number") else next(others))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = getattr(module, name)(*args) if form == "function" else getattr(base, name)(*args)
    return result, leaf, caught


@pytest.mark.parametrize("name, form, index", _deprecated_cases())
def test_deprecated_signature_as_in_torch(name, form, index):
    # (each call warns here: PyTorch's warn-always mode, and minigrad's once-flag cleared)
    torch._C._set_warnAlways(True)
    try:
        expected, expected_leaf, expected_warnings = _deprecated_call(torch, name, form, index)
    finally:
        torch._C._set_warnAlways(False)
    _python_arg_parser._deprecation_warned.clear()
    got, got_leaf, got_warnings = _deprecated_call(minigrad, name, form, index)
    assert [(w.category, str(w.message)) for w in got_warnings] == [
        (w.category, str(w.message)) for w in expected_warnings]
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-6)
    assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__
    expected.sum().backward()
    got.sum().backward()
    np.testing.assert_allclose(got_leaf.grad.numpy(), expected_leaf.grad.numpy(), rtol=1e-6)


_WARNINGS = """
import sys, warnings
sys.path.insert(0, {tests!r})
warnings.simplefilter("always")
import {module} as torch
x, y = torch.ones(2, 2), torch.ones(2, 2)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.add(x, 2, y)
    torch.add(x, 2, y)
    x.sub(2, y)
    torch.addmm(2, x, 3, x, y)
print(repr([(w.category.__name__, str(w.message), w.lineno) for w in caught]))
"""


@pytest.mark.parametrize("module", ["minigrad"])
def test_deprecation_warning_once_a_process_as_in_torch(module):
    """One warning, the first deprecated call's, whichever comes later (TORCH_WARN_ONCE)."""
    import pathlib
    tests = str(pathlib.Path(__file__).parent)

    def run(name):
        return subprocess.run([sys.executable, "-c", _WARNINGS.format(module=name, tests=tests)],
                              capture_output=True, text=True, check=True).stdout
    assert run(module) == run("torch")
