"""Householder reflections: QR's compact form and the product that rebuilds Q
(PyTorch: torch.geqrf, torch.linalg.householder_product, torch.orgqr).

``geqrf(A)`` gives LAPACK's compact QR: R on and above the diagonal, and below it the
vectors v_i (with an implicit 1 on the diagonal) of reflections H_i = I - tau_i v_i v_i^T.
``householder_product(A, tau)`` multiplies H_1 H_2 ... H_k and keeps the first n columns:
the Q of that QR. Its gradient is LinalgHouseholderProductBackward0; geqrf has none.
"""
import numpy as np

from ..autograd.graph import Node, SavedOutput
from . import result, plain_output
from .decompositions import named_result, lapack_layout, show_settings
from .householder_steps import geqrf_arrays
from .._dtype import cpp_name
from .._signatures import Signatures, parsed_by
from ..autograd.kernel_writes import kernel_writes

geqrf_result = named_result("geqrf", ("a", "tau"))


def _unit_lower(input):
    """The reflection vectors as columns: the part below the diagonal, 1 on it, 0 above."""
    from .._creation import eye
    m, n = input.shape[-2], input.shape[-1]
    return input.tril(-1) + eye(m, n, dtype=input.dtype)


def _reflect(v, t, X):
    """H X = X - tau v (v^T X), for a batch of vectors v (*, m), numbers t (*), matrices X."""
    return X - (t[..., None] * v)[..., :, None] * (v[..., None, :] @ X)


class LinalgHouseholderProductBackward0(Node):
    """result = H_1 ... H_k [:, :n], H_i = I - tau_i v_i v_i^T   ->   grad_input = tril(-tau_i (P_i^T grad S_i^T + S_i grad^T P_i) v_i, -1); grad_tau = -v_i^T P_i^T grad S_i^T v_i

    P_i = H_1 ... H_{i-1} and S_i = H_{i+1} ... H_k [:, :n]: the product before and after
    the i-th reflection, found from the saved result as PyTorch finds them
    (_householder_gradient_from_result). Written with tensor operations, so it can be
    differentiated again."""

    _saved_names = ("input", "tau", "result")

    def backward(self, grad):
        input, tau, *result = self.saved_tensors    # (forward mode runs this before the result
        result = result[0] if result else None      # is saved: from the identity then)
        if result is None:
            return householder_gradient(input, tau, grad, self.should_compute_output(0),
                                        self.should_compute_output(1))
        return _householder_gradient_from_result(input, tau, grad, result)


def _householder_gradient_from_result(input, tau, grad, result, flip_order=False):
    """The gradients (input, tau) of Q = H_1 ... H_k [:, :n] in PyTorch's steps
    (householder_product_backward), so that create_graph=True records its nodes.

    K_i = S_i grad^T P_i (S_i: the product after the i-th reflection, P_i: before it) gives
    grad_v_i = -tau_i (K_i^T + K_i) v_i and grad_tau_i = -v_i^T K_i v_i. K_0 is
    H_1^-1 result grad^T, and K_(i+1) = H_(i+1)^-1 K_i H_i, with H^-1 = I - sigma v v^T,
    sigma = tau / (tau v^T v - 1). Each gradient is written into its column (CopySlices).
    ``flip_order`` (for ormqr): the reflections taken from the last to the first, with the
    sides of the two updates of K swapped."""
    from .pointwise import sub_number
    m, k = input.shape[-2], tau.shape[-1]
    V = input.tril(-1)
    V.diagonal(0, -2, -1).fill_(1.0)         # the reflection vectors: 1 on the diagonal
    first_k = V.narrow(-1, 0, k)
    sigma = tau / sub_number(tau * (first_k * first_k).sum(-2), 1.0)

    def reflect(v, t, K, left):
        """H K (left) or K H, H = I - t v v^T."""
        if left:
            return K - (t.unsqueeze(-1) * v) * v.mT.matmul(K)
        return K - K.matmul(t.unsqueeze(-1) * v) * v.mT

    order = list(range(k))[::-1] if flip_order else list(range(k))
    step = -1 if flip_order else 1
    K = reflect(V.narrow(-1, order[0], 1), sigma.narrow(-1, order[0], 1), result.matmul(grad.mT),
                left=not flip_order)
    grad_input, grad_tau = input.new_zeros(input.shape), tau.new_zeros(tau.shape)
    for i in order:
        v_full, t = V.narrow(-1, i, 1), tau.narrow(-1, i, 1)
        v = v_full.narrow(-2, i, m - i)          # (v_i is 0 above row i)
        vK = v.mT.matmul(K.narrow(-2, i, m - i))
        Kv = K.narrow(-1, i, m - i).matmul(v)
        grad_v = (-t.unsqueeze(-1) * vK).squeeze(-2) - (t.unsqueeze(-1) * Kv).squeeze(-1)
        grad_t = -(vK.narrow(-1, i, m - i).matmul(v))
        grad_input.select(-1, i).copy_(grad_v.unsqueeze(-1).squeeze(-1))
        grad_tau.select(-1, i).copy_(grad_t.squeeze(-1).squeeze(-1))
        if i != order[-1]:
            K = reflect(V.narrow(-1, i + step, 1), sigma.narrow(-1, i + step, 1), K, left=not flip_order)
            K = reflect(v_full, t, K, left=flip_order)
    grad_input.tril_(-1)       # only the part below the diagonal was read
    return grad_input, grad_tau


