"""minigrad: PyTorch's autograd, rebuilt on numpy so you can read how it works.

    import minigrad as torch
    x = torch.ones(5)
    w = torch.randn(5, 3, requires_grad=True)
    loss = (x @ w).sum()
    loss.backward()
    w.grad

Where things live (the same places as in PyTorch):

    _tensor.py            the Tensor class                  (torch/_tensor.py)
    _tensortype.py        FloatTensor, LongTensor, ...      (torch/csrc/tensor/python_tensor.cpp)
    _ops/*.py             every operation and its backward  (derivatives.yaml)
    _python_arg_parser.py checks the arguments of torch.xxx() (torch/csrc/utils/python_arg_parser.cpp)
    _out.py               torch.xxx(..., out=t): results written into t (aten's .out variants)
    autograd/graph.py     Node, AccumulateGrad              (torch/autograd/graph.py)
    autograd/engine.py    the backward pass                 (torch/csrc/autograd/engine.cpp)
    autograd/function.py  custom Functions                  (torch/autograd/function.py)
    autograd/grad_mode.py no_grad, enable_grad, inference_mode (torch/autograd/grad_mode.py)
    autograd/anomaly_mode.py detect_anomaly                 (torch/autograd/anomaly_mode.py)
    utils/checkpoint.py   trade compute for memory          (torch/utils/checkpoint.py)
    _op_overloads.py      torch.ops.aten.mm.default, ...    (torch/_ops.py)
    autograd/functional.py jacobian, hessian, vjp, jvp      (torch/autograd/functional.py)
    autograd/forward_ad.py forward mode: dual tensors       (torch/autograd/forward_ad.py)
    func/                 grad, vmap, jacrev, jacfwd, ...   (torch/func)
    autograd/gradcheck.py finite-difference checks          (torch/autograd/gradcheck.py)
    autograd/profiler.py  time operations and backward nodes (torch/autograd/profiler.py)
    nn/functional.py      losses and activations            (torch/nn/functional.py)
    nn/modules/*.py       layers: Module, Linear, ...       (torch/nn/modules/)
    optim/*.py            optimizers: SGD, Adam, AdamW      (torch/optim/)
    cuda/, backends/, accelerator.py, cpu.py, mps.py, xpu.py  devices: the CPU only (torch/cuda/, ...)
    testing/_comparison.py assert_close                     (torch/testing/_comparison.py)
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
from ._dtype import (  # noqa: F401
    get_default_dtype, set_default_dtype, promote_types, can_cast, torch_result_type as result_type,
    finfo, iinfo)
from ._tensor import Tensor, device, _install_methods  # noqa: F401
from ._tensortype import (  # noqa: F401  (old PyTorch's typed tensor classes)
    FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor,
    ByteTensor, BoolTensor)
from ._memory_format import (  # noqa: F401
    memory_format, contiguous_format, preserve_format, channels_last, channels_last_3d)
from . import autograd  # noqa: F401
from .autograd import no_grad, enable_grad, set_grad_enabled, is_grad_enabled  # noqa: F401
from .autograd import inference_mode, is_inference_mode_enabled  # noqa: F401
from .autograd.anomaly_mode import is_anomaly_enabled, is_anomaly_check_nan_enabled  # noqa: F401
from ._creation import (  # noqa: F401
    tensor, as_tensor, from_numpy, zeros, ones, empty, full, eye, arange, linspace, rand, randn,
    randint, randperm, normal, zeros_like, ones_like, empty_like, full_like, rand_like, randn_like, bernoulli,
)
from .random import manual_seed, seed, initial_seed, Generator, default_generator  # noqa: F401
from .random import get_rng_state, set_rng_state  # noqa: F401
from ._multinomial import multinomial  # noqa: F401  (and Tensor.multinomial, just below)
Tensor.multinomial = _multinomial.multinomial_method
from ._ops.pointwise import (  # noqa: F401
    add, sub, mul, div, pow, neg, exp, log, log1p, sqrt, rsqrt, sin, cos, tan, tanh, sigmoid,
    relu, abs, clamp, clamp_min, clamp_max, square, reciprocal, sign, maximum, minimum, where,
)
from ._ops.reduction import (  # noqa: F401
    sum, mean, max, min, amax, amin, norm, argmax, argmin, all, any, var, std, logsumexp,
    return_types,
)
from ._ops.shape import (  # noqa: F401
    reshape, t, transpose, permute, squeeze, unsqueeze, flatten, cat, concat, stack, unbind,
    split, chunk, flip, allclose, isclose, equal, select, swapaxes, clone,
)
from ._ops.linalg import matmul, mm, mv, dot, outer, addmm  # noqa: F401
from ._ops.scan import cumsum, cumprod, prod, narrow  # noqa: F401
from ._ops.gather_scatter import gather, scatter, scatter_add, index_select, index_add  # noqa: F401
from ._ops.sorting import sort, argsort, topk, roll  # noqa: F401
from ._ops.rounding import (  # noqa: F401
    round, floor, ceil, trunc, fix, frac, floor_divide, remainder, fmod,
)
from ._ops.pointwise import rsub  # noqa: F401
from ._ops.angles import atan2, arctan2  # noqa: F401
from ._ops.triangular import tril, triu  # noqa: F401
from ._ops.median import median, nanmedian  # noqa: F401
from ._ops.masked_select import masked_select  # noqa: F401
from ._ops.summing import nansum, nanmean, count_nonzero  # noqa: F401
from ._ops.einsum import diagonal, einsum  # noqa: F401
from ._ops.blas import bmm, baddbmm, addmm, addmv, addr  # noqa: F401
from ._ops.special import erf  # noqa: F401
from ._ops.nonfinite import (  # noqa: F401
    isnan, isinf, isfinite, isposinf, isneginf, nan_to_num, nan_to_num_)
from ._ops.logarithms import (  # noqa: F401
    log2, log10, expm1, exp2, logaddexp, logaddexp2, xlogy, logit)
from ._ops.trigonometry import (  # noqa: F401
    asin, acos, atan, sinh, cosh, asinh, acosh, atanh, arcsin, arccos, arctan, arcsinh, arccosh,
    arctanh, deg2rad, rad2deg)
from ._ops.special import erfc, erfinv, sinc  # noqa: F401
from ._ops.gamma import lgamma, digamma, polygamma, mvlgamma  # noqa: F401
from ._ops.bessel import i0  # noqa: F401  (torch.special has i0e, i1, i1e too)
from ._ops.binary_ops import hypot, copysign, fmax, fmin, heaviside, float_power  # noqa: F401
from ._ops.blend import addcmul, addcdiv, lerp  # noqa: F401
from ._ops.math_aliases import (  # noqa: F401
    positive, signbit, true_divide, eq, ne, lt, le, gt, ge, greater, greater_equal, less,
    less_equal, not_equal)
from ._ops.logical import logical_not, logical_and, logical_or, logical_xor  # noqa: F401
from ._ops.pointwise import nonzero  # noqa: F401
from ._ops.rearrange import (  # noqa: F401
    movedim, moveaxis, swapdims, ravel, unflatten, broadcast_to, tile, fliplr, flipud, rot90,
    tensor_split, hsplit, vsplit, dsplit, repeat_interleave, take_along_dim, atleast_1d,
    atleast_2d, atleast_3d, hstack, vstack, row_stack, dstack, column_stack)
from ._ops.diagonals import diag, diag_embed, diagflat, trace  # noqa: F401
from ._ops.index_ops import take, put, index_copy, index_fill, index_put, masked_scatter  # noqa: F401
from ._ops.selection import kthvalue, mode, cummax, cummin  # noqa: F401
from ._ops.aminmax import aminmax  # noqa: F401
from ._ops.logcumsumexp import logcumsumexp  # noqa: F401
from ._ops.scatter_views import select_scatter, slice_scatter, diagonal_scatter, narrow_copy  # noqa: F401
from ._ops.bitwise import (  # noqa: F401
    bitwise_and, bitwise_or, bitwise_xor, bitwise_not, bitwise_left_shift, bitwise_right_shift)
from ._ops.number_theory import gcd, lcm, gcd_, lcm_  # noqa: F401
from ._ops.float_parts import frexp, ldexp, ldexp_, nextafter  # noqa: F401
from ._ops.complex_parts import (  # noqa: F401
    angle, isreal, is_complex, is_conj, is_neg, conj, resolve_conj, resolve_neg, conj_physical,
    conj_physical_, real, imag, is_nonzero)
from ._ops.pointwise import sgn, abs as absolute  # noqa: F401
from ._ops.incomplete_gamma import igamma, igammac  # noqa: F401
from ._ops.strided import as_strided, as_strided_, as_strided_scatter  # noqa: F401
from ._ops.combinatorics import (  # noqa: F401
    broadcast_shapes, broadcast_tensors, meshgrid, cartesian_prod, combinations, block_diag, vander,
    tril_indices, triu_indices, argwhere, isin, unravel_index, nonzero_static)
from ._creation import logspace, scalar_tensor, asarray, empty_strided, randint_like  # noqa: F401
from ._ops.products import kron, tensordot, inner, vdot, ger, chain_matmul, addbmm  # noqa: F401
from ._ops.householder import geqrf, orgqr  # noqa: F401
from ._ops.statistics import var_mean, std_mean, quantile, nanquantile, cov, corrcoef  # noqa: F401
from ._ops.counting import (  # noqa: F401
    unique, unique_consecutive, bincount, histc, histogram, searchsorted, bucketize)
from ._ops.sorting import msort  # noqa: F401
from ._ops.differences import diff, trapezoid, trapz, cumulative_trapezoid  # noqa: F401
from ._ops.scatter_reduce import scatter_reduce, index_reduce  # noqa: F401
from ._ops.renorm import renorm  # noqa: F401
from ._ops.inplace_unary import METHODS as _INPLACE_UNARY
from ._ops.inplace import clamp_, clip_, zero_, fill_  # noqa: F401
from . import linalg  # noqa: F401  (torch.linalg)
from ._ops.decompositions import (  # noqa: F401
    det_function as det, slogdet_function as slogdet, logdet, inverse)
from ._ops.cholesky import cholesky_function as cholesky  # noqa: F401
from ._ops.spectral import svd_function as svd, qr_function as qr, matrix_exp, pinverse  # noqa: F401
from ._ops.matrix_products import cross_function as cross, matrix_power  # noqa: F401
from ._ops.norms import dist  # noqa: F401
from ._ops.triangular_solves import cholesky_solve, cholesky_inverse  # noqa: F401
from ._ops.lu import lu_unpack  # noqa: F401
# --- more of dir(torch): view copies, unsafe splits, windows, range, gradient, constants ---
from ._ops.view_copies import (  # noqa: F401
    view_copy, expand_copy, permute_copy, transpose_copy, t_copy, diagonal_copy, select_copy, slice_copy,
    unsqueeze_copy, squeeze_copy, alias_copy, unfold_copy, as_strided_copy, split_copy,
    split_with_sizes_copy, unbind_copy, detach_copy, unsafe_split, unsafe_split_with_sizes, unsafe_chunk)
from ._ops.windows import (  # noqa: F401
    hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window)
from . import signal  # noqa: F401  (torch.signal.windows)
from ._creation import deprecated_range as range  # noqa: F401  (torch.range, with its warning)
from ._ops.differences import gradient  # noqa: F401
from ._global_settings import (  # noqa: F401  (torch.pi, torch.set_num_threads, ...: torch/__init__.py's)
    pi, e, inf, nan, newaxis, set_num_threads, get_num_threads, set_num_interop_threads,
    get_num_interop_threads, use_deterministic_algorithms, are_deterministic_algorithms_enabled,
    is_deterministic_algorithms_warn_only_enabled, set_deterministic_debug_mode, get_deterministic_debug_mode,
    set_float32_matmul_precision, get_float32_matmul_precision, set_default_device, get_default_device,
    set_warn_always, is_warn_always_enabled, typename, is_storage, get_device, set_anomaly_enabled)
from ._creation import empty_permuted  # noqa: F401
from ._zero_tensor import _efficientzerotensor  # noqa: F401  (zeros without memory, as sgn's gradient)
from ._ops.deprecated_norms import frobenius_norm, nuclear_norm  # noqa: F401
from ._linalg_utils import solve, lstsq, eig, _symeig as symeig, matrix_rank  # noqa: F401  (removed: PyTorch's errors)
from ._dtype import int16 as short  # noqa: F401
from ._layout import layout, strided  # noqa: F401
from ._ops.fill import fill  # noqa: F401
from ._ops.shape import cat as concatenate  # noqa: F401  (NumPy's name; axis= works too)
from . import functional  # noqa: F401
from .functional import lu, lu_solve  # noqa: F401
from ._nn_functions import (  # noqa: F401  (the losses with reduction as a number, max_pool3d)
    binary_cross_entropy_with_logits, kl_div, cosine_embedding_loss, hinge_embedding_loss, margin_ranking_loss,
    poisson_nll_loss, triplet_margin_loss, max_pool3d)
# --- end of more of dir(torch) ---
from ._ops.triangular_solves import triangular_solve  # noqa: F401
from ._ops.householder import ormqr  # noqa: F401
from ._lowrank import svd_lowrank, pca_lowrank  # noqa: F401
from ._lobpcg import lobpcg  # noqa: F401
from . import nn, optim  # noqa: F401
from . import utils  # noqa: F401
from ._install_as_torch import install_as_torch  # noqa: F401  (minigrad's own: `import torch` finds minigrad)
# devices: like a PyTorch built for the CPU only, minigrad has no CUDA (torch.cuda.is_available() is
# False); these modules answer as that build does, so tutorials' first lines run unchanged
from . import cuda, backends, accelerator, cpu, mps, xpu, version  # noqa: F401
from .cuda import OutOfMemoryError  # noqa: F401
from ._op_overloads import ops  # noqa: F401  (torch.ops.aten: the names of PyTorch's operators)
from .nn.functional import (  # noqa: F401  (torch.softmax: Tensor.softmax as a function)
    _softmax as softmax, _log_softmax as log_softmax)
from .nn.functional import selu_, celu_  # noqa: F401
from .nn.functional import cosine_similarity, pairwise_distance  # noqa: F401
from .nn.functional import hardshrink, prelu, rrelu, rrelu_, threshold_  # noqa: F401
from .nn._similarity import cdist  # noqa: F401
from .nn._convolution import (  # noqa: F401  (torch.conv2d is F.conv2d)
    conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, convolution)
from .nn._pooling import (  # noqa: F401
    max_pool1d, max_pool2d, avg_pool1d, adaptive_avg_pool1d, max_pool1d_with_indices,
    adaptive_max_pool1d_with_indices as adaptive_max_pool1d)
from .nn._padding import constant_pad_nd  # noqa: F401
from .nn._pdist import pdist  # noqa: F401  (torch.pdist is F.pdist)
from .nn._weight_norm import norm_except_dim, _weight_norm, _weight_norm_interface  # noqa: F401
from .nn._bilinear import bilinear, _trilinear  # noqa: F401  (torch.bilinear, torch._trilinear)
from .nn._ctc_loss import ctc_loss  # noqa: F401  (torch.ctc_loss: reduction as a number)
from .nn._pixel_shuffle import (  # noqa: F401  (torch.pixel_shuffle is F.pixel_shuffle)
    pixel_shuffle, pixel_unshuffle, channel_shuffle, native_channel_shuffle)
from .nn._affine_grid import affine_grid_generator  # noqa: F401  (F.affine_grid)
from .nn._grid_sample import grid_sampler  # noqa: F401  (F.grid_sample)
from ._tensor_str import set_printoptions, get_printoptions  # noqa: F401
from ._nn_functions import (  # noqa: F401  (torch.layer_norm, torch.dropout, torch.detach, ...)
    detach, detach_, masked_fill, index_put_, adjoint, split_with_sizes, layer_norm, group_norm,
    rms_norm, batch_norm, instance_norm, embedding, dropout, dropout_, alpha_dropout,
    alpha_dropout_, feature_dropout, feature_dropout_, feature_alpha_dropout,
    feature_alpha_dropout_)
from . import func  # noqa: F401
from . import profiler  # noqa: F401  (torch.profiler; the profiler itself: autograd/profiler.py)
from . import special  # noqa: F401  (torch.special.expit, gammaln, ...)
from .func import vmap  # noqa: F401  (torch.vmap is torch.func.vmap)
from . import serialization  # noqa: F401
from .serialization import save, load  # noqa: F401
from ._foreach import FUNCTIONS as _FOREACH  # noqa: E402  (torch._foreach_add_, ...: a list at once)
globals().update(_FOREACH)
del _FOREACH

# Python-name aliases PyTorch also has
float = float32
double = float64
half = float16
long = int64
int = int32
clip = clamp
from ._ops.alpha_forms import subtract  # noqa: E402  (subtract(x, number, alpha): SubBackward1)
multiply = mul
divide = div
negative = neg

_install_methods()
del _install_methods

# torch.exp_(x), torch.relu_(x), ...: the in-place methods written as functions
for _name in ("abs_", "ceil_", "cos_", "exp_", "fix_", "floor_", "frac_", "log1p_", "log_", "neg_",
              "negative_", "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sqrt_",
              "square_", "tan_", "tanh_", "trunc_", "erf_", "clamp_min_", "clamp_max_",
              "asin_", "acos_", "atan_", "sinh_", "cosh_", "asinh_", "acosh_", "atanh_", "arcsin_",
              "arccos_", "arctan_", "arcsinh_", "arccosh_", "arctanh_", "deg2rad_", "rad2deg_",
              "erfc_", "sinc_", "exp2_", "logit_", "xlogy_", "addmv_", "i0_", "expm1_", "log2_", "log10_"):
    globals()[_name] = _INPLACE_UNARY[_name]
del _name, _INPLACE_UNARY


def selu(input):
    """``F.selu(input)``, without its ``inplace`` argument (``torch.selu_`` is the in-place form)."""
    return nn.functional.selu(input)


def celu(input, alpha=1.0):
    """``F.celu(input, alpha)``, without its ``inplace`` argument (``torch.celu_`` is the in-place form)."""
    return nn.functional.celu(input, alpha)


def threshold(input, threshold, value):
    """``F.threshold(input, threshold, value)``: input where input > threshold, else value
    (``torch.threshold_`` is the in-place form)."""
    return nn.functional.threshold(input, threshold, value)


def is_tensor(obj):
    """True if ``obj`` is a minigrad Tensor."""
    return isinstance(obj, Tensor)


def is_inference(input):
    """True if ``input`` was created inside ``inference_mode()`` (same as ``input.is_inference()``)."""
    return input.is_inference()


def is_same_size(input, other):
    """True if ``input`` and ``other`` have the same shape."""
    return input.is_same_size(other)


def is_signed(input):
    """True if ``input``'s dtype can hold negative numbers (not uint8, not bool)."""
    return input.is_signed()


