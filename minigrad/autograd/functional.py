"""Derivatives of whole functions: jacobian, hessian, vjp, jvp, hvp, vhp.

All of them are built from reverse mode (``autograd.grad``), as in PyTorch;
``jacobian(strategy="forward-mode")`` and ``hessian(outer_jacobian_strategy=
"forward-mode")`` use forward mode (forward_ad.py) instead:

* vjp(f, x, v)  = v^T J           one backward pass
* jacobian(f,x) = J               one backward pass per output element (row by row)
* jvp(f, x, v)  = J v             the "double backward" trick: g(u) = u^T J is linear in u,
                                  so d(g(u) . v)/du = J v (two backward passes)
* hessian(f, x) = jacobian of the gradient (create_graph=True keeps the first pass differentiable)
* hvp(f, x, v)  = H v,  vhp = v^T H

(PyTorch: torch/autograd/functional.py, same names and argument order.)
"""
import numpy as np

from .grad_mode import enable_grad
from .._creation import zeros
from .._ops.shape import stack
from .._tensor import Tensor, _wrap
from . import grad, forward_ad


def _as_tuple(x, what, fn_name):
    """(was it a tuple, its tensors): a Tensor or a tuple of them, as PyTorch demands (no list)."""
    start = f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
    if isinstance(x, Tensor):
        return False, (x,)
    if not isinstance(x, tuple):
        raise TypeError(start + f"the given {what} has type {type(x)}.")
    for i, item in enumerate(x):
        if not isinstance(item, Tensor):
            raise TypeError(start + f"the value at index {i} has type {type(item)}.")
    return True, x


def _prepare_inputs(inputs, create_graph):
    """Fresh leaves that require grad (detached copies unless we must keep the graph)."""
    return tuple(x if create_graph and x.requires_grad else x.detach().requires_grad_(True)
                 for x in inputs)


def _raw_grads(outputs, inputs, grad_outputs, create_graph):
    """d(outputs)/d(inputs) with None for an input nothing depends on."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=True,
                create_graph=create_graph, allow_unused=True)


_INDEPENDENT = {
    "back": "The output of the user-provided function is independent of input {i}. This is not "
            "allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This "
                   "is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} "
                         "in the grad_jacobian. This is not allowed in strict mode as it prevents "
                         "from using the double backward trick to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """Zeros where a gradient is missing; with strict=True, PyTorch's error instead."""
    filled = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i=i))
            g = _wrap(np.zeros(ref._array.shape, dtype=ref._array.dtype))
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input "
                               f"{i}. This is not allowed in strict mode when create_graph=True.")
        filled.append(g)
    return tuple(filled)


def _finish(values, create_graph):
    return tuple(v if create_graph else v.detach() for v in values)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """Returns ``(func(inputs), v^T J)``: how a change of the output pulls back to the inputs."""
    is_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out_is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        if v is None:
            if len(outputs) != 1 or outputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function "
                                   "returns a single Tensor with a single element.")
            v = (None,)
        else:
            _, v = _as_tuple(v, "v", "vjp")
            _check_shapes(v, outputs, "v", "outputs")
        grads = _fill_in_zeros(_raw_grads(outputs, inputs, v, create_graph), inputs, strict,
                               create_graph, "back")
    outputs = _finish(outputs, create_graph)
    grads = _finish(grads, create_graph)
    return (outputs if out_is_tuple else outputs[0]), (grads if is_tuple else grads[0])


def _check_shapes(given, expected, given_name, expected_name):
    """The vector v must have one tensor per output (or input), each of the same size."""
    if len(given) != len(expected):
        raise RuntimeError(f"{given_name} is a tuple of invalid length: should be {len(expected)} "
                           f"but got {len(given)}.")
    for g, e in zip(given, expected):
        if g.shape != e.shape:
            raise RuntimeError(f"{given_name} has invalid size: should be {e.shape} but got "
                               f"{g.shape}.")


