"""Derivatives of whole functions: jacobian, hessian, vjp, jvp, hvp, vhp.

All of them are built from one tool, reverse mode (``autograd.grad``):

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


def _tensors():
    from .._tensor import Tensor, _wrap
    return Tensor, _wrap


def _as_tuple(x, what, fn_name):
    Tensor, _ = _tensors()
    is_tuple = isinstance(x, (tuple, list))
    items = tuple(x) if is_tuple else (x,)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            raise TypeError(
                f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                f"the value at index {i} has type {type(item).__name__}.")
    return is_tuple, items


def _prepare_inputs(inputs, create_graph):
    """Fresh leaves that require grad (detached copies unless we must keep the graph)."""
    return tuple(x if create_graph and x.requires_grad else x.detach().requires_grad_(True)
                 for x in inputs)


def _grad_or_zeros(outputs, inputs, grad_outputs, create_graph, retain_graph=True):
    from . import grad
    _, _wrap = _tensors()
    needs = [o for o in outputs if o.requires_grad]
    if not needs:
        return tuple(_wrap(np.zeros(x._array.shape, dtype=x._array.dtype)) for x in inputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    grads = grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=retain_graph,
                 create_graph=create_graph, allow_unused=True)
    return tuple(g if g is not None else _wrap(np.zeros(x._array.shape, dtype=x._array.dtype))
                 for g, x in zip(grads, inputs))


def _finish(values, create_graph):
    return tuple(v if create_graph else v.detach() for v in values)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """Returns ``(func(inputs), v^T J)``: how a change of the output pulls back to the inputs."""
    is_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out_is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "vjp")
        if v is None:
            if len(outputs) != 1 or outputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function "
                                   "returns a single Tensor with a single element.")
            v = (None,)
        else:
            _, v = _as_tuple(v, "v", "vjp")
            _check_shapes(v, outputs, "v", "outputs")
        grads = _grad_or_zeros(outputs, inputs, v, create_graph)
    outputs = _finish(outputs, create_graph)
    grads = _finish(grads, create_graph)
    return (outputs if out_is_tuple else outputs[0]), (grads if is_tuple else grads[0])


def _check_shapes(given, expected, given_name, expected_name):
    if len(given) != len(expected):
        raise RuntimeError(f"{given_name} has {len(given)} entries but {expected_name} has {len(expected)}")
    for i, (g, e) in enumerate(zip(given, expected)):
        if g.shape != e.shape:
            raise RuntimeError(
                f"Mismatch in shape: {given_name}[{i}] has a shape of {g.shape} and "
                f"{expected_name}[{i}] has a shape of {e.shape}.")


def _input_direction(inputs, v, fn_name):
    """The vector v on the input side (one tensor per input); None means 1 for a single number."""
    _, _wrap = _tensors()
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
    Tensor, _wrap = _tensors()
    is_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
    v = _input_direction(inputs, v, "jvp")
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out_is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jvp")
        # u stands for "any cotangent"; g(u) = u^T J is linear in u, so dg/du . v = J v.
        dummies = tuple(_wrap(np.zeros_like(o._array)).requires_grad_(True) for o in outputs)
        pulled_back = _grad_or_zeros(outputs, inputs, dummies, create_graph=True)
        from . import grad
        needs = [(p, vi) for p, vi in zip(pulled_back, v) if p.requires_grad]
        if needs:
            jv = grad([p for p, _ in needs], dummies, [vi for _, vi in needs],
                      create_graph=create_graph, allow_unused=True, retain_graph=True)
            jv = tuple(g if g is not None else _wrap(np.zeros_like(d._array)) for g, d in zip(jv, dummies))
        else:
            jv = tuple(_wrap(np.zeros_like(o._array)) for o in outputs)
    outputs = _finish(outputs, create_graph)
    jv = _finish(jv, create_graph)
    return (outputs if out_is_tuple else outputs[0]), (jv if out_is_tuple else jv[0])


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The matrix of all first derivatives d output[i] / d input[j], built one row at a time.

    For one input and one output the result has shape ``output.shape + input.shape``;
    with tuples, ``result[i][j]`` is the block for output i and input j.
    """
    Tensor, _wrap = _tensors()
    is_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out_is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jacobian")
        blocks = []
        for out in outputs:
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for k in range(flat.numel()):
                # one backward pass per output element: row k of the Jacobian
                one_hot = np.zeros(flat._array.shape, dtype=flat._array.dtype)
                one_hot[k] = 1
                row = _grad_or_zeros((flat,), inputs, (_wrap(one_hot),), create_graph)
                for j, r in enumerate(row):
                    rows[j].append(r)
            block = []
            for j, x in enumerate(inputs):
                from .. import stack, zeros
                if rows[j]:
                    stacked = stack(rows[j]).reshape(tuple(out.shape) + tuple(x.shape))
                else:
                    stacked = zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype)
                block.append(stacked if create_graph else stacked.detach())
            blocks.append(tuple(block))
    if out_is_tuple:
        return tuple(b if is_tuple else b[0] for b in blocks)
    return blocks[0] if is_tuple else blocks[0][0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The matrix of second derivatives of a scalar function: the jacobian of its gradient."""
    is_tuple, inputs_t = _as_tuple(inputs, "inputs", "hessian")

    def gradient(*xs):
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor with "
                               f"one element, but it returned a Tensor of shape {list(out.shape)}.")
        return _grad_or_zeros((out.reshape(()),), xs, (None,), create_graph=True)

    result = jacobian(gradient, inputs_t, create_graph=create_graph)
    if is_tuple:
        return result
    return result[0][0]


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """Returns ``(func(inputs), v^T H)``."""
    return _hessian_product(func, inputs, v, create_graph, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """Returns ``(func(inputs), H v)`` (equal to v^T H, since the Hessian is symmetric)."""
    return _hessian_product(func, inputs, v, create_graph, "hvp")


def _hessian_product(func, inputs, v, create_graph, name):
    _, _wrap = _tensors()
    is_tuple, inputs = _as_tuple(inputs, "inputs", name)
    v = _input_direction(inputs, v, name)
    with enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        out = func(*inputs)
        if out.numel() != 1:
            raise RuntimeError(f"The function given to {name} should return a single Tensor with "
                               f"one element, but it returned a Tensor of shape {list(out.shape)}.")
        first = _grad_or_zeros((out.reshape(()),), inputs, (None,), create_graph=True)
        dot = sum((g * vi).sum() for g, vi in zip(first, v) if g.requires_grad)
        if isinstance(dot, int):
            product = tuple(_wrap(np.zeros_like(x._array)) for x in inputs)
        else:
            product = _grad_or_zeros((dot,), inputs, (None,), create_graph)
    out = out if create_graph else out.detach()
    product = _finish(product, create_graph)
    return out, (product if is_tuple else product[0])