def householder_gradient(input, tau, grad, input_needed=True, tau_needed=True):
    """The gradients (input, tau) of H_1 ... H_k [:, :n] for the gradient ``grad`` of that
    product (see LinalgHouseholderProductBackward0), in tensor operations, without the
    product itself: forward mode differentiates this before the result exists, so the
    products after each reflection are built up from the identity."""
    V = _unit_lower(input)
    k = tau.shape[-1]
    vs = [V[..., :, i] for i in range(k)]
    ts = [tau[..., i] for i in range(k)]
    m, n = input.shape[-2], input.shape[-1]
    after = [None] * k
    # S_i, right to left: S_{k-1} = I[:, :n], S_{i-1} = H_i S_i
    from .._creation import eye
    S = eye(m, n, dtype=input.dtype).expand(*grad.shape)
    for i in reversed(range(k)):
        after[i] = S
        S = _reflect(vs[i], ts[i], S)
    # P_i^T grad, left to right: A_0 = grad, A_{i+1} = H_i A_i (H_i is symmetric)
    A = grad
    grad_vs, grad_ts = [], []
    for i in range(k):
        v, t = vs[i], ts[i]
        a = (A.mT @ v[..., None])[..., 0]              # A_i^T v
        s = (after[i].mT @ v[..., None])[..., 0]       # S_i^T v
        grad_ts.append(-(a * s).sum(-1))
        grad_vs.append(-t[..., None] * ((A @ s[..., None])[..., 0]
                                        + (after[i] @ a[..., None])[..., 0]))
        A = _reflect(v, t, A)
    from .shape import stack
    grad_V = stack(grad_vs, -1)
    if n > k:                    # columns past k hold no reflection: no gradient
        zeros = grad_V.new_zeros(*grad_V.shape[:-1], n - k)
        from .shape import cat
        grad_V = cat([grad_V, zeros], -1)
    grad_input = grad_V.tril(-1) if input_needed else None
    grad_tau = stack(grad_ts, -1) if tau_needed else None
    return grad_input, grad_tau


@parsed_by(Signatures("linalg_householder_product", "Tensor input, Tensor tau"))
def householder_product(input, tau):
    """``torch.linalg.householder_product`` (also ``torch.orgqr``): the first n columns of
    H_1 ... H_k, H_i = I - tau_i v_i v_i^T with v_i the i-th column of ``input`` below the
    diagonal (1 on it). Gradient: see LinalgHouseholderProductBackward0."""
    name = "torch.linalg.householder_product"
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if input.shape[-2] < input.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if tau.ndim == 0:                    # (PyTorch's tau.size(-1) fails first)
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if input.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if tau.ndim != input.ndim - 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but got "
                           f"tau.ndim equal to {tau.ndim} and input.ndim is equal to {input.ndim}")
    if tuple(tau.shape[:-1]) != tuple(input.shape[:-2]):
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if tau.dtype != input.dtype:
        raise RuntimeError(f"{name}: tau dtype {cpp_name(tau.dtype).capitalize()} does not "
                           f"match input dtype {cpp_name(input.dtype).capitalize()}")
    if input._array.dtype.kind != "f" or input._array.dtype == np.float16:
        kind = cpp_name(input.dtype).capitalize()
        raise NotImplementedError(f"\"orgqr_cpu\" not implemented for '{kind}'")
    a, t = input._array, tau._array
    m, n = a.shape[-2], a.shape[-1]
    V = np.tril(a, -1) + np.eye(m, n, dtype=a.dtype)
    Q = np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape).copy()
    for i in reversed(range(t.shape[-1])):       # H_1 (H_2 (... (H_k I[:, :n])))
        v = V[..., :, i]
        Q -= (t[..., i, None] * v)[..., :, None] * (v[..., None, :] @ Q)
    # (saved here as well: forward mode differentiates the backward, before out exists)
    out = result(lapack_layout(Q), LinalgHouseholderProductBackward0, (input, tau), saved=(input, tau))
    node = out._grad_fn
    if node is not None:
        node.save_for_backward(input, tau, SavedOutput(out))
    return kernel_writes("householder_product", out, input, tau)


