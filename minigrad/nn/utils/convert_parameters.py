"""All parameters as one vector and back (PyTorch: torch/nn/utils/convert_parameters.py).

Useful for methods that see a model as one point in a space of weights (line searches,
second-order methods, comparing two models).
"""
from ..._tensor import Tensor
from ..._ops.shape import cat


def parameters_to_vector(parameters):
    """The parameters flattened and joined into one 1-D tensor (recorded: a CatBackward0)."""
    return cat([param.view(-1) for param in parameters])


def _type_name(value):
    module = type(value).__module__
    name = type(value).__qualname__
    return name if module == "builtins" else f"{module}.{name}"


def vector_to_parameters(vec, parameters):
    """Put consecutive pieces of the 1-D ``vec`` into the parameters (their ``.data``), in order.

    The parameters then share ``vec``'s memory.
    """
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_type_name(vec)}")
    pointer = 0
    for param in parameters:
        count = param.numel()
        param.data = vec[pointer:pointer + count].view_as(param).data
        pointer += count
