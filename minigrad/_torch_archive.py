"""PyTorch's file format, written and read with numpy: what torch.save and torch.load use.

A file is a zip archive (its entries stored, not compressed) of one folder::

    model/data.pkl              the pickle of the saved object
    model/data/0, data/1, ...   the raw bytes of each storage (little-endian)
    model/byteorder, version, .format_version, .storage_alignment, .data/serialization_id

In ``data.pkl`` a tensor is the call ``torch._utils._rebuild_tensor_v2(storage, storage_offset,
size, stride, requires_grad, backward_hooks)`` and its storage is a "persistent id", the tuple
``('storage', torch.FloatStorage, '0', 'cpu', numel)``: the pickle names the storage record
instead of holding its bytes, so tensors that share memory share one record. A parameter is
``torch._utils._rebuild_parameter(tensor, requires_grad, backward_hooks)``, a dtype the name
``torch.float32``, a size ``torch.Size((2, 3))``.

The pickle names PyTorch's functions and classes (``torch._utils._rebuild_tensor_v2``): writing
them does not need PyTorch (the names are written as text), and reading them here maps each
name to minigrad's own (see ``_TORCH_NAMES``).

PyTorch: torch/serialization.py, torch/_utils.py, caffe2/serialize/inline_container.cc.
"""
import io
import pickle
import random
from collections import OrderedDict

import numpy as np

from . import _dtype

_ALIGNMENT = 64      # PyTorch starts each record's bytes at a multiple of 64 (for mmap)

# numpy dtype -> the name of PyTorch's storage class for it
_STORAGE_NAMES = {d.numpy_dtype: d.tensor_type_name.replace("Tensor", "Storage")
                  for d in _dtype.ALL_DTYPES}


class _TorchName:
    """A function or class of PyTorch's that the pickle names: written as pickle's GLOBAL
    opcode ("torch._utils _rebuild_tensor_v2"), never looked up while writing."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):       # (pickle's save_reduce wants a callable; never called)
        raise TypeError(f"{self.module}.{self.name} is PyTorch's, only named in files")


_REBUILD_TENSOR = _TorchName("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _TorchName("torch._utils", "_rebuild_parameter")
_SIZE = _TorchName("torch", "Size")


class _StorageRecord:
    """One storage in the archive: a flat numpy array and its record's name ("0", "1", ...)."""

    def __init__(self, memory, key):
        self.memory, self.key = memory, key


# --- writing -----------------------------------------------------------------------------

class _ArchivePickler(pickle._Pickler):
    """Pickles tensors, parameters, dtypes and sizes as PyTorch does; the rest as usual.

    Python's pure-Python pickler, because it lets ``save`` write a PyTorch name as text."""

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}          # (address, bytes, dtype) of a memory -> its _StorageRecord

    def save(self, obj, save_persistent_id=True):
        from ._tensor import Tensor
        from .nn.parameter import Parameter
        if isinstance(obj, (Tensor, _dtype.Size)) and id(obj) in self.memo:
            return self.write(self.get(self.memo[id(obj)][0]))   # (the same tensor again)
        if isinstance(obj, _TorchName):
            return self._save_torch_name(obj)
        if isinstance(obj, _dtype.dtype):
            return self._save_torch_name(_TorchName("torch", obj.name))
        if isinstance(obj, _dtype.Size):
            return self.save_reduce(_SIZE, (tuple(obj),), obj=obj)
        if isinstance(obj, Parameter):
            plain = obj.detach()                # (a plain tensor over the same memory)
            return self.save_reduce(_REBUILD_PARAMETER,
                                    (plain, obj.requires_grad, OrderedDict()), obj=obj)
        if isinstance(obj, Tensor):
            return self._save_tensor(obj)
        return super().save(obj, save_persistent_id)

    def _save_torch_name(self, name):
        if id(name) in self.memo:               # (written once, then referred to by number)
            return self.write(self.get(self.memo[id(name)][0]))
        self.write(pickle.GLOBAL + f"{name.module}\n{name.name}\n".encode("utf-8"))
        self.memoize(name)

    def _save_tensor(self, tensor):
        from ._ops.strided import storage_of
        memory, offset = storage_of(tensor)
        stride = tensor.stride()
        if any(step < 0 for step in stride) or not memory.flags.c_contiguous:
            # (a layout PyTorch's storages cannot describe: store a copy of its own)
            memory, offset, stride = np.ascontiguousarray(tensor._array).reshape(-1), 0, None
            stride = tuple(int(s) for s in _row_major(tensor.shape))
        address = (memory.__array_interface__["data"][0], memory.nbytes, memory.dtype.str)
        record = self.storages.get(address)
        if record is None:
            record = self.storages[address] = _StorageRecord(memory, str(len(self.storages)))
        self.save_reduce(_REBUILD_TENSOR,
                         (record, offset, tuple(tensor.shape), stride, tensor.requires_grad,
                          OrderedDict()), obj=tensor)

    def persistent_id(self, obj):
        if isinstance(obj, _StorageRecord):
            storage_class = _TorchName("torch", _STORAGE_NAMES[obj.memory.dtype])
            return ("storage", storage_class, obj.key, "cpu", obj.memory.size)
        return None


