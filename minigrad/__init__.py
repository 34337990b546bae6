"""minigrad: PyTorch's autograd, rebuilt on numpy so you can read how it works.

    import minigrad as torch
    x = torch.ones(5)
    w = torch.randn(5, 3, requires_grad=True)
    loss = (x @ w).sum()
    loss.backward()
    w.grad

Where things live (the same places as in PyTorch):

    _tensor.py            the Tensor class                  (torch/_tensor.py)
    _ops/*.py             every operation and its backward  (derivatives.yaml)
    autograd/graph.py     Node, AccumulateGrad              (torch/autograd/graph.py)
    autograd/engine.py    the backward pass                 (torch/csrc/autograd/engine.cpp)
    autograd/function.py  custom Functions                  (torch/autograd/function.py)
    autograd/grad_mode.py no_grad, enable_grad              (torch/autograd/grad_mode.py)
    autograd/functional.py jacobian, hessian, vjp, jvp      (torch/autograd/functional.py)
    autograd/forward_ad.py forward mode: dual tensors       (torch/autograd/forward_ad.py)
    func/                 grad, vmap, jacrev, jacfwd, ...   (torch/func)
    autograd/gradcheck.py finite-difference checks          (torch/autograd/gradcheck.py)
    nn/functional.py      losses and activations            (torch/nn/functional.py)
"""
__version__ = "0.1.0"

import warnings as _warnings

# PyTorch computes with inf and nan silently (exp(1000) is inf, 0/0 is nan);
# numpy would print a RuntimeWarning for each. Silence numpy's floating-point
# warnings, but only those raised from inside minigrad's own code.
_warnings.filterwarnings(
    "ignore", category=RuntimeWarning, module=r"minigrad(\.|$)",
    message=r"(overflow|divide by zero|invalid value|underflow) encountered")

from ._dtype import (  # noqa: F401
    dtype, Size, float16, float32, float64, uint8, int8, int16, int32, int64, bool_ as bool,
)
from ._tensor import Tensor, device, _install_methods  # noqa: F401
from . import autograd  # noqa: F401
from .autograd import no_grad, enable_grad, set_grad_enabled, is_grad_enabled  # noqa: F401
from ._creation import (  # noqa: F401
    tensor, as_tensor, from_numpy, zeros, ones, empty, full, eye, arange, linspace, rand, randn,
    randint, randperm, normal, zeros_like, ones_like, empty_like, full_like, rand_like, randn_like,
)
from .random import manual_seed, seed, initial_seed, Generator  # noqa: F401
from ._ops.pointwise import (  # noqa: F401
    add, sub, mul, div, pow, neg, exp, log, log1p, sqrt, rsqrt, sin, cos, tan, tanh, sigmoid,
    relu, abs, clamp, square, reciprocal, sign, maximum, minimum, where,
)
from ._ops.reduction import (  # noqa: F401
    sum, mean, max, min, amax, amin, norm, argmax, argmin, all, any, var, std, logsumexp,
    return_types,
)
from ._ops.shape import (  # noqa: F401
    reshape, t, transpose, permute, squeeze, unsqueeze, flatten, cat, concat, stack, unbind,
    split, chunk, flip, allclose, isclose, equal, select, swapaxes,
)
from ._ops.linalg import matmul, mm, mv, dot, outer, addmm  # noqa: F401
from . import nn  # noqa: F401
from .nn.functional import softmax, log_softmax  # noqa: F401  (torch.softmax exists too)
from ._tensor_str import set_printoptions, get_printoptions  # noqa: F401
from . import func  # noqa: F401

# Python-name aliases PyTorch also has
float = float32
double = float64
half = float16
long = int64
int = int32
clip = clamp
subtract = sub
multiply = mul
divide = div
negative = neg

_install_methods()
del _install_methods


def is_tensor(obj):
    """True if ``obj`` is a minigrad Tensor."""
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


def is_floating_point(input):
    return input.is_floating_point()


def get_default_dtype():
    return float32
