"""Every public name a learner can reach has a docstring (``torch.exp?`` in a notebook shows something)."""
import inspect

import pytest

import minigrad
import minigrad.autograd
import minigrad.func
import minigrad.nn
import minigrad.nn.functional
import minigrad.optim

NAMESPACES = {
    "minigrad": minigrad,
    "minigrad.Tensor": minigrad.Tensor,
    "minigrad.autograd": minigrad.autograd,
    "minigrad.nn.functional": minigrad.nn.functional,
    "minigrad.func": minigrad.func,
    "minigrad.nn": minigrad.nn,
    "minigrad.optim": minigrad.optim,
}


def public_names(namespace):
    names = getattr(namespace, "__all__", None) if inspect.ismodule(namespace) else None
    if names is None:
        names = [name for name in dir(namespace) if not name.startswith("_")]
    return sorted(names)


def own_docstring(namespace, value):
    """A class's own docstring (not one inherited from its base); otherwise the object's."""
    if isinstance(value, type) and inspect.ismodule(namespace):
        return value.__dict__.get("__doc__")
    return getattr(value, "__doc__", None)


def undocumented(label):
    namespace = NAMESPACES[label]
    missing = []
    for name in public_names(namespace):
        value = getattr(namespace, name, None)
        if inspect.ismodule(value) or not (callable(value) or isinstance(value, property)):
            continue            # modules, dtypes, constants
        doc = own_docstring(namespace, value)
        if not doc or not doc.strip():
            missing.append(name)
    return missing


@pytest.mark.parametrize("label", list(NAMESPACES))
def test_every_public_name_has_a_docstring(label):
    assert undocumented(label) == []
