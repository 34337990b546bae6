"""``fused=True``: PyTorch's fused CPU kernels of SGD, Adam/AdamW and Adagrad, number by number.

A fused kernel does a parameter's whole update in one pass over its numbers (PyTorch:
aten/src/ATen/native/cpu/FusedSGDKernel.cpp, FusedAdamKernel.cpp, FusedAdagradKernel.cpp).
It computes the same formulas as the for-loop implementation, but in its own order and
rounding, so its last bits differ from it. To give PyTorch's numbers we follow the kernel:

* every number is computed in the parameter's dtype, with the settings (beta1, lr, ...)
  rounded to that dtype first;
* the numbers are taken a vector at a time (with AVX2: 8 float32 or 4 float64), and the few
  left over at the end one by one; the compiler turns a multiply followed by an add into one
  fused multiply-add (a single rounding), in the vector loop and in the loop over the rest
  alike, and in places the two loops differ (Adam's running average of g is written as a
  ``lerp`` in two ways);
* threads each take whole cache lines (64 bytes), so the split between vector loop and
  the rest is the same as for one thread.

Nothing here is needed to understand the optimizers: read sgd.py, adam.py, adagrad.py.
"""
import numpy as np

from .._fused_multiply_add import fma as _fma      # (a * b + c rounded once, in a's dtype)
from .._creation import tensor, zeros_like
from ..random import cpu_capability


_VECTOR_BYTES = 64 if cpu_capability() == "avx512" else 32      # AVX512, else AVX2


def _lanes(dtype):
    """How many numbers of ``dtype`` one vector holds."""
    return _VECTOR_BYTES // np.dtype(dtype).itemsize


def _split(array):
    """(the numbers the vector loop takes, the ones left over): two slices."""
    whole = array.size // _lanes(array.dtype) * _lanes(array.dtype)
    return slice(0, whole), slice(whole, array.size)


def _arrays(*tensors):
    return [t.detach().numpy().reshape(-1).copy() for t in tensors]


def _write(target, array):
    target.copy_(tensor(array.reshape(target.shape)))


def _step_count(state):
    """Add one to ``state['step']`` (a float32 tensor) and return it as a number."""
    state["step"] += 1
    return float(state["step"].item())


# ----- SGD -----

def sgd(params, grads, state, group):
    """One fused SGD step of every parameter (PyTorch's _fused_sgd)."""
    momentum, first = group["momentum"], False
    if momentum != 0 and all(state[p].get("momentum_buffer") is None for p in params):
        first = True                      # the first step of all: the buffer is g itself
    if momentum != 0 and not first:
        for i, param in enumerate(params):
            if state[param].get("momentum_buffer") is None:     # (a parameter's first gradient)
                raise TypeError(f"expected Tensor as element {i} in argument 2, but got NoneType")
    for param, grad in zip(params, grads):
        if momentum != 0 and first:
            state[param]["momentum_buffer"] = zeros_like(param)
        buffer = state[param]["momentum_buffer"] if momentum != 0 else None
        _sgd_one(param, grad, buffer, group, first)


def _sgd_one(param, grad, buffer, group, first):
    p, g = _arrays(param, grad)
    b = _arrays(buffer)[0] if buffer is not None else None
    kind = p.dtype.type
    weight_decay, momentum, lr = group["weight_decay"], group["momentum"], group["lr"]
    wd_, mom_, keep_, lr_ = kind(weight_decay), kind(momentum), kind(1 - group["dampening"]), kind(lr)
    for part, vector in zip(_split(p), (True, False)):
        grad_part = -g[part] if group["maximize"] else g[part]
        if weight_decay != 0:
            grad_part = _fma(p[part], wd_, grad_part)
        if momentum != 0:
            if first:
                b[part] = grad_part
            elif vector:
                b[part] = _fma(np.full_like(grad_part, keep_), grad_part, b[part] * mom_)
            else:
                b[part] = _fma(b[part], np.full_like(grad_part, mom_), grad_part * keep_)
            if group["nesterov"]:
                grad_part = _fma(b[part], np.full_like(grad_part, mom_), grad_part)
            else:
                grad_part = b[part]
        if vector:
            p[part] = _fma(grad_part, np.full_like(grad_part, kind(-lr)), p[part])
        else:
            p[part] = _fma(-grad_part, np.full_like(grad_part, lr_), p[part])
    _write(param, p)
    if buffer is not None:
        _write(buffer, b)


