"""A picture of forward mode: each value drawn together with the tangent travelling with it.

    from minigrad.viz import draw_forward
    draw_forward(lambda x: (x.sin() * x).exp(), (x,), (v,), names=["x"])

The function runs once on dual tensors (``forward_ad.make_dual``); every
operation that produced a tangent becomes a grey box, and every tensor a box
with its value on top and its tangent (orange) below. Read it from left to
right: the tangents are computed in the same pass as the values, which is all
forward mode is. Works with minigrad and with real PyTorch tensors.
"""
import collections

import numpy as np

import minigrad
from .._tensor_str import _format_body
from . import _labels
from ._draw import new_graph
from ..autograd.forward_ad import _DualLevel
from ._walk import SHARED_LEAF_USES

TANGENT = "#ffd9a8"             # light orange: a tangent (a small change travelling forward)


def _library(tensor):
    """minigrad, or torch when given real PyTorch tensors."""
    if type(tensor).__module__.startswith("torch"):
        import torch      # only reached with PyTorch tensors: torch stays optional
        return torch
    return minigrad


def _numbers(array):
    array = np.asarray(array)
    if array.size > _labels.MAX_SHOWN_ELEMENTS:
        return f"{tuple(array.shape)} values"
    return _format_body(array, array.dtype.kind == "f", 0)


def _array(tensor):
    return np.asarray(tensor.detach().numpy())


class _Recorder:
    """Collects (operation name, input tensors, output tensor, value, tangent) in order."""

    def __init__(self, library):
        self.library = library
        self.calls = []

    def add(self, name, inputs, out):
        fw = self.library.autograd.forward_ad
        tangent = fw.unpack_dual(out).tangent
        if tangent is None:
            return
        tensors = [value for value in inputs if isinstance(value, self.library.Tensor)]
        self.calls.append((name, tensors, out, _array(out), _array(tangent)))

    def __enter__(self):
        if self.library.__name__ == "minigrad":

            def observer(node_name, inputs, out):
                # MulBackward0 -> mul: name the operation, not its backward node
                name = node_name.split("Backward")[0].lower()
                self.add(name, inputs, out)
            self._observer = observer
            _DualLevel.observers.append(observer)
        else:
            self._mode = _torch_function_mode(self)
            self._mode.__enter__()
        return self

    def __exit__(self, *exc_info):
        if self.library.__name__ == "minigrad":
            _DualLevel.observers.remove(self._observer)
        else:
            self._mode.__exit__(*exc_info)


def _torch_function_mode(recorder):
    """With real PyTorch, every call is seen through a TorchFunctionMode (a public PyTorch API)."""
    from torch.overrides import TorchFunctionMode      # lazy: torch is optional

    class Observe(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if isinstance(out, recorder.library.Tensor):
                name = getattr(func, "__name__", "op").strip("_")
                recorder.add(name, list(args) + list((kwargs or {}).values()), out)
            return out
    return Observe()


def draw_forward(function, primals, tangents, names=None, title=None, max_nodes=40):
    """Run ``function(*primals)`` in forward mode and draw the values with their tangents.

    primals:   the input tensors (a tuple)
    tangents:  one tangent (direction) per input, same shapes
    names:     labels for the inputs, e.g. ["x", "y"] (default x0, x1, ...)
    max_nodes: draw the first this many operations, then a note with the output
    Returns a Graph; the output's tangent is J @ tangents.

    An input used by more than ten drawn operations (a parameter in a loop) is
    drawn once per use, as ``draw`` does: arrows from one box to every step
    would take Graphviz minutes to lay out.
    """
    if not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive integer, not {max_nodes!r}")
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"draw_forward: got {len(primals)} primals but {len(tangents)} tangents")
    library = _library(primals[0])
    fw = library.autograd.forward_ad
    names = list(names) if names is not None else [f"x{i}" for i in range(len(primals))]
    with fw.dual_level():
        duals = [fw.make_dual(p, t) for p, t in zip(primals, tangents)]
        with _Recorder(library) as recorder:
            output = function(*duals)
        inputs = [(name, dual, _array(p), _array(t))
                  for name, dual, p, t in zip(names, duals, primals, tangents)]
        return _picture(inputs, recorder.calls, output, title, max_nodes)


