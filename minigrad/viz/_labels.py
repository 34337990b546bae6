"""How things look: colours, fonts and the text inside each box.

The colours are the ones torchviz uses, so learners meet the same picture
again when they draw real PyTorch graphs:

    grey         a backward function (a grad_fn, or AccumulateGrad)
    light blue   a leaf tensor that requires grad (backward fills its .grad)
    orange       a tensor saved for backward
    green        an output tensor (where backward starts)
    white        any other tensor; dashed when no gradient reaches it

Labels use Graphviz's HTML-like syntax (``<B>w</B><BR/>...``) so that a name
can be bold and values can be in a fixed-width font.
"""
import html

from .._tensor_str import _format_body
from . import _library as lib

FUNCTION = "lightgrey"
LEAF = "lightblue"
SAVED = "orange"
OUTPUT = "darkolivegreen1"
TENSOR = "white"
NOTE = "lightyellow"
# Trace frames: the node running now, and the ones that already ran.
CURRENT = "gold"
DONE = "gray93"
DONE_TEXT = "gray55"
GRADIENT = "firebrick"          # gradient values on the edges of a trace

FONT = "Helvetica"
VALUE_FONT = "Courier"
SMALL = 10                      # point size of shapes, values and notes

# Tensors up to this many elements (a 5x3 matrix) show their values; bigger ones only
# their shape.
MAX_SHOWN_ELEMENTS = 15

# bgcolor: white even in a dark notebook theme or a PNG (black text on transparent is unreadable)
GRAPH_ATTRIBUTES = {"fontname": FONT, "fontsize": "12", "nodesep": "0.35", "ranksep": "0.35",
                    "labelloc": "t", "margin": "0.1", "bgcolor": "white"}
NODE_ATTRIBUTES = {"fontname": FONT, "fontsize": "12", "shape": "box", "style": "filled",
                   "height": "0.3", "margin": "0.08,0.04", "penwidth": "0.8"}
EDGE_ATTRIBUTES = {"fontname": FONT, "fontsize": str(SMALL), "arrowsize": "0.7", "penwidth": "0.8"}


def escape(text):
    return html.escape(str(text), quote=False)


def shape_text(shape):
    """(5, 3) for a matrix, () for a number: the shape as Python writes a tuple."""
    return str(tuple(shape))


def dtype_text(tensor):
    """'' for float32 (the default), else e.g. 'float64'."""
    name = lib.dtype_name(tensor)
    return "" if name == "float32" else name


def values_text(tensor):
    """The values as minigrad prints them, without ``tensor(...)``; None if too many."""
    values = lib.array(tensor)
    if values.size > MAX_SHOWN_ELEMENTS:
        return None
    if values.size == 0:
        return "[]"
    return _format_body(values, tensor.is_floating_point(), 0)


def html_label(title=None, lines=(), values=()):
    """A label: an optional bold title, small plain lines, then (caption, text) value blocks.

    The title and lines are centred; values are left-aligned so that printed
    matrices keep their columns.
    """
    parts = []                          # (text, alignment of its line)
    if title:
        parts.append((f"<B>{escape(title)}</B>", "CENTER"))
    for line in lines:
        if line:
            parts.append((f'<FONT POINT-SIZE="{SMALL}">{escape(line)}</FONT>', "CENTER"))
    for caption, text in values:
        if text is None:
            continue
        rows = str(text).split("\n")
        if caption:
            rows[0] = f"{caption} {rows[0]}"
            indent = " " * (len(caption) + 1)
            rows[1:] = [indent + row for row in rows[1:]]
        for row in rows:
            parts.append((f'<FONT FACE="{VALUE_FONT}" POINT-SIZE="{SMALL}">'
                          f'{escape(row).replace(" ", "&#160;")}</FONT>', "LEFT"))
    if not parts:
        return "<&#160;>"
    return "<" + "".join(f'{text}<BR ALIGN="{align}"/>' for text, align in parts) + ">"


def tensor_lines(tensor, show_flags=False):
    """The small lines under a tensor's name: shape, dtype and (optionally) autograd flags."""
    lines = [" ".join(part for part in (shape_text(tensor.shape), dtype_text(tensor)) if part)]
    if show_flags:
        lines.append(f"is_leaf={tensor.is_leaf} requires_grad={tensor.requires_grad}")
        if not tensor.is_leaf:
            lines.append(f"retains_grad={tensor.retains_grad}")
    return lines


def tensor_values(tensor, show_values=False, show_grad=False):
    """(caption, text) blocks for a tensor's values and its .grad."""
    blocks = []
    if show_values:
        blocks.append(("", values_text(tensor)))
    if show_grad and tensor.requires_grad and (tensor.is_leaf or tensor.retains_grad):
        grad = lib.grad(tensor)
        if grad is None:
            blocks.append(("grad:", "None"))
        else:
            blocks.append(("grad:", values_text(grad) or f"{shape_text(grad.shape)} values"))
    return blocks


def padded(text, other):
    """``text`` padded with spaces to the size of ``other`` (rows and columns), whichever is larger.

    In a fixed-width font the padding is invisible but takes room, so a label
    that shows ``text`` in one picture and ``other`` in the next keeps its size.
    """
    rows, other_rows = str(text).split("\n"), str(other).split("\n")
    rows += [""] * (len(other_rows) - len(rows))
    other_rows += [""] * (len(rows) - len(other_rows))
    return "\n".join(row.ljust(max(len(row), len(o))) for row, o in zip(rows, other_rows))


def gradient_text(gradient):
    """A gradient on an edge of a trace: its values when small, else its shape."""
    if gradient is None:
        return "None"
    return values_text(gradient) or f"grad {shape_text(gradient.shape)}"


def edge_label(text):
    """An edge label in the value font, one left-aligned row per line.

    Graphviz puts a label just to the right of the point where its arrow
    crosses the label's row; a slanting arrow is further right above or below
    that point and would run through the text. Two spaces before each row keep
    the text clear of it, two after keep apart the labels of two arrows side
    by side (x * x).
    """
    rows = [f"&#160;&#160;{escape(row).replace(' ', '&#160;')}&#160;&#160;" for row in str(text).split("\n")]
    return (f'<<FONT FACE="{VALUE_FONT}" POINT-SIZE="{SMALL}">'
            + '<BR ALIGN="LEFT"/>'.join(rows) + '<BR ALIGN="LEFT"/></FONT>>')


def note_label(text):
    """A short italic note, e.g. why a tensor has no graph."""
    lines = '<BR ALIGN="LEFT"/>'.join(escape(line) for line in str(text).split("\n"))
    return f'<<I><FONT POINT-SIZE="{SMALL}">{lines}<BR ALIGN="LEFT"/></FONT></I>>'
