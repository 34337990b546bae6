"""ctc_loss: the Connectionist Temporal Classification loss (Graves et al., 2006).

A network emits, at each of T time steps, log-probabilities over C labels (one of them the
"blank"). A target is a shorter label sequence l (length S). An alignment is any path of T
labels that becomes l once repeats are merged and blanks removed. The loss is

    -log( sum over all alignments of l of  prod_t p_t(path_t) )

computed by dynamic programming over the extended target l' = (blank, l1, blank, l2, ...,
blank) of 2S + 1 states, in log space:

    alpha_t(s) = logsumexp(alpha_{t-1}(s), alpha_{t-1}(s-1), alpha_{t-1}(s-2)) + lp_t(l'_s)
    (the s-2 term only when l'_s is not a blank and differs from l'_{s-2})

and loss = -logsumexp(alpha_{T-1}(2S), alpha_{T-1}(2S-1)). The backward pass runs the same
recursion from the end (beta), and PyTorch's gradient w.r.t. the log-probabilities is

    grad_lp_t(c) = (e^{lp_t(c)} - e^{log(sum over s with l'_s = c of alpha_t(s) beta_t(s)) + nll - lp_t(c)}) * grad

PyTorch records one node (CtcLossBackward0), which saves the loss and the alphas; the
reductions are ordinary operations on top of it ('mean' divides each loss by its target
length first). Its backward (_ctc_loss_backward) has no derivative: a second derivative
fails, as in PyTorch.
"""
import functools

import numpy as np

from ..autograd.graph import Node, SavedOutput
from .._ops import result
from .._ops.rounding import _NotImplementedBackward
from .._ops.pointwise import where
from .._creation import tensor, zeros
from .._tensor import Tensor, _wrap
from .._dtype import scalar_type_name, from_numpy_dtype
from .._python_arg_parser import invalid_combination

_REDUCTIONS = ("none", "mean", "sum")      # PyTorch's Reduction enum: 0, 1, 2
_CHECKED = " (while checking arguments for ctc_loss_allocate_outputs)"


# --- the kernel (numpy), in the steps of PyTorch's CPU kernel -------------------------------------

@functools.lru_cache(maxsize=None)
def _c_float_functions():
    """The C library's expf and logf, element by element: PyTorch's kernel calls them one
    number at a time, and they are not always correctly rounded (numpy's differ in the last bit)."""
    import ctypes        # lazy: only float32 losses need the C library
    import ctypes.util

    library = ctypes.CDLL(ctypes.util.find_library("m") or None)
    functions = []
    for name in ("expf", "logf"):
        function = getattr(library, name)
        function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
        functions.append(np.frompyfunc(function, 1, 1))
    return functions


def _exp(x):
    """e^x as C's expf / exp gives it."""
    if x.dtype == np.float32:
        with np.errstate(all="ignore"):       # (overflow to inf, silently, as in C)
            return np.asarray(_c_float_functions()[0](x), dtype=np.float32)
    return np.exp(x)


def _log(x):
    """log(x) as C's logf / log gives it (log 0 = -inf: an impossible path, silently)."""
    with np.errstate(divide="ignore"):
        if x.dtype == np.float32:
            return np.asarray(_c_float_functions()[1](x), dtype=np.float32)
        return np.log(x)


def _log_add3(a1, a2, a3):
    """log(e^a1 + e^a2 + e^a3) with the largest subtracted first, as the kernel does it: the
    largest is picked by strict comparisons in the order a1, a2, a3, and is 0 when all are -inf
    (so that -inf - -inf never happens)."""
    top = np.where(a2 > a1, a2, a1)
    top = np.where(a3 > top, a3, top)
    top = np.where(top == -np.inf, top.dtype.type(0), top)
    return _log(_exp(a1 - top) + _exp(a2 - top) + _exp(a3 - top)) + top


def _shifted(values, by):
    """values moved ``by`` places to the right (left when negative), -inf coming in."""
    out = np.full_like(values, -np.inf)
    if by > 0:
        out[by:] = values[:max(values.size - by, 0)]
    else:
        out[:max(values.size + by, 0)] = values[-by:]
    return out


def _extended_targets(targets, offset, length, blank):
    """l' = (blank, l1, blank, l2, ..., blank): the 2S + 1 states of one target."""
    labels = np.full(2 * length + 1, blank, dtype=np.int64)
    labels[1::2] = targets[offset:offset + length]
    return labels


