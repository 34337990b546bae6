"""``draw`` and ``draw_both``: the graph behind some tensors, as autograd sees it.

Two views of the same graph:

* backward (what PyTorch stores): the outputs' ``grad_fn`` nodes, joined along
  ``next_functions`` down to one ``AccumulateGrad`` per leaf. Arrows point the
  way gradients flow when ``backward()`` runs.
* forward (what the code computed): input tensors flowing through operations
  (``mul``, ``matmul``, ... - each backward node's name without "Backward0")
  to the outputs. Both are built from the backward graph: it is all autograd keeps.
"""
import dataclasses

from . import _labels
from . import _library as lib
from ._graphviz import Graph
from ._scene import Ids, Scene, legend as add_legend
from ._walk import (GraphWalk, TensorNames, check_tensors, known_input, operation_name,
                    output_shape, saved_values)

FREED_NOTE = ("saved tensors were freed by backward()\n"
              "(pass retain_graph=True to keep them)")


@dataclasses.dataclass
class Options:
    names: TensorNames
    show_values: bool = False
    show_grad: bool = False
    show_saved: bool = False
    show_flags: bool = False
    max_nodes: int = 300


def new_graph(title=None, name="minigrad"):
    """An empty picture with the course's fonts and sizes, drawn top to bottom."""
    graph = Graph(name=name, graph_attr=_labels.GRAPH_ATTRIBUTES,
                  node_attr=_labels.NODE_ATTRIBUTES, edge_attr=_labels.EDGE_ATTRIBUTES)
    graph.attr(rankdir="TB")
    if title:
        graph.attr(label=_labels.html_label(title), fontsize="14")
    return graph


def draw(*tensors, names=None, params=None, show_values=False, show_grad=False, show_saved=False,
         show_flags=False, direction="backward", legend=False, max_nodes=300, title=None):
    """Draw the graph behind ``tensors``; returns a Graph that Jupyter shows as a picture.

    names:       {'w': w, ...} to label tensors (a tensor's own ``name`` attribute also works)
    params:      {'fc.weight': p, ...} to label parameters, as torchviz's make_dot(params=...):
                 e.g. params=dict(model.named_parameters())
    show_values: print the values of small tensors (up to 15 elements)
    show_grad:   print ``.grad`` of leaves and of tensors that retain grad
    show_saved:  draw the tensors each node saved for backward (orange)
    show_flags:  print is_leaf / requires_grad / retains_grad
    direction:   "backward" (the grad_fn graph) or "forward" (the operations)
    legend:      add a box explaining the colours
    max_nodes:   draw at most this many nodes, then a note saying how many are left
    title:       a caption above the picture

    A leaf that more than ten drawn operations use (a parameter in a loop) is
    drawn once per use, "use 3 of 500", beside the operation that used it: one
    box with hundreds of arrows would take Graphviz minutes. Every copy counts
    towards ``max_nodes``.
    """
    tensors = check_tensors(tensors, "draw")
    if direction not in ("backward", "forward"):
        raise ValueError(f"direction must be 'backward' or 'forward', not {direction!r}")
    options = _options(names, show_values, show_grad, show_saved, show_flags, max_nodes, params)
    graph = new_graph(title)
    build = backward_scene if direction == "backward" else forward_scene
    scene = build(tensors, options, Ids())
    if legend:
        add_legend(scene, forward=direction == "forward")
    scene.write(graph)
    return graph


def draw_both(*tensors, names=None, params=None, show_values=False, show_grad=False,
              show_saved=False, show_flags=False, legend=False, max_nodes=300, title=None):
    """The forward and the backward view side by side, both read from top to bottom.

    Forward: the leaves at the top, arrows down through the operations to the
    outputs. Backward: the outputs at the top, arrows down through the grad_fn
    nodes to the leaves, the way gradients flow (and the way ``draw`` and
    torchviz draw it). The backward graph is the forward graph reversed.
    """
    tensors = check_tensors(tensors, "draw_both")
    options = _options(names, show_values, show_grad, show_saved, show_flags, max_nodes, params)
    graph = new_graph(title)
    ids = Ids()
    views = [("forward", "forward: computing values", forward_scene(tensors, options, ids)),
             ("backward", "backward: computing gradients",
              backward_scene(tensors, options, ids))]
    for name, caption, scene in views:
        with graph.subgraph(name=f"cluster_{name}") as cluster:
            cluster.attr(label=_labels.html_label(caption), style="rounded", color="gray70")
            if legend:
                add_legend(scene, forward=name == "forward")
            scene.write(cluster)
    return graph


