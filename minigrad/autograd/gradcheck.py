"""Checking derivatives against finite differences: ``gradcheck`` and ``gradgradcheck``.

Finite differences are the oracle that needs no calculus:

    d f / d x_j  ~  (f(x + eps e_j) - f(x - eps e_j)) / (2 eps)

``gradcheck`` builds the whole Jacobian this way (column by column) and
compares it with the one autograd computes (row by row, one backward pass per
output element). Use float64 inputs: in float32 the rounding error of the
difference quotient is larger than the tolerance. (PyTorch: torch/autograd/gradcheck.py.)
"""
import warnings

import numpy as np
from .._tensor import Tensor, _wrap
from . import grad, forward_ad



class GradcheckError(RuntimeError):
    """Raised by gradcheck when the analytical and numerical Jacobians differ."""


def _tensor_inputs(inputs):
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    return inputs, [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]


def _outputs(func, inputs):
    out = func(*inputs)
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    return tuple(o for o in outs if isinstance(o, Tensor) and o.is_floating_point())


def numerical_jacobian(func, inputs, eps=1e-6):
    """One matrix per (input, output) pair: J[o][i] has shape (output.numel(), input.numel())."""
    inputs, diff = _tensor_inputs(inputs)
    outs = _outputs(func, inputs)
    jac = {(i, o): np.zeros((outs[o].numel(), inputs[i].numel())) for i in diff for o in range(len(outs))}
    for i in diff:
        flat = inputs[i]._array.reshape(-1)       # a view: changing it changes the input
        for j in range(flat.size):
            # Not under no_grad: func may itself use autograd (gradgradcheck's does).
            original = flat[j]
            flat[j] = original + eps
            plus = [o._array.astype(np.float64).reshape(-1).copy() for o in _outputs(func, inputs)]
            flat[j] = original - eps
            minus = [o._array.astype(np.float64).reshape(-1).copy() for o in _outputs(func, inputs)]
            flat[j] = original
            for o in range(len(outs)):
                jac[(i, o)][:, j] = (plus[o] - minus[o]) / (2 * eps)
    return jac


def analytical_jacobian(func, inputs):
    """The same matrices from autograd: one ``autograd.grad`` call per output element."""
    inputs, diff = _tensor_inputs(inputs)
    outs = _outputs(func, inputs)
    jac = {(i, o): np.zeros((outs[o].numel(), inputs[i].numel())) for i in diff for o in range(len(outs))}
    for o, out in enumerate(outs):
        if not out.requires_grad:
            continue
        for k in range(out.numel()):
            one_hot = np.zeros(out.numel(), dtype=out._array.dtype)
            one_hot[k] = 1
            grads = grad((out,), [inputs[i] for i in diff], (_wrap(one_hot.reshape(out._array.shape)),),
                         retain_graph=True, allow_unused=True)
            for i, g in zip(diff, grads):
                if g is not None:
                    jac[(i, o)][k, :] = g._array.reshape(-1)
    return jac


def forward_mode_jacobian(func, inputs):
    """The same matrices from forward mode: one pass per input element, its one-hot tangent."""
    inputs, diff = _tensor_inputs(inputs)
    outs = _outputs(func, inputs)
    jac = {(i, o): np.zeros((outs[o].numel(), inputs[i].numel())) for i in diff for o in range(len(outs))}
    for i in diff:
        for k in range(inputs[i].numel()):
            direction = np.zeros(inputs[i].numel(), dtype=inputs[i]._array.dtype)
            direction[k] = 1
            with forward_ad.dual_level():
                duals = list(inputs)
                duals[i] = forward_ad.make_dual(inputs[i], _wrap(direction.reshape(inputs[i]._array.shape)))
                results = func(*duals)
                results = tuple(results) if isinstance(results, (tuple, list)) else (results,)
                results = [r for r in results if isinstance(r, Tensor) and r.is_floating_point()]
                for o, r in enumerate(results):
                    tangent = forward_ad.unpack_dual(r).tangent
                    if tangent is not None:
                        jac[(i, o)][:, k] = tangent._array.reshape(-1)
    return jac


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              check_forward_ad=False, check_backward_ad=True, **ignored):
    """True if autograd's Jacobian of ``func`` matches finite differences at ``inputs``.

    ``check_forward_ad=True`` checks forward mode's Jacobian (forward_ad.py) too.
    """
    inputs, diff = _tensor_inputs(inputs)
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    for i in diff:
        if inputs[i].dtype.name != "float64":
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ", UserWarning, stacklevel=2)
    numerical = numerical_jacobian(func, inputs, eps)
    if check_forward_ad and not _forward_mode_matches(func, inputs, numerical, rtol, atol,
                                                      raise_exception):
        return False
    if not check_backward_ad:
        return True
    analytical = analytical_jacobian(func, inputs)
    for (i, o), expected in _by_output(numerical):
        got = analytical[(i, o)]
        if not np.allclose(got, expected, rtol=rtol, atol=atol):
            if not raise_exception:
                return False
            # PyTorch prints both Jacobians as tensors of the input's dtype (float64 shows it)
            dtype = inputs[i]._array.dtype
            raise GradcheckError(
                f"Jacobian mismatch for output {o} with respect to input {i},\n"
                f"numerical:{_wrap(np.asarray(expected, dtype))}\nanalytical:{_wrap(np.asarray(got, dtype))}\n")
    return True


def _by_output(jacobians):
    """The blocks of a Jacobian output by output, each input by input: the order in which PyTorch
    compares them, so that the first mismatch it reports is the one minigrad reports."""
    return sorted(jacobians.items(), key=lambda item: (item[0][1], item[0][0]))


def _forward_mode_matches(func, inputs, numerical, rtol, atol, raise_exception):
    """check_forward_ad: forward mode's Jacobian against the finite differences."""
    forward = forward_mode_jacobian(func, inputs)
    for (i, o), expected in _by_output(numerical):
        got = forward[(i, o)]
        if not np.allclose(got, expected, rtol=rtol, atol=atol):
            if not raise_exception:
                return False
            # PyTorch prints both Jacobians as tensors
            raise GradcheckError(
                f"Jacobian computed with forward mode mismatch for output {o} with respect to "
                f"input {i},\nnumerical:{_wrap(np.asarray(expected))}\n"
                f"analytical:{_wrap(np.asarray(got))}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, **ignored):
    """gradcheck of the *gradient* of ``func``: checks second derivatives (create_graph=True)."""
    inputs, diff = _tensor_inputs(inputs)
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        # PyTorch draws the random grad_outputs from the global generator, uniform in [-1, 1)
        # (make_tensor), so a seeded program checks with the same numbers, consumes the same
        # draws, and a failing check prints the same Jacobians.
        from ..testing import make_tensor
        grad_outputs = tuple(make_tensor(o.shape, dtype=o.dtype, device=o.device, low=-1, high=1,
                                         requires_grad=True, noncontiguous=gen_non_contig_grad_outputs)
                             for o in outs)
    grad_outputs = tuple(grad_outputs)
    n = len(inputs)

    def first_derivative(*args):
        xs, gos = args[:n], args[n:]
        ys = _outputs(func, xs)
        gs = grad(ys, [xs[i] for i in diff], gos, create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
