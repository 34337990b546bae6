"""Gradient clipping (PyTorch: torch/nn/utils/clip_grad.py).

A rare batch can give a gradient far larger than usual, and one step along it can throw a
model far away from where training had brought it. Clipping bounds the step:

* ``clip_grad_norm_``:  if the norm of all gradients together (as if they were one long
  vector) is above ``max_norm``, scale every gradient by max_norm / norm, so the direction is
  kept and only the length shrinks;
* ``clip_grad_value_``: clamp each gradient element into [-clip_value, clip_value].

Both change ``.grad`` in place, without recording anything, between ``backward()`` and
``optimizer.step()``.
"""
import types
import warnings

import numpy as np

from ..._tensor import Tensor
from ..._creation import tensor as _tensor
from ...autograd.grad_mode import no_grad
from ..._ops.shape import stack


def _as_list(parameters):
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The ``norm_type``-norm of all ``tensors`` together, as if joined into one vector.

    Computed as the norm of the norms of the single tensors (which is the same number).
    """
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return _tensor(0.0)
    with no_grad():
        norms = [t.norm(norm_type) for t in tensors]
        common = max((norm.dtype for norm in norms), key=lambda dtype: dtype.itemsize)   # float64 wins
        total_norm = stack([norm.to(common) for norm in norms]).norm(norm_type)
    if error_if_nonfinite and not np.isfinite(total_norm.item()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it "
            "cannot be clipped. To disable this error and scale the gradients by the non-finite norm "
            "anyway, set `error_if_nonfinite=False`")
    return total_norm


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale every ``.grad`` by min(max_norm / (total_norm + 1e-6), 1), in place.

    (The 1e-6 keeps the division finite when all gradients are zero.)
    """
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    # (a non-finite total norm makes the gradients nan, silently as in PyTorch)
    with no_grad(), np.errstate(invalid="ignore", over="ignore"):
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = clip_coef.clamp(max=1.0)      # never make a gradient longer
        for grad in grads:
            grad.mul_(clip_coef_clamped)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Shrink all gradients together so that their total norm is at most ``max_norm``.

    Returns the total norm *before* clipping (a 0-d tensor), useful to watch during training.
    ``foreach`` is accepted for PyTorch's signature; minigrad has one way only.
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The old name of ``clip_grad_norm_`` (deprecated: it warns, then does the same)."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient element into [-clip_value, clip_value], in place. Returns None."""
    parameters = _as_list(parameters)
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        # PyTorch groups the gradients by device and dtype first, which refuses an empty list
        # (clip_grad_norm_ returns a norm of 0 instead)
        raise RuntimeError(
            "Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this "
            "error message be improved?  If so, please report an enhancement request to "
            "PyTorch.)\nminigrad hint: no parameter has a .grad to clip (before the first "
            "backward(), after zero_grad() or with every parameter frozen)")
    with no_grad():
        for grad in grads:
            grad.clamp_(min=-clip_value, max=clip_value)