def _skips(labels):
    """For each state s: may a path jump from s - 2 to s (a label different from l'_{s-2})."""
    can = np.zeros(labels.size, dtype=bool)
    can[2:] = labels[2:] != labels[:-2]
    return can


def _ctc_forward(lp, flat_targets, offsets, input_lengths, target_lengths, blank):
    """numpy: (neg_log_likelihood (N,), log_alpha (N, T, 2 max S + 1)) for lp (T, N, C)."""
    dtype = lp.dtype.type
    neginf = dtype(-np.inf)
    batch = lp.shape[1]
    width = 2 * max(target_lengths, default=0) + 1
    # (PyTorch leaves the entries past each sample's lengths unset; here they are -inf)
    log_alpha = np.full((batch, lp.shape[0], width), neginf, dtype=lp.dtype)
    nll = np.empty(batch, dtype=lp.dtype)
    for b in range(batch):
        steps, length = input_lengths[b], target_lengths[b]
        if steps == 0:      # no input: likelihood 1 for an empty target, else 0
            nll[b] = -(dtype(0) if length == 0 else neginf)
            continue
        labels = _extended_targets(flat_targets, offsets[b], length, blank)
        skip = _skips(labels)
        alpha = log_alpha[b, :, :labels.size]
        alpha[0, 0] = lp[0, b, blank]
        if length > 0:
            alpha[0, 1] = lp[0, b, labels[1]]
        for t in range(1, steps):
            previous = alpha[t - 1]
            jump = np.where(skip, _shifted(previous, 2), neginf)
            alpha[t] = _log_add3(previous, _shifted(previous, 1), jump) + lp[t, b, labels]
        if length == 0:      # one state only: the all-blank path
            nll[b] = -alpha[steps - 1, 0]
        else:
            l1, l2 = alpha[steps - 1, 2 * length], alpha[steps - 1, 2 * length - 1]
            top = l2 if l1 < l2 else l1
            top = dtype(0) if top == neginf else top
            pair = np.array([l1 - top, l2 - top], dtype=lp.dtype)
            e = _exp(pair)
            nll[b] = -(_log(np.array(e[0] + e[1], dtype=lp.dtype)) + top)
    return nll, log_alpha


def _ctc_backward(grad_out, lp, flat_targets, offsets, input_lengths, target_lengths, nll,
                  log_alpha, blank, zero_infinity):
    """numpy: the gradient w.r.t. lp (T, N, C), from the betas and the saved alphas."""
    dtype = lp.dtype.type
    neginf = dtype(-np.inf)
    grad = np.full(lp.shape, neginf, dtype=lp.dtype)      # log of an empty sum, at first
    for b in range(lp.shape[1]):
        if zero_infinity and nll[b] == np.inf:
            grad[:, b, :] = 0
            continue
        steps, length = input_lengths[b], target_lengths[b]
        collected = grad[:, b, :]               # log sum of alpha beta per (t, label), a view
        if steps > 0:
            labels = _extended_targets(flat_targets, offsets[b], length, blank)
            alpha = log_alpha[b, :, :labels.size]
            beta = np.full((steps, labels.size), neginf, dtype=lp.dtype)
            last = steps - 1
            beta[last, 2 * length] = lp[last, b, blank]
            collected[last, blank] = alpha[last, 2 * length] + beta[last, 2 * length]
            if length > 0:
                label = labels[2 * length - 1]
                beta[last, 2 * length - 1] = lp[last, b, label]
                collected[last, label] = alpha[last, 2 * length - 1] + beta[last, 2 * length - 1]
            # jumping forward from s to s + 2 is allowed where s + 2 may be reached from s
            jump_ok = np.zeros(labels.size, dtype=bool)
            jump_ok[:max(labels.size - 2, 0)] = _skips(labels)[2:]
            for t in range(steps - 2, -1, -1):
                following = beta[t + 1]
                jump = np.where(jump_ok, _shifted(following, -2), neginf)
                beta[t] = _log_add3(following, _shifted(following, -1), jump) + lp[t, b, labels]
            # collect alpha beta per label, the states in descending order (as the kernel),
            # all earlier time steps at once: each step's sums are independent of the others
            if steps > 1:
                products = alpha[:last] + beta[:last]
                rows = np.arange(last)
                for s in range(labels.size - 1, -1, -1):
                    current = collected[rows, labels[s]]
                    new = products[:, s]
                    top = np.where(current < new, new, current)
                    merged = _log(_exp(current - top) + _exp(new - top)) + top
                    collected[rows, labels[s]] = np.where(current == neginf, new, merged)
        # the rest of eq. (16) of the paper; time steps past the input are 0
        g = grad_out[b]
        lp_b = lp[:steps, b, :]
        collected[:steps] = (_exp(lp_b) - _exp(collected[:steps] + nll[b] - lp_b)) * g
        collected[steps:] = 0
    return grad