def numel(input):
    """The number of elements of ``input`` (the product of its shape)."""
    return input.numel()


def is_floating_point(input):
    """True if ``input``'s dtype is a floating-point type (only those can require grad)."""
    return input.is_floating_point()


# Check the arguments of every public function in one place (PyTorch's python_arg_parser).
from ._python_arg_parser import torch_function_checked as _checked, PARAMETERS as _PARAMETERS  # noqa: E402
from ._out import OUT_RULES as _OUT_RULES  # noqa: E402
for _name, _parameters in _PARAMETERS.items():
    if _name in globals():
        globals()[_name] = _checked(globals()[_name], _name, _parameters, _OUT_RULES.get(_name))
# (and the functions that take out= but have no tensor argument to check: addmm, lerp, ...)
for _name in _OUT_RULES:
    if _name in globals() and _name not in _PARAMETERS:
        globals()[_name] = _checked(globals()[_name], _name, (), _OUT_RULES[_name])
i0 = _checked(i0, "i0", (("input", "Tensor"),), _OUT_RULES.get("i0"))
selu, celu = _checked(selu, "selu", (("input", "Tensor"),)), _checked(celu, "celu", (("input", "Tensor"),))
mvlgamma = _checked(mvlgamma, "mvlgamma", (("input", "Tensor"),), _OUT_RULES.get("mvlgamma"))     # (p: checked by mvlgamma)
bitwise_not = _checked(bitwise_not, "bitwise_not", (("input", "Tensor"),), _OUT_RULES["bitwise_not"])
gcd, lcm, gcd_, lcm_ = (_checked(function, name, (("input", "Tensor"),), _OUT_RULES.get(name))
                        for function, name in ((gcd, "gcd"), (lcm, "lcm"), (gcd_, "gcd_"), (lcm_, "lcm_")))