def _input_direction(inputs, v, fn_name):
    """The vector v on the input side (one tensor per input); None means 1 for a single number."""
    if v is None:
        if len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided "
                               "function is a single Tensor with a single element.")
        return (_wrap(np.ones_like(inputs[0]._array)),)
    _, v = _as_tuple(v, "v", fn_name)
    _check_shapes(v, inputs, "v", "inputs")
    return v


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """Returns ``(func(inputs), J v)``: how the output moves when the inputs move along v."""
    is_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
    v = _input_direction(inputs, v, "jvp")
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out_is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # u stands for "any cotangent"; g(u) = u^T J is linear in u, so dg/du . v = J v.
        dummies = tuple(_wrap(np.zeros_like(o._array)).requires_grad_(True) for o in outputs)
        pulled_back = _raw_grads(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(pulled_back, "grad_inputs", strict)
        pulled_back = _fill_in_zeros(pulled_back, inputs, False, True, "back")
        jv = _fill_in_zeros(_raw_grads(pulled_back, dummies, v, create_graph), outputs, strict,
                            create_graph, "back_trick")
    outputs = _finish(outputs, create_graph)
    jv = _finish(jv, create_graph)
    return (outputs if out_is_tuple else outputs[0]), (jv if out_is_tuple else jv[0])


_STRATEGY_MESSAGE = (
    'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has '
    'more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to '
    'use "reverse-mode".')


def _check_requires_grad(values, kind, strict):
    """strict=True: refuse outputs (or first derivatives) that do not depend on the inputs."""
    if not strict:
        return
    for i, value in enumerate(values):
        if value is None:
            raise RuntimeError(_INDEPENDENT["back"].format(i=i))
        if value.requires_grad:
            continue
        if kind == "grad_inputs":
            raise RuntimeError(
                f"The gradient with respect to input {i} is independent of the inputs of the "
                "user-provided function. This is not allowed in strict mode.")
        if kind == "jacobian":
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided function "
                f"with respect to input {i} is independent of the input. This is not allowed in "
                "strict mode. You should ensure that your function is twice differentiable and that "
                "the jacobian depends on the inputs (this would be violated by a linear function for "
                "example).")
        raise RuntimeError(
            f"Output {i} of the user-provided function does not require gradients. The outputs must "
            "be computed in a differentiable manner from the input when running in strict mode.")


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The matrix of all first derivatives d output[i] / d input[j].

    Reverse mode (the default) builds it one row at a time: one backward pass
    per output element. ``strategy="forward-mode"`` (with ``vectorize=True``,
    as PyTorch requires) builds it one column at a time: one forward pass with
    dual tensors per input element - cheaper when there are more outputs than
    inputs. (``vectorize`` only changes how PyTorch batches the passes; minigrad
    runs them one after the other, with the same result.)

    For one input and one output the result has shape ``output.shape + input.shape``;
    with tuples, ``result[i][j]`` is the block for output i and input j.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(_STRATEGY_MESSAGE)
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.')
        return _jacobian_forward_mode(func, inputs, strict, vectorize)
    is_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out_is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                "supported together. Please either set `strict=False` or `vectorize=False`.")
        blocks = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for k in range(flat.numel()):
                # one backward pass per output element: row k of the Jacobian
                if flat.requires_grad:
                    row = grad(flat[k], inputs, retain_graph=True, create_graph=create_graph,
                               allow_unused=True)
                else:
                    row = (None,) * len(inputs)
                for j, (r, x) in enumerate(zip(row, inputs)):
                    if r is None:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of input "
                                f"{j}. This is not allowed in strict mode.")
                        r = zeros(tuple(x.shape), dtype=x.dtype)
                    elif strict and create_graph and not r.requires_grad:
                        raise RuntimeError(
                            f"The jacobian of the user-provided function is independent of input {i}. "
                            "This is not allowed in strict mode when create_graph=True.")
                    rows[j].append(r)
            block = []
            for j, x in enumerate(inputs):
                if rows[j]:
                    stacked = stack(rows[j]).reshape(tuple(out.shape) + tuple(x.shape))
                else:
                    stacked = zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype)
                block.append(stacked if create_graph else stacked.detach())
            blocks.append(tuple(block))
    return _jacobian_blocks(tuple(blocks), out_is_tuple, is_tuple)


def _jacobian_blocks(blocks, out_is_tuple, is_tuple):
    if not is_tuple:
        blocks = tuple(b[0] for b in blocks)
    return blocks if out_is_tuple else blocks[0]


