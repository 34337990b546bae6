"""torch.backends: switches and questions about the libraries PyTorch can compute with.

minigrad computes with numpy on the CPU and, like a PyTorch built for the CPU only, has no CUDA,
cuDNN or Apple GPU (MPS). These modules answer as that build does (``cudnn.is_available()`` and
``mps.is_available()`` are False), and the switches tutorials set for reproducible runs
(``torch.backends.cudnn.deterministic = True``, ``benchmark = False``) are kept and read back,
though they change nothing in how minigrad computes.

    cpu.py     torch.backends.cpu: get_cpu_capability
    cuda.py    torch.backends.cuda: is_built, matmul.allow_tf32
    cudnn.py   torch.backends.cudnn: is_available, version, enabled, deterministic, benchmark, ...
    mps.py     torch.backends.mps: is_available, is_built
"""
from . import cpu, cuda, cudnn, mps  # noqa: F401