def _options(names, show_values, show_grad, show_saved, show_flags, max_nodes, params=None):
    if not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive integer, not {max_nodes!r}")
    return Options(TensorNames(names, params), bool(show_values), bool(show_grad), bool(show_saved),
                   bool(show_flags), max_nodes)


# --- pieces shared by both views ------------------------------------------------------------


def _tensor_label(tensor, options, notes=()):
    """Name, notes (e.g. 'view of x'), shape and dtype, then values and grad if asked for."""
    return _labels.html_label(
        options.names(tensor), list(notes) + _labels.tensor_lines(tensor, options.show_flags),
        _labels.tensor_values(tensor, options.show_values, options.show_grad))


def _unique(tensors):
    seen, result = set(), []
    for tensor in tensors:
        if tensor not in seen:
            seen.add(tensor)
            result.append(tensor)
    return result


def _outputs_and_roots(tensors):
    outputs = [t for t in _unique(tensors) if t.grad_fn is not None]
    roots = list(dict.fromkeys(t.grad_fn for t in outputs))
    return outputs, roots


def _intermediates(walk, options, outputs):
    """Named tensors made inside the drawn graph, and (with show_grad) tensors that retain grad."""
    found = []
    for _, tensor in options.names.named:
        if tensor.grad_fn is not None and walk.is_drawn(tensor.grad_fn):
            found.append(tensor)
    if options.show_grad:
        for node in walk.nodes:
            found.extend(lib.retained_tensors(node))
    return [t for t in _unique(found) if t not in set(outputs)]


def _no_graph_note(tensor):
    """Why a tensor passed to draw() has no graph to show."""
    if tensor.requires_grad:
        return ("leaf: no grad_fn\n"
                "(created by you, not by an operation;\nbackward() puts its gradient in .grad)")
    return ("requires_grad=False: computed under no_grad\n"
            "or from a detached tensor (or never asked for grad):\n"
            "no graph was recorded")


def _draw_without_graph(scene, tensors, options, drawn):
    """Tensors passed to draw() that have no grad_fn and are not leaves of the drawn graph."""
    for tensor in _unique(tensors):
        if tensor.grad_fn is not None or tensor in drawn:
            continue
        if tensor.requires_grad:
            box = scene.item("leaf", _tensor_label(tensor, options), tensor=tensor,
                             fillcolor=_labels.LEAF)
        else:
            box = scene.item("tensor", _tensor_label(tensor, options), tensor=tensor,
                             fillcolor=_labels.TENSOR, style="dashed,filled")
        note = scene.item("note", _labels.note_label(_no_graph_note(tensor)), shape="plaintext",
                          style="")
        scene.arrow(box, note, style="dotted", arrowhead="none")
        scene.same_rank.append([box, note])
        drawn[tensor] = box


def _more_note(scene, walk, options):
    if not walk.not_drawn:
        return None
    return scene.item("note", _labels.note_label(
        f"... {walk.not_drawn} more nodes not drawn (max_nodes={options.max_nodes})"),
        fillcolor=_labels.NOTE, style="filled,dashed")


# --- the backward view ----------------------------------------------------------------------


