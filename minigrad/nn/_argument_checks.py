"""Wrong arguments to the functions of nn.functional, failing where PyTorch's fail.

Many of PyTorch's nn.functional functions are Python code that touches its arguments before
any C++ function sees them (``target.size()``, ``input.dim()``, ``if inplace:``): a string
given there fails with Python's own AttributeError or a tensor's truth-value error. The others
hand their arguments to a C++ function whose argument parser names the first that does not
fit. The helpers here do both; each function calls them only once a type test has failed, so
a correct call pays for that test alone.
"""
from .._tensor import Tensor
from .._signatures import Signatures

REQUIRED = object()        # (the default of an argument PyTorch's parser reports missing)
NUMBER = (int, float)      # (the numbers a correct call gives: anything else is parsed)

# the C++ functions that nn.functional ends in, as PyTorch declares their arguments
BUILTINS = {signatures.name: signatures for signatures in (
    Signatures("leaky_relu", "Tensor input, Number negative_slope=0.01"),
    Signatures("leaky_relu_", "Tensor input, Number negative_slope=0.01"),
    Signatures("softplus", "Tensor input, Number beta=1, Number threshold=20"),
    Signatures("hardtanh", "Tensor input, Number min_val=-1, Number max_val=1"),
    Signatures("hardtanh_", "Tensor input, Number min_val=-1, Number max_val=1"),
    Signatures("relu", "Tensor input"), Signatures("relu_", "Tensor input"),
    Signatures("silu", "Tensor input"), Signatures("silu_", "Tensor input"),
    Signatures("linear", "Tensor input, Tensor weight, Tensor? bias=None"),
    Signatures("nll_loss_nd", "Tensor input, Tensor target, Tensor? weight=None, int reduction=1, "
                              "int ignore_index=-100"),
    Signatures("kl_div", "Tensor input, Tensor target, int reduction=1, *, bool log_target=False"),
    # (PyTorch says "float" for p and eps: "Number" here, which names the same wrong arguments)
    Signatures("cosine_similarity", "Tensor x1, Tensor x2, int dim=1, Number eps=1e-08"),
    Signatures("dropout", "Tensor input, Number p, bool train"),
    Signatures("dropout_", "Tensor input, Number p, bool train"),
)}


def parse_as(name, *args, **kwargs):
    """Raise the TypeError PyTorch's argument parser gives C++ function ``name`` for these
    arguments (nothing if they fit)."""
    BUILTINS[name].parse(args, kwargs)


def asked_for(attribute, *values):
    """PyTorch's Python code reads ``value.<attribute>`` of each value in turn: the first that
    is not a tensor fails there, with Python's AttributeError."""
    for value in values:
        if not isinstance(value, Tensor):
            raise AttributeError(f"'{type(value).__name__}' object has no attribute '{attribute}'")


def as_number(value):
    """A 0-d tensor given for a number (PyTorch's parser takes it as that number)."""
    return value.item() if isinstance(value, Tensor) else value


def not_a_tensor(name, value, parameter="input", position=1):
    """The parser's TypeError for a non-tensor where C++ function ``name`` takes a tensor."""
    return TypeError(f"{name}(): argument '{parameter}' (position {position}) must be Tensor, "
                     f"not {type(value).__name__}")