for _name in ("hardshrink", "prelu", "rrelu", "rrelu_", "threshold", "threshold_", "frexp", "angle", "isreal", "is_complex", "is_conj", "is_neg", "conj", "resolve_conj",
              "resolve_neg", "conj_physical", "conj_physical_", "real", "imag", "is_nonzero", "sgn",
              "absolute", "ldexp", "ldexp_", "nextafter", "igamma", "igammac"):
    globals()[_name] = _checked(globals()[_name], _name, (("input", "Tensor"),), _OUT_RULES.get(_name))
aminmax = _checked(aminmax, "aminmax", (("input", "Tensor"),))      # (dim: checked by aminmax)
logcumsumexp = _checked(logcumsumexp, "logcumsumexp", (("input", "Tensor"), ("dim", "int")))
select_scatter = _checked(select_scatter, "select_scatter", (("input", "Tensor"), ("src", "Tensor"),
                                                             ("dim", "int"), ("index", "int")))
slice_scatter = _checked(slice_scatter, "slice_scatter", (("input", "Tensor"), ("src", "Tensor"), ("dim", "int")))
diagonal_scatter = _checked(diagonal_scatter, "diagonal_scatter", (
    ("input", "Tensor"), ("src", "Tensor"), ("offset", "int"), ("dim1", "int"), ("dim2", "int")))
