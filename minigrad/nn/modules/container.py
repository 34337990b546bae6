"""``Sequential``: layers applied one after the other (PyTorch: torch/nn/modules/container.py)."""
from collections import OrderedDict

from .module import Module


class Sequential(Module):
    """``Sequential(a, b, c)(x)`` is ``c(b(a(x)))``.

    The layers are registered as sub-modules named ``'0'``, ``'1'``, ... (or
    with your own names when given an OrderedDict), so a parameter's name says
    which layer it belongs to: ``'0.weight'``.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input):
        """Each module in turn, the output of one the input of the next."""
        for module in self:
            input = module(input)
        return input

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        if isinstance(index, slice):
            # a new Sequential of the same layers (not copies), keeping their names
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return self._modules[self._key(index)]

    def __setitem__(self, index, module):
        setattr(self, self._key(index), module)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for key in list(self._modules)[index]:
                del self._modules[key]
        else:
            del self._modules[self._key(index)]
        # renumber, so that the names stay 0, 1, 2, ...
        self.__dict__["_modules"] = OrderedDict(
            (str(i), module) for i, module in enumerate(self._modules.values()))

    def _key(self, index):
        """The name of the layer at position ``index`` (negative counts from the end)."""
        size = len(self)
        index = index.__index__()
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules)[index % size]

    def append(self, module):
        """Add a layer at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self