def _row_major(shape):
    steps, step = [], 1
    for n in reversed(shape):
        steps.append(step)
        step *= max(n, 1)
    return tuple(reversed(steps))


def _write_archive(obj, out, folder, protocol):
    """Write ``obj`` as PyTorch's zip archive (folder ``folder``) into the binary file ``out``."""
    import zipfile          # (here: it costs every `import minigrad` a hundredth of a second)
    pickled = io.BytesIO()
    pickler = _ArchivePickler(pickled, protocol)
    pickler.dump(obj)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        _add(archive, out, f"{folder}/data.pkl", pickled.getvalue())
        _add(archive, out, f"{folder}/.format_version", b"1")
        _add(archive, out, f"{folder}/.storage_alignment", str(_ALIGNMENT).encode())
        _add(archive, out, f"{folder}/byteorder", b"little")
        for record in pickler.storages.values():
            _add(archive, out, f"{folder}/data/{record.key}", record.memory.astype(
                record.memory.dtype.newbyteorder("<"), copy=False).tobytes())
        _add(archive, out, f"{folder}/version", b"3\n")
        _add(archive, out, f"{folder}/.data/serialization_id",
             "".join(random.choice("0123456789") for _ in range(40)).encode())


def _add(archive, out, name, data):
    """One stored record, padded (in the zip header's extra field, as PyTorch's writer does)
    so that its bytes start at a multiple of _ALIGNMENT."""
    import zipfile
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    start = out.tell() + 30 + len(name.encode()) + 4     # local header, name, extra's own header
    info.extra = b"FB" + (-start % _ALIGNMENT).to_bytes(2, "little") + b"Z" * (-start % _ALIGNMENT)
    archive.writestr(info, data)


# --- reading -----------------------------------------------------------------------------

def _is_zip(file):
    """True if the binary file ``file`` starts as a zip archive does (its position is kept)."""
    position = file.tell()
    magic = file.read(4)
    file.seek(position)
    return magic == b"PK\x03\x04"


def _rebuild_tensor(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                    metadata=None):
    from ._tensor import _wrap
    itemsize = storage.itemsize
    array = np.lib.stride_tricks.as_strided(
        storage[storage_offset:], tuple(size), tuple(step * itemsize for step in stride))
    tensor = _wrap(array)
    tensor.__dict__["_storage_memory"] = storage     # (storage_offset() counts from its start)
    tensor._requires_grad = bool(requires_grad)
    return tensor


def _rebuild_parameter(data, requires_grad, backward_hooks, *state):
    from .nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _torch_names():
    """PyTorch's names in a file -> what minigrad rebuilds them with."""
    names = {("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
             ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
             ("torch", "Size"): _dtype.Size,
             ("collections", "OrderedDict"): OrderedDict}
    for d in _dtype.ALL_DTYPES:
        names[("torch", d.name)] = d
        names[("torch", _STORAGE_NAMES[d.numpy_dtype])] = d.numpy_dtype
    return names


class _ArchiveUnpickler(pickle.Unpickler):
    """Reads data.pkl: PyTorch's names become minigrad's, storages are read from the archive."""

    def __init__(self, file, archive, folder, refuse):
        super().__init__(file)
        self.archive, self.folder, self.refuse = archive, folder, refuse
        self.names = _torch_names()
        self.storages = {}

    def find_class(self, module, name):
        if (module, name) in self.names:
            return self.names[(module, name)]
        if self.refuse is not None:
            self.refuse(module, name)           # raises PyTorch's weights-only error
        if module == "torch" or module.startswith("torch."):
            # a whole module or another object PyTorch pickled: minigrad's class of the same
            # place (minigrad mirrors PyTorch's layout: torch.nn.modules.linear.Linear)
            module = "minigrad" + module[len("torch"):]
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind, numpy_dtype, key, location, numel = pid
        if key not in self.storages:
            data = self.archive.read(f"{self.folder}/data/{key}")
            self.storages[key] = np.frombuffer(data, dtype=np.dtype(numpy_dtype).newbyteorder(
                "<")).astype(numpy_dtype)       # (a writable copy in this machine's byte order)
        return self.storages[key]


def _read_archive(file, refuse):
    """Load the object in PyTorch's zip archive ``file``. ``refuse(module, name)`` raises for a
    name that may not be loaded (weights_only); None lets every name load."""
    import zipfile
    with zipfile.ZipFile(file) as archive:
        pickles = [n for n in archive.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
        if not pickles:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
        folder = pickles[0].split("/")[0]
        data = io.BytesIO(archive.read(pickles[0]))
        return _ArchiveUnpickler(data, archive, folder, refuse).load()