narrow_copy = _checked(narrow_copy, "narrow_copy", (("input", "Tensor"), ("dim", "int"), ("start", "int"),
                                                    ("length", "int")))
# the linear-algebra functions (torch.linalg's are checked in linalg/__init__.py)
for _name, _parameters in {
        **{name: (("input", "Tensor"),) for name in (
            "det", "logdet", "slogdet", "inverse", "cholesky", "matrix_exp", "pinverse", "svd", "qr")},
        "cross": (("input", "Tensor"), ("other", "Tensor")), "dist": (("input", "Tensor"), ("other", "Tensor")),
        "matrix_power": (("input", "Tensor"), ("n", "int")), "cholesky_inverse": (("input", "Tensor"),),
        "cholesky_solve": (("input", "Tensor"), ("input2", "Tensor")),
        "lu_unpack": (("LU_data", "Tensor"), ("LU_pivots", "Tensor")),
        "lu_solve": (("input", "Tensor"), ("LU_data", "Tensor"), ("LU_pivots", "Tensor")),
        "triangular_solve": (("input", "Tensor"), ("A", "Tensor")),
        "frobenius_norm": (("input", "Tensor"),), "nuclear_norm": (("input", "Tensor"),),
        "ormqr": (("input", "Tensor"), ("input2", "Tensor"), ("input3", "Tensor"))}.items():
    globals()[_name] = _checked(globals()[_name], _name, _parameters, _OUT_RULES.get(_name))
