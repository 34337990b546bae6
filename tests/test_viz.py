"""minigrad.viz: the pictures of the course, checked through their DOT source.

Most tests read the DOT text (which boxes, which arrows, which colours), which
needs only the graphviz Python package. The rendering tests need Graphviz's
`dot` program: they skip without it, except in CI (MINIGRAD_CI=1, see
conftest.py), where a missing `dot` fails.
"""
import html
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("graphviz")

import minigrad as torch  # noqa: E402
from minigrad.autograd import Function  # noqa: E402
from minigrad.viz import (  # noqa: E402
    BackwardTrace, Graph, GraphvizNotFound, draw, draw_both, save, trace_backward)
from minigrad.viz._walk import operation_name  # noqa: E402

HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="Graphviz dot not installed")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The rule notebooks/sanitize.cfg needs so that nbval compares which graph a
# picture shows (the hash of its DOT source) rather than Graphviz's coordinates.
SVG_RULE = (r"(?s)(?:<\?xml[^>]*>\s*)?(?:<!DOCTYPE[^>]*>\s*)?(?:<!--[^>]*-->\s*)*"
            r"<svg\b[^>]*>\s*<!-- minigrad graph ([0-9a-f]{16}) -->.*?</svg>")
SVG_REPLACEMENT = r"<svg minigrad graph \1/>"


# --- helpers ----------------------------------------------------------------------------------

def one_layer():
    """The course's first network: z = x @ w + b, loss = BCE-with-logits(z, y)."""
    torch.manual_seed(0)
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    return dict(x=x, y=y, w=w, b=b, z=z, loss=loss)


def parse_dot(source):
    """{id: (text, attribute string)} for nodes and [(tail, head, attribute string)] for edges."""
    nodes, edges = {}, []
    for line in source.splitlines():
        edge = re.match(r"\s*(n\d+) -> (n\d+)(?: \[(.*)\])?$", line)
        if edge:
            edges.append((edge.group(1), edge.group(2), edge.group(3) or ""))
            continue
        node = re.match(r"\s*(n\d+) \[(.*)\]$", line)
        if node:
            nodes[node.group(1)] = (label_text(node.group(2)), node.group(2))
    return nodes, edges


def label_text(attributes):
    """The words of a node's label, without HTML tags: 'w (5, 3)'."""
    match = re.match(r"label=<(.*)> [a-z]", attributes) or re.match(r"label=<(.*)>$", attributes)
    if match:
        text = re.sub(r"<BR[^>]*>", " ", match.group(1))
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
        return " ".join(text.split())
    match = re.match(r'label="?([^" ]*)', attributes)
    return match.group(1) if match else ""


def titles(nodes):
    return sorted(text for text, _ in nodes.values())


def node_id(nodes, text):
    found = [i for i, (t, _) in nodes.items() if t == text or t.startswith(text + " ")]
    assert len(found) == 1, f"expected one node labelled {text!r}, found {found}: {nodes}"
    return found[0]


# --- the backward view ------------------------------------------------------------------------

def test_one_layer_backward_graph_has_the_grad_fn_nodes_leaves_and_output():
    t = one_layer()
    nodes, edges = parse_dot(draw(t["loss"], names=t).source)
    texts = titles(nodes)
    for name in ["BinaryCrossEntropyWithLogitsBackward0", "AddBackward0", "SqueezeBackward4",
                 "MmBackward0"]:
        assert texts.count(name) == 1
    assert texts.count("AccumulateGrad") == 2
    assert "w (5, 3)" in texts and "b (3,)" in texts and "loss ()" in texts

    def colour(text):
        return re.search(r"fillcolor=(\w+)", nodes[node_id(nodes, text)][1]).group(1)

    assert colour("MmBackward0") == "lightgrey"
    assert colour("w") == "lightblue"
    assert colour("loss") == "darkolivegreen1"


def test_backward_edges_follow_next_functions():
    t = one_layer()
    nodes, edges = parse_dot(draw(t["loss"]).source)
    drawn = sorted((nodes[a][0], nodes[b][0]) for a, b, attributes in edges)
    # every entry of next_functions that is not None, and nothing else (plus output -> grad_fn
    # and AccumulateGrad -> its leaf)
    expected = [("()", "BinaryCrossEntropyWithLogitsBackward0"),
                ("AccumulateGrad", "(3,)"), ("AccumulateGrad", "(5, 3)")]
    stack, seen = [t["loss"].grad_fn], set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for next_node, _ in node.next_functions:
            if next_node is not None:
                expected.append((type(node).__name__, type(next_node).__name__))
                stack.append(next_node)
    assert drawn == sorted(expected)


