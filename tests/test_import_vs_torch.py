"""What `import minigrad` does, against `import torch`: every lesson starts a fresh kernel that
imports minigrad, so the import leaves out what few programs use (torch.distributions,
multiprocessing, zipfile) and reads PyTorch's signatures at a function's first call. None of
that may show: the names, dir(), a missing name's error, and the first call of a function or
method (right or wrong) are PyTorch's. Each check runs in a fresh Python process, where the
first call really is the first."""
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import import_torch

torch = import_torch()

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_fresh(code):
    """What ``code`` prints, run in a new Python process that imports this checkout's minigrad."""
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    finished = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                              capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    return finished.stdout


def test_import_leaves_out_what_few_programs_use():
    out = run_fresh("import sys, minigrad\n"
                    "print(sorted(m for m in ('minigrad.distributions', 'multiprocessing', 'zipfile')"
                    " if m in sys.modules))")
    assert out.strip() == "[]"


def test_distributions_is_there_when_asked_for():
    out = run_fresh("import minigrad\n"
                    "print('distributions' in dir(minigrad), hasattr(minigrad, 'distributions'))\n"
                    "d = minigrad.distributions\n"
                    "print(d is minigrad.distributions, d.Normal(0.0, 1.0).log_prob(minigrad.tensor(0.5)).item())\n"
                    "import minigrad.distributions as again\n"
                    "print(again is d, 'distributions' in vars(minigrad))")
    expected = torch.distributions.Normal(0.0, 1.0).log_prob(torch.tensor(0.5)).item()
    assert out.split() == ["True", "True", "True", repr(expected), "True", "True"]


def test_dir_lists_the_same_submodules_as_before_their_import():
    out = run_fresh("import minigrad\n"
                    "before = dir(minigrad)\n"
                    "import minigrad.distributions\n"
                    "print(before == dir(minigrad), before == sorted(before))")
    assert out.split() == ["True", "True"]


@pytest.mark.parametrize("name", ["no_such_name", "distribution"])
def test_a_missing_name_fails_as_in_torch(name):
    out = run_fresh(f"import minigrad\n"
                    f"try:\n    minigrad.{name}\nexcept AttributeError as error:\n    print(error)")
    with pytest.raises(AttributeError) as expected:
        getattr(torch, name)
    assert out.strip() == str(expected.value).replace("torch", "minigrad")


# Each a different function or method, so that each call below is its first in the process
# (a function's and a method's signatures are read then): right calls, and wrong ones.
FIRST_CALLS = [
    "x.sum('a')", "torch.sum(x, 'a')", "x.add(x, 2)", "torch.add(x, 'b')", "x.view(2, 'a')",
    "torch.cumsum(x, dim='a')", "x.mean(dim=1).tolist()", "torch.sub(x, 2, alpha=3).tolist()",
    "torch.mul(x, x, out=torch.empty(2, 3)).tolist()", "x.clamp(min=0.5).tolist()",
]


def test_first_calls_are_parsed_as_in_torch():
    lines = ["x = torch.arange(6.0).reshape(2, 3)"]
    for call in FIRST_CALLS:
        lines += [f"try:\n    print({call!r}, {call})",
                  f"except Exception as error:\n    print({call!r}, type(error).__name__, "
                  f"str(error).split('\\nminigrad hint:')[0])"]
    code = "\n".join(lines)
    got = run_fresh("import minigrad as torch\n" + code).splitlines()
    expected = run_fresh("import torch\n" + code).splitlines()
    assert got == expected


# --- minigrad.install_as_torch(): `import torch` finds minigrad -------------------------------

# A tutorial's opening as PyTorch's tutorials write it, each line unchanged: with
# install_as_torch() first, every `import torch...` line must find minigrad's modules.
TUTORIAL = """
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
from torch.utils.data import DataLoader, TensorDataset
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).double()
data = TensorDataset(torch.randn(10, 4, dtype=torch.float64), torch.randint(0, 3, (10,)))
optimizer = optim.SGD(model.parameters(), lr=0.1)
for inputs, labels in DataLoader(data, batch_size=5):
    loss = F.cross_entropy(model(inputs), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss, type(loss.grad_fn).__name__)
with fwAD.dual_level():
    dual = fwAD.make_dual(torch.ones(2), torch.tensor([1.0, 2.0]))
    print(fwAD.unpack_dual(dual.sin()).tangent)
print(torch.nn.Linear is nn.Linear, issubclass(Function, torch.autograd.Function))
try:
    import torch.no_such_module
except ImportError as error:
    print(type(error).__name__, error)
"""


def test_install_as_torch_runs_a_tutorial_unchanged():
    out = run_fresh("import minigrad\nminigrad.install_as_torch()\n" + TUTORIAL
                    + "print(torch is minigrad, nn is minigrad.nn, F is minigrad.nn.functional)")
    environment = dict(os.environ, PYTHONPATH="")
    expected = subprocess.run([sys.executable, "-c", TUTORIAL], cwd="/", env=environment,
                              capture_output=True, text=True, timeout=300)
    assert expected.returncode == 0, expected.stderr
    assert out == expected.stdout + "True True True\n"


def test_install_as_torch_refuses_once_pytorch_is_imported():
    out = run_fresh("import torch, minigrad\n"
                    "try:\n    minigrad.install_as_torch()\n"
                    "except RuntimeError as error:\n    print(error)\n"
                    "import torch.nn\nprint(torch.nn.Linear.__module__)")
    assert out.startswith("minigrad.install_as_torch() must run before PyTorch is imported")
    assert out.endswith("torch.nn.modules.linear\n")       # PyTorch's own, left as it was


def test_install_as_torch_twice_changes_nothing():
    out = run_fresh("import sys, minigrad\nminigrad.install_as_torch()\nminigrad.install_as_torch()\n"
                    "import torch.nn\nprint(sys.modules['torch'] is minigrad, torch.nn is minigrad.nn,"
                    " sum(type(f).__name__ == 'MinigradAsTorchFinder' for f in sys.meta_path))")
    assert out.split() == ["True", "True", "1"]
