"""A picture before it becomes DOT source: a list of boxes and arrows.

Building the picture first as plain data (``Scene``) and writing DOT only at
the end lets one layout serve several pictures: every frame of a traced
backward pass is the same scene with different colours, so the boxes stay
where they are while a learner steps through the frames.
"""
from . import _labels


class Ids:
    """Node ids in the order things are drawn: n0, n1, ...

    Never ``id()``: that changes from run to run, and notebooks compare their
    saved pictures with fresh ones.
    """

    def __init__(self):
        self.count = 0

    def new(self):
        name = f"n{self.count}"
        self.count += 1
        return name


class Scene:
    """Boxes (``items``) and arrows (``arrows``), each a dict of Graphviz attributes.

    Every item remembers what it shows (``kind``: 'function', 'leaf', 'output',
    'tensor', 'saved', 'input', 'note', 'legend'; ``node`` / ``tensor``: the
    object), so that a trace frame can restyle it.
    """

    def __init__(self, ids):
        self.ids = ids
        self.items = []
        self.arrows = []
        self.same_rank = []           # groups of item ids Graphviz keeps side by side
        self.kinds_drawn = set()
        self._items_by_id = {}

    def item(self, kind, label, node=None, tensor=None, **attributes):
        item_id = self.ids.new()
        item = {"id": item_id, "kind": kind, "node": node, "tensor": tensor,
                "attributes": {"label": label, **attributes}}
        self.items.append(item)
        self._items_by_id[item_id] = item
        self.kinds_drawn.add(kind)
        return item_id

    def find_item(self, item_id):
        return self._items_by_id[item_id]

    def arrow(self, tail, head, edge=None, **attributes):
        """An arrow from ``tail`` to ``head``.

        ``edge`` says what it stands for, so that a trace can label it:
        ("next", node, i) for entry i of node.next_functions, ("accumulate", node)
        for AccumulateGrad -> its leaf, ("start", tensor) for an output -> its grad_fn.
        """
        arrow = {"tail": tail, "head": head, "edge": edge, "attributes": attributes}
        self.arrows.append(arrow)
        return arrow

    def move_before_later_inputs(self, arrow):
        """Move ``arrow`` (for input i of a node) before the arrows of that node's inputs > i.

        Graphviz draws a node's arrows left to right in the order they are
        written, so this keeps the picture in the order of next_functions.
        """
        _, node, input_index = arrow["edge"]
        self.arrows.remove(arrow)
        for position, other in enumerate(self.arrows):
            edge = other["edge"]
            if edge and edge[0] == "next" and edge[1] is node and edge[2] > input_index:
                self.arrows.insert(position, arrow)
                return
        self.arrows.append(arrow)

    def write(self, graph, restyle=None):
        """Add everything to ``graph`` (a graphviz Digraph or subgraph).

        ``restyle(thing, attributes)`` may return changed attributes for an
        item or arrow (used by trace frames).
        """
        for item in self.items:
            attributes = dict(item["attributes"])
            if restyle is not None:
                attributes = restyle(item, attributes)
            graph.node(item["id"], **attributes)
        for arrow in self.arrows:
            attributes = dict(arrow["attributes"])
            if restyle is not None:
                attributes = restyle(arrow, attributes)
            graph.edge(arrow["tail"], arrow["head"], **attributes)
        for group in self.same_rank:
            with graph.subgraph() as rank:
                rank.attr(rank="same")
                for item_id in group:
                    rank.node(item_id)


def legend(scene, forward=False):
    """One box explaining the colours used in ``scene``."""
    rows = []

    def row(colour, text, style=""):
        border = ' BORDER="1"' if style else ""
        rows.append(f'<TR><TD BGCOLOR="{colour}"{border} WIDTH="18"> </TD>'
                    f'<TD ALIGN="LEFT"><FONT POINT-SIZE="{_labels.SMALL}">{text}</FONT></TD></TR>')

    kinds = scene.kinds_drawn
    if forward:
        row("white", "operation (ellipse), named by its function", style="border")
    else:
        row(_labels.FUNCTION, "backward function (a grad_fn)")
    row(_labels.LEAF, "leaf tensor with requires_grad=True")
    if "saved" in kinds:
        row(_labels.SAVED, "saved for backward (or an orange border)")
    row(_labels.OUTPUT, "output (backward starts here)")
    if "tensor" in kinds or "input" in kinds or "cut" in kinds:
        row(_labels.TENSOR, "other tensor (dashed: no gradient)", style="border")
    arrows = ("arrows: data flows forward" if forward
              else "arrows: gradients flow backward")
    table = ('<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2">'
             f'<TR><TD COLSPAN="2" ALIGN="LEFT"><B>legend</B></TD></TR>{"".join(rows)}'
             f'<TR><TD COLSPAN="2" ALIGN="LEFT"><FONT POINT-SIZE="{_labels.SMALL}">{arrows}'
             '</FONT></TD></TR></TABLE>>')
    return scene.item("legend", table, shape="none", style="", margin="0")
