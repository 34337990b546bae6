"""Redraw the course's figures from minigrad itself.

    python figures/make_figures.py        (or: make figures)

Every figure is drawn by minigrad.viz from a real computation, so the
pictures in the README and the lessons always match what the library does.
Each one is written as SVG (for the web) and PNG (for everything else).
Needs Graphviz's `dot` program.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))       # use this checkout's minigrad

import numpy as np  # noqa: E402
import matplotlib  # noqa: E402

matplotlib.use("Agg")                            # no window: we only write files
import matplotlib.image  # noqa: E402

import minigrad as torch  # noqa: E402
from minigrad.viz import draw, draw_both, save, trace_backward  # noqa: E402

PNG_DPI = "110"          # a little sharper than Graphviz's 96, still README-sized


def one_layer_network():
    """The network of the first lessons: z = x @ w + b, loss = BCE-with-logits(z, y)."""
    torch.manual_seed(0)
    x = torch.ones(5)                         # input
    y = torch.zeros(3)                        # expected output
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    return loss, {"x": x, "y": y, "w": w, "b": b, "z": z, "loss": loss}


def write(graph, name):
    """figures/<name>.svg and figures/<name>.png."""
    save(graph, os.path.join(HERE, name + ".svg"))
    sharper = graph.copy()
    sharper.attr(dpi=PNG_DPI)
    save(sharper, os.path.join(HERE, name + ".png"))
    print(f"wrote figures/{name}.svg and .png")


def write_frame_grid(trace, name, columns=3):
    """All frames of a traced backward pass in one picture, row by row."""
    frames = [trace.frame(i) for i in range(len(trace))]
    # SVG: each frame as a nested <svg>, placed on a grid of equal cells
    svgs = [frame.svg() for frame in frames]
    sizes = [_svg_size(svg) for svg in svgs]
    cell_width = max(w for w, _ in sizes)
    cell_height = max(h for _, h in sizes)
    rows = (len(svgs) + columns - 1) // columns
    width, height = cell_width * columns, cell_height * rows
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" '
             f'xmlns:xlink="http://www.w3.org/1999/xlink" width="{width:.0f}pt" '
             f'height="{height:.0f}pt" viewBox="0 0 {width:.2f} {height:.2f}">',
             f'<rect width="{width:.2f}" height="{height:.2f}" fill="white"/>']
    for i, svg in enumerate(svgs):
        x, y = (i % columns) * cell_width, (i // columns) * cell_height
        inner = svg[svg.index("<svg"):]
        parts.append(inner.replace("<svg", f'<svg x="{x:.2f}" y="{y:.2f}"', 1))
    parts.append("</svg>\n")
    with open(os.path.join(HERE, name + ".svg"), "w", encoding="utf-8") as file:
        file.write("\n".join(parts))
    # PNG: the frames' pixels side by side (no resampling), padded with white
    images = []
    for frame in frames:
        sharper = frame.copy()
        sharper.attr(dpi=PNG_DPI)
        images.append(_png_pixels(sharper.png()))
    cell_h = max(image.shape[0] for image in images)
    cell_w = max(image.shape[1] for image in images)
    grid = np.ones((cell_h * rows, cell_w * columns, 3))
    for i, image in enumerate(images):
        top, left = (i // columns) * cell_h, (i % columns) * cell_w
        colour, alpha = image[:, :, :3], image[:, :, 3:]
        grid[top:top + image.shape[0], left:left + image.shape[1]] = colour * alpha + 1 - alpha
    matplotlib.image.imsave(os.path.join(HERE, name + ".png"), grid,
                            metadata={"Software": None})
    print(f"wrote figures/{name}.svg and .png")


def _svg_size(svg):
    match = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    return float(match.group(1)), float(match.group(2))


def _png_pixels(png_bytes):
    import io
    return matplotlib.image.imread(io.BytesIO(png_bytes), format="png")


def main():
    loss, names = one_layer_network()
    write(draw(loss, names=names, legend=True), "one_layer_backward")
    write(draw(loss, names=names, direction="forward", legend=True), "one_layer_forward")
    write(draw_both(loss, names=names), "one_layer_forward_and_backward")
    write(draw(loss, names=names, show_saved=True, show_values=True, legend=True),
          "one_layer_saved_tensors")
    trace = trace_backward(loss, names=names)
    write_frame_grid(trace, "one_layer_backward_steps")


if __name__ == "__main__":
    main()
