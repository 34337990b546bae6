"""Build the course's static website: one HTML page per lesson and an index.

    python tools/site.py notebooks build/site

Each lesson is converted by nbconvert with the outputs stored in the notebook
(nothing is executed), so graphs appear as drawn and the step-through works
as it does in JupyterLab. The index lists the lessons in order, with each
lesson's title (its first ``# `` heading). Open build/site/index.html, or put
the folder on any static web host (e.g. GitHub Pages).
"""
from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }}
li {{ margin: .4rem 0; }} a {{ color: #1a5fb4; }}
</style></head>
<body>
<h1>{title}</h1>
<p>{intro}</p>
<ol start="0">
{items}
</ol>
<p>Run the lessons yourself: <a href="{repository}">{repository}</a></p>
</body></html>
"""


def lesson_title(nb, fallback: str) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def inline_markdown(title: str) -> str:
    """The title as HTML, with `code` spans kept as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(title))


def repository_url() -> str:
    # Loaded by path, like tools/notebook_header.py: no library import needed.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from notebook_header import links

    return links.REPOSITORY_URL


HEADER_TAG = "minigrad-header"  # tools/notebook_header.py's tag


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="folder of lesson notebooks")
    parser.add_argument("target", type=Path, help="folder for the website")
    args = parser.parse_args(argv)
    args.target.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter(template_name="lab")
    items = []
    for source in sorted(args.source.glob("*.ipynb")):
        nb = nbformat.read(source, as_version=4)
        # The Colab setup cell only matters on Colab; the badge above it stays.
        nb.cells = [c for c in nb.cells if not (c.cell_type == "code" and HEADER_TAG in
                                                c.get("metadata", {}).get("tags", []))]
        title = lesson_title(nb, source.stem)
        body, _ = exporter.from_notebook_node(
            nb, resources={"metadata": {"name": title.replace("`", "")}})
        # Links between lessons point at their pages.
        body = re.sub(r'href="(\d\d_[\w-]+)\.ipynb', r'href="\1.html', body)
        page = args.target / (source.stem + ".html")
        page.write_text(body, encoding="utf-8")
        items.append(f'<li><a href="{page.name}">{inline_markdown(title)}</a></li>')
        print(f"wrote {page}")
    index = args.target / "index.html"
    index.write_text(PAGE.format(
        title="minigrad: how PyTorch's autograd works",
        intro="A course in Jupyter notebooks. Follow the lessons in order.",
        items="\n".join(items), repository=repository_url()), encoding="utf-8")
    print(f"wrote {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
