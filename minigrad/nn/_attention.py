"""Attention: F.scaled_dot_product_attention and F.multi_head_attention_forward.

Attention mixes the rows of ``value``: output row i is a weighted mean of the value rows, the
weights softmax(q_i . k_j * scale) over j saying how well query i matches key j:

    out = softmax(q @ k^T * scale + mask) @ v           scale = 1 / sqrt(E) by default

PyTorch on CPU takes one of two ways, and so does minigrad, because the graph shows which:

- the fused "flash" kernel, one node (ScaledDotProductFlashAttentionForCpuBackward0), when
  q, k and v are 4-D with equal head sizes and batch sizes, there is no dropout and no mask
  needs a gradient. Its backward recomputes the softmax from the saved logsumexp:

      P = exp(q @ k^T * scale + mask - logsumexp)       dV = P^T @ dO
      dS = P * (dO @ V^T - rowsum(dO * O))               dQ = dS @ K * scale, dK = dS^T @ Q * scale

- otherwise the "math" way, composed of ordinary operations: q and k each multiplied by
  sqrt(scale), a matmul, the mask added in place, a softmax that gives 0 for rows masked
  entirely (_safe_softmax, SafeSoftmaxBackward0), dropout, and a second matmul.

multi_head_attention_forward (what nn.MultiheadAttention calls) projects the inputs, cuts
them into heads and either computes the weights itself (need_weights=True, bmm and softmax)
or calls scaled_dot_product_attention, in PyTorch's order of operations.
"""
import math
import numbers
import warnings

import numpy as np

from ..autograd.graph import _SETTINGS_KEPT_AS, Node, shown_as_given
from ..autograd.grad_mode import is_grad_enabled
from .._ops import result, save_result, several_outputs
from .._ops.pointwise import mul_by_number
from .._tensor import Tensor, _wrap
from .._dtype import bool_, cpp_type_name
from .._functorch import warn_no_batching_rule
from ..autograd.function import _FuncTransforms
from .. import _creation
from .._memory_format import empty_laid_out_like


# --- _safe_softmax: softmax, but a row that is -inf everywhere gives 0s, not NaNs ---------------

# (PyTorch shows the dim as given: -1 as the unsigned 64-bit number of the same bits)
_SETTINGS_KEPT_AS["SafeSoftmaxBackward0"] = {"dim": shown_as_given("dim_as_given")}


class SafeSoftmaxBackward0(Node):
    """result = softmax(self, dim), 0 where the whole row is -inf   ->
        grad_self = result * (grad - sum(grad * result, dim))"""

    _saved_names = ("result",)

    def backward(self, grad):
        from .functional import softmax_backward_data
        (s,) = self.saved_tensors
        return (softmax_backward_data(grad, s, self.dim),)

    def jvp(self, tangents, inputs, out):
        """result_t = result * (self_t - sum(self_t * result, dim))"""
        return out * (tangents[0] - (tangents[0] * out).sum(dim=self.dim, keepdim=True))


def _safe_softmax(input, dim):
    """softmax along ``dim`` whose rows masked entirely (all -inf) come out as 0s (PyTorch's
    ``torch._safe_softmax``, used by attention so that a fully masked query gives zeros)."""
    from .functional import _pytorch_softmax_array
    dim_as_given, dim = dim, dim % input.ndim
    x = input._array
    with np.errstate(invalid="ignore"):
        probabilities = _pytorch_softmax_array(x, dim)
    masked_row = np.all(x == -np.inf, axis=dim, keepdims=True)
    out = np.ascontiguousarray(np.where(masked_row, 0, probabilities).astype(x.dtype, copy=False))
    return save_result(result(out, SafeSoftmaxBackward0, (input,), dim=dim, dim_as_given=dim_as_given))


# --- the fused kernel ---------------------------------------------------------------------------

