"""minigrad.autograd: computing gradients automatically.

* ``backward(tensors, grad_tensors)`` - accumulate gradients into leaves' ``.grad``
* ``grad(outputs, inputs)``           - return gradients instead of storing them
* ``Function``                        - write your own operation with its derivative
* ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode`` - switch recording off and on
* ``detect_anomaly``, ``set_detect_anomaly`` - find the forward line behind a NaN gradient
* ``functional``                      - jacobian, hessian, vjp, jvp, hvp
* ``forward_ad``                      - forward mode: dual tensors that carry a tangent
* ``gradcheck``, ``gradgradcheck``     - compare derivatives with finite differences
* ``profiler``                        - how long each operation and backward node took
* ``derivatives()``                   - every op's derivative in one table (minigrad only)

The same names live in torch.autograd.
"""
import operator
import warnings
from collections.abc import Mapping

import numpy as np

from . import grad_mode, anomaly_mode, graph, engine
from .grad_mode import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode,
                        is_inference_mode_enabled)
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .grad_mode import set_multithreading_enabled  # noqa: F401
from .grad_mode import enforce_grad_layout_policy  # noqa: F401
from .graph import Node, gradient_edge
from .._tensor import Tensor, _wrap
from .._ops.shape import stack
from .._warnings import stacklevel_outside_minigrad


def _quiet_numpy():
    """inf and nan are ordinary values in gradients (the slope of sqrt at 0 is inf); PyTorch
    computes them without a word, so numpy's RuntimeWarnings are off for the backward pass."""
    return np.errstate(all="ignore")


def _outputs_tuple(tensors):
    """backward's ``tensors`` (grad's ``outputs``) as PyTorch reads them: one tensor, or any
    iterable of them (``tuple(...)`` of anything else fails with Python's own TypeError)."""
    if isinstance(tensors, (Tensor, graph.GradientEdge)):
        return (tensors,)
    return tuple(tensors)