def geqrf(input):
    """``torch.geqrf``: LAPACK's compact QR of ``input`` as (a, tau): R on and above the
    diagonal of ``a``, the reflection vectors below it (see householder_product). Not
    differentiable, as in PyTorch."""
    if input.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    a = input._array
    if a.dtype not in (np.float32, np.float64):       # (LAPACK's kernels, even for an empty input)
        raise NotImplementedError(f"\"geqrf_cpu\" not implemented for '{cpp_name(input.dtype).capitalize()}'")
    batch = a.shape[:-2]
    m, n = a.shape[-2], a.shape[-1]
    flat = a.reshape((-1, m, n) if a.size else (int(np.prod(batch)), m, n))
    # sgeqrf's own steps in float32 (numpy's LAPACK works in float64), for the sizes where they
    # give MKL's bits (one Python step per entry: larger matrices go to numpy, to rounding)
    if a.dtype == np.float32 and m * n <= 4096:
        out_a, out_tau = geqrf_arrays(flat)
    else:
        out_a = np.empty_like(flat)
        out_tau = np.empty((flat.shape[0], min(m, n)), dtype=a.dtype)
        for b in range(flat.shape[0]):
            h, tau = np.linalg.qr(flat[b], mode="raw")    # (h is LAPACK's array, transposed)
            out_a[b] = h.T
            out_tau[b] = tau
    # (a as LAPACK leaves it, column by column, as PyTorch returns it)
    out = geqrf_result(plain_output(lapack_layout(out_a.reshape(a.shape)), input),
                       plain_output(out_tau.reshape(batch + (min(m, n),)), input))
    return kernel_writes("geqrf", out, input)


# --- ormqr: multiplying by Q without forming it --------------------------------------------------

def _ormqr_arrays(a, t, c, left, transpose):
    """Q C, Q^T C, C Q or C Q^T (Q = H_1 ... H_k), one reflection at a time, as LAPACK's ormqr."""
    m = a.shape[-2]
    k = t.shape[-1]
    V = np.tril(a[..., :, :k], -1) + np.eye(m, k, dtype=a.dtype)
    X = np.array(c, copy=True)
    # Q C = H_1 (H_2 (... H_k C)): the last reflection first; Q^T C the first first; and for
    # C Q = ((C H_1) H_2) ... the first first, C Q^T the last first
    order = range(k) if left == transpose else reversed(range(k))
    for i in order:
        v, tau = V[..., :, i], t[..., i, None, None]
        if left:
            X = X - tau * v[..., :, None] * (v[..., None, :] @ X)
        else:
            X = X - tau * (X @ v[..., :, None]) * v[..., None, :]
    return X


class OrmqrBackward0(Node):
    """result = op(Q) other or other op(Q) (Q = H_1 ... H_k from self and input2 = tau, op: transposed or not)   ->   grad_input3 = ormqr(self, input2, grad) with transpose flipped; grad_self = householder_product's gradient for grad_Q (grad other^T, other grad^T, other^T grad or grad^T other by the case); grad_input2 = the same, for tau"""

    _saved_names = ("input2", "input3", "result", "self")

    def backward(self, grad):
        input, tau, _, result = self.saved_tensors
        grad_other = None
        if self.should_compute_output(2):
            grad_other = ormqr(input, tau, grad, self.left, not self.transpose)
        if not (self.should_compute_output(0) or self.should_compute_output(1)):
            return None, None, grad_other
        # PyTorch's steps (ormqr_backward): householder_product's gradient, with grad and the
        # result in the roles the case gives them (Q C as they are; C Q swapped, and the
        # reflections taken from the last), so that create_graph=True records its nodes.
        # K = result grad^T there is Q (grad C^T)^T: grad_Q of the formula above.
        if self.left != self.transpose:
            hp_grad = grad.mT if self.transpose else grad
            hp_result = result.mT if self.transpose else result
        else:
            hp_grad = result if self.transpose else result.mT
            hp_result = grad if self.transpose else grad.mT
        grad_input, grad_tau = _householder_gradient_from_result(
            input, tau, hp_grad, hp_result, flip_order=self.left == self.transpose)
        return (grad_input if self.should_compute_output(0) else None,
                grad_tau if self.should_compute_output(1) else None, grad_other)

    def jvp(self, tangents, inputs, out):
        """result_t = (none: PyTorch has no forward-mode rule for ormqr, and says so)"""
        raise NotImplementedError(
            "Trying to use forward AD with ormqr that does not support it because it has not been "
            "implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
            "can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")


