"""Wrong arguments to the functions of nn.functional, failing where PyTorch's fail.

Many of PyTorch's nn.functional functions are Python code that touches its arguments before
any C++ function sees them (``target.size()``, ``input.dim()``, ``if inplace:``): a string
given there fails with Python's own AttributeError or a tensor's truth-value error. The others
hand their arguments to a C++ function whose argument parser names the first that does not
fit. The helpers here do both; each function calls them only once a type test has failed, so
a correct call pays for that test alone.
"""
import operator

from .._tensor import Tensor
from .._signatures import Signatures
from .._type_names import type_name

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
    Signatures("cosine_similarity", "Tensor x1, Tensor x2, int dim=1, float eps=1e-08"),
    Signatures("dropout", "Tensor input, Number p, bool train"),
    Signatures("dropout_", "Tensor input, Number p, bool train"),
    # (Tensor.softmax(dim, dtype=...), where F.softmax with a dtype ends)
    Signatures("softmax", "int dim, torch.dtype? dtype=None"),
    Signatures("log_softmax", "int dim, torch.dtype? dtype=None"),
    Signatures("feature_dropout", "Tensor input, float p, bool train"),
    Signatures("feature_dropout_", "Tensor input, float p, bool train"),
    Signatures("elu", "Tensor input, Number alpha=1, Number scale=1, Number input_scale=1"),
    Signatures("elu_", "Tensor input, Number alpha=1, Number scale=1, Number input_scale=1"),
    Signatures("embedding", "Tensor weight, Tensor indices, int padding_idx=-1, "
                            "bool scale_grad_by_freq=False, bool sparse=False"),
    Signatures("embedding_renorm_", "Tensor input, Tensor indices, float max_norm, float norm_type"),
    Signatures("cross_entropy_loss", "Tensor input, Tensor target, Tensor? weight=None, int reduction=1, "
                                     "int ignore_index=-100, float label_smoothing=0.0"),
    Signatures("binary_cross_entropy_with_logits", "Tensor input, Tensor target, Tensor? weight=None, "
                                                   "Tensor? pos_weight=None, int reduction=1"),
)}

# the numbers PyTorch's loss functions pass for reduction= (torch.nn._reduction.get_enum)
REDUCTIONS = {"none": 0, "mean": 1, "elementwise_mean": 1, "sum": 2}


def parse_as(name, *args, **kwargs):
    """Raise the TypeError PyTorch's argument parser gives C++ function ``name`` for these
    arguments (nothing if they fit)."""
    BUILTINS[name].parse(args, kwargs)


def asked_for(attribute, *values):
    """PyTorch's Python code reads ``value.<attribute>`` of each value in turn: the first that
    is not a tensor fails there, with Python's AttributeError."""
    for value in values:
        if not isinstance(value, Tensor):
            raise AttributeError(f"'{type_name(value)}' object has no attribute '{attribute}'")


def as_number(value):
    """A 0-d tensor given for a number (PyTorch's parser takes it as that number)."""
    return value.item() if isinstance(value, Tensor) else value


def not_a_tensor(name, value, parameter="input", position=1):
    """The parser's TypeError for a non-tensor where C++ function ``name`` takes a tensor."""
    return TypeError(f"{name}(): argument '{parameter}' (position {position}) must be Tensor, "
                     f"not {type_name(value)}")


def reduction_number(reduction):
    """The number PyTorch passes for ``reduction`` (its ValueError for any other value)."""
    if isinstance(reduction, str) and reduction in REDUCTIONS:
        return REDUCTIONS[reduction]
    raise ValueError(f"{reduction} is not a valid value for reduction")


def stacklevel_checked(stacklevel):
    """softmax's ``_stacklevel``, which PyTorch hands to warnings.warn when no dim is given:
    anything but an integer fails there."""
    if type(stacklevel) is not int:
        operator.index(stacklevel)
