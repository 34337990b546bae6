"""How PyTorch records ``torch._foreach_*`` calls on tensors that require grad (_foreach.py
computes them).

An out-of-place call is one node for all its results (``ForeachMulBackward1Scalar``, ...),
whose gradients are the operation's own, element by element. In place, PyTorch's per-tensor
path records each tensor's own node: the ordinary one, the Scalar form of arithmetic with a
number (``MulBackward1``), or a node without a derivative (``NotImplemented``).
"""
from . import _ops
from ._tensor import Tensor, _wrap
from .autograd.function import _FuncTransforms
from .autograd.forward_ad import _DualLevel
from .autograd.grad_mode import _State, no_grad as _no_grad
from .autograd.graph import Node, attach_outputs, connect


class ForeachBackward(Node):
    """result[k] = op(self[k], other[k], ...) for every k, one node for all the results   ->   grad_self[k] = op's gradient for self of element k alone; grad_other[k] = op's gradient for other of element k alone

    PyTorch records ``torch._foreach_mul(xs, ys)`` as one node (``ForeachMulBackward0List``,
    ...) whose output k is result k, with edges to every tensor of the first list, then of the
    next (or to the one 0-d tensor). Its formulas are the operation's own, element by element,
    so minigrad records each element as the operation itself (a small graph, kept by the node)
    and asks that graph for element k's gradients (``autograd.grad``). Most such nodes print as
    ``CppFunction`` (PyTorch generates no Python class for them); ``name()`` tells them apart."""

    _foreach_name = "ForeachBackward"

    def name(self):
        """The node's name in PyTorch, e.g. ``'ForeachMulBackward1Scalar'``."""
        return self._foreach_name

    def backward(self, *grads):
        from .autograd import grad as gradients_of      # (autograd imports the operations)
        results = [None] * len(self._next_nrs)
        for k, grad in enumerate(grads):
            if grad is None:
                continue
            needed = {}                 # each tensor of element k once: its first edge
            for index, tensor in self._element_edges[k]:
                if self.should_compute_output(index) and id(tensor) not in needed:
                    if index in self._shared_edges:
                        raise RuntimeError("inconsistent range for TensorList output")
                    needed[id(tensor)] = (index, tensor)
            if not needed:
                continue
            edges = list(needed.values())
            found = gradients_of(self._elements[k], [tensor for _, tensor in edges], grad,
                                 retain_graph=True, create_graph=_State.enabled, allow_unused=True)
            for (index, _), gradient in zip(edges, found):
                results[index] = gradient
        return tuple(results)


class CppFunction(ForeachBackward):
    """result[k] = op(self[k], other[k], ...) for every k, one node for all the results   ->   grad_self[k] = op's gradient for self of element k alone; grad_other[k] = op's gradient for other of element k alone"""


class _NotImplementedForeach(ForeachBackward):
    """result[k] = op(self[k], tensor1[k], tensor2[k], scalars) for every k   ->   grad_self = error: PyTorch has no derivative for this form"""

    def name(self):
        """``'torch::autograd::NotImplemented'``: PyTorch spells out this C++ node's namespace."""
        return "torch::autograd::NotImplemented"

    def backward(self, *grads):
        raise RuntimeError(f"derivative for {self._operation} is not implemented")


_NotImplementedForeach.__name__ = _NotImplementedForeach.__qualname__ = "NotImplemented"

# The nodes PyTorch gives a Python class of their own (the others print as CppFunction)
_OWN_CLASSES = {name: type(name, (ForeachBackward,), {"__doc__": ForeachBackward.__doc__,
                                                        "__module__": __name__})
                for name in ("ForeachDivBackward0", "ForeachMaximumBackward0",
                             "ForeachMaximumBackward1", "ForeachMinimumBackward0",
                             "ForeachMinimumBackward1", "ForeachPowBackward0", "ForeachPowBackward1",
                             "ForeachPowBackward2", "ForeachNormBackward0")}
globals().update(_OWN_CLASSES)