def _check_ormqr(input, tau, other, left):
    """PyTorch's checks of ormqr's arguments, in its order, with its messages."""
    name = "torch.ormqr"
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if other.ndim < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if other.shape[side] != input.shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
    if tau.ndim == 0 or tau.shape[-1] != min(other.shape[side], input.shape[-1]):
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[{side}], "
                           "input.shape[-1])")
    if input.ndim - tau.ndim != 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but got "
                           f"tau.ndim equal to {tau.ndim} and input.ndim is equal to {input.ndim}")
    if input.ndim != other.ndim:
        raise RuntimeError(f"{name}: Expected other to have the same number of dimensions as input, "
                           f"but got other.ndim equal to {other.ndim} and input.ndim is equal to "
                           f"{input.ndim}")
    for which, value, batch in (("tau", tau, tuple(tau.shape[:-1])), ("other", other, tuple(other.shape[:-2]))):
        if batch != tuple(input.shape[:-2]):
            raise RuntimeError(f"{name}: Expected batch dimensions of {which} to be equal to "
                               f"input.shape[:-2], but got {list(batch)}")
    for which, value in (("tau", tau), ("other", other)):
        if value._array.dtype != input._array.dtype:
            raise RuntimeError(f"{name}: Expected input and {which} to have the same dtype, but input "
                               f"has dtype{cpp_name(input.dtype).capitalize()} and {which} has dtype "
                               f"{cpp_name(value.dtype).capitalize()}")
    if input._array.dtype.kind != "f" or input._array.dtype == np.float16:
        raise NotImplementedError(f"\"ormqr_cpu\" not implemented for '{cpp_name(input.dtype).capitalize()}'")


@parsed_by(Signatures("ormqr", "Tensor input, Tensor input2, Tensor input3, bool left=True, bool transpose=False"))
def ormqr(input, input2, input3, left=True, transpose=False):
    """``torch.ormqr``: ``input3`` multiplied by Q (on the left, or the right with
    ``left=False``; by Q^T with ``transpose``), Q = H_1 ... H_k the product of the reflections
    geqrf gives as (``input``, tau = ``input2``), without forming Q. Gradient: see
    OrmqrBackward0."""
    from ..autograd.function import _FuncTransforms      # (late: it needs the package loaded)
    if _FuncTransforms.vmaps:       # (PyTorch's vmap has no rule for it: it runs per sample)
        from .._functorch import warn_no_batching_rule
        warn_no_batching_rule("ormqr", (input, input2, input3))
    _check_ormqr(input, input2, input3, left)
    value = _ormqr_arrays(input._array, input2._array, input3._array, left, transpose)
    out = result(lapack_layout(value), OrmqrBackward0, (input, input2, input3), left=left,
                 transpose=transpose)
    node = out._grad_fn
    if isinstance(node, OrmqrBackward0):
        node.save_for_backward(input, input2, input3, SavedOutput(out))
    return kernel_writes("ormqr", out, input, input2, input3)


show_settings(OrmqrBackward0, left="left", transpose="transpose")


# --- as methods: x.geqrf(), x.orgqr(tau), x.ormqr(tau, other), with PyTorch's argument errors ---

_ORGQR_METHOD = Signatures("orgqr", "Tensor input2")
_ORMQR_METHOD = Signatures("ormqr", "Tensor input2, Tensor input3, bool left=True, bool transpose=False")


def geqrf_method(self, *args, **kwargs):
    """``x.geqrf()``: ``torch.geqrf(x)``, (a, tau), the compact QR of x."""
    # (a method of no arguments: Python's own messages, for keywords first)
    if kwargs:
        raise TypeError("TensorBase.geqrf() takes no keyword arguments")
    if args:
        raise TypeError(f"TensorBase.geqrf() takes no arguments ({len(args)} given)")
    return geqrf(self)


@parsed_by(Signatures("orgqr", "Tensor input, Tensor input2"))
def orgqr(input, input2):
    """``torch.orgqr``: ``torch.linalg.householder_product(input, input2)`` under its old name,
    Q from geqrf's (input, tau = input2)."""
    return householder_product(input, input2)


def orgqr_method(self, *args, **kwargs):
    """``x.orgqr(input2)``: ``torch.orgqr(x, input2)``, Q from geqrf's (x, tau = input2)."""
    _, arguments = _ORGQR_METHOD.parse(args, kwargs)
    return householder_product(self, arguments["input2"])


def ormqr_method(self, *args, **kwargs):
    """``x.ormqr(input2, input3, left=True, transpose=False)``: ``torch.ormqr(x, ...)``, input3
    multiplied by the Q of geqrf's (x, tau = input2)."""
    _, arguments = _ORMQR_METHOD.parse(args, kwargs)
    return ormqr(self, **arguments)