del _name, _parameters, _checked, _PARAMETERS, _OUT_RULES

# --- resizing in place: x.resize_(2, 3), x.resize_as_(y), torch.resize_as_ (and the deprecated resize) ---
from ._ops.resize import METHODS as _RESIZE_METHODS, resize_as_function as resize_as_  # noqa: E402
for _name, _method in _RESIZE_METHODS.items():
    setattr(Tensor, _name, _method)
del _name, _method, _RESIZE_METHODS
from ._ops.counts import poisson, binomial  # noqa: E402,F401  (random counts)
from ._ops.gamma_samplers import (  # noqa: E402,F401  (gamma and Dirichlet samples, their gradients)
    _standard_gamma, _standard_gamma_grad, _sample_dirichlet, _dirichlet_grad)
from ._ops.histogramdd import histogramdd  # noqa: E402,F401

# Every other torch.X whose PyTorch signatures are known (masked_fill, lerp, functions defined
# above after the checks, ...) is parsed as PyTorch parses it too.
from ._python_arg_parser import torch_function_checked as _checked  # noqa: E402
from ._signature_table import SIGNATURES as _SIGNATURES  # noqa: E402
from ._out import OUT_RULES as _OUT_RULES  # noqa: E402
for _name in _SIGNATURES:
    if _name in globals() and getattr(globals()[_name], "parsed_as_pytorch", None) != _name:
        globals()[_name] = _checked(globals()[_name], _name, (), _OUT_RULES.get(_name))
