"""Spectral normalization, the older hook-based form (PyTorch: torch/nn/utils/spectral_norm.py).

``spectral_norm(layer)`` renames the parameter ``weight`` to ``weight_orig``, adds buffers
``weight_u`` and ``weight_v`` (estimates of the first left and right singular vectors) and
registers a forward pre-hook that, before every forward pass, refines u and v by power
iteration (in training mode only) and sets ``layer.weight = weight_orig / sigma`` with
sigma = u . (W v). PyTorch recommends ``parametrizations.spectral_norm`` instead.

Its state_dict says which layout it holds (``metadata['spectral_norm']['weight.version']``,
1 since PyTorch 1.1). A checkpoint saved before that holds ``weight`` and no ``weight_v``:
loading it computes ``weight_v`` from the others (SpectralNormLoadStateDictPreHook).
"""
from ...autograd.grad_mode import no_grad
from ..._ops.linalg import dot, mv
from ..._ops.matrix_products import multi_dot
from .. import functional as F
from ..parameter import Parameter


class SpectralNorm:
    """The forward pre-hook: sets ``module.<name>`` to ``<name>_orig`` over its spectral norm."""

    # the state_dict layout: 1 has <name>_orig, _u and _v (before it: <name>, _orig and _u)
    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        """The weight as a matrix: dim ``self.dim`` first, the others flattened."""
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(
                self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        return weight_mat.reshape(weight_mat.size(0), -1)

    def compute_weight(self, module, do_power_iteration):
        """weight_orig / (u . W v), after refining u and v in place when asked."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                # v first, then u (the parametrization does u first)
                for _ in range(self.n_power_iterations):
                    v = F.normalize(mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                # copies, so that backward sees u and v as they are now
                u = u.clone()
                v = v.clone()
        sigma = dot(u, mv(weight_mat, v))
        return weight / sigma

    def remove(self, module):
        """Put back a single parameter ``<name>`` holding the current normalized weight."""
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        """A v with u = normalize(W v) and u . W v = ``target_sigma``: the least-squares solution
        of W x = u, (W^T W)^+ W^T u (pinverse: W^T W may be singular), scaled."""
        v = multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(), u.unsqueeze(1)])
        v = v.squeeze(1)
        return v.mul_(target_sigma / dot(u, mv(weight_mat, v)))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        """Rename the parameter, create the u and v buffers, register the hook."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            # random start, drawn from the global generator (reproducible after manual_seed)
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # until the first forward pass, ``weight`` is the unnormalized values
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Before loading: turn a state_dict of the old layout (version None or 0: ``<name>``,
    ``<name>_orig`` and ``<name>_u``) into the new one, computing ``<name>_v``.

    After a forward pass the old layout kept W = W_orig / sigma, u = normalize(W_orig v) and
    sigma = u . W_orig v; so sigma is the mean of W_orig / W, and v solves W_orig v = u up to
    the scale that makes u . W_orig v = sigma."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs):
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is not None and version >= 1:
            return
        weight_key = prefix + fn.name
        if version is None and weight_key not in state_dict and all(
                weight_key + suffix in state_dict for suffix in ("_orig", "_u", "_v")):
            return                  # the new layout without its metadata (a state_dict made by hand)
        missing = [weight_key + suffix for suffix in ("_orig", "", "_u")
                   if weight_key + suffix not in state_dict]
        if missing:
            if strict:
                missing_keys.extend(missing)
            return
        with no_grad():
            weight_orig = state_dict[weight_key + "_orig"]
            weight = state_dict.pop(weight_key)
            sigma = (weight_orig / weight).mean()
            weight_mat = fn.reshape_weight_to_matrix(weight_orig)
            u = state_dict[weight_key + "_u"]
            state_dict[weight_key + "_v"] = fn._solve_v_and_rescale(weight_mat, u, sigma)


class SpectralNormStateDictHook:
    """After saving: record the layout's version in the state_dict's metadata."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata):
        versions = local_metadata.setdefault("spectral_norm", {})
        key = self.fn.name + ".version"
        if key in versions:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        versions[key] = self.fn._version


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide ``module.<name>`` by its spectral norm before every forward pass (hook-based;
    ``parametrizations.spectral_norm`` is the newer form). ``dim`` is the output dimension
    (1 for ConvTranspose layers, else 0)."""
    if dim is None:
        from .parametrizations import _is_conv_transpose
        dim = 1 if _is_conv_transpose(module) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    """Undo ``spectral_norm``: ``module.<name>`` becomes one parameter again."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break
    # PyTorch's removal looks for the load hook among its wrapped hooks and never finds it: the
    # hook stays, and loading a state_dict of the plain layout afterwards reports <name>_orig
    # and <name>_u missing. minigrad leaves it too, so that the same program fails the same way.
    return module
