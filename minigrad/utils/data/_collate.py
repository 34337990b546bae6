"""Turning a list of samples into one batch (PyTorch: torch/utils/data/_utils/collate.py).

``default_collate`` works on the structure of the first sample and recurses:

    tensors          -> stacked along a new first dimension
    numpy arrays     -> made tensors, then stacked
    Python floats    -> a float64 tensor;  ints -> an int64 tensor
    strings          -> left as a list
    dicts            -> a dict of collated values, key by key
    tuples / lists   -> "transposed": [(x0, y0), (x1, y1)] -> [collate([x0, x1]), collate([y0, y1])]
                        (a tuple becomes a list, as in PyTorch)
"""
import collections.abc
import copy
import re

import numpy as np

from ..._creation import as_tensor, tensor
from ..._dtype import float64
from ..._ops.shape import stack
from ..._tensor import Tensor

_TEXT_OR_OBJECT = re.compile(r"[SaUO]")     # numpy dtypes that cannot become tensors

_ERROR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
          "found {}")


def default_convert(data):
    """Numpy arrays and numbers inside ``data`` become tensors, nothing is stacked (what the
    DataLoader uses with ``batch_size=None``)."""
    if isinstance(data, Tensor):
        return data
    if isinstance(data, np.ndarray) or isinstance(data, np.generic):
        if data.dtype.kind in "SaUO" or _TEXT_OR_OBJECT.search(data.dtype.str):
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({key: default_convert(value) for key, value in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):            # a namedtuple
        return type(data)(*(default_convert(item) for item in data))
    if isinstance(data, tuple):
        return [default_convert(item) for item in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return type(data)([default_convert(item) for item in data])
    return data


def default_collate(batch):
    """One batch from a list of samples (see the module's docstring for each kind of sample)."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if _TEXT_OR_OBJECT.search(elem.dtype.str) is not None:
            raise TypeError(_ERROR.format(elem.dtype))
        return default_collate([as_tensor(sample) for sample in batch])
    if isinstance(elem, np.generic) and elem.shape == ():
        if _TEXT_OR_OBJECT.search(elem.dtype.str) is not None:
            raise TypeError(_ERROR.format(elem.dtype))
        return as_tensor(np.asarray(batch))
    if isinstance(elem, bool) or isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([sample[key] for sample in batch]) for key in elem}
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)              # keep the dict's own type (an OrderedDict, ...)
            clone.update(collated)
            return clone
        try:
            return type(elem)(collated)
        except TypeError:
            return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):            # a namedtuple
        return type(elem)(*(default_collate(list(samples)) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(sample) == size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(list(samples)) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return columns
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for number, column in enumerate(columns):
                clone[number] = column
            return clone
        try:
            return type(elem)(columns)
        except TypeError:
            return columns
    raise TypeError(_ERROR.format(type(elem)))
