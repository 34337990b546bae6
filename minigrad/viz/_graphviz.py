"""The link to Graphviz: the ``Graph`` every drawing function returns, and ``save``.

Drawing needs two things that are installed separately:

* the ``graphviz`` Python package, which writes DOT source (the text that
  describes nodes and edges) - without it ``import minigrad.viz`` fails with
  an ImportError that says what to install;
* Graphviz's ``dot`` program, which turns DOT source into a picture - without
  it the DOT source still works, and showing or saving a picture explains how
  to install it instead of failing with a bare "file not found".
"""
import base64
import hashlib
import re

try:
    import graphviz
except ImportError as error:        # pragma: no cover - tested in a subprocess
    raise ImportError(
        'minigrad.viz draws graphs with the "graphviz" Python package, which is not installed. '
        'Install it with:  pip install "minigrad-course[viz]"   (or: pip install graphviz)'
    ) from error

INSTALL_DOT_HELP = (
    "Graphviz's `dot` program is needed to turn the graph into a picture, and it was not found. "
    "Install Graphviz (it is a system program, not a Python package), then restart the kernel:\n"
    "    Debian/Ubuntu/Colab:  apt-get install graphviz\n"
    "    macOS:                brew install graphviz\n"
    "    conda:                conda install -c conda-forge python-graphviz\n"
    "    Windows:              winget install graphviz  (then add its bin folder to PATH)\n"
    "The DOT source is available without it: print(graph.source)"
)

# Every SVG we produce carries this comment right after its <svg> tag. The hash
# is of the DOT source, so it says "same graph" even when two Graphviz versions
# lay the picture out differently; notebook tests can compare it instead of
# the coordinates.
SVG_MARK = "<!-- minigrad graph {} -->"

# How a node line of our DOT source starts: our node ids are n0, n1, ...
_NODE_STATEMENT = re.compile(r"\s*n\d+ \[")


class GraphvizNotFound(graphviz.ExecutableNotFound):
    """``dot`` is missing: raised with instructions on how to install Graphviz."""

    def __init__(self):
        RuntimeError.__init__(self, INSTALL_DOT_HELP)


def source_hash(source):
    """A short, stable fingerprint of DOT source (the same in every run and process)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def _mark_svg(svg, source):
    """Insert the SVG_MARK comment just after the opening <svg ...> tag."""
    mark = SVG_MARK.format(source_hash(source))
    return re.sub(r"(<svg\b[^>]*>)", lambda m: m.group(1) + "\n" + mark, svg, count=1)


class Graph(graphviz.Digraph):
    """A ``graphviz.Digraph`` that explains itself when Graphviz's ``dot`` is missing.

    In JupyterLab and Colab it shows as a picture (SVG). Use ``.source`` for the
    DOT text, ``minigrad.viz.save(graph, "name.png")`` to write a file.
    """

    def svg(self):
        """The picture as SVG text (needs ``dot``)."""
        try:
            svg = self.pipe(format="svg", encoding="utf-8")
        except graphviz.ExecutableNotFound:
            raise GraphvizNotFound() from None
        return _mark_svg(svg, self.source)

    def png(self, dpi=None):
        """The picture as PNG bytes (needs ``dot``); ``dpi`` 144 makes it sharp on high-density screens."""
        graph = self
        if dpi is not None:
            graph = self.copy()
            graph.attr(dpi=str(dpi))
        try:
            return graph.pipe(format="png")
        except graphviz.ExecutableNotFound:
            raise GraphvizNotFound() from None

    def _repr_image_svg_xml(self):
        return self.svg()

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        # Jupyter asks for the picture here. Without `dot`, show how to get it
        # instead of a traceback that ends in "No such file or directory".
        # Besides the SVG, a PNG: a notebook that is not trusted (opened without
        # running it, in JupyterLab or on GitHub) does not show SVG, but shows PNG.
        try:
            bundle = super()._repr_mimebundle_(include, exclude, **kwargs)
            bundle["image/png"] = base64.b64encode(self.png()).decode("ascii")
            return bundle
        except graphviz.ExecutableNotFound:
            return {"text/plain": INSTALL_DOT_HELP}

    def _repr_pretty_(self, printer, cycle):
        # What a plain-text front end shows (and what notebook tests compare
        # besides the picture): the size of the graph, never a memory address.
        nodes = sum(1 for line in self.body if _NODE_STATEMENT.match(line))
        edges = sum(1 for line in self.body if " -> " in line)
        printer.text(f"<minigrad.viz.Graph: {nodes} nodes, {edges} edges>")


def save(graph, path, format=None):
    """Write ``graph`` to ``path`` as SVG or PNG (``format`` defaults to the file's suffix).

    Returns the path. Raises GraphvizNotFound, with install instructions, if
    Graphviz's ``dot`` program is missing.
    """
    path = str(path)
    if format is None:
        format = path.rsplit(".", 1)[-1].lower() if "." in path else "svg"
    if format == "svg":
        data = graph.svg().encode("utf-8") if isinstance(graph, Graph) else _pipe(graph, "svg")
    elif format in ("png", "pdf", "jpg", "jpeg"):
        data = _pipe(graph, format)
    else:
        raise ValueError(f"save() writes svg, png, pdf or jpg files, not {format!r}")
    with open(path, "wb") as file:
        file.write(data)
    return path


def _pipe(graph, format):
    try:
        return graph.pipe(format=format)
    except graphviz.ExecutableNotFound:
        raise GraphvizNotFound() from None
