"""Every public name a learner can reach has a docstring (``torch.exp?`` in a notebook shows something).

The walk covers each public module's names, every public method and property of
the classes among them, and every public method and property of ``Tensor``. A
method may inherit its docstring from the class it overrides (``Linear.forward?``
shows ``Module.forward``'s text, as IPython does), except where noted below.
"""
import importlib
import inspect

import pytest

import minigrad

MODULES = [
    "minigrad", "minigrad.nn", "minigrad.nn.functional", "minigrad.nn.init", "minigrad.optim",
    "minigrad.autograd", "minigrad.autograd.functional", "minigrad.autograd.forward_ad",
    "minigrad.autograd.graph", "minigrad.func", "minigrad.utils.checkpoint", "minigrad.viz",
    "minigrad.optim.lr_scheduler", "minigrad.utils.data",
    "minigrad.distributions", "minigrad.distributions.constraints", "minigrad.distributions.transforms",
    "minigrad.distributions.constraint_registry",
    "minigrad.autograd.profiler", "minigrad.autograd.profiler_util", "minigrad.profiler",
    "minigrad.cuda", "minigrad.backends", "minigrad.backends.cuda", "minigrad.backends.cudnn",
    "minigrad.backends.mps", "minigrad.backends.cpu", "minigrad.accelerator", "minigrad.mps", "minigrad.xpu", "minigrad.version", "minigrad.cpu", "minigrad.testing",
]


def public_names(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [name for name in dir(module) if not name.startswith("_")]
    return sorted(names)


def is_documented(value):
    doc = inspect.getdoc(value)
    return bool(doc and doc.strip())


def own_class_docstring(cls):
    """A class's own docstring: ``Linear?`` must not show ``Module``'s text."""
    doc = cls.__dict__.get("__doc__")
    return bool(doc and doc.strip())


def members(cls):
    """Public methods and properties a class defines itself (inherited ones are checked on their class)."""
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if inspect.isfunction(value) or isinstance(value, property):
            yield name, getattr(cls, name) if not isinstance(value, property) else value


def undocumented_in(module_name):
    module = importlib.import_module(module_name)
    missing = []
    for name in public_names(module):
        value = getattr(module, name, None)
        if inspect.ismodule(value) or not (callable(value) or isinstance(value, property)):
            continue                 # modules, dtypes, constants
        if not type(value).__module__.startswith("minigrad") and not getattr(
                value, "__module__", "minigrad").startswith("minigrad"):
            continue                 # a name from numpy or the standard library, re-exported
        if isinstance(value, type):
            if not own_class_docstring(value):
                missing.append(name)
            missing += [f"{name}.{member}" for member, method in members(value)
                        if not is_documented(method)]
        elif not is_documented(value):
            missing.append(name)
    return missing


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_name_has_a_docstring(module_name):
    assert undocumented_in(module_name) == []


def test_every_tensor_method_and_property_has_a_docstring():
    missing = []
    for name in dir(minigrad.Tensor):
        if name.startswith("_"):
            continue
        value = inspect.getattr_static(minigrad.Tensor, name)
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if not (callable(value) or isinstance(value, property)):
            continue                 # plain class attributes (e.g. is_cuda = False)
        if not is_documented(value):
            missing.append(name)
    assert missing == []


def test_the_walk_sees_the_names_learners_use():
    """Guards the walk itself: it must reach the names the lessons call."""
    seen = {name for name in public_names(minigrad)}
    assert {"exp", "tensor", "no_grad", "manual_seed"} <= seen
    assert "backward" in dir(minigrad.Tensor) and "grad" in dir(minigrad.Tensor)
    assert "Linear" in public_names(minigrad.nn) and "cross_entropy" in public_names(minigrad.nn.functional)
