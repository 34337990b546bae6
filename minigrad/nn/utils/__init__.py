"""minigrad.nn.utils: helpers for training (PyTorch: torch/nn/utils/).

    clip_grad.py           clip_grad_norm_, clip_grad_value_, get_total_norm, clip_grads_with_norm_:
                           keep one unlucky batch from making a huge update
    convert_parameters.py  parameters_to_vector, vector_to_parameters: all weights as one vector
    init.py                skip_init: a module made without drawing random initial values
    fusion.py              fuse_conv_bn_eval, fuse_linear_bn_eval, ...: fold BatchNorm into a layer
    parametrize.py         register_parametrization: a weight computed from other tensors
    parametrizations.py    weight_norm, spectral_norm, orthogonal, as parametrizations
    weight_norm.py         weight_norm, remove_weight_norm: the older, hook-based form
    spectral_norm.py       spectral_norm, remove_spectral_norm: the older, hook-based form
    stateless.py           functional_call's deprecated first name (now torch.func.functional_call)
"""
from .clip_grad import (  # noqa: F401
    clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from . import rnn  # noqa: F401  (PackedSequence, pack_padded_sequence, pad_packed_sequence, ...)
from .fusion import (  # noqa: F401
    fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights)
from . import parametrize  # noqa: F401
from . import parametrizations  # noqa: F401
from .weight_norm import weight_norm, remove_weight_norm  # noqa: F401
from .spectral_norm import spectral_norm, remove_spectral_norm  # noqa: F401
from .init import skip_init  # noqa: F401
from . import stateless  # noqa: F401
