"""Warnings PyTorch gives once per process, checked in a fresh process for each library.

* scatter/scatter_ with the older ``reduce=`` argument: not differentiable (PyTorch's error
  names the in-place operation ``aten::scatter_``); the deprecation warning for a tensor
  ``src`` points at the learner's line;
* ``backward(create_graph=True)``: the reference-cycle warning (not for autograd.grad, not
  when backward fails before it runs).
"""
import os
import subprocess
import sys
import textwrap

import minigrad

from conftest import import_torch

PROGRAM = textwrap.dedent("""
    import warnings
    import {library} as torch
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.zeros(3)
        x.scatter_(0, torch.tensor([0, 1]), torch.tensor([1.0, 2.0]), reduce="add")   # line 7
        y = x.scatter(0, torch.tensor([0, 1]), torch.tensor([1.0, 2.0]), reduce="add")
    print([(w.category.__name__, str(w.message).split(" (Triggered")[0], w.lineno) for w in caught])
    outcomes = []
    for make in (lambda: torch.zeros(3, requires_grad=True).clone(),
                 lambda: torch.zeros(3, 3, requires_grad=True).clone()[0]):
        for inplace in (True, False):
            x = make()
            y = (x.scatter_ if inplace else x.scatter)(0, torch.tensor([0, 1]), 2.0, reduce="multiply")
            try:
                y.sum().backward()
            except RuntimeError as error:
                outcomes.append(str(error))
    print(outcomes)
""")


CREATE_GRAPH = textwrap.dedent("""
    import warnings
    import {library} as torch
    def caught(f):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                f()
            except RuntimeError as error:
                print(str(error).split("\\nminigrad hint:")[0])
        return [(w.category.__name__, str(w.message).split(" (Triggered")[0]) for w in seen]
    x = torch.randn(3, requires_grad=True)
    print(caught(lambda: torch.autograd.grad((x ** 2).sum(), x, create_graph=True)))
    print(caught(lambda: torch.ones(2).sum().backward(create_graph=True)))
    print(caught(lambda: (x ** 2).sum().backward(create_graph=True, inputs=[])))
    print(caught(lambda: (x * 2).sum().backward(create_graph=True)))
    print(caught(lambda: (x ** 2).sum().backward(create_graph=True)))
    print(x.grad.requires_grad)
""")


def run(library, program=PROGRAM):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(minigrad.__file__))))
    done = subprocess.run([sys.executable, "-c", program.format(library=library)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_scatter_reduce_warning_and_error_are_torchs():
    import_torch()
    ours, theirs = run("minigrad"), run("torch")
    assert ours == theirs
    assert "aten::scatter_ is" in ours and ", 7)]" in ours.splitlines()[0]


def test_backward_with_create_graph_warns_once_as_torch():
    import_torch()
    ours, theirs = run("minigrad", CREATE_GRAPH), run("torch", CREATE_GRAPH)
    assert ours == theirs
    assert ours.count("Using backward() with create_graph=True will create a reference cycle") == 1
