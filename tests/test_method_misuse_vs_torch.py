"""Every public Tensor method and attribute both libraries have, used wrongly, fails in minigrad
as in PyTorch: same exception class, same message (minigrad's text up to its "minigrad hint:"
line, the whole of PyTorch's when it runs over several lines), or both succeed.

Each method is called on a fresh float32 tensor of shape (2, 3) with each of a fixed battery of
wrong inputs a learner might give: no argument, a string, None, a list, a float for an int, a
dim out of range, an int past a C++ long long, tensors of another dtype, too many arguments, an
unknown keyword, and a few pairs of them; and on int64, bool and 0-d tensors with a few of them.
Each attribute is set to each of a few wrong values. Only the outcome is compared (values are
other tests' business; PyTorch's C++ stack after an overflow is left out); after every case
minigrad must still compute.

Run as a script (``python tests/test_method_misuse_vs_torch.py``) it prints how many calls were
compared and each difference.

Left out, with the reason, in ``LEFT_OUT`` and ``LEFT_OUT_CASES``.
"""
import inspect
import re
import warnings

import pytest

import minigrad
from conftest import import_torch

torch = import_torch()


class _Opaque:
    """A value of a learner's own class (the same name in both libraries' messages)."""


def _battery(lib):
    """(label, args, kwargs) for each wrong call, made afresh for ``lib``."""
    other = lib.ones(2, 3)
    int_tensor, bool_tensor = lib.tensor([[1, 0, 2], [0, 1, 1]]), lib.ones(2, 3, dtype=lib.bool)
    double = lib.ones(2, 3, dtype=lib.float64)
    opaque = _Opaque()
    return [
        ("()", (), {}),
        ("'a'", ("a",), {}),
        ("None", (None,), {}),
        ("[1, 2]", ([1, 2],), {}),
        ("1.5", (1.5,), {}),
        ("5", (5,), {}),
        ("-5", (-5,), {}),
        ("int tensor", (int_tensor,), {}),
        ("bool tensor", (bool_tensor,), {}),
        ("float64 tensor", (double,), {}),
        ("object", (opaque,), {}),
        ("0, 'a'", (0, "a"), {}),
        ("'a', 0", ("a", 0), {}),
        ("0, None", (0, None), {}),
        ("0, 1.5", (0, 1.5), {}),
        ("0, 5", (0, 5), {}),
        ("tensor, 'a'", (other, "a"), {}),
        ("seven zeros", (0,) * 7, {}),
        ("foo=1", (), {"foo": 1}),
        ("0, foo=1", (0,), {"foo": 1}),
        ("dim='a'", (), {"dim": "a"}),
        ("dim=5", (), {"dim": 5}),
        ("0", (0,), {}),
        ("-3", (-3,), {}),
        ("True", (True,), {}),
        ("2**63", (2**63,), {}),
        ("(0, 'a')", ((0, "a"),), {}),
        ("0-d tensor", (lib.tensor(1.5),), {}),
        ("0, 0", (0, 0), {}),
        ("out=1", (), {"out": 1}),
    ]


def _selves(lib):
    """(label, tensor, labels of the battery to use): the float32 tensor with every wrong input,
    and tensors of other dtypes and no dims with the calls a learner makes of them."""
    few = ("()", "0", "5", "int tensor", "float64 tensor", "0, 5")
    return [("float32", lambda: lib.tensor([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]]), None),
            ("int64", lambda: lib.tensor([[1, -2, 0], [3, 4, -1]]), few),
            ("bool", lambda: lib.tensor([[True, False, True], [False, False, True]]), few),
            ("0-d", lambda: lib.tensor(2.5), few)]


def _attribute_values(lib):
    return [("'a'", "a"), ("None", None), ("1.5", 1.5), ("[1]", [1]),
            ("float64 tensor", lib.ones(2, 3, dtype=lib.float64))]


# left out, with the reason: whole names, and single cases (name, "self: input")
LEFT_OUT = {
}
LEFT_OUT_CASES = {
}


def _public_names():
    """(methods, attributes): the public names of torch.Tensor that minigrad.Tensor has too."""
    methods, attributes = [], []
    for name in sorted(set(dir(torch.Tensor)) & set(dir(minigrad.Tensor))):
        if name.startswith("_") or name in LEFT_OUT:
            continue
        static = inspect.getattr_static(torch.Tensor, name)
        if isinstance(static, (property, type(torch.Tensor.grad_fn))) or not callable(
                getattr(torch.ones(1), name, None)):
            attributes.append(name)
        else:
            methods.append(name)
    return methods, attributes


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _outcome(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call()
        except Exception as error:        # noqa: BLE001  (any exception is compared)
            # (PyTorch's C++ stack after an int past a long long is left out: README)
            text = str(error).split("\nminigrad hint:")[0].split("\nException raised from")[0].rstrip('"')
            return type(error).__name__, _ADDRESS.sub(" at 0x", text.replace("minigrad", "torch"))
    return "ok"


def _method_outcomes(lib, name):
    outcomes = {}
    for self_label, make, labels in _selves(lib):
        for label, args, kwargs in _battery(lib):
            if labels is not None and label not in labels:
                continue
            x = make()
            # (through the class, as Python calls ``x.sin(1)`` written out: PyTorch's messages
            # then name the class that defines the method, TensorBase; a bound method, Tensor)
            outcomes[f"{self_label} self: {label}"] = _outcome(
                lambda: getattr(type(x), name)(x, *args, **kwargs))
    return outcomes


def _attribute_outcomes(lib, name):
    outcomes = {}
    for label, value in _attribute_values(lib):
        x = lib.tensor([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]])
        outcomes[label] = _outcome(lambda: setattr(x, name, value))
    return outcomes


def _still_computes():
    return minigrad.is_grad_enabled() and minigrad.ones(2).add(1).tolist() == [2.0, 2.0]


def differences(kind, name):
    """{label: (PyTorch's outcome, minigrad's)} where they differ."""
    outcomes = _method_outcomes if kind == "method" else _attribute_outcomes
    expected, got = outcomes(torch, name), outcomes(minigrad, name)
    return {label: (expected[label], got[label]) for label in expected
            if got[label] != expected[label] and (name, label) not in LEFT_OUT_CASES}


_METHODS, _ATTRIBUTES = _public_names()


@pytest.mark.parametrize("name", _METHODS)
def test_wrong_call_of_method_as_in_torch(name):
    assert differences("method", name) == {}
    assert _still_computes()


@pytest.mark.parametrize("name", _ATTRIBUTES)
def test_wrong_value_for_attribute_as_in_torch(name):
    assert differences("attribute", name) == {}
    assert _still_computes()


if __name__ == "__main__":
    calls = found = 0
    for kind, names in (("method", _METHODS), ("attribute", _ATTRIBUTES)):
        for name in names:
            calls += len(_method_outcomes(torch, name)) if kind == "method" else len(_attribute_values(torch))
            for label, (expected, got) in differences(kind, name).items():
                found += 1
                print(f"{kind} {name}({label}):\n  torch:    {expected}\n  minigrad: {got}")
            assert _still_computes(), name
    print(f"{calls} calls compared, {found} differences")