del _name, _checked, _SIGNATURES, _OUT_RULES

# The functions PyTorch writes in Python (torch/functional.py) and their Tensor methods
# (torch/_tensor.py): their own steps before the operations, where wrong calls fail first.
from .functional import take_operations as _take_operations  # noqa: E402
_take_operations(globals())
del _take_operations

# Inside a batched vmap, operations on a BatchedTensor go to their batching rules: its own
# methods, and torch.xxx / F.xxx when one of their arguments is one (func/_batched_tensor.py).
from .func._batched_tensor import install_batched_methods, install_batching_functions  # noqa: E402
from .nn import functional as _functional  # noqa: E402
install_batched_methods()
install_batching_functions(globals(), "")
install_batching_functions(vars(_functional), "F.")
install_batching_functions(vars(special), "special.")
install_batching_functions(vars(linalg), "linalg.")
install_batching_functions(vars(autograd), "autograd.", names=("grad", "backward"))
del install_batched_methods, install_batching_functions, _functional

# --- torch.distributions (Normal, Categorical, kl_divergence, ...): imported at its first use ---
# Its 48 modules would add about a twentieth of a second to every `import minigrad`, for the few
# programs that use it; `minigrad.distributions` and `import minigrad.distributions` import it
# then, and dir(minigrad) lists it all along. (PyTorch's own __init__ imports some of its
# submodules this way too.) torch.testing (assert_close) waits for its first use the same way:
# programs call it in their checks, not on their way to a result.
_LAZY_SUBMODULES = ("distributions", "testing")


def __getattr__(name):
    """``minigrad.distributions`` and ``minigrad.testing``, imported when first asked for."""
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def __dir__():
    """The names of minigrad, the submodules imported at their first use included."""
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))
