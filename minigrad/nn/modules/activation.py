"""Activation functions as layers (PyTorch: torch/nn/modules/activation.py).

Each one only calls the function of the same name; being a Module lets it sit
inside a ``Sequential``.
"""
from .. import functional as F
from .module import Module


class ReLU(Module):
    """max(x, 0), element by element."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        if self.inplace:
            return input.clamp_(min=0)
        return F.relu(input)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """tanh(x), element by element."""

    def forward(self, input):
        return F.tanh(input)


class Sigmoid(Module):
    """1 / (1 + exp(-x)), element by element."""

    def forward(self, input):
        return F.sigmoid(input)