def _additive_mask(mask, dtype):
    """numpy: a bool mask (True = may attend) as 0 / -inf; a float mask as it is."""
    if mask is None:
        return None
    array = mask._array
    if array.dtype == np.bool_:
        return np.where(array, 0, -np.inf).astype(dtype)
    return array


def _flash_scores(q, k, mask, is_causal, scale):
    """numpy: q @ k^T * scale, plus the mask; -inf above the diagonal when causal."""
    scores = (q @ np.swapaxes(k, -2, -1)) * np.asarray(scale, dtype=q.dtype)
    if is_causal:
        above = np.triu(np.ones(scores.shape[-2:], dtype=bool), 1)
        scores = np.where(above, -np.inf, scores).astype(q.dtype, copy=False)
    if mask is not None:
        scores = scores + mask
    return scores.astype(q.dtype, copy=False)


def _heads_repeated(array, heads):
    """numpy: key/value heads repeated so each query head has its own (grouped-query attention)."""
    if array.shape[-3] == heads:
        return array
    return np.repeat(array, heads // array.shape[-3], axis=-3)


def _heads_summed(array, heads):
    """numpy: the gradient of _heads_repeated: the repeats of each head added up."""
    if array.shape[-3] == heads:
        return array
    *batch, h, s, e = array.shape
    return array.reshape(*batch, heads, h // heads, s, e).sum(axis=-3)


_SETTINGS_KEPT_AS["ScaledDotProductFlashAttentionForCpuBackward0"] = {
    "dropout_p": "dropout_p", "is_causal": "is_causal", "scale": "scale"}


class ScaledDotProductFlashAttentionForCpuBackward0(Node):
    """result = softmax(query @ key^T * scale + attn_mask) @ value   ->
        grad_query = dS @ key * scale, dS = P * (grad @ value^T - rowsum(grad * result)),
        P = exp(query @ key^T * scale + attn_mask - logsumexp); grad_key = dS^T @ query * scale;
        grad_value = P^T @ grad"""

    _saved_names = ("query", "key", "value", "attn_mask", "logsumexp", "output")

    # grad_fn._saved_value is the name of Node's method that looks saved values up, so here each
    # saved value is a property of its own (as addcmul's node does, _ops/blend.py)
    _saved_query = property(lambda self: Node._saved_value(self, "query"))
    _saved_key = property(lambda self: Node._saved_value(self, "key"))
    _saved_value = property(lambda self: Node._saved_value(self, "value"))
    _saved_attn_mask = property(lambda self: Node._saved_value(self, "attn_mask"))
    _saved_logsumexp = property(lambda self: Node._saved_value(self, "logsumexp"))
    _saved_output = property(lambda self: Node._saved_value(self, "output"))
    _raw_saved_query = property(lambda self: Node._raw_saved_value(self, "query"))
    _raw_saved_key = property(lambda self: Node._raw_saved_value(self, "key"))
    _raw_saved_value = property(lambda self: Node._raw_saved_value(self, "value"))
    _raw_saved_attn_mask = property(lambda self: Node._raw_saved_value(self, "attn_mask"))
    _raw_saved_logsumexp = property(lambda self: Node._raw_saved_value(self, "logsumexp"))
    _raw_saved_output = property(lambda self: Node._raw_saved_value(self, "output"))
    _saved_dropout_p = property(lambda self: self.dropout_p)
    _saved_is_causal = property(lambda self: self.is_causal)
    _saved_scale = property(lambda self: self.scale)

    def backward(self, grad):
        query, key, value, attn_mask, logsumexp, output = self.saved_tensors
        q, k, v = query._array, key._array, value._array
        heads = q.shape[-3]
        scale = self.scale if self.scale is not None else 1 / math.sqrt(q.shape[-1])
        scores = _flash_scores(q, _heads_repeated(k, heads), _additive_mask(attn_mask, q.dtype),
                               self.is_causal, scale)
        with np.errstate(invalid="ignore", over="ignore"):
            p = np.exp(scores - logsumexp._array[..., None])
        g = grad._array
        d_v = np.swapaxes(p, -2, -1) @ g
        d_p = g @ np.swapaxes(_heads_repeated(v, heads), -2, -1)
        d_s = p * (d_p - (g * output._array).sum(axis=-1, keepdims=True))
        d_q = (d_s @ _heads_repeated(k, heads)) * scale
        d_k = (np.swapaxes(d_s, -2, -1) @ q) * scale
        grads = (d_q, _heads_summed(d_k, k.shape[-3]), _heads_summed(d_v, v.shape[-3]))
        return _gradients_without_derivative(
            [_laid_out_like(values, like) if self.should_compute_output(i) else None
             for i, (values, like) in enumerate(zip(grads, (q, k, v)))], (query, key, value, output))


    def jvp(self, tangents, inputs, out):
        """result_t = (none: PyTorch has no forward-mode rule for the fused kernel, and says so)"""
        raise NotImplementedError(
            "Trying to use forward AD with _scaled_dot_product_flash_attention_for_cpu that does not "
            "support it because it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
            "can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")


class NotImplemented_(Node):
    """results = the fused kernel's gradients (query's, key's, value's), recorded   ->
        grad_grad = error; grad_query = error; grad_key = error; grad_value = error: PyTorch has
        no derivative for it"""

    def backward(self, *grads):
        raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward "
                           "is not implemented")


NotImplemented_.__name__ = NotImplemented_.__qualname__ = "NotImplemented"


def _gradients_without_derivative(arrays, inputs):
    """The fused kernel's gradients (None where not asked for), as PyTorch's backward gives them:
    recorded (create_graph=True), they are outputs 0, 1, 2 of one NotImplemented node."""
    return several_outputs(arrays, NotImplemented_, inputs,
                           shapes=[input._array.shape for input in inputs[:len(arrays)]],
                           dtype=inputs[0]._array.dtype)


def _laid_out_like(values, like):
    """numpy: ``values`` in ``like``'s dtype and memory order (the kernel's output and gradients
    are ``empty_like`` their inputs: a query made by permuting heads gives a permuted output)."""
    out = empty_laid_out_like(like, like.dtype)     # (a size-1 dim keeps like's step too)
    out[...] = values
    return out


def _flash_attention(query, key, value, attn_mask, dropout_p, is_causal, scale):
    """The fused kernel: one node, which saves the logsumexp of each row of scores."""
    if _FuncTransforms.vmaps:       # PyTorch's vmap has no rule for the kernel: it runs it per sample
        warn_no_batching_rule("_scaled_dot_product_flash_attention_for_cpu", (query, key, value))
    if dropout_p != 0:
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not support "
                           "dropout > 0")
    q, k, v = query._array, key._array, value._array
    heads = q.shape[-3]
    scale_used = scale if scale is not None else 1 / math.sqrt(q.shape[-1])
    scores = _flash_scores(q, _heads_repeated(k, heads), _additive_mask(attn_mask, q.dtype),
                           is_causal, scale_used)
    row_max = scores.max(axis=-1, keepdims=True)
    masked_row = row_max == -np.inf          # a row masked entirely: output 0, logsumexp 0
    with np.errstate(invalid="ignore"):
        exps = np.where(masked_row, 0, np.exp(scores - np.where(masked_row, 0, row_max)))
    sums = exps.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(masked_row, 0, (exps @ _heads_repeated(v, heads)) / sums)
        logsumexp = np.where(masked_row, 0, row_max + np.log(sums))[..., 0]
    out = _laid_out_like(out, q)
    if attn_mask is not None and attn_mask.dtype is bool_:     # saved as the kernel took it: 0 / -inf
        attn_mask = _wrap(_additive_mask(attn_mask, q.dtype))
    return save_result(result(out, ScaledDotProductFlashAttentionForCpuBackward0, (query, key, value),
                              dropout_p=dropout_p, is_causal=is_causal, scale=scale),
                       query, key, value, attn_mask, _wrap(_as_kernel_keeps(logsumexp, q.dtype)))