# ----- Adam and AdamW -----

def adam(params, grads, states, group):
    """One fused Adam (or, with ``decoupled_weight_decay``, AdamW) step (PyTorch's _fused_adam)."""
    for param, grad, state in zip(params, grads, states):
        _adam_one(param, grad, state, group, _step_count(state))


def _adam_one(param, grad, state, group, step):
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
    p, g, m, v = _arrays(param, grad, state["exp_avg"], state["exp_avg_sq"])
    v_max = _arrays(state["max_exp_avg_sq"])[0] if amsgrad else None
    kind = p.dtype.type
    # (in double, as in the kernel: to agree with the for-loop version's Python numbers)
    bias_correction1, bias_correction2 = 1 - beta1 ** step, 1 - beta2 ** step
    step_size, bias_correction2_sqrt = lr / bias_correction1, bias_correction2 ** 0.5
    weight = kind(1 - beta1)                   # m.lerp_(g, 1 - beta1), the kernel's way
    for part, vector in zip(_split(p), (True, False)):
        grad_part = -g[part] if group["maximize"] else g[part]
        param_part = p[part]
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param_part = param_part * kind(1 - lr * weight_decay)
            else:
                grad_part = _fma(param_part, np.full_like(param_part, kind(weight_decay)), grad_part)
        difference = grad_part - m[part]
        if abs(weight) < 0.5:                  # m + w * (g - m)
            m[part] = _fma(np.full_like(difference, weight), difference, m[part])
        elif vector:                           # g + (w - 1) * (g - m)
            m[part] = _fma(np.full_like(difference, weight - kind(1)), difference, grad_part)
        else:                                  # g - (g - m) * (1 - w)
            m[part] = _fma(-difference, np.full_like(difference, kind(1) - weight), grad_part)
        if vector:                             # v * beta2 + (1 - beta2) * g * g
            v[part] = _fma(kind(1 - beta2) * grad_part, grad_part, v[part] * kind(beta2))
        else:                                  # (there the other product is the fused one)
            squared = kind(1 - beta2) * grad_part * grad_part
            v[part] = _fma(v[part], np.full_like(squared, kind(beta2)), squared)
        if amsgrad:
            v_max[part] = np.maximum(v_max[part], v[part])
        root = np.sqrt(v_max[part] if amsgrad else v[part])
        denominator = root / kind(bias_correction2_sqrt) + kind(eps)
        if vector:
            p[part] = param_part + kind(-step_size) * m[part] / denominator
        else:
            p[part] = param_part - kind(step_size) * m[part] / denominator
    _write(param, p)
    _write(state["exp_avg"], m)
    _write(state["exp_avg_sq"], v)
    if amsgrad:
        _write(state["max_exp_avg_sq"], v_max)


# ----- Adagrad -----

def adagrad(params, grads, states, group):
    """One fused Adagrad step of every parameter (PyTorch's _fused_adagrad)."""
    for param, grad, state in zip(params, grads, states):
        step = _step_count(state)
        clr = group["lr"] / (1.0 + (step - 1.0) * group["lr_decay"])
        p, g, total = _arrays(param, grad, state["sum"])
        kind = p.dtype.type
        for part in _split(p):
            grad_part = -g[part] if group["maximize"] else g[part]
            if group["weight_decay"] != 0:
                grad_part = _fma(p[part], np.full_like(grad_part, kind(group["weight_decay"])),
                                 grad_part)
            total[part] = _fma(grad_part, grad_part, total[part])
            spread = np.sqrt(total[part]) + kind(group["eps"])
            p[part] = p[part] - kind(clr) * grad_part / spread
        _write(param, p)
        _write(state["sum"], total)
