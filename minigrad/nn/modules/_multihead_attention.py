"""``MultiheadAttention`` (PyTorch keeps it in torch/nn/modules/activation.py, which imports it from here).

One layer holds the projections of all heads: ``in_proj_weight`` (3E, E) stacks the query,
key and value weights (or ``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight`` when the key
or value size differs from E), and ``out_proj`` mixes the heads' outputs back together.
"""
from ... import _creation
from ...autograd.grad_mode import is_grad_enabled
from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import Linear
from .module import Module


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear``; PyTorch gives MultiheadAttention's output projection this name (it shows in
    the printed module) to keep its quantization tools from swapping the layer."""


class MultiheadAttention(Module):
    """Attention with ``num_heads`` heads, each of size embed_dim // num_heads.

    forward(query, key, value) -> (output, weights): output (L, N, E) (batch_first: (N, L, E)),
    weights (N, L, S) averaged over the heads, or None with ``need_weights=False``.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                             f"and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(_creation.empty((embed_dim, embed_dim), dtype=dtype))
            self.k_proj_weight = Parameter(_creation.empty((embed_dim, self.kdim), dtype=dtype))
            self.v_proj_weight = Parameter(_creation.empty((embed_dim, self.vdim), dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(_creation.empty((3 * embed_dim, embed_dim), dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(_creation.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(_creation.empty((1, 1, embed_dim), dtype=dtype))
            self.bias_v = Parameter(_creation.empty((1, 1, embed_dim), dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        """Xavier-uniform projections, zero biases, Xavier-normal bias_k / bias_v (PyTorch's order:
        out_proj.weight keeps the Linear init it was made with)."""
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        """(output, weights) of attention from ``query`` to ``key`` / ``value``.

        ``key_padding_mask`` (N, S): True (or -inf) where a key is padding. ``attn_mask`` (L, S) or
        (N * heads, L, S): True (or -inf) where query i may not look at key j.
        """
        float_masks = any(m is not None and m.is_floating_point() for m in (attn_mask, key_padding_mask))
        is_batched = query.dim() == 3
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask",
                                             F._none_or_dtype(attn_mask), "attn_mask", query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if not self._why_not_fast_path(query, key, value, float_masks):
            return self._fast_path(query, attn_mask, key_padding_mask, need_weights, average_attn_weights)
        if self.batch_first and is_batched:      # the functional form takes (L, N, E)
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {} if self._qkv_same_embed_dim else dict(
            use_separate_proj_weight=True, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight)
        output, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight,
            self.out_proj.bias, training=self.training, key_padding_mask=key_padding_mask,
            need_weights=need_weights, attn_mask=attn_mask, average_attn_weights=average_attn_weights,
            is_causal=is_causal, **separate)
        if self.batch_first and is_batched:
            return output.transpose(1, 0), weights
        return output, weights

    def _why_not_fast_path(self, query, key, value, float_masks):
        """Why PyTorch would not take its fused inference kernel ("" if it would): the checks of
        its forward, in its order."""
        reason = "floating-point masks are not supported for fast path." if float_masks else ""
        if query.dim() != 3:
            reason = f"input not batched; expected query.dim() of 3 but got {query.dim()}"
        elif query is not key or key is not value:
            reason = "non-self attention was used (query, key, and value are not the same Tensor)"
        elif self.in_proj_bias is not None and query.dtype != self.in_proj_bias.dtype:
            reason = (f"dtypes of query ({query.dtype}) and self.in_proj_bias ({self.in_proj_bias.dtype}) "
                      "don't match")
        elif self.in_proj_weight is None:
            reason = "in_proj_weight was None"
        elif query.dtype != self.in_proj_weight.dtype:
            reason = (f"dtypes of query ({query.dtype}) and self.in_proj_weight "
                      f"({self.in_proj_weight.dtype}) don't match")
        elif self.training:
            reason = "training is enabled"
        elif self.num_heads % 2 != 0:
            reason = "self.num_heads is not even"
        elif not self.batch_first:
            reason = "batch_first was not True"
        elif self.bias_k is not None:
            reason = "self.bias_k was not None"
        elif self.bias_v is not None:
            reason = "self.bias_v was not None"
        elif self.add_zero_attn:
            reason = "add_zero_attn was enabled"
        elif not self._qkv_same_embed_dim:
            reason = "_qkv_same_embed_dim was not True"
        if not reason and is_grad_enabled() and any(
                t is not None and t.requires_grad for t in (query, self.in_proj_weight, self.in_proj_bias,
                                                           self.out_proj.weight, self.out_proj.bias)):
            reason = ("grad is enabled and at least one of query or the input/output projection weights "
                      "or biases requires_grad")
        if not reason and self.in_proj_bias is None:
            reason = "in_proj_bias was None"      # (PyTorch then goes the usual way without a word)
        return reason

    def _fast_path(self, query, attn_mask, key_padding_mask, need_weights, average_attn_weights):
        """What PyTorch's fused inference kernel gives: the same numbers up to rounding, except
        that a query whose keys are all masked gets NaNs (a plain softmax over -inf only),
        where the usual way gives zeros."""
        x = query.transpose(1, 0)
        output, weights = F.multi_head_attention_forward(
            x, x, x, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias, None, None,
            False, 0.0, self.out_proj.weight, self.out_proj.bias, training=False,
            key_padding_mask=key_padding_mask, need_weights=True, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights)
        return output.transpose(1, 0), (weights if need_weights else None)

    def merge_masks(self, attn_mask, key_padding_mask, query):
        """The attention mask and the padding mask as one (N, heads, L, L) mask, and its kind
        (1: padding only, 2: attention mask, None: no mask)."""
        mask_type, merged = None, None
        if key_padding_mask is not None:
            mask_type, merged = 1, key_padding_mask
        if attn_mask is not None:
            batch_size, seq_len, _ = query.shape
            mask_type = 2
            if attn_mask.dim() == 3:
                merged = attn_mask.view(batch_size, -1, seq_len, seq_len)
            else:
                merged = attn_mask.view(1, 1, seq_len, seq_len).expand(batch_size, self.num_heads, -1, -1)
            if key_padding_mask is not None:
                merged = merged + key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                    -1, self.num_heads, -1, -1)
        return merged, mask_type