def backward_scene(tensors, options, ids):
    """Outputs (green) -> grad_fn nodes (grey) -> AccumulateGrad -> leaves (blue)."""
    scene = Scene(ids)
    outputs, roots = _outputs_and_roots(tensors)
    walk = GraphWalk(roots, options.max_nodes)
    drawn = {}                      # tensor -> the id of its box
    node_ids = {}                   # Node -> the id of its box

    for tensor in outputs:
        drawn[tensor] = scene.item("output", _tensor_label(tensor, options), tensor=tensor,
                                   fillcolor=_labels.OUTPUT)
    shared = walk.widely_shared_leaves()
    spine = _spine(shared)
    for node in walk.nodes:
        if node in shared:
            continue                # drawn once per use, below
        # ordering: the inputs of a node appear left to right as in next_functions
        node_ids[node] = scene.item("function", lib.node_name(node), node=node,
                                    fillcolor=_labels.FUNCTION, style="rounded,filled",
                                    ordering="out", **({} if lib.is_accumulate_grad(node)
                                                       else spine))
        if lib.is_accumulate_grad(node):
            leaf = node.variable
            drawn[leaf] = scene.item("leaf", _tensor_label(leaf, options), tensor=leaf,
                                     fillcolor=_labels.LEAF)
            scene.arrow(node_ids[node], drawn[leaf], edge=("accumulate", node))
    for tensor in outputs:
        scene.arrow(drawn[tensor], node_ids[tensor.grad_fn], edge=("start", tensor))
    if outputs:
        _big_graph_note(scene, walk, options, shared, drawn[outputs[0]])

    more = _more_note(scene, walk, options)
    copies = {}                     # shared AccumulateGrad -> how many copies drawn so far
    for node, input_index, next_node, output_nr in walk.edges:
        if next_node is None:
            continue
        label = f"output {output_nr}" if lib.num_outputs(next_node) > 1 else None
        if next_node in shared:
            target = _shared_leaf_copy(scene, next_node, shared, copies, options, drawn)
        else:
            target = node_ids[next_node] if walk.is_drawn(next_node) else more
        attributes = {"label": label} if label else {}
        scene.arrow(node_ids[node], target, edge=("next", node, input_index), **attributes)

    for tensor in _intermediates(walk, options, outputs):
        box = scene.item("tensor", _tensor_label(tensor, options), tensor=tensor,
                         fillcolor=_labels.TENSOR)
        scene.arrow(box, node_ids[tensor.grad_fn], style="dotted", arrowhead="none")
        scene.same_rank.append([node_ids[tensor.grad_fn], box])
        drawn[tensor] = box

    # Tensors that share memory share a version counter: a named tensor without
    # gradient whose counter is one of these is related to the graph.
    related = {}                    # id(version counter) -> (box to hang from, how, edge)
    for tensor, box in drawn.items():
        related.setdefault(lib.memory_key(tensor), (box, "detach()", None))
    _relate_saved(walk, node_ids, drawn, related)
    _draw_cut_off(scene, options, drawn, related)
    if options.show_saved:
        _draw_saved(scene, walk, options, node_ids, drawn)
    _draw_without_graph(scene, tensors, options, drawn)
    return scene


def _spine(shared):
    """Graphviz attributes that keep the operations in a straight column, when leaves are copied.

    Each copy of a shared leaf hangs beside the operation that used it; without
    a common ``group``, Graphviz sets every next operation further left and a
    long loop becomes a diagonal staircase thousands of pixels wide (a PNG that
    takes minutes to render). Small graphs (no copies) keep Graphviz's own layout.
    """
    return {"group": "operations"} if shared else {}


def _big_graph_note(scene, walk, options, shared, output_box, cut_off=True):
    """Beside the output: what a long picture leaves out (``cut_off``), and why leaves repeat.

    The backward view has its output at the top, where a learner starts
    reading; the cut-off end is far below. (The forward view has it the other
    way round: its "more nodes not drawn" note is already at the top.)
    """
    lines = []
    if walk.not_drawn and cut_off:
        lines += [f"the picture stops at max_nodes={options.max_nodes} boxes:",
                  f"{walk.not_drawn} more nodes, further down, are not drawn"]
    if shared:
        names = [options.names(node.variable) or
                 f"a leaf {_labels.shape_text(node.variable.shape)}" for node in shared]
        uses = " / ".join(str(n) for n in sorted(set(shared.values()), reverse=True))
        lines += [f"{', '.join(names)}: used by {uses} operations, drawn once",
                  f"per use (\"use 3 of {max(shared.values())}\"); yet each is one tensor:",
                  "backward() adds the gradients of all its uses",
                  "into its one .grad"]
    if not lines:
        return
    note = scene.item("note", _labels.note_label("\n".join(lines)), fillcolor=_labels.NOTE,
                      style="filled,dashed")
    scene.same_rank.append([output_box, note])