def test_edges_are_in_next_functions_order():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    nodes, edges = parse_dot(draw(a * b, names={"a": a, "b": b}).source)
    mul = node_id(nodes, "MulBackward0")
    targets = [head for tail, head, _ in edges if tail == mul]
    assert [nodes[h][0] for h in targets] == ["AccumulateGrad", "AccumulateGrad"]
    # the first AccumulateGrad leads to a, the second to b
    leaves = [next(nodes[h][0] for t, h, _ in edges if t == acc) for acc in targets]
    assert leaves == ["a (2,)", "b (2,)"]
    assert "ordering=out" in nodes[mul][1]


def test_names_come_from_the_dict_or_a_name_attribute_and_dtype_is_shown():
    w = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
    v = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
    v.name = "velocity"
    nodes, _ = parse_dot(draw(w * v, names={"w": w, "_hidden": v, "n": 3}).source)
    texts = titles(nodes)
    assert "w (2, 2) float64" in texts
    assert "velocity (2, 2) float64" in texts


def test_named_intermediate_is_drawn_beside_its_grad_fn():
    t = one_layer()
    source = draw(t["loss"], names=t).source
    nodes, edges = parse_dot(source)
    z, add = node_id(nodes, "z"), node_id(nodes, "AddBackward0")
    assert (z, add) in [(a, b) for a, b, _ in edges]
    assert re.search(r"\{\s*rank=same\s*" + add + r"\s*" + z + r"\s*\}", source)


def test_inputs_without_grad_hang_off_their_node_as_none():
    t = one_layer()
    nodes, edges = parse_dot(draw(t["loss"], names=t).source)
    x, y = node_id(nodes, "x"), node_id(nodes, "y")
    assert "dashed" in nodes[x][1]
    edge_to = {head: (tail, attributes) for tail, head, attributes in edges}
    assert nodes[edge_to[x][0]][0] == "MmBackward0" and "label=None" in edge_to[x][1]
    assert nodes[edge_to[y][0]][0] == "BinaryCrossEntropyWithLogitsBackward0"


def test_show_values_grad_flags():
    t = one_layer()
    source = draw(t["loss"], names=t, show_values=True, show_flags=True).source
    nodes, _ = parse_dot(source)
    assert nodes[node_id(nodes, "loss")][0] == (
        "loss () is_leaf=False requires_grad=True retains_grad=False 0.6819")
    assert "[ 0.1227, -0.5663, 0.3731]" in nodes[node_id(nodes, "b")][0]
    assert "grad:" not in source
    t["loss"].backward()
    nodes, _ = parse_dot(draw(t["loss"], names=t, show_grad=True).source)
    assert "grad: [0.2661, 0.1179, 0.0027]" in nodes[node_id(nodes, "b")][0]
    assert "grad: [[0.2661, 0.1179, 0.0027]," in nodes[node_id(nodes, "w")][0]


def test_big_tensors_show_their_shape_not_their_values():
    w = torch.arange(20.).reshape(4, 5).requires_grad_()
    nodes, _ = parse_dot(draw(w.sum(), names={"w": w}, show_values=True).source)
    assert nodes[node_id(nodes, "w")][0] == "w (4, 5)"


def test_retained_grad_is_shown():
    a = torch.tensor([1., 2.], requires_grad=True)
    h = a * 3
    h.retain_grad()
    (h * h).sum().backward()
    nodes, _ = parse_dot(draw(h, show_grad=True).source)
    assert "grad: [ 6., 12.]" in nodes["n0"][0]


def test_show_saved_draws_saved_tensors_in_orange():
    a = torch.tensor([2., 3.], requires_grad=True)
    q = 3 * a ** 3
    source = draw(q, names={"a": a}, show_saved=True).source
    nodes, edges = parse_dot(source)
    saved = [i for i, (_, attributes) in nodes.items() if "fillcolor=orange" in attributes]
    # like PyTorch, MulBackward0 keeps only the 3 (the gradient for the number is not needed)
    assert sorted(nodes[i][0] for i in saved) == ["3 number"]
    # a itself was saved by PowBackward0 (a reference, not a copy): its own box says so
    text, attributes = nodes[node_id(nodes, "a")]
    assert text == "a saved by PowBackward0 (2,)" and "color=orange" in attributes
    mul = node_id(nodes, "MulBackward0")
    assert sorted(t for t, head, a in edges if head == mul and "dir=none" in a) == sorted(saved)


def test_after_backward_the_freed_saved_tensors_are_explained():
    a = torch.tensor([2., 3.], requires_grad=True)
    q = (a * a).sum()
    q.backward()
    source = draw(q, show_saved=True).source
    assert "saved tensors were freed by backward()" in source
    assert "fillcolor=orange" not in source


