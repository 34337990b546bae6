"""``minigrad.install_as_torch()``: make ``import torch`` find minigrad, so that PyTorch's
tutorials run with not a single line changed.

Why it is needed. ``import minigrad as torch`` binds the name ``torch`` in one file, and
nothing more: Python's import statement never looks at that name. ``import torch.nn as nn``
asks the import system for the package called "torch" (PyTorch itself, or ModuleNotFoundError
where it is not installed), then for its submodule "nn". So a tutorial that begins

    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

needs each of those lines rewritten (``nn = torch.nn``, ...), and on a machine that has
PyTorch as well (Google Colab) a line left as it was quietly mixes the two libraries, which
ends in puzzling errors such as PyTorch's "must be Tensor, not Tensor".

After ``minigrad.install_as_torch()``, the import system answers "torch" with minigrad and
"torch.X" with ``minigrad.X``: the same module objects, not copies, so
``torch.nn.Linear is minigrad.nn.Linear`` and tensors made through either name are one kind.
It changes only how later imports are answered, for the rest of the process: PyTorch itself
cannot be imported any more (restart the kernel to get it back), and if it was imported
already, the two would be mixed, so minigrad refuses.
"""
import importlib
import importlib.abc
import importlib.util
import sys
import types


class _ExistingModuleLoader(importlib.abc.Loader):
    """A loader whose "loading" hands back a module that is already imported."""

    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module          # (Python keeps the module's own __name__, __spec__, __path__)

    def exec_module(self, module):
        pass                        # already executed when minigrad imported it


class MinigradAsTorchFinder(importlib.abc.MetaPathFinder):
    """Finds the module "torch" as ``minigrad`` and "torch.X.Y" as ``minigrad.X.Y``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        module = _minigrad_module(fullname.replace("torch", "minigrad", 1))
        if module is None:
            return None             # minigrad has no such module: "No module named 'torch.xyz'"
        return importlib.util.spec_from_loader(fullname, _ExistingModuleLoader(module),
                                               is_package=hasattr(module, "__path__"))


def _minigrad_module(name):
    """The module ``name`` (``minigrad.nn.functional``, ...), imported if need be, or None."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if name != missing and not name.startswith(missing + "."):
            raise                   # the module exists, but something it imports is missing
    # some of PyTorch's modules are attributes of their parent here (``torch.return_types``)
    parent, _, child = name.rpartition(".")
    value = getattr(sys.modules.get(parent), child, None)
    return value if isinstance(value, types.ModuleType) else None


def install_as_torch():
    """From now on, ``import torch`` (and ``import torch.nn as nn``, ``from torch.utils.data
    import DataLoader``, ...) imports minigrad, for the rest of this Python process.

    Call it before anything imports PyTorch: it raises RuntimeError if PyTorch is imported
    already (the two libraries' tensors cannot be mixed). Calling it again does nothing.
    """
    import minigrad
    imported = sys.modules.get("torch")
    if imported is minigrad:
        return
    if imported is not None:
        raise RuntimeError(
            "minigrad.install_as_torch() must run before PyTorch is imported: this process has "
            "imported PyTorch already, and minigrad's and PyTorch's tensors cannot be mixed. "
            "Restart the kernel (or Python) and call it first.")
    sys.meta_path.insert(0, MinigradAsTorchFinder())
    sys.modules["torch"] = minigrad
