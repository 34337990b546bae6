"""torch.version: which build this is. minigrad's own version number, and, as in a PyTorch built for
the CPU only, no CUDA, ROCm (hip) or XPU version: code that prints ``torch.version.cuda`` prints None."""
from . import __version__  # noqa: F401

debug = False
cuda = None
hip = None
rocm = None
xpu = None