def test_legend():
    t = one_layer()
    source = draw(t["loss"], legend=True, show_saved=True).source
    assert "legend" in source and "gradients flow backward" in source
    assert 'BGCOLOR="orange"' in source
    assert "legend" not in draw(t["loss"]).source


def test_title():
    t = one_layer()
    assert "<B>one layer</B>" in draw(t["loss"], title="one layer").source


# --- tensors without a graph ------------------------------------------------------------------

def test_a_leaf_is_drawn_alone_with_a_note():
    w = torch.ones(3, requires_grad=True)
    nodes, edges = parse_dot(draw(w, names={"w": w}).source)
    assert "fillcolor=lightblue" in nodes[node_id(nodes, "w")][1]
    assert any(text.startswith("leaf: no grad_fn") for text, _ in nodes.values())
    assert len(edges) == 1


def test_no_grad_and_detached_tensors_say_why():
    w = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        u = w * 2
    for tensor in (u, w.detach(), torch.ones(2)):
        nodes, _ = parse_dot(draw(tensor).source)
        notes = [text for text, _ in nodes.values() if text.startswith("requires_grad=False")]
        assert notes and "computed under no_grad" in notes[0] and "detached" in notes[0]


def test_a_named_detached_tensor_is_drawn_cut_off():
    w = torch.ones(3, requires_grad=True)
    h = w * 2
    h_detached = h.detach()
    out = (h * h_detached).sum()
    nodes, edges = parse_dot(draw(out, names={"w": w, "h": h, "h_detached": h_detached}).source)
    cut = node_id(nodes, "h_detached")
    assert "dashed" in nodes[cut][1]
    [(tail, attributes)] = [(t, a) for t, head, a in edges if head == cut]
    assert tail == node_id(nodes, "h")
    assert "arrowhead=tee" in attributes and "detach()" in attributes


def test_unrelated_named_tensors_are_left_out():
    t = one_layer()
    other = torch.ones(4, requires_grad=True) * 2
    names = dict(t, other=other, unrelated=torch.zeros(7))
    assert "other" not in draw(t["loss"], names=names).source
    assert "unrelated" not in draw(t["loss"], names=names).source


# --- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [3.0, [1, 2], None, "loss"])
def test_drawing_a_non_tensor_is_a_type_error(bad):
    with pytest.raises(TypeError, match="draw\\(\\) draws minigrad or PyTorch tensors, but got "):
        draw(bad)
    with pytest.raises(TypeError, match="trace_backward"):
        trace_backward(bad)


def test_bad_arguments():
    t = one_layer()
    with pytest.raises(TypeError, match="at least one tensor"):
        draw()
    with pytest.raises(TypeError, match="names must be a dict"):
        draw(t["loss"], names=[t["w"]])
    with pytest.raises(ValueError, match="direction"):
        draw(t["loss"], direction="sideways")
    with pytest.raises(ValueError, match="max_nodes"):
        draw(t["loss"], max_nodes=0)


# --- determinism and big graphs ---------------------------------------------------------------

def test_same_graph_same_source_and_ids_in_drawing_order():
    first = draw(one_layer()["loss"], show_values=True, legend=True).source
    second = draw(one_layer()["loss"], show_values=True, legend=True).source
    assert first == second
    ids = re.findall(r"^\s*(n\d+) \[", first, flags=re.MULTILINE)
    assert ids == [f"n{i}" for i in range(len(ids))]
    assert "0x" not in first


DETERMINISM_SCRIPT = textwrap.dedent("""
    import hashlib, sys
    sys.path.insert(0, {root!r})
    sys.path.insert(0, {tests!r})
    from test_viz import one_layer
    from minigrad.viz import draw, draw_both
    t = one_layer()
    source = draw(t["loss"], names=t, show_values=True, show_saved=True, legend=True).source
    source += draw_both(t["loss"], names=t).source
    print(hashlib.sha256(source.encode()).hexdigest())
""")


def test_same_source_in_other_processes():
    script = DETERMINISM_SCRIPT.format(root=ROOT, tests=os.path.join(ROOT, "tests"))
    hashes = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                env=env, check=True)
        hashes.add(result.stdout.strip())
    assert len(hashes) == 1


def chain(length):
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(length):
        y = y * 1.0001
    return y


def test_a_5000_node_chain_draws_without_recursion():
    # (how long drawing takes is measured by the benchmarks, never here)
    y = chain(5000)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)           # a recursive walk would fail here
    try:
        source = draw(y, max_nodes=10_000).source
    finally:
        sys.setrecursionlimit(limit)
    assert source.count("MulBackward0") == 5000


