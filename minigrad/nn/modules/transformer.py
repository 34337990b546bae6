"""The Transformer of "Attention Is All You Need" (PyTorch: torch/nn/modules/transformer.py).

An encoder layer is self-attention then a feed-forward network, each wrapped as
``x + sublayer(x)`` and normalized (after, or with ``norm_first`` before, the sublayer); a
decoder layer adds attention to the encoder's output ("memory") between the two. The stacks
repeat a layer N times (deep copies: every layer starts with the same weights).
"""
import copy
import warnings

from ... import _creation
from ..._warnings import warn_once
from ...autograd.grad_mode import is_grad_enabled
from .. import functional as F
from ..init import xavier_uniform_
from ._multihead_attention import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    """(sz, sz): 0 on and below the diagonal, -inf above (position i sees positions 0..i only)."""
    return _creation.full((sz, sz), float("-inf"), dtype=dtype).triu(diagonal=1)


generate_square_subsequent_mask = _generate_square_subsequent_mask


def _get_seq_len(src, batch_first):
    """The length of the sequence in ``src`` ((L, E), (L, N, E) or (N, L, E))."""
    if src.dim() == 2:
        return src.size(0)
    return src.size(1 if batch_first else 0)


def _detect_is_causal_mask(mask, is_causal=None, size=None):
    """``is_causal`` when given; otherwise whether ``mask`` equals the square causal mask."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal = _generate_square_subsequent_mask(sz, dtype=mask.dtype)
        make_causal = mask.size() == causal.size() and bool((mask == causal).all())
    return make_causal


def _get_clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _current_function(activation):
    """F.relu / F.gelu as they are now: the defaults above were taken while minigrad was still
    importing, before vmap wrapped the functions once more (each wrapper keeps the one it wraps
    in ``__wrapped__``), and a layer should hold ``F.relu`` itself, as PyTorch's does."""
    for name in ("relu", "gelu"):
        current = wrapped = getattr(F, name)
        while wrapped is not None:
            if wrapped is activation:
                return current
            wrapped = getattr(wrapped, "__wrapped__", None)
    return activation


def _relu_or_gelu(activation):
    """1 for relu, 2 for gelu (function or layer), else 0: PyTorch's fused path knows only those."""
    from .activation import GELU, ReLU
    if activation is F.relu or isinstance(activation, ReLU):
        return 1
    if activation is F.gelu or isinstance(activation, GELU):
        return 2
    return 0