# Nodes whose formulas read no tensor (grad alone, zeros, grad times a number): they save
# nothing, so backward may run through them again (PyTorch frees the others' saved tensors)
_SAVE_NOTHING = {"ForeachLerpBackward0Scalar", "ForeachLerpBackward0ScalarList",
                 "ForeachCeilBackward0", "ForeachFloorBackward0", "ForeachFracBackward0",
                 "ForeachNegBackward0", "ForeachRoundBackward0", "ForeachSignBackward0",
                 "ForeachTruncBackward0"}


def _slot_tensors(slots):
    """The tensors among the arguments' slots, in PyTorch's order of the node's edges: every
    tensor of a list slot, one shared tensor once."""
    for kind, values in slots:
        if kind == "list":
            yield from values
        elif kind == "shared":
            yield values


def _records(slots):
    """Is an out-of-place call recorded as one node? When grad mode is on, outside the
    torch.func transforms and forward mode (which see the elements' own operations), and
    some tensor among the arguments requires grad."""
    if not _State.enabled or _DualLevel.open or _FuncTransforms.depth:
        return False
    return any(t.requires_grad for t in _slot_tensors(slots) if isinstance(t, Tensor))


def _one_node_for_all(tensors, each, name, slots):
    """The results of ``each`` for every element, as outputs 0, 1, ... of one node ``name``.

    ``slots`` describes the arguments in PyTorch's order: ``("list", tensors)`` (one tensor per
    element), ``("shared", tensor)`` (one 0-d tensor for all) or ``("numbers", ...)`` (no edge)."""
    elements = [each(i, t) for i, t in enumerate(tensors)]        # each recorded as itself
    outputs = []
    for element in elements:
        out = _wrap(element._array)
        out._versions = element._version_counter     # (an in-place change of a result is seen)
        outputs.append(out)
    edge_tensors = list(_slot_tensors(slots))
    if name.startswith("NotImplemented:"):
        node, name = _NotImplementedForeach(), name.split(":", 1)[1]
        node._operation = "aten::" + name
        edge_tensors = [t for t in edge_tensors if t.requires_grad]     # (only those: no formula)
    else:
        node = _OWN_CLASSES.get(name, CppFunction)()
    node._foreach_name = name
    connect(outputs[0], node, edge_tensors)
    attach_outputs(node, outputs)
    node._output_dtype = None           # (the lists may hold several dtypes)
    node._elements = elements
    node._element_edges, node._shared_edges = _edges_of_elements(slots, len(tensors))
    if name not in _SAVE_NOTHING:
        node._saved = node._saved_versions = ()     # (freed after backward, as PyTorch's)
    return tuple(outputs)


def _records_change(tensor, *others):
    """Is an in-place change of ``tensor`` by ``others`` recorded (by the rules below)?"""
    if not _State.enabled or _DualLevel.open or _FuncTransforms.depth:
        return False
    return any(isinstance(t, Tensor) and t.requires_grad for t in (tensor,) + others)


def _changed_without_derivative(tensor, operation, compute, other_tensors=()):
    """``tensor`` changed in place to ``compute(tensor)``, recorded as PyTorch records a foreach
    change it has no derivative for: a node of its own (NotImplemented, raising ``derivative for
    <operation> is not implemented``) with edges to the tensor's old value and to every tensor
    of the call's other arguments (all the lists', not only this element's)."""
    def recorded(old, *others):
        with _no_grad():
            value = compute(old)
        out = _ops.result(value._array, _NotImplementedForeach, (old,) + others)
        if out._grad_fn is not None:
            out._grad_fn._operation = operation
        return out
    return _ops.inplace.apply_inplace(tensor, recorded, *other_tensors)


def _edges_of_elements(slots, count):
    """For each element, the (edge index, tensor) of each of its tensor arguments; and the
    indices of the edges to a tensor shared by all elements."""
    per_element, shared, index = [[] for _ in range(count)], set(), 0
    for kind, values in slots:
        if kind == "list":
            for k, tensor in enumerate(values):
                per_element[k].append((index + k, tensor))
            index += len(values)
        elif kind == "shared":
            for k in range(count):
                per_element[k].append((index, values))
            shared.add(index)
            index += 1
    return per_element, shared
