"""``LazyModuleMixin``: layers that learn their input size from the first batch
(PyTorch: torch/nn/modules/lazy.py).

``LazyLinear(10)`` is a Linear layer without ``in_features``: its weight and bias are
``UninitializedParameter`` s. The first call ``layer(x)`` runs a forward pre-hook that

1. reads the size it needs from ``x`` (``x.shape[-1]`` for Linear, the channel dim for the
   convolutions and norms),
2. materializes the parameters with that shape and runs the eager layer's
   ``reset_parameters`` (the same random numbers as the eager layer after ``manual_seed``),
3. removes its hooks and turns the layer into the eager class: ``type(layer)`` becomes ``Linear``.

``load_state_dict`` of an initialized state into a lazy module materializes the parameters
first (a load_state_dict pre-hook), so the module keeps the loaded values; its first forward
then only fills in the inferred size.
"""
import itertools

from ... import _dtype
from ..._creation import tensor as _tensor
from ...autograd.grad_mode import no_grad
from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy


class LazyModuleMixin:
    """A mixin (listed before the eager layer class) for layers whose parameter shapes come from
    their first input. A subclass writes ``initialize_parameters(input)`` and names the eager
    class in ``cls_to_become``."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        # (with_kwargs: the keyword arguments of the first call reach initialize_parameters too)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters,
                                                               with_kwargs=True)

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys,
                        unexpected_keys, error_msgs):
        """Before loading: give each uninitialized tensor the shape of the initialized one in
        ``state_dict``, so that the copy fills it."""
        for name, tensor in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and tensor is not None and is_lazy(tensor):
                if not is_lazy(state_dict[key]):
                    with no_grad():
                        tensor.materialize(state_dict[key].shape)

    def initialize_parameters(self, *args, **kwargs):
        """Infer the sizes from the first input and materialize the parameters (each layer writes its own)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {type(self).__name__}")

    def has_uninitialized_params(self):
        """True while one of this module's own parameters or buffers has no shape yet."""
        return any(is_lazy(tensor) for tensor in
                   itertools.chain(self._parameters.values(), self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None):
        """The forward pre-hook: initialize, check, then become the eager class."""
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {type(self).__name__} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        del module._initialize_hook
        del module._load_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. "
                           "Run a dummy forward pass to correctly initialize the modules")


class _LazyConvXdMixin(LazyModuleMixin):
    """What the lazy convolutions share: ``in_channels`` comes from the input's channel dim."""

    def reset_parameters(self):
        """The eager layer's init, once the parameters have a shape."""
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        """Read ``in_channels`` from ``input``, materialize weight then bias, and initialize them."""
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups) + tuple(self.kernel_size)
            else:
                shape = (self.out_channels, self.in_channels // self.groups) + tuple(self.kernel_size)
            with no_grad():
                self.weight.materialize(shape)
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()

    def _get_in_channels(self, input):
        without_batch = self._dims + 1                 # channels and the spatial dims
        if input.dim() not in (without_batch, without_batch + 1):
            raise RuntimeError(f"Expected {without_batch}D (unbatched) or {without_batch + 1}D (batched) "
                               f"input to {type(self).__name__}, but got input of size: {input.shape}")
        return input.shape[1] if input.dim() == without_batch + 1 else input.shape[0]


class _LazyNormBase(LazyModuleMixin):
    """What LazyBatchNorm and LazyInstanceNorm share: ``num_features`` is ``input.shape[1]``."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        # no weight, bias or statistics yet: they are replaced right below
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = _tensor(0, dtype=_dtype.int64)

    def reset_parameters(self):
        """The eager layer's reset, once the tensors have a shape."""
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        """``num_features = input.shape[1]``; materialize weight, bias, running_mean, running_var."""
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()
