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
from .decompositions import named_result
from .._dtype import cpp_name

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
    the i-th reflection. Written with tensor operations, so it can be differentiated again."""

    _saved_names = ("input", "tau", "result")

    def backward(self, grad):
        input, tau = self.saved_tensors[:2]
        V = _unit_lower(input)
        k = tau.shape[-1]
        vs = [V[..., :, i] for i in range(k)]
        ts = [tau[..., i] for i in range(k)]
        # S_i, right to left: S_{k-1} = I[:, :n], S_{i-1} = H_i S_i
        from .._creation import eye
        m, n = input.shape[-2], input.shape[-1]
        after = [None] * k
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
        grad_input = grad_V.tril(-1) if self.should_compute_output(0) else None
        grad_tau = stack(grad_ts, -1) if self.should_compute_output(1) else None
        return grad_input, grad_tau


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
    if input.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if tau.ndim != input.ndim - 1 or tuple(tau.shape[:-1]) != tuple(input.shape[:-2]):
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
    out = result(Q, LinalgHouseholderProductBackward0, (input, tau), saved=(input, tau))
    node = out._grad_fn
    if node is not None:
        node.save_for_backward(input, tau, SavedOutput(out))
    return out


def geqrf(input):
    """``torch.geqrf``: LAPACK's compact QR of ``input`` as (a, tau): R on and above the
    diagonal of ``a``, the reflection vectors below it (see householder_product). Not
    differentiable, as in PyTorch."""
    if input.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    a = input._array
    batch = a.shape[:-2]
    m, n = a.shape[-2], a.shape[-1]
    flat = a.reshape(-1, m, n)
    out_a = np.empty_like(flat)
    out_tau = np.empty((flat.shape[0], min(m, n)), dtype=a.dtype)
    for b in range(flat.shape[0]):
        h, tau = np.linalg.qr(flat[b], mode="raw")    # (h is LAPACK's array, transposed)
        out_a[b] = h.T
        out_tau[b] = tau
    return geqrf_result(plain_output(out_a.reshape(a.shape), input),
                        plain_output(out_tau.reshape(batch + (min(m, n),)), input))
