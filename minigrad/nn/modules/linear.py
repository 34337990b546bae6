"""``Linear`` (a fully-connected layer) and ``Identity`` (PyTorch: torch/nn/modules/linear.py)."""
import math

from ..._type_names import type_name
from ..._creation import empty
from .. import functional as F
from .. import init
from ...autograd.grad_mode import no_grad
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module


class Identity(Module):
    """Returns its input unchanged (a placeholder, e.g. to switch a layer off)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        """``input`` itself (no node is recorded)."""
        return input


def _check_features(out_features, in_features):
    """PyTorch's messages when the sizes of the weight it allocates are not whole numbers."""
    for position, size in enumerate((out_features, in_features)):
        if isinstance(size, int) and not isinstance(size, bool):
            continue
        if position == 0:
            raise TypeError(f"empty(): argument 'size' (position 1) must be tuple of ints, but "
                            f"found element of type {type_name(size)} at pos 0")
        raise TypeError(f"empty(): argument 'size' failed to unpack the object at pos 2 with "
                        f"error \"type must be tuple of ints,but got {type_name(size)}\"")


class Linear(Module):
    """y = x @ weight.T + bias, with weight of shape (out_features, in_features).

    The weight stores one row per output unit, which is why forward multiplies
    by its transpose.
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        _check_features(out_features, in_features)
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's default init: weight and bias uniform in [-1/sqrt(in), 1/sqrt(in)]."""
        # a=sqrt(5) makes kaiming_uniform_'s bound exactly 1 / sqrt(fan_in)
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        """``input @ weight^T + bias`` (``F.linear``: one AddmmBackward0 for a 2-D input, as in PyTorch)."""
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        """The settings PyTorch prints: ``in_features=..., out_features=..., bias=True``."""
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear layer whose ``in_features`` is read from the first input's last dim; it then
    becomes a ``Linear`` (see ``LazyModuleMixin``). Until then weight and bias are
    ``UninitializedParameter`` s and the layer prints ``in_features=0``."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)              # no bias yet: it is replaced right below
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        """Linear's init, once the parameters have a shape."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        """``in_features = input.shape[-1]``; materialize weight then bias, then initialize them."""
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:                  # the parameters came from load_state_dict
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} is not equal "
                                     f"to in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class Bilinear(Module):
    """y = x1^T A x2 + b: one matrix A (in1 x in2) per output unit, weight of shape
    (out_features, in1_features, in2_features)."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None,
                 dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in1_features, in2_features, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's init: weight and bias uniform in [-1/sqrt(in1), 1/sqrt(in1)]."""
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        """``F.bilinear(input1, input2, weight, bias)``."""
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        """The settings PyTorch prints."""
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