def _as_kernel_keeps(logsumexp, dtype):
    """numpy: the (batch, heads, length) logsumexp as PyTorch's kernel keeps it: in its accumulating
    dtype (float32 for float16 and bfloat16 inputs) and laid out as (batch, length, heads)
    transposed, so its strides are (length * heads, 1, heads)."""
    if dtype.itemsize < 4:
        dtype = np.dtype(np.float32)
    kept = np.empty(logsumexp.shape[:1] + logsumexp.shape[2:] + logsumexp.shape[1:2], dtype=dtype)
    kept = np.swapaxes(kept, 1, 2)
    kept[...] = logsumexp
    return kept


def _takes_fused_kernel(query, key, value, attn_mask, dropout_p, enable_gqa):
    """PyTorch's CPU choice: the fused kernel when its conditions hold, else the math way."""
    if dropout_p > 0 or not (query.ndim == key.ndim == value.ndim == 4):
        return False
    if attn_mask is not None and attn_mask.requires_grad and is_grad_enabled():
        return False
    (b, h, length, e), (bk, hk, s, ek), (bv, hv, _, ev) = query.shape, key.shape, value.shape
    if not (e == ek == ev and b == bk == bv):
        return False
    if not (h == hk == hv or (enable_gqa and hk == hv and hk > 0 and h % hk == 0)):
        return False
    if 0 in (b, h, length, s, e):
        return False
    return all(t.stride()[-1] == 1 for t in (query, key, value))


