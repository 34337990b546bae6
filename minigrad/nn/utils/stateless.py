"""torch.nn.utils.stateless: the first home of functional_call (PyTorch 1.12), kept as an alias.

PyTorch 2.0 moved it to torch.func.functional_call; the old name still works and warns that it
is deprecated, with PyTorch's FutureWarning. (PyTorch: torch/nn/utils/stateless.py.)
"""
import warnings


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with its parameters/buffers taken from the dict, for one call
    (deprecated: use ``torch.func.functional_call``, which this calls)."""
    from ...func._functional_call import functional_call as replacement
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                  "and will be removed in a future version of PyTorch. "
                  "Please use `torch.func.functional_call` instead which is a drop-in replacement.",
                  FutureWarning, stacklevel=2)
    return replacement(module, parameters_and_buffers, args, kwargs,
                       tie_weights=tie_weights, strict=strict)
