"""``trace_backward``: run ``backward()`` and keep a record of every step it took.

The engine (autograd/engine.py) calls its observers after each node runs, with
the gradients the node received and the ones it passed on. A trace keeps
those, and draws one frame per step: the nodes that already ran are greyed
out, the one running now is highlighted, and the gradients flowing along the
edges are written on them. Every frame is the same scene recoloured, so
nothing moves while a learner steps through.

In Jupyter a trace shows as a small stepper (Prev / Next / a slider) written
in plain HTML and JavaScript, so it works in JupyterLab and Colab without
ipywidgets. Where scripts do not run (an untrusted notebook, a GitHub preview)
the first frame is shown and each later step is a caption that opens its frame.
"""
import base64
import collections
import dataclasses
import html
import os

from ..autograd import engine
from . import _labels
from . import _library as lib
from ._draw import backward_scene, new_graph, _options
from ._graphviz import INSTALL_DOT_HELP, GraphvizNotFound, save, source_hash
from ._scene import Ids
from ._walk import check_tensors

# One entry of BackwardStep.passed: the gradient sent along next_functions[i].
Passed = collections.namedtuple("Passed", ["to", "output_nr", "gradient"])


@dataclasses.dataclass
class BackwardStep:
    """One node running during backward().

    index:        0 for the first node that ran
    node:         the Node (``node.name()`` is ``name``)
    grad_outputs: the gradients it received, one per output of its forward operation
    passed:       one Passed(to, output_nr, gradient) per entry of node.next_functions:
                  what it sent to that node (gradient None: nothing; to None: an
                  input that needs no gradient)
    tensor:       AccumulateGrad only: the leaf whose .grad it changed, and
    grad_before / grad_added / grad_after: .grad before backward(), what this
                  step added to it, and .grad afterwards
    """

    index: int
    node: object
    name: str
    grad_outputs: tuple
    passed: list
    tensor: object = None
    tensor_name: str = None
    grad_before: object = None
    grad_added: object = None
    grad_after: object = None

    def describe(self):
        """One line saying what happened, e.g. 'AddBackward0 receives 1.; ... gets 1.'."""
        received = ", ".join(_inline(g) for g in self.grad_outputs)
        if self.tensor is not None:
            name = self.tensor_name or f"leaf {_labels.shape_text(self.tensor.shape)}"
            return (f"{self.name} adds {_inline(self.grad_added)} to {name}.grad, "
                    f"so {name}.grad = {_inline(self.grad_after)}")
        sent = [f"{lib.node_name(p.to)} gets {_inline(p.gradient)}" for p in self.passed
                if p.to is not None]
        return f"{self.name} receives {received}" + (f"; {', '.join(sent)}" if sent else "")


def _inline(gradient):
    """A gradient on one line: its values when small, else its shape."""
    if gradient is None:
        return "None"
    text = _labels.values_text(gradient)
    if text is None:
        return f"a {_labels.shape_text(gradient.shape)} gradient"
    return " ".join(text.split())


_copy = lib.copy


# A step-through is read one frame at a time: a notebook shows the first this many
# steps as pictures (each one a Graphviz run), the rest as text.
MAX_FRAMES_SHOWN = 12


def trace_backward(loss, names=None, gradient=None, retain_graph=False, params=None,
                   max_nodes=60):
    """Run ``loss.backward(gradient, retain_graph)`` and return a BackwardTrace of its steps.

    The leaves' ``.grad`` is filled in exactly as by ``loss.backward()``. Every
    step is recorded; the frames draw at most ``max_nodes`` nodes (as ``draw``),
    and a notebook shows the first MAX_FRAMES_SHOWN steps as pictures.
    """
    check_tensors((loss,), "trace_backward")
    options = _options(names, show_values=False, show_grad=True, show_saved=False,
                       show_flags=False, max_nodes=max_nodes, params=params)
    scene = backward_scene([loss], options, Ids())
    grads_before = {item["tensor"]: _copy(lib.grad(item["tensor"])) for item in scene.items
                    if item["kind"] == "leaf"}
    steps = []

    def record(step):
        node = step["node"]
        passed = []
        for i, (next_node, output_nr) in enumerate(node.next_functions):
            grad = step["grad_inputs"][i] if i < len(step["grad_inputs"]) else None
            if grad is not None and next_node is not None and step.get("fit", True):
                # what the next node receives: summed back to its shape, as the engine does
                grad = engine._fit_to_node(grad, next_node, output_nr, node)
            passed.append(Passed(next_node, output_nr, _copy(grad)))
        entry = BackwardStep(len(steps), node, lib.node_name(node),
                             tuple(_copy(g) for g in step["grad_outputs"]), passed)
        if lib.is_accumulate_grad(node):
            entry.tensor = node.variable
            entry.tensor_name = options.names(node.variable)
            entry.grad_before = grads_before.get(node.variable)
            entry.grad_added = entry.grad_outputs[0]
            entry.grad_after = _copy(lib.grad(node.variable))
        steps.append(entry)

    if lib.is_torch_tensor(loss):
        _backward_with_torch_hooks(loss, record, gradient, retain_graph)
    else:
        with engine.observe(record):
            loss.backward(gradient, retain_graph=retain_graph)
    if gradient is None:                # a scalar loss starts from d(loss)/d(loss) = 1
        start = lib.ones_like(loss)
    else:
        start = lib.as_gradient(gradient, loss)
    return BackwardTrace(loss, scene, steps, options.names, start)