def _inputs_tuple(inputs, function):
    """backward's or grad's ``inputs``: one tensor, a dict (its values), or an iterable."""
    if isinstance(inputs, (Tensor, graph.GradientEdge)):
        return (inputs,)
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{function}()` must be a dict, not {type(inputs).__name__}. "
                        "Other Mapping types are not supported.")
    return tuple(inputs)


def _gradients_as_tuple(gradients, count):
    """None, one tensor, or a sequence of them (a number is not a sequence: PyTorch's TypeError)."""
    if gradients is None:
        return (None,) * count
    if isinstance(gradients, Tensor):
        return (gradients,)
    return tuple(gradients)


def _engine_flag(value):
    """retain_graph, create_graph, allow_unused as PyTorch's engine reads them: as a byte, so a
    bool, a small whole number or a one-element integer tensor (anything else: Python's
    errors for such a conversion)."""
    if value is True or value is False:
        return value
    number = operator.index(value)
    if number < 0:
        raise OverflowError("unsigned byte integer is less than minimum")
    if number > 255:
        raise OverflowError("unsigned byte integer is greater than maximum")
    return bool(number)


def _implicit_gradient(out):
    """The starting gradient of a one-element output: ones of its shape and dtype (PyTorch's
    ``ones_like``; a profiler times it under that name)."""
    # (made by numpy's C functions: np.ones is a Python function around them that costs
    # more than the rest of a small graph's start)
    shape, dtype = out._array.shape, out._array.dtype
    if shape == ():
        return _wrap(np.array(1, dtype))
    ones = np.empty(shape, dtype)
    ones.fill(1)
    return _wrap(ones)


def _starting_gradients(outputs, grad_outputs):
    """Each output's starting gradient, checked (ones for a scalar output); PyTorch's
    ``_make_grads``. Pairs stop at the shorter sequence, as ``zip`` does: the engine then
    counts them."""
    grads = []
    for out, grad in zip(outputs, grad_outputs):
        if not isinstance(out, Tensor):
            raise AssertionError("Expected output to be a torch.Tensor")
        if grad is None:
            if out.requires_grad and out.numel() != 1:
                raise RuntimeError(
                    "grad can be implicitly created only for scalar outputs\n"
                    f"minigrad hint: pass gradient=... with the output's shape {list(out.shape)} "
                    "(for example torch.ones_like(output)), or reduce the output first, "
                    "e.g. output.sum().")
            grad = _implicit_gradient(out)
        elif not isinstance(grad, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(grad).__name__}")
        elif grad.shape != out.shape:
            # (PyTorch finds the positions it names with tuple.index, which compares earlier
            # tensors with ==: one of several elements raises instead, as there)
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{grad_outputs.index(grad)}] has a shape of "
                f"{grad.shape} and output[{outputs.index(out)}] has a shape of {out.shape}.")
        grads.append(grad)
    return grads


def _root_gradients(outputs, grads, fitted=True):
    """Pair each output's edge with its starting gradient, as PyTorch's engine does first:
    the count, then each output's history (after ``_starting_gradients`` checked every
    gradient: a wrong shape is reported even for an output without history)."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    roots = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        edge = gradient_edge(out) if out.requires_grad else None
        if edge is None or edge[0] is None:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn\n"
                "minigrad hint: make sure a leaf it depends on was created with "
                "requires_grad=True, and that it was not computed inside torch.no_grad() or "
                "from a .detach()ed tensor.")
        # PyTorch's caller still holds the starting gradients while backward runs, so the
        # engine never changes one in place (it adds out of place), and a leaf reached with one
        # unchanged gets a copy of it as .grad (laid out like the leaf, see accumulate_grad),
        # never the gradient itself; autograd.grad of an output with respect to itself hands
        # the very gradient back
        if grad._array.dtype is not out._array.dtype and grad.dtype is not out.dtype:   # (numpy's first: no call)
            # the engine first casts a starting gradient to its output's dtype, as PyTorch's
            # does: a new tensor of the engine's own, not the caller's
            grad = grad.to(out.dtype)
        else:
            grad._shared_gradient = True
        roots.append((edge, grad))
    if not fitted:          # (autograd.grad checks its inputs first, then fits)
        return roots
    return _fitted_roots(roots)


def _fitted_roots(roots):
    return [(edge, _fit_to_recorded_shape(i, edge, grad)) for i, (edge, grad) in enumerate(roots)]


def _fit_to_recorded_shape(index, edge, grad):
    """The engine's first check, as PyTorch's: a starting gradient must fit the shape its
    output had when its node was recorded (it differs after an in-place ``squeeze_`` under
    no_grad; for a leaf, the shape it had when its AccumulateGrad was made); one that was
    broadcast is summed back, anything else is refused; then the gradient of an integer
    output (one that an in-place change gave history) fails PyTorch's assertion."""
    node, output_nr = edge
    if node is None:
        return grad
    shape = node._output_shape if node._num_outputs == 1 else node._output_shapes[output_nr]
    if grad._array.shape != shape:
        fitted = engine.sum_to_shape(grad, shape)
        if fitted is None:
            raise RuntimeError(f"invalid gradient at index {index} - got {list(grad.shape)} but "
                               f"expected shape compatible with {list(shape)}")
        grad = fitted
    if node._num_outputs == 1 and node._output_dtype is not None:   # (an integer output that
        engine.refuse_integer_gradient(node._output_dtype)          # x.lt_(y) gave history)
    return grad


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute the gradients of ``tensors`` and accumulate them into the leaves' ``.grad``.

    ``grad_tensors`` is d(something)/d(tensors), needed for non-scalar tensors:
    the result is then the vector-Jacobian product. Saved tensors are freed
    afterwards unless ``retain_graph=True``. With ``inputs``, only those tensors'
    ``.grad`` is filled in.
    """
    if _FuncTransforms.depth:     # torch.func transforms compute gradients as values, not .grad
        raise RuntimeError(
            "backward() called inside a functorch transform. This is not supported, please use "
            "functorch.grad or functorch.vjp instead or call backward() outside of functorch "
            "transforms.")
    # the arguments in PyTorch's order: inputs, tensors, the starting gradients, the flags
    given_inputs = inputs is not None
    inputs = _inputs_tuple(inputs, "backward") if given_inputs else ()
    if given_inputs and not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    outputs = _outputs_tuple(tensors)
    grads = _starting_gradients(outputs, _gradients_as_tuple(grad_tensors, len(outputs)))
    if retain_graph is None:
        retain_graph = create_graph
    retain_graph, create_graph = _engine_flag(retain_graph), _engine_flag(create_graph)
    roots = _root_gradients(outputs, grads)
    if not given_inputs:
        if create_graph:
            _warn_reference_cycle()
        with _quiet_numpy():
            engine.run_backward(roots, retain_graph, create_graph)
        return
    for tensor in inputs:
        _check_is_tensor_input(tensor)
        if isinstance(tensor, Tensor) and not tensor.requires_grad:
            # PyTorch fills the .grad of backward's inputs as retain_grad() would
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if create_graph:
        _warn_reference_cycle()
    edges = [_input_edge(t) for t in inputs]
    # the nodes at the inputs run too: a leaf's AccumulateGrad fills its .grad (and fires
    # its post-accumulate-grad hooks); a non-leaf's .grad is filled from the captured gradient
    with _quiet_numpy():
        captured = engine.run_backward(roots, retain_graph, create_graph, capture=edges,
                                       run_captured=True)
    previous = grad_mode._State.enabled
    grad_mode._set_recording(create_graph)
    try:
        for tensor, g in zip(inputs, captured):
            # a non-leaf gets its .grad as retain_grad() would give it (a copy, then sums out
            # of place), unless it called retain_grad() and so already got g that way
            if g is not None and tensor._grad_fn is not None and not tensor._retains_grad:
                engine.retain_grad(tensor, g)
    finally:
        grad_mode._set_recording(previous)


def _check_is_tensor_input(tensor):
    if not isinstance(tensor, (Tensor, graph.GradientEdge)):
        raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got "
                           f"{type(tensor).__name__}")


class _Warned:
    reference_cycle = False


def _warn_reference_cycle():
    """backward(create_graph=True): the leaves' .grad gets a graph that leads back to the
    leaves themselves (leaf -> .grad -> its grad_fn -> ... -> leaf). PyTorch warns once."""
    if not _Warned.reference_cycle:
        _Warned.reference_cycle = True
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.", UserWarning,
            stacklevel=stacklevel_outside_minigrad())


def _input_edge(tensor):
    """The edge whose incoming gradient is ``tensor``'s (already checked to be a Tensor or an edge)."""
    if isinstance(tensor, graph.GradientEdge):     # get_gradient_edge(t) stands for t
        return (tensor.node, tensor.output_nr)
    if not tensor.requires_grad:
        raise RuntimeError(
            "One of the differentiated Tensors does not require grad"
            "\nminigrad hint: create it with "
            "requires_grad=True (or call .requires_grad_()) before computing with it.")
    return gradient_edge(tensor)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return d(outputs)/d(inputs) as a tuple (one entry per input); ``.grad`` is not touched."""
    # (PyTorch's order of checks)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _outputs_tuple(outputs)
    keys = tuple(inputs) if type(inputs) is dict else None       # (a dict in, a dict out)
    inputs = _inputs_tuple(inputs, "grad")
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To "
                      "accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    given = _gradients_as_tuple(grad_outputs, len(outputs))
    if is_grads_batched:        # (each row is checked as a starting gradient by itself)
        if len(given) < len(outputs):
            raise RuntimeError(f"got {len(outputs)} tensors and {len(given)} gradients")
        return _batched_grad(outputs, inputs, given[:len(outputs)], retain_graph, create_graph,
                             allow_unused, materialize_grads)
    grads = _starting_gradients(outputs, given)
    if retain_graph is None:
        retain_graph = create_graph
    retain_graph, create_graph = _engine_flag(retain_graph), _engine_flag(create_graph)
    allow_unused = _engine_flag(allow_unused)
    roots = _root_gradients(outputs, grads, fitted=False)
    for tensor in inputs:
        _check_is_tensor_input(tensor)
    edges = [_input_edge(t) for t in inputs]    # (before the gradients' shapes, as in PyTorch)
    roots = _fitted_roots(roots)
    # the engine starts from its own copies; an input that is an output, reached by nothing
    # else, gets the caller's grad_output back (the very tensor, as in PyTorch)
    handed_in = {id(start): given for (_, start), given in zip(roots, grads) if given is start}
    with _quiet_numpy():
        captured = engine.run_backward(roots, retain_graph, create_graph, capture=edges)
    result = []
    for tensor, g in zip(inputs, captured):
        g = handed_in.get(id(g), g)
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {len(result)} appears to not have been "
                    "used in the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:      # zeros (that require grad with create_graph, as PyTorch's)
                g = _wrap(np.zeros(tensor._array.shape, dtype=tensor._array.dtype))
                g._requires_grad = create_graph
        result.append(g)
    return dict(zip(keys, result)) if keys is not None else tuple(result)


def _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused, materialize_grads):
    """``is_grads_batched=True``: one vector-Jacobian product per row of each grad_output.

    PyTorch vectorises this with vmap; here it is a plain loop over the batch,
    which gives the same numbers: row k of the result is grad(outputs, inputs, row k).
    """
    for i, (out, given) in enumerate(zip(outputs, grads)):
        if isinstance(given, Tensor) and isinstance(out, Tensor) and given.shape[1:] != out.shape:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
                "as the batch dimension. The sizes of the remaining dimensions are expected to "
                f"match the shape of corresponding output, but a mismatch was detected: "
                f"grad_output[{i}] has a shape of {given.shape[1:]} and output[{i}] has a shape of "
                f"{out.shape}. If you only want some tensors in `grad_output` to be considered "
                "batched, consider using vmap.")
    if retain_graph is None:    # (create_graph keeps the graph, as without the flag)
        retain_graph = create_graph
    batch = grads[0].shape[0] if isinstance(grads[0], Tensor) else None
    if batch is None:        # nothing batched: as without the flag
        return grad(outputs, inputs, grads, retain_graph, create_graph,
                    allow_unused=allow_unused, materialize_grads=materialize_grads)
    rows = []
    for k in range(batch):
        row_grads = tuple(g[k] if isinstance(g, Tensor) else g for g in grads)
        keep = retain_graph or k < batch - 1        # the graph is needed for the next row
        rows.append(grad(outputs, inputs, row_grads, keep, create_graph, allow_unused=allow_unused))
    result = []
    for tensor, column in zip(inputs, zip(*rows)):
        if column[0] is not None:
            result.append(stack(list(column)))
        elif materialize_grads:    # PyTorch's zeros here have the input's shape, without the batch
            result.append(_wrap(np.zeros(tensor._array.shape, dtype=tensor._array.dtype)))
            result[-1]._requires_grad = create_graph
        else:
            result.append(None)
    return tuple(result)


from .function import Function, FunctionCtx, once_differentiable, _FuncTransforms  # noqa: E402
from .variable import Variable  # noqa: E402
from . import functional  # noqa: E402
from . import forward_ad  # noqa: E402
from .gradcheck import gradcheck, gradgradcheck, GradcheckError  # noqa: E402
from .derivative_table import derivatives  # noqa: E402
from . import profiler  # noqa: E402

__all__ = ["backward", "grad", "Function", "FunctionCtx", "once_differentiable", "GradcheckError",
           "no_grad", "enable_grad", "inference_mode", "Variable",
           "detect_anomaly", "set_detect_anomaly",
           "set_grad_enabled", "is_grad_enabled", "functional", "gradcheck", "gradgradcheck",
           "graph", "Node"]