# --- the node -------------------------------------------------------------------------------------

class CtcLossBackward0(Node):
    """results = _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank): the losses
    (result0) and the alphas (result1)   ->
        grad_log_probs = (e^log_probs - e^(log(sum of alpha beta per label) + result0 - log_probs)) * grad
        (0 for a sample with an infinite loss when zero_infinity)"""

    # grad_fn._saved_log_probs, _saved_targets, _saved_result0 (the losses), _saved_result1 (alphas)
    _saved_names = ("log_probs", "targets", "result0", "result1")

    def backward(self, grad):
        log_probs, targets, nll, log_alpha = self.saved_tensors
        return (ctc_loss_backward(grad, log_probs, targets, self.input_lengths, self.target_lengths,
                                  nll, log_alpha, self.blank, self.zero_infinity),)

    def jvp(self, tangents, inputs, out):
        """result_t = (none: PyTorch has no forward-mode rule for _ctc_loss, and says so)"""
        raise NotImplementedError(
            "Trying to use forward AD with _ctc_loss that does not support it because it has not "
            "been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
            "can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")


def ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, nll, log_alpha,
                      blank, zero_infinity):
    """The gradient w.r.t. log_probs (PyTorch's _ctc_loss_backward). Recorded under
    create_graph as a node that refuses to run (NotImplemented): it has no derivative."""
    flat, offsets = _flat_targets(targets._array, target_lengths)
    values = _ctc_backward(grad._array, log_probs._array, flat, offsets, input_lengths,
                           target_lengths, nll._array, log_alpha._array, blank, zero_infinity)
    # (PyTorch's node has edges to those of grad, log_probs and the losses that require grad)
    recorded = tuple(t for t in (grad, log_probs, nll) if t.requires_grad)
    return result(values, _NotImplementedBackward, recorded, _operation="_ctc_loss_backward")


# --- checks and the public function ---------------------------------------------------------------

def _flat_targets(targets, target_lengths):
    """Targets as one flat array and where each sample's labels start in it (padded (N, S)
    targets: row b starts at b S; concatenated 1-d targets: after the lengths before it)."""
    if targets.ndim == 1:
        return targets, np.concatenate(([0], np.cumsum(target_lengths, dtype=np.int64)[:-1]))
    rows, width = targets.shape
    return np.ascontiguousarray(targets).reshape(-1), np.arange(rows, dtype=np.int64) * width


def _check_arguments(log_probs, targets, input_lengths, target_lengths, blank):
    """PyTorch's checks (ctc_loss_allocate_outputs), in its order, with its messages."""
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional "
                           f"tensor for argument #1 'log_probs'{_CHECKED}")
    if not 1 <= targets.dim() <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional tensor "
                           f"for argument #2 'targets'{_CHECKED}")
    batch, labels = log_probs.shape[1], log_probs.shape[2]
    if not 0 <= blank < labels:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value "
                               f"{length}{_CHECKED}")
    if targets.dim() == 1:
        if targets.shape[0] != sum(target_lengths):
            raise RuntimeError(f"Expected tensor to have size {sum(target_lengths)} at dimension 0, but "
                               f"got size {targets.shape[0]} for argument #2 'targets'{_CHECKED}")
    else:
        if targets.shape[0] != batch:
            raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got size "
                               f"{targets.shape[0]} for argument #2 'targets'{_CHECKED}")
        longest = max(target_lengths, default=0)
        if targets.shape[1] < longest:
            raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but "
                               f"got size {targets.shape[1]} for argument #2 'targets'{_CHECKED}")
    steps = log_probs.shape[0]
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value "
                               f"{length}{_CHECKED}")
        if length > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got value "
                               f"{length}{_CHECKED}")
    flat, offsets = _flat_targets(targets._array, target_lengths)
    for b, length in enumerate(target_lengths):
        used = flat[offsets[b]:offsets[b] + length]
        outside = used[(used < 0) | (used >= labels)]
        if outside.size:
            # (PyTorch reads whatever memory such a label points to)
            raise RuntimeError(f"ctc_loss: target label {int(outside[0])} is out of range for "
                               f"{labels} labels\nminigrad hint: labels go from 0 to {labels - 1}, "
                               f"the blank ({blank}) included")