def _backward_with_torch_hooks(loss, record, gradient, retain_graph):
    """PyTorch's engine tells us the same thing through a post-hook on every node.

    A node's hook runs right after the node, with the gradients it received
    (grad_outputs) and the ones it computed for its inputs (grad_inputs, already
    of the inputs' shapes). The hooks are removed afterwards.
    """
    handles, seen, stack = [], set(), [loss.grad_fn]
    while stack:                        # every node, not only the drawn ones
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        handles.append(node.register_hook(
            lambda grad_inputs, grad_outputs, node=node: record(
                {"node": node, "grad_inputs": grad_inputs, "grad_outputs": grad_outputs,
                 "fit": False})))
        stack.extend(next_node for next_node, _ in node.next_functions)
    try:
        loss.backward(gradient, retain_graph=retain_graph)
    finally:
        for handle in handles:
            handle.remove()


class BackwardTrace:
    """The steps of one backward pass: ``len(trace)``, ``trace.steps``, ``trace.frame(i)``."""

    def __init__(self, loss, scene, steps, names, start_gradient):
        self.loss = loss
        self.steps = steps
        self.start_gradient = start_gradient
        self._scene = scene
        self._names = names
        # when each node ran, and what each edge carried
        self._ran_at = {step.node: step.index for step in steps}
        self._leaf_steps = {step.tensor: step for step in steps if step.tensor is not None}

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, index):
        return self.steps[index]

    def __iter__(self):
        return iter(self.steps)

    def frame(self, index):
        """The graph as it is while step ``index`` runs (a Graph, like draw() returns)."""
        if not -len(self.steps) <= index < len(self.steps):
            raise IndexError(f"this backward pass has {len(self.steps)} steps (0 to "
                             f"{len(self.steps) - 1}); there is no step {index}")
        index %= len(self.steps)
        # A short title, about as wide in every frame: a title wider than the
        # graph would shift it sideways from one frame to the next.
        graph = new_graph(f"step {index + 1} of {len(self.steps)}")
        self._scene.write(graph, restyle=lambda thing, attributes:
                          self._restyle(thing, attributes, index))
        return graph

    def _restyle(self, thing, attributes, index):
        """Colours of one item or arrow in frame ``index``; text is present in every frame."""
        if "kind" not in thing:
            return self._restyle_arrow(thing, attributes, index)
        node, kind = thing["node"], thing["kind"]
        if kind == "function":
            ran_at = self._ran_at.get(node)
            if ran_at == index:
                attributes.update(fillcolor=_labels.CURRENT, penwidth="2.5")
            elif ran_at is not None and ran_at < index:
                attributes.update(fillcolor=_labels.DONE, fontcolor=_labels.DONE_TEXT,
                                  color=_labels.DONE_TEXT)
        elif kind == "leaf" and thing["tensor"] in self._leaf_steps:
            # .grad changes when the leaf's AccumulateGrad runs. Both texts are
            # padded to the same size, so that the box never changes size.
            leaf = thing["tensor"]
            step = self._leaf_steps[leaf]
            before = _labels.gradient_text(step.grad_before)
            after = _labels.gradient_text(step.grad_after)
            if step.index <= index:
                shown = _labels.padded(after, before)
            else:
                shown = _labels.padded(before, after)
            attributes["label"] = _labels.html_label(
                self._names(leaf), thing.get("notes", []) + _labels.tensor_lines(leaf),
                [("grad:", shown)])
        return attributes

    def _restyle_arrow(self, arrow, attributes, index):
        edge = arrow["edge"]
        if edge is None:
            return attributes
        if edge[0] == "start":
            attributes["label"] = _labels.edge_label(_labels.gradient_text(self.start_gradient))
            if index == 0:
                attributes["fontcolor"] = _labels.GRADIENT
            return attributes
        if edge[0] == "accumulate":
            if self._ran_at.get(edge[1]) == index:     # .grad changes now
                attributes.update(color=_labels.GRADIENT, penwidth="2")
            return attributes
        _, node, input_index = edge
        ran_at = self._ran_at.get(node)
        if ran_at is None:
            return attributes
        passed = self.steps[ran_at].passed[input_index]
        if passed.to is None:
            return attributes
        text = _labels.gradient_text(passed.gradient)
        if ran_at == index:
            attributes.update(label=_labels.edge_label(text), fontcolor=_labels.GRADIENT,
                              color=_labels.GRADIENT, penwidth="2")
        elif ran_at < index:
            attributes.update(label=_labels.edge_label(text))
        else:
            # not sent yet: blank, but as big as the gradient will be, so nothing moves
            attributes.update(label=_labels.edge_label(_labels.padded("", text)))
        return attributes

    def save_frames(self, directory, format="png"):
        """Write every frame to ``directory`` (step_00.png, step_01.png, ...); returns the paths."""
        os.makedirs(directory, exist_ok=True)
        width = max(2, len(str(len(self.steps) - 1)))
        return [save(self.frame(i), os.path.join(directory, f"step_{i:0{width}d}.{format}"),
                     format=format) for i in range(len(self.steps))]

    # --- how it shows in Jupyter ----------------------------------------------------------

    def __repr__(self):
        return f"<BackwardTrace: {len(self.steps)} steps>"

    def text(self):
        """Every step on its own line (what a plain-text front end shows)."""
        lines = [f"backward() in {len(self.steps)} steps, starting from "
                 f"{_inline(self.start_gradient)}:"]
        for step in self.steps:
            lines.append(f"  {step.index + 1:>2}. {step.describe()}")
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle):
        printer.text(self.text())

    def _repr_html_(self):
        shown = min(len(self.steps), MAX_FRAMES_SHOWN)
        frames = [self.frame(i) for i in range(shown)]
        # ids come from the frames' DOT source: the same trace gives the same HTML
        widget_id = "minigrad-trace-" + source_hash("".join(f.source for f in frames))
        captions = [f"step {s.index + 1} of {len(self.steps)}: {s.describe()}"
                    for s in self.steps[:shown]]
        try:
            page = _stepper_html(widget_id, frames, captions)
            if shown < len(self.steps):
                # every Graphviz run takes a moment: a long backward pass is not drawn whole
                page += (f'<p style="font-family: sans-serif; font-size: 13px;"><i>The first '
                         f'{shown} of {len(self.steps)} steps are drawn: trace.frame(i) draws '
                         'step i, print(trace.text()) lists them all.</i></p>')
            return page
        except GraphvizNotFound:
            # Without `dot` there are no pictures: say how to get them (not a
            # traceback), and still show the steps as text.
            return f"<pre>{html.escape(INSTALL_DOT_HELP)}\n\n{html.escape(self.text())}</pre>"