def _cell(colour, caption, text):
    """One row of a tensor's box: a caption and fixed-width numbers on a coloured background."""
    lines = [_labels.escape(line).replace(" ", "&#160;") for line in (caption + text).split("\n")]
    body = '<BR ALIGN="LEFT"/>'.join(lines)
    return (f'<TR><TD BGCOLOR="{colour}" ALIGN="LEFT"><FONT FACE="{_labels.VALUE_FONT}" '
            f'POINT-SIZE="{_labels.SMALL}">{body}</FONT></TD></TR>')


def _tensor_label(name, value, tangent):
    """A box with the tensor's name (if any), its value, and below it its tangent (orange)."""
    title = f'<TR><TD BORDER="0"><B>{_labels.escape(name)}</B></TD></TR>' if name else ""
    rows = _cell("white", "value   ", _numbers(value)) + _cell(TANGENT, "tangent ", _numbers(tangent))
    return f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3">{title}{rows}</TABLE>>'


def _picture(inputs, calls, output, title, max_nodes):
    graph = new_graph(title or "forward mode: each value travels with its tangent")
    graph.attr(rankdir="LR")
    ids = {}                                # id(tensor) -> node id, in the order they appear
    shown, not_shown = calls[:max_nodes], calls[max_nodes:]
    # inputs that many drawn operations use get a box per use (see draw's widely shared leaves)
    uses = collections.Counter(id(t) for _, tensors, *_ in calls for t in tensors)
    drawn_uses = collections.Counter(id(t) for _, tensors, *_ in shown for t in tensors)
    copied = {id(dual): (name, value, tangent) for name, dual, value, tangent in inputs
              if drawn_uses[id(dual)] > SHARED_LEAF_USES}
    # with copies beside them, the operations and their values keep to one line
    spine = {"group": "operations"} if copied else {}
    copies = collections.Counter()

    def tensor_node(tensor, name, value, tangent, **attributes):
        node_id = f"n{len(ids)}"
        ids[id(tensor)] = node_id
        graph.node(node_id, _tensor_label(name, value, tangent), shape="plain", style="",
                   **attributes)
        return node_id

    for name, dual, value, tangent in inputs:
        if id(dual) not in copied:
            tensor_node(dual, name, value, tangent)
    for step, (op_name, tensors, out, value, tangent) in enumerate(shown):
        op_id = f"op{step}"
        graph.node(op_id, _labels.escape(op_name), shape="ellipse", fillcolor=_labels.FUNCTION,
                   **spine)
        for k, tensor in enumerate(tensors):
            if id(tensor) in copied:
                copies[id(tensor)] += 1
                name, input_value, input_tangent = copied[id(tensor)]
                copy_id = f"op{step}_input{k}"
                graph.node(copy_id, _tensor_label(
                    f"{name}, use {copies[id(tensor)]} of {uses[id(tensor)]}", input_value,
                    input_tangent), shape="plain", style="")
                graph.edge(copy_id, op_id)
            elif id(tensor) in ids:
                graph.edge(ids[id(tensor)], op_id)
        is_output = out is output
        out_id = tensor_node(out, "output" if is_output else "", value, tangent, **spine)
        graph.edge(op_id, out_id)
    if not_shown:
        last = [c for c in calls if c[2] is output] or calls[-1:]
        _, _, _, value, tangent = last[-1]
        graph.node("more", _labels.note_label(
            f"... {len(not_shown)} more operations not drawn (max_nodes={max_nodes})\n"
            f"output: value {' '.join(_numbers(value).split())}, "
            f"tangent {' '.join(_numbers(tangent).split())}"),
            fillcolor=_labels.NOTE, style="filled,dashed")
        graph.edge(out_id, "more", style="dashed")
    graph.node("note", _labels.note_label(
        "grey: operation   white: value   orange: tangent\n"
        "each operation computes its value and, with its forward rule, its tangent"),
        shape="plain", style="")
    return graph