def _lengths(args):
    """input_lengths and target_lengths as two tuples of ints: both tensors (of an integer
    dtype, any shape) or both sequences of ints, as PyTorch's two signatures take them."""
    input_lengths, target_lengths = args[2], args[3]
    if isinstance(input_lengths, Tensor) and isinstance(target_lengths, Tensor):
        for name, lengths in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
            if lengths._array.dtype.kind not in "iu":
                raise RuntimeError(f"{name} must be integral")
        return (tuple(int(n) for n in input_lengths._array.reshape(-1)),
                tuple(int(n) for n in target_lengths._array.reshape(-1)))

    def ints(value):
        return isinstance(value, (tuple, list)) and all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in value)
    if ints(input_lengths) and ints(target_lengths):
        return tuple(int(n) for n in input_lengths), tuple(int(n) for n in target_lengths)
    error = invalid_combination("ctc_loss", args, {})
    raise TypeError(
        f"{error.args[0]}\n"
        " * (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
        "target_lengths, int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)\n"
        " * (Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank "
        "= 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)\n")


def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    """PyTorch's _ctc_loss: the per-sample losses of log_probs (T, N, C), one node."""
    if log_probs._array.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f'"ctc_loss_cpu" not implemented for '
                                  f"'{scalar_type_name(from_numpy_dtype(log_probs._array.dtype))}'")
    if log_probs.numel() == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    _check_arguments(log_probs, targets, input_lengths, target_lengths, blank)
    flat, offsets = _flat_targets(targets._array, target_lengths)
    nll, log_alpha = _ctc_forward(log_probs._array, flat, offsets, input_lengths, target_lengths, blank)
    out = result(nll, CtcLossBackward0, (log_probs,), blank=blank, input_lengths=input_lengths,
                 target_lengths=target_lengths, zero_infinity=zero_infinity)
    node = out.grad_fn
    if node is not None:
        node.save_for_backward(log_probs, targets, SavedOutput(out), _wrap(log_alpha))
    return out


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1,
             zero_infinity=False):
    """``torch.ctc_loss``: the CTC loss, with ``reduction`` as PyTorch's enum number
    (0 'none', 1 'mean', 2 'sum'). See ``minigrad.nn.functional.ctc_loss``."""
    args = (log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
    if not (isinstance(log_probs, Tensor) and isinstance(targets, Tensor)):
        raise invalid_combination("ctc_loss", args, {})
    input_lengths, target_lengths = _lengths(args)
    batched = log_probs.dim() == 3
    if not batched:
        log_probs = log_probs.unsqueeze(1)     # one sample: a batch of one (UnsqueezeBackward0)
    if targets._array.dtype != np.int64:
        targets = _wrap(targets._array.astype(np.int64))    # (targets.to(long): a copy, no history)
    res = _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity)
    if zero_infinity:
        res = where(res == float("inf"), zeros((), dtype=res.dtype), res)
    if reduction == 1:
        lengths = tensor(target_lengths, dtype=res.dtype).clamp_min(1)
        return (res / lengths).mean()
    if reduction == 2:
        return res.sum()
    return res if batched else res.squeeze(0)


def ctc_loss_function(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
                      zero_infinity=False):
    """The CTC loss of log-probabilities ``log_probs`` (T, N, C), or (T, C) for one sample,
    against ``targets`` (N, S) padded or 1-d concatenated, with the lengths of each input and
    target (tensors or sequences of ints).

    'mean' divides each loss by its target length (at least 1) and averages; 'sum' adds them;
    'none' keeps them. ``zero_infinity`` sets impossible alignments' losses (inf) and their
    gradients to 0. Gradient: e^log_probs minus the posterior of each label at each step.
    """
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                    _REDUCTIONS.index(reduction), zero_infinity)


ctc_loss_function.__name__ = ctc_loss_function.__qualname__ = "ctc_loss"
