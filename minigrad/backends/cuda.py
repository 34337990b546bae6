"""torch.backends.cuda: settings of PyTorch's CUDA kernels. minigrad, like a PyTorch built for the
CPU only, has no CUDA (``is_built()`` is False); ``matmul.allow_tf32`` is still kept, because it is
one face of ``torch.set_float32_matmul_precision``: True means "high" and False "highest"."""
from .. import _global_settings


def is_built():
    """False: built without CUDA."""
    return False


class cuBLASModule:
    """``torch.backends.cuda.matmul``: the settings of cuBLAS, CUDA's matrix-product library.
    Only the names below exist; reading or setting another one fails, as in PyTorch."""

    # reduced-precision sums in float16 and bfloat16 products (PyTorch's defaults: allowed)
    _reductions = {"allow_fp16_reduced_precision_reduction": True,
                   "allow_bf16_reduced_precision_reduction": True}

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _global_settings.get_float32_matmul_precision() != "highest"
        if name in self._reductions:
            return self._reductions[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            if not isinstance(value, bool):
                raise RuntimeError(f"set_allow_tf32_cublas expects a bool, but got {type(value).__name__}")
            _global_settings.set_float32_matmul_precision("high" if value else "highest")
            return
        if name in self._reductions:
            self._reductions[name] = value
            return
        raise AttributeError(f"Unknown attribute {name}")


matmul = cuBLASModule()
