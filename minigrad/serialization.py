"""torch.save and torch.load: tensors, state_dicts and other Python objects in a file.

The files are PyTorch's (see _torch_archive.py): a file minigrad writes loads in
PyTorch and the other way round, for tensors, parameters, state_dicts, dtypes,
sizes and plain Python data. Whole modules and other objects are pickled with
their own classes' names, so they load only in the library that wrote them.

``load`` reads only plain data by default (``weights_only=True``, PyTorch's
default since 2.6): tensors, numbers, strings, lists, dicts, dtypes, sizes.
Unpickling anything else could run any code the file names, so whole modules
and other objects need ``weights_only=False`` - only for files you trust.

PyTorch: torch/serialization.py.
"""
import io
import os
import pickle

from ._torch_archive import _is_zip, _read_archive, _write_archive

__all__ = ["save", "load", "add_safe_globals", "safe_globals"]


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Write ``obj`` (a tensor, a state_dict, any picklable object) to ``f``, a path or a file.

    The file is PyTorch's: a zip archive holding the pickle of ``obj`` (``data.pkl``), in which
    each tensor names its storage, and one record per storage with its raw bytes (``data/0``,
    ``data/1``, ...). Tensors that share memory share one storage record. A tensor keeps its
    values and requires_grad, never its graph: like PyTorch, a non-leaf comes back as a leaf.
    """
    archive = io.BytesIO()
    name = "archive"
    if isinstance(f, (str, os.PathLike)):
        # PyTorch names the archive's folder after the file ("model" for model.pt)
        name = os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    _write_archive(obj, archive, name, max(pickle_protocol, 2))
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            file.write(archive.getvalue())
    else:
        f.write(archive.getvalue())


# what weights_only=True lets a file name: the rebuilding functions of tensors, and plain data
_SAFE_GLOBALS = {
    ("collections", "OrderedDict"),
    ("minigrad._tensor", "_rebuild"),
    ("minigrad.nn.parameter", "_rebuild_parameter"),
    ("minigrad._dtype", "_dtype_by_name"),
    ("minigrad._dtype", "Size"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
}


def _weights_only_error(module, name):
    qualified = f"{module}.{name}"
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, "
        "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In "
        "PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
        "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
        "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
        "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
        "check the recommended steps in the following error message.\n\tWeightsUnpickler error: "
        f"Unsupported global: GLOBAL {qualified} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{qualified}])` or the "
        f"`torch.serialization.safe_globals([{qualified}])` context manager to allowlist this "
        "global if you trust this class/function.\n\nCheck the documentation of torch.load to learn "
        "more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


def _refuse_unless_safe(module, name):
    """weights_only: raise PyTorch's error for a name outside _SAFE_GLOBALS and the allowlist."""
    if (module, name) not in _SAFE_GLOBALS and (module, name) not in _user_safe_globals:
        raise _weights_only_error(module, name)


class _WeightsUnpickler(pickle.Unpickler):
    """An unpickler that refuses every global outside _SAFE_GLOBALS (and the allowlist)."""

    def find_class(self, module, name):
        if (module, name) in _SAFE_GLOBALS or (module, name) in _user_safe_globals:
            return super().find_class(module, name)
        raise _weights_only_error(module, name)


_user_safe_globals = set()


def add_safe_globals(safe_globals):
    """Allow ``load(..., weights_only=True)`` to rebuild these classes or functions too."""
    for value in safe_globals:
        _user_safe_globals.add((value.__module__, value.__qualname__))


class safe_globals:
    """Context manager: ``add_safe_globals`` for the duration of a ``with`` block only."""

    def __init__(self, safe_globals):
        self.names = {(value.__module__, value.__qualname__) for value in safe_globals}

    def __enter__(self):
        self.added = self.names - _user_safe_globals
        _user_safe_globals.update(self.added)

    def __exit__(self, *exc_info):
        _user_safe_globals.difference_update(self.added)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read back what ``save`` wrote. ``map_location`` may only name the CPU in minigrad.

    ``weights_only`` (default True) refuses files that name anything but plain data;
    ``weights_only=False`` unpickles anything (only for files you trust).
    """
    if isinstance(map_location, dict):
        # ({saved location: where to load it}: a minigrad file's tensors were saved on 'cpu')
        map_location = map_location.get("cpu")
    if map_location is not None and str(map_location) != "cpu" and not callable(map_location):
        from ._tensor import device, check_cpu_device
        check_cpu_device(device(map_location))      # PyTorch's error for a device minigrad lacks
    if weights_only is None:
        weights_only = True
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return _load(file, weights_only, pickle_module, pickle_load_args)
    return _load(f, weights_only, pickle_module, pickle_load_args)


def _load(file, weights_only, pickle_module, pickle_load_args):
    if _is_zip(file):
        return _read_archive(file, _refuse_unless_safe if weights_only else None)
    # the format of earlier minigrad versions: a plain pickle with minigrad's own names
    if weights_only:
        return _WeightsUnpickler(file, **pickle_load_args).load()
    return (pickle_module or pickle).load(file, **pickle_load_args)