class TransformerEncoderLayer(Module):
    """Self-attention, then a feed-forward network (linear1, activation, dropout, linear2), each
    added to its input and normalized (norm_first: normalized before instead)."""

    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True, device=None,
                 dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        activation = _get_activation_fn(activation) if isinstance(activation, str) else \
            _current_function(activation)
        self.activation_relu_or_gelu = _relu_or_gelu(activation)
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        """src (L, N, E) (batch_first: (N, L, E)) through attention and feed-forward."""
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask", src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        fast = not self._why_not_fast_path(src)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal, fast)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal, fast))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _why_not_fast_path(self, src):
        """Why PyTorch would not take its fused inference kernel for this layer ("" if it would)."""
        if src.dim() != 3:
            return f"input not batched; expected src.dim() of 3 but got {src.dim()}"
        if self.training:
            return "training is enabled"
        if not self.self_attn.batch_first:
            return "self_attn.batch_first was not True"
        if self.self_attn.in_proj_bias is None:
            return "self_attn was passed bias=False"
        if not self.self_attn._qkv_same_embed_dim:
            return "self_attn._qkv_same_embed_dim was not True"
        if not self.activation_relu_or_gelu:
            return "activation_relu_or_gelu was not True"
        if self.norm1.eps != self.norm2.eps:
            return "norm1.eps is not equal to norm2.eps"
        if self.self_attn.num_heads % 2 == 1:
            return "num_head is odd"
        if any(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in self.modules()):
            return "forward pre-/hooks are attached to the module"
        weights = (self.self_attn.in_proj_weight, self.self_attn.in_proj_bias, self.self_attn.out_proj.weight,
                   self.self_attn.out_proj.bias, self.norm1.weight, self.norm1.bias, self.norm2.weight,
                   self.norm2.bias, self.linear1.weight, self.linear1.bias, self.linear2.weight,
                   self.linear2.bias)
        if is_grad_enabled() and any(t is not None and t.requires_grad for t in (src,) + weights):
            return ("grad is enabled and at least one of query or the input/output projection weights or "
                    "biases requires_grad")
        return ""

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False, fast=False):
        if fast:    # PyTorch's fused kernel: a query with every key masked gets NaNs
            return self.self_attn._fast_path(x, attn_mask, key_padding_mask, False, True)[0]
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    """Self-attention, attention to the encoder's output (memory), then a feed-forward network;
    each added to its input and normalized."""

    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True, device=None,
                 dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            bias=bias, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 bias=bias, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else \
            _current_function(activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        """tgt (T, N, E) attending to itself and to memory (S, N, E)."""
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask,
                                    memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                               memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def _why_no_nested_tensor(layer):
    """Why PyTorch's encoder cannot turn padded input into a nested tensor ("" if it can)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    if layer.norm_first:
        return f"{name}.norm_first was True"
    if not layer.self_attn.batch_first:
        return (f"{name}.self_attn.batch_first was not True"
                "(use batch_first for better inference performance)")
    if not layer.self_attn._qkv_same_embed_dim:
        return f"{name}.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return f"{name}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{name}.activation_relu_or_gelu was not True"
    if layer.norm1.eps != layer.norm2.eps:
        return f"{name}.norm1.eps was not equal to {name}.norm2.eps"
    if layer.self_attn.num_heads % 2 == 1:
        return f"{name}.self_attn.num_heads is odd"
    return ""


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer`` one after the other, then ``norm`` if given."""

    __constants__ = ["norm"]

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False because "
                          f"{why_not}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        """src through every layer (the mask and padding mask given to each), then the norm."""
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(mask), "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        output = src
        first_layer = self.layers[0]
        nested = not self._why_not_sparsity_fast_path(src, mask, src_key_padding_mask)
        if nested:
            warn_once(_NESTED_TENSOR_WARNING)
        seq_len = _get_seq_len(src, first_layer.self_attn.batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=src_key_padding_mask)
        if nested:      # PyTorch drops the padding (a nested tensor), then pads the output with 0
            output = output.masked_fill(src_key_padding_mask.isneginf().unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


    def _why_not_sparsity_fast_path(self, src, mask, src_key_padding_mask):
        """Why PyTorch would not drop the padding of this input ("" if it would): eval mode, no
        gradient, batched input padded at the end only, and a padding mask but no other mask."""
        first_layer = self.layers[0]
        if not getattr(self, "use_nested_tensor", False):
            return "self.use_nested_tensor (set in init) was not True"
        if first_layer.training:
            return "self.layers[0] was in training mode"
        if src.dim() != 3:
            return f"input not batched; expected src.dim() of 3 but got {src.dim()}"
        if src_key_padding_mask is None:
            return "src_key_padding_mask was None"
        kept = src_key_padding_mask.isneginf().logical_not()
        if getattr(self, "mask_check", True) and not _left_aligned(kept):
            return "mask_check enabled, and src and src_key_padding_mask was not left aligned"
        if mask is not None:
            return "src_key_padding_mask and mask were both supplied"
        weights = (first_layer.self_attn.in_proj_weight, first_layer.self_attn.in_proj_bias,
                   first_layer.self_attn.out_proj.weight, first_layer.self_attn.out_proj.bias,
                   first_layer.norm1.weight, first_layer.norm1.bias, first_layer.norm2.weight,
                   first_layer.norm2.bias, first_layer.linear1.weight, first_layer.linear1.bias,
                   first_layer.linear2.weight, first_layer.linear2.bias)
        if is_grad_enabled() and any(t is not None and t.requires_grad for t in (src,) + weights):
            return ("grad is enabled and at least one of query or the input/output projection weights or "
                    "biases requires_grad")
        return ""


_NESTED_TENSOR_WARNING = (
    "The PyTorch API of nested tensors is in prototype stage and will change in the near future. We "
    "recommend specifying layout=torch.jagged when constructing a nested tensor, as this layout receives "
    "active development, has better operator coverage, and works with torch.compile. (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/NestedTensorImpl.cpp:177.)")


def _left_aligned(kept):
    """Whether every row of the bool (N, S) ``kept`` is Trues then Falses (padding at the end only)."""
    rows = kept.numpy()
    return bool((rows[:, 1:] <= rows[:, :-1]).all()) if rows.shape[-1] > 1 else True


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer`` one after the other, then ``norm`` if given."""

    __constants__ = ["norm"]

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        """tgt through every layer, each attending to ``memory``, then the norm."""
        output = tgt
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder stack and a decoder stack: ``forward(src, tgt)`` encodes src, then decodes tgt
    attending to it. Every weight matrix starts Xavier-uniform."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 bias=True, device=None, dtype=None):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias,
                                                    dtype=dtype)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias,
                                                    dtype=dtype)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None,
                tgt_is_causal=None, memory_is_causal=False):
        """The decoder's output for ``tgt``, attending to the encoded ``src``."""
        is_batched = src.dim() == 3
        if is_batched and src.size(0 if self.batch_first else 1) != tgt.size(0 if self.batch_first else 1):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """(sz, sz): 0 on and below the diagonal, -inf above: the causal mask for ``tgt_mask``."""
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)
