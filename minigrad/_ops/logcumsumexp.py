"""logcumsumexp: a running logsumexp, out[k] = log(exp(x[0]) + ... + exp(x[k])).

Computed without overflow, one step at a time: out[k] = logaddexp(out[k-1], x[k]).
Element x[i] appears in every out[k] with k >= i, with the weight
d out[k] / d x[i] = exp(x[i] - out[k]) (its share of the k-th sum, never above 1).
PyTorch: torch.logcumsumexp.
"""
import numpy as np

from .. import _dtype
from .._tensor import _wrap
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names, shown_as_given
from .views import history_first
from . import result, save_result
from .scan import _dim_argument
from .shape import flip
from .pointwise import where
from ..autograd.kernel_writes import kernel_writes


class LogcumsumexpBackward0(Node):
    """result[k] = log(exp(self[0]) + ... + exp(self[k]))   ->
        grad_self[i] = sum over k >= i of grad[k] * exp(self[i] - result[k])

    Written as PyTorch does, so that nothing overflows: that sum is a reversed running
    sum of grad[k] * exp(-result[k]), done in log space (a reversed logcumsumexp of
    log(grad[k]) - result[k]). A log needs positive numbers, so the positive and the
    negative parts of grad go through it separately and are subtracted at the end.
    """

    _saved_names = ("self", "result")      # grad_fn._saved_self, _saved_result, as in PyTorch

    def backward(self, grad):
        input, out = self.saved_tensors
        if input.ndim == 0 or input.numel() == 0:
            return (grad,)
        dim = self.dim
        lowest = _wrap(np.asarray(np.finfo(grad._array.dtype).min, dtype=grad._array.dtype))
        log_abs_grad = grad.abs().log()
        log_grad_positive = where(grad > 0, log_abs_grad, lowest)    # (log 0 would be -inf)
        log_grad_negative = where(grad < 0, log_abs_grad, lowest)
        positive = (_reverse_logcumsumexp(log_grad_positive - out, dim) + input).exp()
        negative = (_reverse_logcumsumexp(log_grad_negative - out, dim) + input).exp()
        return (positive - negative,)

    def jvp(self, tangents, inputs, out):
        """result_t = (at each k) the sum over i <= k of self_t[i] * exp(self[i] - result[k])"""
        # the same sum as backward's, running forwards: in log space, positive and negative
        # parts of self_t apart (log|self_t| + self[i] cannot overflow)
        (tangent,), (input,) = tangents, inputs
        if input.ndim == 0 or input.numel() == 0:
            return tangent
        lowest = _wrap(np.asarray(np.finfo(tangent._array.dtype).min, dtype=tangent._array.dtype))
        log_abs = tangent.abs().log() + input
        positive = (logcumsumexp(where(tangent > 0, log_abs, lowest), self.dim) - out).exp()
        negative = (logcumsumexp(where(tangent < 0, log_abs, lowest), self.dim) - out).exp()
        return positive - negative


_SETTINGS_KEPT_AS["LogcumsumexpBackward0"] = {"dim": shown_as_given("dim_as_given")}
show_saved_names(LogcumsumexpBackward0, _SETTINGS_KEPT_AS["LogcumsumexpBackward0"])


def _reverse_logcumsumexp(x, dim):
    """log of the sum of exp(x[k]) for k >= i, at every i (flip, running logsumexp, flip back)."""
    return flip(logcumsumexp(flip(x, (dim,)), dim), (dim,))


@history_first
def logcumsumexp(input, dim=None):
    """Running logsumexp along ``dim``: out[k] = log(exp(input[0]) + ... + exp(input[k])).

    Gradient: grad_input[i] = sum over k >= i of grad[k] * exp(input[i] - out[k]).
    """
    dim_as_given = dim                          # (grad_fn._saved_dim shows it)
    dim = _dim_argument(input, dim, "logcumsumexp")
    array = input._array
    if array.dtype.kind in "biu":
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for "
                                  f"'{_dtype.cpp_name(input.dtype).capitalize()}'")
    # PyTorch keeps the running value of float32 (and smaller) in float64, rounding each
    # output once: the same here, to the last bit
    running = array.astype(np.float64) if array.dtype.itemsize < 8 else array
    with np.errstate(invalid="ignore"):     # (inf + inf, nan: PyTorch gives them quietly)
        out = np.logaddexp.accumulate(running, axis=dim) if array.ndim else array.copy()
    out = np.array(out, dtype=array.dtype, order="C")
    out = result(out, LogcumsumexpBackward0, (input,), dim=dim, dim_as_given=dim_as_given)
    return save_result(kernel_writes("logcumsumexp", out, input), input)       # PyTorch saves self and result
