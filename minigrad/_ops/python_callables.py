"""Elementwise Python functions, in place: x.apply_(f), x.map_(y, f), x.map2_(y, z, f).

Each element (with its partners from y and z, broadcast to x's shape) is handed to ``f`` as
a Python number, and f's answer written back into x in x's dtype (an int tensor keeps int(f's
answer)). Slow (one Python call per element) and invisible to autograd, so PyTorch refuses
them on tensors that require grad, and, unlike the other in-place operations, does not count
them as changes (the version stays as it was).
"""
import numbers

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor


def _refuse_grad(tensor, name):
    if tensor.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")


def _written(tensor, values):
    """Write the Python numbers ``values`` (one per element, in row-major order) into ``tensor``."""
    array = tensor._array
    for value in values:
        if not isinstance(value, numbers.Real):
            raise TypeError(f"must be real number, not {type(value).__name__}")
    array[...] = np.asarray(values, dtype=np.float64 if array.dtype.kind == "f" else object).reshape(
        array.shape).astype(array.dtype)
    return tensor


def _partner(name, tensor, other, argument):
    """``other`` broadcast to ``tensor``'s shape; it must have tensor's dtype."""
    if other.dtype != tensor.dtype:
        where = f"argument '{argument}'" if name == "map2_" else f"'{argument}'"
        raise TypeError(f"{name}: expected torch.{tensor.dtype.tensor_type_name} for {where} "
                        f"(got torch.{other.dtype.tensor_type_name})")
    return other.expand(tensor.shape)._array


def apply_(self, callable):
    """self[i] = callable(self[i]) for every element, in place (not for tensors that require grad)."""
    _refuse_grad(self, "apply_")
    return _written(self, [callable(v) for v in self._array.ravel().tolist()])


def map_(self, tensor, callable):
    """self[i] = callable(self[i], tensor[i]) for every element, ``tensor`` broadcast to self's shape."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"map_(): argument 'other' (position 1) must be Tensor, not {type_name(tensor)}")
    _refuse_grad(self, "map_")
    others = _partner("map_", self, tensor, "other").ravel().tolist()
    return _written(self, [callable(a, b) for a, b in zip(self._array.ravel().tolist(), others)])


def map2_(self, x, y, callable):
    """self[i] = callable(self[i], x[i], y[i]) for every element, x and y broadcast to self's shape."""
    _refuse_grad(self, "map2_")
    xs = _partner("map2_", self, x, "x").ravel().tolist()
    ys = _partner("map2_", self, y, "y").ravel().tolist()
    return _written(self, [callable(a, b, c) for a, b, c in zip(self._array.ravel().tolist(), xs, ys)])


METHODS = {"apply_": apply_, "map_": map_, "map2_": map2_}