def _shared_leaf_copy(scene, node, shared, copies, options, drawn):
    """One more copy of a widely shared leaf and its AccumulateGrad; returns the node's box."""
    copies[node] = copies.get(node, 0) + 1
    box = scene.item("function", lib.node_name(node), node=node, fillcolor=_labels.FUNCTION,
                     style="rounded,filled", ordering="out")
    leaf = node.variable
    # uses are numbered in the order the program made them; the walk starts from the
    # output, so the first copy drawn is the last use
    use = shared[node] - copies[node] + 1
    notes = [f"use {use} of {shared[node]}"]
    leaf_box = scene.item("leaf", _tensor_label(leaf, options, notes), tensor=leaf,
                          fillcolor=_labels.LEAF)
    scene.find_item(leaf_box)["notes"] = notes          # trace frames relabel the box
    scene.arrow(box, leaf_box, edge=("accumulate", node))
    drawn.setdefault(leaf, leaf_box)
    return box


def _draw_saved(scene, walk, options, node_ids, drawn):
    """What each node saved for backward, in orange.

    Saving keeps a reference, not a copy: a saved tensor that is already in the
    picture (w, a named z) gets an orange border and says which node saved it;
    any other saved tensor gets an orange box joined to the node by a dashed line.
    """
    saved_boxes = {}
    saved_by = {}                   # tensor already drawn -> names of the nodes that saved it
    freed = False
    for node in walk.nodes:
        values = saved_values(node)
        if values is None:
            freed = True
            continue
        for _, value in values:
            if not lib.is_tensor(value):            # a number, e.g. the 2 of x * 2
                box = scene.item("saved", _labels.html_label(repr(value), ["number"]),
                                 fillcolor=_labels.SAVED)
            elif lib.find_same(value, drawn) is not None:
                saved_by.setdefault(lib.find_same(value, drawn), []).append(lib.node_name(node))
                continue
            elif lib.find_same(value, saved_boxes) is not None:
                box = saved_boxes[lib.find_same(value, saved_boxes)]
            else:
                origin = _origin(value, drawn, options)
                box = saved_boxes[value] = scene.item(
                    "saved", _tensor_label(value, options, [origin] if origin else []),
                    tensor=value, fillcolor=_labels.SAVED)
            scene.arrow(box, node_ids[node], style="dashed", dir="none")
    for tensor, savers in saved_by.items():
        item = scene.find_item(drawn[tensor])
        notes = [f"saved by {name}" for name in dict.fromkeys(savers)]
        item["attributes"].update(label=_tensor_label(tensor, options, notes),
                                  color=_labels.SAVED, penwidth="2.5")
        scene.kinds_drawn.add("saved")       # so that the legend explains the orange border
    if freed:
        scene.item("note", _labels.note_label(FREED_NOTE), fillcolor=_labels.NOTE,
                   style="filled,dashed")


def _origin(tensor, drawn, options):
    """For an unnamed saved tensor: 'output of PowBackward0', 'view of x', or None."""
    if options.names(tensor) is not None:
        return None
    for other in drawn:
        if lib.memory_key(other) == lib.memory_key(tensor) and options.names(other):
            return f"view of {options.names(other)}"
    if tensor.grad_fn is not None:
        return f"output of {lib.node_name(tensor.grad_fn)}"
    return None


def _relate_saved(walk, node_ids, drawn, related):
    """Tensors the drawn nodes saved: a named tensor sharing memory with one is related."""
    for node in walk.nodes:
        for input_index, value in enumerate(lib.saved_list(node) or ()):
            if not lib.is_tensor(value):
                continue
            key = lib.memory_key(value)
            if not value.requires_grad:
                # an input that needed no gradient: (None, 0) in next_functions
                related.setdefault(key, (node_ids[node], "None", ("next", node, input_index)))
            elif value.grad_fn is not None and value.grad_fn in node_ids:
                related.setdefault(key, (node_ids[value.grad_fn], "detach()", None))
            elif lib.find_same(value, drawn) is not None:
                related.setdefault(key, (drawn[lib.find_same(value, drawn)], "detach()", None))


def _draw_cut_off(scene, options, drawn, related):
    """Named tensors without gradient that share memory with the graph: dashed, cut off."""
    for _, tensor in options.names.named:
        if tensor in drawn or tensor.requires_grad:
            continue
        relation = related.get(lib.memory_key(tensor))
        if relation is None:
            continue                 # unrelated to this graph (e.g. names=globals())
        anchor, how, edge = relation
        box = scene.item("cut", _tensor_label(tensor, options), tensor=tensor,
                         fillcolor=_labels.TENSOR, style="dashed,filled")
        if how == "detach()":
            scene.arrow(anchor, box, style="dashed", arrowhead="tee", label="detach()")
        else:
            # where it belongs among the node's next_functions: left to right
            arrow = scene.arrow(anchor, box, edge=edge, style="dashed", arrowhead="none",
                                label="None")
            scene.move_before_later_inputs(arrow)
        drawn[tensor] = box


