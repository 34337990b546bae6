"""Pictures of autograd: the graph behind a tensor, and backward() step by step.

    from minigrad.viz import draw, draw_both, trace_backward

    draw(loss, names={"w": w, "b": b}, legend=True)    # the backward graph (grad_fn nodes)
    draw(loss, direction="forward")                    # the operations that made loss
    draw_both(loss)                                    # both, side by side
    trace = trace_backward(loss)                       # runs loss.backward(), step by step
    trace                                              # in Jupyter: Prev/Next through the steps

The tensors may be minigrad's or real PyTorch tensors: the same program draws
the same picture with either library (``draw(loss, params=dict(model.named_parameters()))``
names parameters as torchviz does).

Every drawing is a ``graphviz.Digraph`` (see ``Graph``): Jupyter shows it as
a picture (an SVG, and a PNG for notebooks that are not trusted), ``graph.source`` is its DOT text, ``save(graph, "graph.png")``
writes a file. The pictures use torchviz's colours: grey backward functions,
light blue leaves, orange saved tensors, green outputs.

Files: _walk.py (which nodes, in which order), _scene.py (boxes and arrows),
_labels.py (colours and text), _draw.py (draw, draw_both), _trace.py
(trace_backward), _graphviz.py (the Graphviz connection, save), _library.py
(reading a graph from minigrad or from PyTorch).
"""
from ._graphviz import Graph, GraphvizNotFound, save  # noqa: F401  (fails clearly without graphviz)
from ._draw import draw, draw_both  # noqa: F401
from ._trace import BackwardStep, BackwardTrace, trace_backward  # noqa: F401
from ._forward import draw_forward  # noqa: F401  (forward mode: values with their tangents)

__all__ = ["draw", "draw_both", "trace_backward", "save", "Graph", "GraphvizNotFound",
           "BackwardTrace", "BackwardStep"]