def test_beyond_max_nodes_a_note_says_how_many_were_left_out():
    y = chain(5000)
    nodes, edges = parse_dot(draw(y).source)
    assert titles(nodes).count("MulBackward0") == 300
    note = node_id(nodes, "... 4701 more nodes not drawn (max_nodes=300)")
    assert sum(1 for _, head, _ in edges if head == note) == 1
    forward_nodes, _ = parse_dot(draw(y, direction="forward", max_nodes=10).source)
    assert "... 4991 more nodes not drawn (max_nodes=10)" in titles(forward_nodes)


def reused_parameter_loop(n_ops):
    """The long graph learners draw most: ``y = y * w + b`` in a loop, w and b leaves."""
    w = torch.tensor([0.9], requires_grad=True)
    b = torch.tensor([0.1], requires_grad=True)
    y = torch.tensor([1.0])
    for _ in range(n_ops // 2):
        y = y * w + b
    return y, {"w": w, "b": b}


def test_a_leaf_used_a_few_times_keeps_one_box_with_an_arrow_per_use():
    # Ten uses each: the lessons' picture of gradient accumulation, many arrows into one box.
    y, names = reused_parameter_loop(20)
    nodes, edges = parse_dot(draw(y, names=names).source)
    accumulate = [i for i, (text, _) in nodes.items() if text == "AccumulateGrad"]
    assert len(accumulate) == 2
    assert sorted(sum(1 for _, head, _ in edges if head == a) for a in accumulate) == [10, 10]
    assert "use 1 of" not in draw(y, names=names).source
    assert "group=" not in draw(y, names=names).source     # Graphviz's own layout, as before


def test_a_1000_op_loop_with_a_reused_parameter_draws_a_bounded_straight_picture():
    # Graphviz's time grows with boxes, arrows and how far arrows travel: all three are
    # bounded here (timing lives in the benchmark table, `python -m benchmarks --only viz`).
    y, names = reused_parameter_loop(1000)
    source = draw(y, names=names).source
    nodes, edges = parse_dot(source)
    functions = [i for i, (_, attributes) in nodes.items() if "lightgrey" in attributes]
    # max_nodes counts the copies too (the last drawn operations may add their own copies)
    assert 295 <= len(functions) <= 305
    assert len(nodes) <= 2 * 300 and len(edges) <= 2 * 300
    # every AccumulateGrad box gets exactly one arrow: no arrows converging on one box
    heads = [head for _, head, _ in edges]
    for i, (text, _) in nodes.items():
        if text == "AccumulateGrad":
            assert heads.count(i) == 1
    # the operations stay in one column (one Graphviz group), the copies beside them
    assert all("group=operations" in nodes[i][1] for i in functions
               if nodes[i][0] != "AccumulateGrad")
    # uses in program order: the one nearest the output is the last; the cut-off is said at the top
    assert "w use 500 of 500 (1,)" in titles(nodes) and "b use 500 of 500 (1,)" in titles(nodes)
    note = node_id(nodes, "the picture stops at max_nodes=300 boxes:")
    assert "more nodes, further down, are not drawn" in nodes[note][0]
    assert re.search(r"rank=same\s+n0\s+" + note + r"\s", source)       # beside the output
    bottom = node_id(nodes, "...")
    assert re.match(r"\.\.\. (\d+) more nodes not drawn \(max_nodes=300\)", nodes[bottom][0])


@pytest.mark.parametrize("view", ["forward", "both", "trace"])
def test_the_other_views_of_the_1000_op_loop_are_bounded_too(view):
    y, names = reused_parameter_loop(1000)
    if view == "forward":
        source = draw(y, names=names, direction="forward").source
    elif view == "both":
        source = draw_both(y, names=names).source
    else:
        trace = trace_backward(y, names=names)
        assert len(trace) == 1002                        # every step is recorded...
        source = trace.frame(0).source                   # ...and a frame draws 60 boxes
    nodes, edges = parse_dot(source)
    limit = {"forward": 300, "both": 600, "trace": 60}[view]
    assert len(nodes) <= 2 * limit and len(edges) <= 2 * limit
    if view == "forward":
        assert "w use 500 of 500 (1,)" in titles(nodes)        # nearest the output, at the bottom


@needs_dot
def test_a_long_trace_shows_its_first_steps_as_pictures_and_says_so(monkeypatch):
    from minigrad.viz import _trace
    monkeypatch.setattr(_trace, "MAX_FRAMES_SHOWN", 2)
    y, names = reused_parameter_loop(40)
    page = trace_backward(y, names=names)._repr_html_()
    assert page.count('class="mg-frame"') == 2
    assert "The first 2 of 42 steps are drawn" in page


def test_nodes_with_several_outputs_label_which_output_an_edge_leaves_from():
    a = torch.ones(3, 2, requires_grad=True)
    first, second, third = a.unbind(0)
    nodes, edges = parse_dot(draw(first.sum() + 3 * third.sum()).source)
    unbind = node_id(nodes, "UnbindBackward0")
    labels = sorted(re.search(r'label="([^"]*)"', attributes).group(1)
                    for _, head, attributes in edges if head == unbind)
    assert labels == ["output 0", "output 2"]


def make_graphs():
    """A few graphs with unusual shapes, to check every view copes with them."""
    a = torch.randn(3, 4, requires_grad=True)

    class Pair(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, first, second):
            return first * 2 + second * 3

    x = torch.tensor(2., requires_grad=True)
    (slope,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    in_place = a * 1
    in_place.mul_(2)
    return {
        "split and cat": torch.cat([t * 2 for t in a.split(2, dim=1)], dim=1).sum(),
        "in place": in_place.sum(),
        "indexing": (a[0, 1:] ** 2).sum(),
        "cross entropy": torch.nn.functional.cross_entropy(a, torch.tensor([0, 1, 2])),
        "where": torch.where(a > 0, a, a * 0.1).sum(),
        "custom function, two outputs": sum(t.sum() for t in Pair.apply(a)),
        "gradient of a gradient": slope,
        "integers": torch.arange(5),
    }


@pytest.mark.parametrize("name", list(make_graphs()))
def test_every_view_copes_with_unusual_graphs(name):
    out = make_graphs()[name]
    for options in [{}, dict(show_saved=True, show_values=True, show_flags=True, legend=True),
                    dict(direction="forward", show_values=True)]:
        assert draw(out, **options).source.startswith("digraph minigrad {")
    assert "cluster_backward" in draw_both(out).source
    if out.requires_grad:
        trace = trace_backward(out)
        assert len(trace) >= 2 and trace.text()
        assert trace.frame(len(trace) - 1).source


# --- the forward view -------------------------------------------------------------------------

@pytest.mark.parametrize("node_name, operation", [
    ("MulBackward0", "mul"), ("MmBackward0", "mm"), ("TBackward0", "t"),
    ("Log1PBackward0", "log1p"), ("MseLossBackward0", "mse_loss"),
    ("BinaryCrossEntropyWithLogitsBackward0", "binary_cross_entropy_with_logits"),
    ("LinalgVectorNormBackward0", "linalg_vector_norm"), ("CopyBackwards", "copy"),
    ("SumBackward1", "sum"),
])
def test_operation_names(node_name, operation):
    node = type(node_name, (torch.autograd.graph.Node,), {})()
    assert operation_name(node) == operation


def test_custom_function_keeps_its_name_in_the_forward_view():
    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 3 * x ** 2 * grad

    a = torch.ones(2, requires_grad=True)
    nodes, _ = parse_dot(draw(Cube.apply(a), direction="forward").source)
    assert "Cube" in titles(nodes)


def test_forward_view_of_the_one_layer_network():
    t = one_layer()
    nodes, edges = parse_dot(draw(t["loss"], names=t, direction="forward").source)
    pairs = {(nodes[a][0], nodes[b][0]) for a, b, _ in edges}
    assert pairs == {
        ("x (5,)", "mm"), ("w (5, 3)", "mm"), ("mm", "squeeze"), ("squeeze", "add"),
        ("b (3,)", "add"), ("add", "z (3,)"), ("z (3,)", "binary_cross_entropy_with_logits"),
        ("y (3,)", "binary_cross_entropy_with_logits"),
        ("binary_cross_entropy_with_logits", "loss ()"),
    }
    shapes = {(nodes[a][0], nodes[b][0]): attributes for a, b, attributes in edges}
    assert 'label="(1, 3)"' in shapes[("mm", "squeeze")]
    # x comes before w: the inputs of mm, left to right
    mm = node_id(nodes, "mm")
    assert [nodes[a][0] for a, b, _ in edges if b == mm] == ["x (5,)", "w (5, 3)"]
    assert "shape=ellipse" in nodes[mm][1]


def test_forward_view_shows_constants():
    a = torch.ones(2, requires_grad=True)
    nodes, edges = parse_dot(draw(a * 2.5, direction="forward").source)
    assert "2.5" in titles(nodes)


def test_draw_both_puts_two_clusters_side_by_side():
    t = one_layer()
    source = draw_both(t["loss"], names=t, legend=True, title="one layer").source
    assert "subgraph cluster_forward" in source and "subgraph cluster_backward" in source
    ids = re.findall(r"^\s*(n\d+) \[", source, flags=re.MULTILINE)
    assert len(ids) == len(set(ids))
    nodes, edges = parse_dot(source)
    # both views read top to bottom: the backward one is written like draw()'s, from the
    # grad_fn nodes down to the AccumulateGrad nodes, with no arrow drawn reversed
    backward = [(nodes[a][0], nodes[b][0]) for a, b, attributes in edges if "dir=back" not in attributes]
    assert ("MmBackward0", "AccumulateGrad") in backward
    assert len(backward) == len(edges)


# --- tracing backward() -----------------------------------------------------------------------

def test_trace_records_every_step_in_engine_order():
    t = one_layer()
    trace = trace_backward(t["loss"], names=t)
    assert isinstance(trace, BackwardTrace)
    assert [s.name for s in trace.steps] == [
        "BinaryCrossEntropyWithLogitsBackward0", "AddBackward0", "AccumulateGrad",
        "SqueezeBackward4", "MmBackward0", "AccumulateGrad"]
    assert len(trace) == 6 and trace[2] is trace.steps[2]
    # the leaves got their gradients, as with loss.backward()
    assert t["w"].grad is not None and t["b"].grad is not None


def test_traced_gradients_match_autograd():
    t = one_layer()
    trace = trace_backward(t["loss"], names=t)
    fresh = one_layer()
    fresh["z"].retain_grad()
    fresh["loss"].backward()
    add = trace.steps[1]
    assert torch.allclose(add.grad_outputs[0], fresh["z"].grad)
    assert [type(p.to).__name__ for p in add.passed] == ["SqueezeBackward4", "AccumulateGrad"]
    accumulate_b, accumulate_w = trace.steps[2], trace.steps[5]
    assert accumulate_b.tensor is t["b"] and accumulate_b.tensor_name == "b"
    assert torch.allclose(accumulate_b.grad_after, fresh["b"].grad)
    assert torch.allclose(accumulate_w.grad_added, fresh["w"].grad)
    assert torch.allclose(t["w"].grad, fresh["w"].grad)
    # what Mm passed on was summed back to w's shape, as the engine does
    assert trace.steps[4].passed[1].gradient.shape == (5, 3)


def test_trace_shows_accumulation_into_an_existing_grad():
    a = torch.tensor([1., 2.], requires_grad=True)
    (a * 3).sum().backward()
    trace = trace_backward((a * a).sum(), names={"a": a})
    last = trace.steps[-1]
    assert last.tensor is a
    assert last.grad_added.tolist() == [2., 4.]
    assert last.grad_after.tolist() == [5., 7.]
    assert "adds [2., 4.] to a.grad, so a.grad = [5., 7.]" in trace.text()


def test_trace_with_a_gradient_for_a_non_scalar_output():
    a = torch.tensor([1., 2.], requires_grad=True)
    trace = trace_backward(a * a, gradient=torch.tensor([1., 10.]))
    assert trace.steps[0].grad_outputs[0].tolist() == [1., 10.]
    assert a.grad.tolist() == [2., 40.]
    assert "[&#160;1.,&#160;10.]" in trace.frame(0).source


def test_the_traced_graph_can_be_kept_with_retain_graph():
    a = torch.tensor([1., 2.], requires_grad=True)
    out = (a * a).sum()
    trace_backward(out, retain_graph=True)
    out.backward()                                   # would fail if the graph were freed
    assert a.grad.tolist() == [4., 8.]


def test_trace_leaves_no_observer_behind():
    from minigrad.autograd import engine
    t = one_layer()
    trace_backward(t["loss"])
    assert engine._observers == []
    with pytest.raises(RuntimeError):
        trace_backward(torch.ones(2).sum())          # nothing to differentiate
    assert engine._observers == []


def test_trace_matches_pytorch_order():
    real = pytest.importorskip("torch", reason="torch not installed")
    if real is torch:
        pytest.skip("the name torch is minigrad here")
    import torch as pytorch
    pytorch.manual_seed(0)
    x, y = pytorch.ones(5), pytorch.zeros(3)
    w = pytorch.randn(5, 3, requires_grad=True)
    b = pytorch.randn(3, requires_grad=True)
    loss = pytorch.nn.functional.binary_cross_entropy_with_logits(pytorch.matmul(x, w) + b, y)
    order, stack, seen = [], [loss.grad_fn], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        fn.register_hook(lambda grad_inputs, grad_outputs, fn=fn: order.append(fn.name()))
        stack.extend(next_fn for next_fn, _ in fn.next_functions)
    loss.backward()
    expected = [name.replace("torch::autograd::", "") for name in order]
    assert [s.name for s in trace_backward(one_layer()["loss"]).steps] == expected


def test_frames_highlight_the_running_node_and_grey_the_done_ones():
    t = one_layer()
    trace = trace_backward(t["loss"], names=t)
    nodes, edges = parse_dot(trace.frame(3).source)      # SqueezeBackward4 runs
    assert "fillcolor=gold" in nodes[node_id(nodes, "SqueezeBackward4")][1]
    for done in ("BinaryCrossEntropyWithLogitsBackward0", "AddBackward0"):
        assert "fillcolor=gray93" in nodes[node_id(nodes, done)][1]
    assert "fillcolor=lightgrey" in nodes[node_id(nodes, "MmBackward0")][1]
    squeeze, mm = node_id(nodes, "SqueezeBackward4"), node_id(nodes, "MmBackward0")
    [attributes] = [a for tail, head, a in edges if (tail, head) == (squeeze, mm)]
    assert "[[0.2661,&#160;0.1179,&#160;0.0027]]" in attributes
    assert "fontcolor=firebrick" in attributes
    # b.grad is filled in (its AccumulateGrad ran at step 2), w.grad not yet
    assert nodes[node_id(nodes, "b")][0] == "b (3,) grad: [0.2661, 0.1179, 0.0027]"
    assert nodes[node_id(nodes, "w")][0] == "w (5, 3) grad: None"
    with pytest.raises(IndexError, match="6 steps"):
        trace.frame(6)


@needs_dot
def test_every_frame_has_the_same_layout():
    t = one_layer()
    trace = trace_backward(t["loss"], names=t)

    def geometry(svg):
        # the outlines of every box and every arrow (not the text inside them)
        shapes = re.findall(r'<g id="(?:node|edge)\d+" class="(?:node|edge)">(.*?)</g>', svg,
                            flags=re.DOTALL)
        return [re.findall(r' (?:points|d)="([^"]*)"', shape) for shape in shapes]

    layouts = [geometry(trace.frame(i).svg()) for i in range(len(trace))]
    assert len(layouts[0]) == 12 + 11 and all(layouts[0])
    assert all(layout == layouts[0] for layout in layouts)


def test_labels_keep_their_size_from_frame_to_frame():
    t = one_layer()
    trace = trace_backward(t["loss"], names=t)

    def row_lengths(source):
        rows = re.findall(r'<FONT FACE="Courier" POINT-SIZE="10">(.*?)</FONT>', source)
        return [len(html.unescape(row)) for row in rows]

    lengths = [row_lengths(trace.frame(i).source) for i in range(len(trace))]
    assert lengths[0] and all(length == lengths[0] for length in lengths)


def test_trace_text_and_html_are_deterministic():
    t = one_layer()
    first = trace_backward(t["loss"], names=t)
    t = one_layer()
    second = trace_backward(t["loss"], names=t)
    assert first.text() == second.text()
    assert first.text().splitlines()[1] == (
        "   1. BinaryCrossEntropyWithLogitsBackward0 receives 1.; "
        "AddBackward0 gets [0.2661, 0.1179, 0.0027]")
    if HAS_DOT:
        assert first._repr_html_() == second._repr_html_()


@needs_dot
def test_trace_html_is_a_self_contained_stepper():
    t = one_layer()
    page = trace_backward(t["loss"], names=t)._repr_html_()
    assert page.count("<img src=\"data:image/png;base64,") == 6
    assert page.count('class="mg-frame"') == 6 and page.count("<!-- minigrad graph ") == 6
    assert page.count("<details") == 6 and page.count("<details class=\"mg-frame\" open>") == 1
    assert "Prev" in page and "Next" in page and 'type="range"' in page
    assert "<script>" in page and "http" not in page.replace("http://www.w3.org", "")
    ids = re.findall(r'id="(minigrad-trace-[0-9a-f]{16})"', page)
    assert len(ids) == 1 and page.count(ids[0]) >= 2
    assert "<?xml" not in page


def test_trace_in_a_plain_text_front_end():
    from IPython.core.formatters import PlainTextFormatter
    t = one_layer()
    text = PlainTextFormatter()(trace_backward(t["loss"], names=t))
    assert text.startswith("backward() in 6 steps, starting from 1.:")
    assert "AccumulateGrad adds [0.2661, 0.1179, 0.0027] to b.grad" in text


# --- rendering (needs Graphviz's dot) ---------------------------------------------------------

@needs_dot
def test_renders_svg_and_png(tmp_path):
    t = one_layer()
    graph = draw(t["loss"], names=t, legend=True, show_saved=True)
    svg_path = save(graph, tmp_path / "one_layer.svg")
    png_path = save(graph, tmp_path / "one_layer.png")
    svg = open(svg_path, encoding="utf-8").read()
    assert "<svg" in svg and "MmBackward0" in svg
    with open(png_path, "rb") as file:
        assert file.read(8) == b"\x89PNG\r\n\x1a\n"
    both = save(draw_both(t["loss"], names=t), tmp_path / "both.png")
    assert os.path.getsize(both) > 1000


@needs_dot
def test_jupyter_shows_an_svg_marked_with_the_graph_hash():
    from IPython.core.formatters import DisplayFormatter
    t = one_layer()
    graph = draw(t["loss"], names=t)
    data, _ = DisplayFormatter().format(graph)
    svg = data["image/svg+xml"]
    assert "AddBackward0" in svg
    assert re.search(r"<svg\b[^>]*>\n<!-- minigrad graph [0-9a-f]{16} -->", svg)
    assert data["text/plain"] == "<minigrad.viz.Graph: 12 nodes, 11 edges>"
    # the sanitize rule for nbval leaves only the hash, which no Graphviz version changes
    assert re.fullmatch(r"<svg minigrad graph [0-9a-f]{16}/>\s*",
                        re.sub(SVG_RULE, SVG_REPLACEMENT, svg))


@needs_dot
def test_save_frames(tmp_path):
    t = one_layer()
    paths = trace_backward(t["loss"], names=t).save_frames(tmp_path / "frames")
    assert [os.path.basename(p) for p in paths] == [f"step_0{i}.png" for i in range(6)]
    assert all(os.path.getsize(p) > 1000 for p in paths)


def test_missing_dot_explains_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))           # no `dot` on this PATH
    t = one_layer()
    graph = draw(t["loss"])
    with pytest.raises(GraphvizNotFound, match="apt-get install graphviz") as error:
        save(graph, tmp_path / "graph.svg")
    assert "brew install graphviz" in str(error.value)
    assert "conda install -c conda-forge python-graphviz" in str(error.value)
    bundle = graph._repr_mimebundle_()
    assert list(bundle) == ["text/plain"] and "apt-get install graphviz" in bundle["text/plain"]
    trace = trace_backward(one_layer()["loss"])
    page = trace._repr_html_()                          # the step-through: a message, no traceback
    assert "apt-get install graphviz" in page and "brew install graphviz" in page
    assert html.escape(trace.text()) in page            # the steps are still there, as text
    with pytest.raises(GraphvizNotFound, match="apt-get install graphviz"):
        trace.save_frames(tmp_path / "frames")