# --- the math way: ordinary operations ----------------------------------------------------------

def _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    from .functional import dropout
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                               "when is_causal=True")
        length, s = query.shape[-2], key.shape[-2]
        attn_mask = _creation.ones(length, s, dtype=bool_).tril()
    if attn_mask is not None and attn_mask.dtype is bool_:
        # True = may attend: 0 there, -inf elsewhere
        attn_mask = _creation.zeros(attn_mask.shape, dtype=query.dtype).masked_fill_(
            attn_mask.logical_not(), float("-inf"))
    if enable_gqa and query.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        key = key.repeat_interleave(query.shape[-3] // key.shape[-3], -3)
        value = value.repeat_interleave(query.shape[-3] // value.shape[-3], -3)
    # sqrt(scale) on both sides keeps q @ k^T from overflowing in low precision
    root = math.sqrt(scale if scale is not None else 1 / math.sqrt(query.shape[-1]))
    weights = mul_by_number(query, root) @ mul_by_number(key.transpose(-2, -1), root)
    if attn_mask is not None:
        weights.add_(attn_mask)
    weights = _safe_softmax(weights, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return weights @ value


def _check_argument_types(query, key, value, attn_mask, dropout_p, scale):
    """PyTorch's TypeErrors for arguments of the wrong kind (its argument parser's words)."""
    def kind(value):
        cls = type(value)
        return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"
    for position, (name, tensor) in enumerate((("query", query), ("key", key), ("value", value)), start=1):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"scaled_dot_product_attention(): argument '{name}' (position {position}) must "
                            f"be Tensor, not {kind(tensor)}")
    if attn_mask is not None and not isinstance(attn_mask, Tensor):
        raise TypeError(f"scaled_dot_product_attention(): argument 'attn_mask' must be Tensor, not "
                        f"{kind(attn_mask)}")
    for name, number in (("dropout_p", dropout_p), ("scale", scale)):
        if number is not None and not isinstance(number, numbers.Real):
            raise TypeError(f"scaled_dot_product_attention(): argument '{name}' must be float, not "
                            f"{kind(number)}")


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    """softmax(query @ key^T * scale + attn_mask) @ value, with dropout on the weights.

    Shapes: query (N, ..., L, E), key (N, ..., S, E), value (N, ..., S, Ev) -> (N, ..., L, Ev).
    ``attn_mask``: bool (True = may attend) or float (added to the scores), broadcast to (L, S).
    ``is_causal``: query i attends to keys 0..i only. ``scale``: 1 / sqrt(E) unless given.
    ``enable_gqa``: key and value may have fewer heads than query (grouped-query attention).
    """
    _check_argument_types(query, key, value, attn_mask, dropout_p, scale)
    if not (query.dtype is key.dtype is value.dtype):
        raise RuntimeError(
            f"Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{cpp_type_name(query.dtype)} key.dtype: {cpp_type_name(key.dtype)} and value.dtype: "
            f"{cpp_type_name(value.dtype)} instead.")
    if attn_mask is not None and not (attn_mask.dtype is bool_ or attn_mask.dtype.is_floating_point
                                      or attn_mask.dtype is query.dtype):
        raise RuntimeError(
            f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {cpp_type_name(attn_mask.dtype)} and  query.dtype: "
            f"{cpp_type_name(query.dtype)} instead.")
    if 0 in (query.numel(), key.numel(), value.numel()):
        # PyTorch's answer for empty input: zeros, tied to every input by a product with 0
        zeros = _creation.zeros(tuple(query.shape[:-1]) + (value.shape[-1],), dtype=query.dtype)
        return zeros + mul_by_number(query.sum() + key.sum() + value.sum(), 0)
    if _takes_fused_kernel(query, key, value, attn_mask, dropout_p, enable_gqa):
        return _flash_attention(query, key, value, attn_mask, dropout_p, is_causal, scale)
    return _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


# --- multi-head attention -----------------------------------------------------------------------

def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the input is batched (3-D) or not (2-D); PyTorch's messages for other shapes."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but "
                                 f"found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` "
                                 f"or 2-D but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or "
                                 f"3-D but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but "
                                 f"found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` "
                                 f"or 1-D but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, "
                                     f"2-D or 3-D but found {attn_mask.dim()}-D tensor instead")
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                     f"{attn_mask.shape}")
        return False
    raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                         f"{query.dim()}-D query tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask (True = masked out) as 0 / -inf in ``target_type``; a float mask as it is."""
    if mask is None:
        return None
    if mask.dtype is not bool_ and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same "
                      "type for both instead.", stacklevel=2)
    if not mask.is_floating_point():
        mask = _creation.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):
    """The dtype of a mask, or None."""
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _in_projection_packed(q, k, v, w, b=None):
    """q, k and v times their thirds of the packed weight: one linear when they are one tensor."""
    from .functional import linear
    embed = q.size(-1)
    if k is v:
        if q is k:          # self-attention: one product, then cut in three along a new first dim
            projected = linear(q, w, b)
            projected = (projected.unflatten(-1, (3, embed)).unsqueeze(0).transpose(0, -2)
                         .squeeze(-2).contiguous())
            return projected[0], projected[1], projected[2]
        w_q, w_kv = w.split([embed, embed * 2])        # encoder-decoder attention
        b_q, b_kv = (None, None) if b is None else b.split([embed, embed * 2])
        q_projected = linear(q, w_q, b_q)
        kv = (linear(k, w_kv, b_kv).unflatten(-1, (2, embed)).unsqueeze(0).transpose(0, -2)
              .squeeze(-2).contiguous())
        return q_projected, kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k and v times their own weights (kdim / vdim may differ from embed_dim)."""
    from .functional import linear
    eq, ek, ev = q.size(-1), k.size(-1), v.size(-1)
    for name, weight, shape in (("query", w_q, (eq, eq)), ("key", w_k, (eq, ek)), ("value", w_v, (eq, ev))):
        if tuple(weight.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {weight.shape}")
    for name, bias in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bias is not None and tuple(bias.shape) != (eq,):
            raise AssertionError(f"expecting {name} bias shape of {(eq,)}, but got {bias.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p,
                                 out_proj_weight, out_proj_bias, training=True, key_padding_mask=None,
                                 need_weights=True, attn_mask=None, use_separate_proj_weight=False,
                                 q_proj_weight=None, k_proj_weight=None, v_proj_weight=None,
                                 static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Multi-head attention on (L, N, E) query and (S, N, E) key / value (unbatched: no N).

    Returns (output, weights): the weights (N, L, S) averaged over heads, (N, heads, L, S) with
    ``average_attn_weights=False``, or None with ``need_weights=False`` (then the attention
    itself is scaled_dot_product_attention).
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:          # a batch of one, squeezed again at the end
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask),
                                       "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer "
                           "module method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None        # the hint alone tells scaled_dot_product_attention
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False   # merged with the padding, the mask is no longer causal
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # the projections
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, weight in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if weight is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        biases = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, *biases)

    # the mask as (1 or N * heads, L, S)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    # learned extra key and value (add_bias_kv): one more position to attend to
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _cat([k, bias_k.repeat(1, bsz, 1)])
        v = _cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = _padded(attn_mask)
        key_padding_mask = _padded(key_padding_mask)
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # heads: (L, N, E) -> (N * heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads_first(k, static_k, "static_k", bsz * num_heads, head_dim)
    v = _heads_first(v, static_v, "static_v", bsz * num_heads, head_dim)
    if add_zero_attn:           # one more key and value of zeros
        zeros_shape = (bsz * num_heads, 1, head_dim)
        k = _cat([k, _creation.zeros(zeros_shape, dtype=k.dtype)], dim=1)
        v = _cat([v, _creation.zeros(zeros_shape, dtype=v.dtype)], dim=1)
        attn_mask = _padded(attn_mask)
        key_padding_mask = _padded(key_padding_mask)
    src_len = k.size(1)

    # the padding joins the mask: (N, S) -> (N * heads, 1, S)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:
        return _attention_with_weights(q, k, v, attn_mask, dropout_p, is_causal, out_proj_weight,
                                       out_proj_bias, (tgt_len, bsz, embed_dim, num_heads, src_len),
                                       average_attn_weights, is_batched)
    if attn_mask is not None:   # (1, L, S) or (N * heads, L, S) -> 4-D for scaled_dot_product_attention
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = _linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    return (out if is_batched else out.squeeze(1)), None


def _attention_with_weights(q, k, v, attn_mask, dropout_p, is_causal, out_proj_weight, out_proj_bias,
                            sizes, average_attn_weights, is_batched):
    """need_weights=True: the weights computed here (bmm, softmax), returned with the output."""
    from .. import baddbmm, bmm
    from .functional import dropout, softmax
    tgt_len, bsz, embed_dim, num_heads, src_len = sizes
    q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
    if is_causal and attn_mask is None:
        raise AssertionError("FIXME: is_causal not implemented for need_weights")
    if attn_mask is not None:
        weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        weights = bmm(q_scaled, k.transpose(-2, -1))
    weights = softmax(weights, dim=-1)
    if dropout_p > 0.0:
        weights = dropout(weights, p=dropout_p)
    out = bmm(weights, v)
    out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    out = _linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    weights = weights.view(bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.mean(dim=1)
    if not is_batched:
        return out.squeeze(1), weights.squeeze(0)
    return out, weights


def _heads_first(t, static, name, batch_heads, head_dim):
    """(S, N, E) -> (N * heads, S, head_dim), or the given static key / value."""
    if static is None:
        return t.view(t.shape[0], batch_heads, head_dim).transpose(0, 1)
    if static.size(0) != batch_heads:
        raise AssertionError(f"expecting {name}.size(0) of {batch_heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


def _padded(mask):
    """A mask with one more column (0: the extra key may be attended to)."""
    from .functional import pad
    return None if mask is None else pad(mask, (0, 1))


def _cat(tensors, dim=0):
    from .. import cat
    return cat(tensors, dim=dim)


def _linear(input, weight, bias):
    from .functional import linear
    return linear(input, weight, bias)
