"""Weight normalization, the older hook-based form (PyTorch: torch/nn/utils/weight_norm.py).

``weight_norm(layer)`` replaces the parameter ``weight`` by two parameters, ``weight_g`` (the
length of each output's weights) and ``weight_v`` (their direction), and registers a forward
pre-hook that recomputes ``layer.weight = g * v / ||v||`` before every forward pass.
PyTorch deprecates it in favour of ``parametrizations.weight_norm``, which does the same
with a parametrization (and so also recomputes the weight when it is read outside forward).
"""
import warnings

from ..parameter import Parameter
from .._weight_norm import _weight_norm, norm_except_dim


class WeightNorm:
    """The forward pre-hook: sets ``module.<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        """g * v / ||v||, the norm over every dim but ``dim``."""
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        """Split ``module.<name>`` into ``<name>_g`` and ``<name>_v`` and register the hook."""
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                      stacklevel=2)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        # a plain attribute (not a parameter): the weight is now computed, not trained
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        """Put back a single parameter ``<name>`` holding the current weight."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Reparametrize ``module.<name>`` as ``<name>_g * <name>_v / ||<name>_v||`` (hook-based;
    deprecated in favour of ``parametrizations.weight_norm``). ``dim=None`` takes one norm
    over the whole tensor."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """Undo ``weight_norm``: ``module.<name>`` becomes one parameter again."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