def test_missing_graphviz_package_says_what_to_pip_install():
    script = ("import sys; sys.modules['graphviz'] = None\n"
              "try:\n    import minigrad.viz\n"
              "except ImportError as error:\n    print(error)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    assert 'pip install "minigrad-course[viz]"' in result.stdout
    assert "pip install graphviz" in result.stdout


def test_graph_is_a_graphviz_digraph():
    import graphviz
    graph = draw(one_layer()["loss"])
    assert isinstance(graph, Graph) and isinstance(graph, graphviz.Digraph)
    assert isinstance(graph.copy(), Graph)


def _label_boxes_and_arrow_points(graph):
    """Where dot put each edge label's visible text (boxes) and points along every arrow."""
    import json
    layout = json.loads(graph.pipe(format="json"))
    boxes, points = [], []
    for edge in layout.get("edges", []):
        for op in edge.get("_ldraw_", []):
            if op["op"] == "F":
                size = op["size"]
            if op["op"] == "T":                 # left-aligned, monospaced: the text's own box
                text = op["text"]
                char = op["width"] / len(text)
                visible = text.strip("\xa0")
                left = op["pt"][0] + char * (len(text) - len(text.lstrip("\xa0")))
                boxes.append((left, left + char * len(visible), op["pt"][1], op["pt"][1] + 0.75 * size))
        for op in edge["_draw_"]:
            if op["op"] == "b":
                p = op["points"]
                for k in range(0, len(p) - 1, 3):
                    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = p[k:k + 4]
                    for i in range(41):
                        t = i / 40
                        a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
                        points.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return boxes, points


@needs_dot
def test_gradient_labels_stay_clear_of_slanting_arrows():
    """Lesson 9's trace (u = x * y, v = u + x, L = u * v) and lesson 3's (w * w): no arrow
    runs through a label, in any frame."""
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    u = x * y
    v = u + x
    loss = u * v
    trace = trace_backward(loss, names={"x": x, "y": y, "u": u, "v": v, "L": loss})
    w = torch.tensor([1.0, 2.0], requires_grad=True)          # lesson 3: two arrows side by side
    twice = trace_backward((w * w).sum(), names={"w": w})
    for trace, labels in ((trace, 7), (twice, 4)):
        for index in range(len(trace)):
            boxes, points = _label_boxes_and_arrow_points(trace.frame(index))
            assert len(boxes) == labels
            for left, right, bottom, top in boxes:
                assert not any(left <= px <= right and bottom <= py <= top for px, py in points), index