# --- the forward view -----------------------------------------------------------------------


def forward_scene(tensors, options, ids):
    """Inputs (blue leaves, dashed constants) -> operations (ellipses) -> outputs (green)."""
    scene = Scene(ids)
    outputs, roots = _outputs_and_roots(tensors)
    walk = GraphWalk(roots, options.max_nodes)
    drawn = {}                      # tensor -> the id of its box
    op_ids = {}                     # Node -> the id of its ellipse (or its leaf's box)
    through = {}                    # (node, output_nr) -> box of the named tensor it made
    shared = walk.widely_shared_leaves()
    copies = {}

    for node in walk.nodes:
        if node in shared:
            continue                # one box per use, below
        if lib.is_accumulate_grad(node):
            leaf = node.variable
            op_ids[node] = drawn[leaf] = scene.item(
                "leaf", _tensor_label(leaf, options), tensor=leaf, fillcolor=_labels.LEAF)
        else:
            op_ids[node] = scene.item("function", operation_name(node), node=node,
                                      shape="ellipse", fillcolor="white", ordering="in",
                                      **_spine(shared))
    output_set = set(outputs)       # a set: tensors are found by identity, never compared
    for tensor in outputs + _intermediates(walk, options, outputs):
        kind, colour = ("output", _labels.OUTPUT) if tensor in output_set else ("tensor", "white")
        box = drawn[tensor] = scene.item(kind, _tensor_label(tensor, options), tensor=tensor,
                                         fillcolor=colour)
        through[(tensor.grad_fn, lib.output_nr(tensor))] = box
        scene.arrow(op_ids[tensor.grad_fn], box)
    if outputs:
        _big_graph_note(scene, walk, options, shared, drawn[outputs[0]], cut_off=False)

    more = _more_note(scene, walk, options)
    inputs = {}                     # tensor -> box, for inputs that need no gradient
    for node, input_index, next_node, output_nr in walk.edges:
        consumer, edge = op_ids[node], ("next", node, input_index)
        if next_node is None:
            box = _forward_input(scene, node, input_index, options, inputs)
            scene.arrow(box, consumer, style="dashed", edge=edge)
        elif not walk.is_drawn(next_node):
            scene.arrow(more, consumer, style="dashed")
        elif (next_node, output_nr) in through:
            scene.arrow(through[(next_node, output_nr)], consumer, edge=edge)
        elif next_node in shared:
            copies[next_node] = copies.get(next_node, 0) + 1
            leaf = next_node.variable
            use = shared[next_node] - copies[next_node] + 1     # in program order, as backward's
            box = scene.item("leaf", _tensor_label(
                leaf, options, [f"use {use} of {shared[next_node]}"]),
                tensor=leaf, fillcolor=_labels.LEAF)
            drawn.setdefault(leaf, box)
            scene.arrow(box, consumer, edge=edge)
        elif lib.is_accumulate_grad(next_node):
            scene.arrow(op_ids[next_node], consumer, edge=edge)
        else:               # an unnamed intermediate result: the arrow says its shape
            shape = _labels.shape_text(output_shape(next_node, output_nr))
            scene.arrow(op_ids[next_node], consumer, edge=edge, label=shape)
    _draw_without_graph(scene, tensors, options, drawn)
    return scene


def _forward_input(scene, node, input_index, options, inputs):
    """The box for an input that needs no gradient (a constant, x, a target...)."""
    value = known_input(node, input_index)
    if value is None:
        return scene.item("input", _labels.html_label(None, ["input without grad"]),
                          fillcolor=_labels.TENSOR, style="dashed,filled")
    if not lib.is_tensor(value):
        return scene.item("input", _labels.html_label(repr(value)), shape="plaintext", style="")
    # prefer the tensor the learner named: x rather than the view matmul made of it
    for _, tensor in options.names.named:
        if lib.memory_key(tensor) == lib.memory_key(value) and not tensor.requires_grad:
            value = tensor
            break
    if value not in inputs:
        inputs[value] = scene.item("input", _tensor_label(value, options), tensor=value,
                                   fillcolor=_labels.TENSOR, style="dashed,filled")
    return inputs[value]