def _png_tag(graph, alt):
    """An <img> holding the graph as PNG: shown even where a notebook is not trusted.

    Untrusted notebooks (opened without running them) and pages without
    scripts drop inline SVG, but keep images. Drawn at 144 dpi and shown at
    2/3 of its pixel size, it stays sharp on high-density screens.
    """
    png = graph.png(dpi=144)
    width = int.from_bytes(png[16:20], "big") * 2 // 3      # from the PNG header
    data = base64.b64encode(png).decode("ascii")
    return (f"<!-- minigrad graph {source_hash(graph.source)} -->"
            f'<img src="data:image/png;base64,{data}" width="{width}" alt="{html.escape(alt)}">')


def _stepper_html(widget_id, frames, captions):
    """One frame at a time, with or without JavaScript.

    Without scripts (an untrusted notebook, a GitHub preview) every frame is a
    <details> element: the first one open, the others a one-line caption a
    learner can open. Where scripts run, the script turns them into a stepper
    (Prev / Next / a slider) whose buttons stay at the top of the picture.
    """
    parts = []
    for k, (caption, frame) in enumerate(zip(captions, frames)):
        parts.append(f'<details class="mg-frame"{" open" if k == 0 else ""}>'
                     f'<summary class="mg-caption">{html.escape(caption)}</summary>'
                     f'{_png_tag(frame, caption)}</details>')
    last = len(frames) - 1
    return f"""<div id="{widget_id}" class="minigrad-trace">
<div class="mg-controls" style="display: none; position: sticky; top: 0; z-index: 1; \
background: white; align-items: center; gap: 8px; padding: 4px 0;">
<button type="button" data-move="-1" style="white-space: nowrap; flex: none;">&#9664; Prev</button>
<input type="range" min="0" max="{last}" value="0" aria-label="step" style="width: 220px; flex: none;">
<button type="button" data-move="1" style="white-space: nowrap; flex: none;">Next &#9654;</button>
<span class="mg-now" style="font-family: sans-serif; font-size: 13px;"></span>
</div>
{"".join(parts)}
<script>
(function () {{
  var root = (document.currentScript && document.currentScript.parentNode) ||
             document.getElementById("{widget_id}");
  var frames = root.querySelectorAll(".mg-frame");
  var slider = root.querySelector("input");
  var now = root.querySelector(".mg-now");
  var current = 0;
  function show(i) {{
    current = Math.max(0, Math.min(frames.length - 1, i));
    for (var k = 0; k < frames.length; k++) {{
      frames[k].open = true;
      frames[k].style.display = (k === current) ? "" : "none";
      frames[k].querySelector("summary").style.display = "none";
    }}
    now.textContent = frames[current].querySelector("summary").textContent;
    slider.value = current;
  }}
  root.querySelector(".mg-controls").style.display = "flex";
  root.querySelectorAll("button").forEach(function (button) {{
    button.addEventListener("click", function () {{
      show(current + parseInt(button.getAttribute("data-move"), 10));
    }});
  }});
  slider.addEventListener("input", function () {{ show(parseInt(slider.value, 10)); }});
  show(0);
}})();
</script>
</div>"""