def _jacobian_forward_mode(func, inputs, strict, vectorize):
    """One forward pass per input element: its one-hot tangent gives one column of J."""
    if strict:
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and `strategy=\"forward-mode\"` are "
            "not supported together (yet). Please either set `strict=False` or "
            "`strategy=\"reverse-mode\"`.")
    is_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
            "implemented for `vectorize=True`.")
    columns = None          # columns[i][j]: the tangents of output i for each element of input j
    out_is_tuple, outputs = False, ()
    for j, x in enumerate(inputs):
        for k in range(x.numel()):
            with forward_ad.dual_level():
                duals = []
                for jj, other in enumerate(inputs):
                    direction = np.zeros(other._array.size, dtype=other._array.dtype)
                    if jj == j:
                        direction[k] = 1
                    duals.append(forward_ad.make_dual(
                        other, _wrap(direction.reshape(other._array.shape))))
                out_is_tuple, results = _as_tuple(func(*duals), "outputs", "jacobian")
                unpacked = [forward_ad.unpack_dual(r) for r in results]
            outputs = [u.primal for u in unpacked]
            if columns is None:
                columns = [[[] for _ in inputs] for _ in outputs]
            for i, (primal, tangent) in enumerate(unpacked):
                if tangent is None:
                    tangent = zeros(tuple(primal.shape), dtype=primal.dtype)
                columns[i][j].append(tangent)
    blocks = []
    for i, out in enumerate(outputs):
        block = []
        for j, x in enumerate(inputs):
            stacked = stack(columns[i][j], dim=out.ndim) if columns[i][j] else \
                zeros(tuple(out.shape) + (0,), dtype=out.dtype)
            block.append(stacked.reshape(tuple(out.shape) + tuple(x.shape)).detach())
        blocks.append(block)            # PyTorch gives lists here (tuples in reverse mode)
    return _jacobian_blocks(blocks, out_is_tuple, is_tuple)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The matrix of second derivatives of a scalar function: the jacobian of its gradient.

    With ``outer_jacobian_strategy="forward-mode"`` (and ``vectorize=True``) the
    outer jacobian runs forward mode over the reverse-mode gradient
    ("forward-over-reverse"), as PyTorch does.
    """
    is_tuple, inputs_t = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*xs):
        out = func(*xs)
        out_is_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_is_tuple:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def gradient(*xs):
        if outer_jacobian_strategy == "forward-mode":
            xs = tuple(x.requires_grad_(True) for x in xs)
        first = jacobian(single_output, xs, create_graph=True)
        first = first if isinstance(first, tuple) else (first,)
        _check_requires_grad(first, "jacobian", strict)
        return first

    result = jacobian(gradient, inputs_t, create_graph=create_graph, strict=strict,
                      vectorize=vectorize, strategy=outer_jacobian_strategy)
    if is_tuple:
        return result
    return result[0][0]


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """Returns ``(func(inputs), v^T H)``."""
    return _hessian_product(func, inputs, v, create_graph, "vhp", strict)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """Returns ``(func(inputs), H v)`` (equal to v^T H, since the Hessian is symmetric)."""
    return _hessian_product(func, inputs, v, create_graph, "hvp", strict)


def _hessian_product(func, inputs, v, create_graph, name, strict=False):
    is_tuple, inputs = _as_tuple(inputs, "inputs", name)
    v = _input_direction(inputs, v, name)
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out = func(*inputs)
        _check_requires_grad(_as_tuple(out, "outputs of the user-provided function", name)[1],
                             "outputs", strict)
        if out.numel() != 1:
            raise RuntimeError(f"The function given to {name} should return a single Tensor with "
                               f"one element, but it returned a Tensor of shape {list(out.shape)}.")
        first = _raw_grads((out.reshape(()),), inputs, (None,), create_graph=True)
        _check_requires_grad(first, "jacobian", strict)
        first = _fill_in_zeros(first, inputs, False, True, "back")
        # H v is the gradient of the number (grad f) . v
        dot = sum((g * vi).sum() for g, vi in zip(first, v) if g.requires_grad)
        if isinstance(dot, int):
            product = (None,) * len(inputs)
        else:
            product = _raw_grads((dot,), inputs, (None,), create_graph)
        product = _fill_in_zeros(product, inputs, strict, create_graph, "double_back")
    out = out if create_graph else out.detach()
    product = _finish(product, create_graph)
    return out, (product if is_tuple else product[0])
