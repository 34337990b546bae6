"""Muon (PyTorch: torch/optim/_muon.py): momentum, then the update made orthogonal.

For a 2-D parameter (a weight matrix), Muon keeps SGD's momentum buffer B and, instead of
stepping along B, steps along the orthogonal matrix nearest to it, O = U V^T when B = U S V^T:
every direction of the update gets the same size. O is approximated without an SVD by a few
Newton-Schulz iterations, each ``X <- a X + (b G + c G G) X`` with ``G = X X^T``, which push
every singular value of X (first scaled to norm 1) toward 1.

PyTorch runs those iterations in bfloat16 (8 bits of mantissa: fast, and precise enough for
a direction). minigrad has no bfloat16 tensors; it rounds float32 numbers to bfloat16's
precision after each step instead (``_bfloat16``), as the CPU's bfloat16 arithmetic does:
products and sums in float32, one rounding of each result. (Where a sum cancels almost
exactly, the order of its float32 additions can still move a bfloat16 result by one unit.)
"""
import math

import numpy as np

from .._creation import zeros_like
from .._tensor import _wrap
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_one_number_lr

EPS = 1e-07
DEFAULT_A, DEFAULT_B, DEFAULT_C = 3.4445, -4.775, 2.0315
DEFAULT_NS_STEPS = 5


def _bfloat16(values):
    """float32 values rounded to the nearest bfloat16 (ties to even), kept as float32:
    bfloat16 is float32 without its last 16 bits."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounding = np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    rounded = (bits + rounding) & np.uint32(0xFFFF0000)
    rounded = np.where(np.isnan(values), bits | np.uint32(0x400000), rounded)   # (nan stays nan)
    return rounded.astype(np.uint32).view(np.float32)


def _addmm(input, m1, m2, beta=1.0, alpha=1.0):
    """``beta * input + alpha * (m1 @ m2)`` of bfloat16 matrices: float32 products and sums (as a
    float32 matrix product adds them), one rounding to bfloat16 at the end."""
    f32 = np.float32
    return _bfloat16(f32(beta) * input + f32(alpha) * (m1 @ m2))


def zeropower_via_newtonschulz(grad, ns_coefficients, ns_steps, eps):
    """The orthogonal matrix nearest to ``grad`` (2-D), by ``ns_steps`` Newton-Schulz iterations
    in bfloat16 precision (a wide matrix is worked on transposed: its Gram matrix is smaller)."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    x = _bfloat16(grad._array.astype(np.float32))
    tall = grad.size(0) > grad.size(1)
    if tall:
        x = x.T
    norm = _bfloat16(np.sqrt(np.sum(np.square(x, dtype=np.float32), dtype=np.float32)))
    x = _bfloat16(x / max(norm, _bfloat16(np.float32(eps))))
    for _ in range(ns_steps):
        gram = _bfloat16(x @ x.T)
        gram_update = _addmm(gram, gram, gram, beta=b, alpha=c)
        x = _addmm(x, gram_update, x, beta=a)
    if tall:
        x = x.T
    return _wrap(np.ascontiguousarray(x))


def adjust_lr(lr, adjust_lr_fn, param_shape):
    """The learning rate scaled for the matrix's shape (A x B): by sqrt(max(1, A / B))
    ("original", Keller Jordan's) or by 0.2 sqrt(max(A, B)) ("match_rms_adamw", Moonshot's)."""
    rows, columns = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, rows / columns))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(rows, columns))
    else:
        ratio = 1.0
    return lr * ratio


class Muon(Optimizer):
    """Muon: SGD with Nesterov momentum whose update is orthogonalized (2-D parameters only)."""

    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(DEFAULT_A, DEFAULT_B, DEFAULT_C), eps=EPS, ns_steps=DEFAULT_NS_STEPS,
                 adjust_lr_fn=None):
        check_one_number_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = dict(lr=lr, weight_decay=weight_decay, momentum=momentum, nesterov=nesterov,
                        ns_coefficients=ns_coefficients, eps=eps, ns_steps=ns_steps, adjust_lr_fn=adjust_lr_fn)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a parameter with size: "
                                     f"{p.size()}")

    @no_grad()
    def step(self, closure=None):
        """One Muon update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr = group["lr"].item() if hasattr(group["lr"], "item") else group["lr"]
            momentum = group["momentum"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = param.grad
                state = self.state[param]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = zeros_like(grad)
                buffer = state["momentum_buffer"]
                buffer.lerp_(grad, 1 - momentum)
                update = grad.lerp(buffer, momentum) if group["nesterov"] else buffer
                update = zeropower_via_newtonschulz(update, group["ns_coefficients"], group["ns_steps"],
                                                    group["eps"])
                param.mul_(1 - lr * group["weight_decay"])
                param.add_(update.to(param.dtype), alpha=-adjust_lr(lr, group["adjust_lr_fn"], param.shape))
        return loss
