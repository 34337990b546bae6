"""Attention against PyTorch: F.scaled_dot_product_attention (the fused CPU kernel's node and the
math way), F.multi_head_attention_forward through nn.MultiheadAttention, and the Transformer
layers: initial weights after manual_seed, parameter names, printing, values, gradients, the
recorded graph, the saved values, gradcheck, the inference paths, warnings and error messages."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import every_node_saved, import_torch

# float64 agrees to rounding; float32 to a few units in the last place of the larger values
TOLERANCE = {"float64": dict(rtol=1e-12, atol=1e-13), "float32": dict(rtol=2e-5, atol=2e-5)}


def graph(grad_fn, numbers=None):
    """The graph below ``grad_fn`` as nested (name, children) pairs, in next_functions order.
    A node met again is shown by the number of its first appearance (so shared results are
    compared too, and a graph that reuses them is not walked once per path)."""
    numbers = {} if numbers is None else numbers
    if grad_fn is None:
        return None
    if id(grad_fn) in numbers:
        return numbers[id(grad_fn)]
    numbers[id(grad_fn)] = len(numbers)
    return (type(grad_fn).__name__, tuple(graph(child, numbers) for child, _ in grad_fn.next_functions))


# minigrad's matrix-product nodes do not show the sizes and strides PyTorch's keep
# (_saved_self_sym_sizes, ...), nor always all the matrices they save (baddbmm's batch1 and batch2):
# for them, what minigrad shows is compared
SHOWS_PART = {"AddmmBackward0", "MmBackward0", "BaddbmmBackward0"}


def assert_same_saved(ours, theirs):
    """every_node_saved of the two graphs: the same nodes, showing the same saved values."""
    assert [name for name, _ in ours] == [name for name, _ in theirs]
    for (name, shown), (_, their_shown) in zip(ours, theirs):
        if name in SHOWS_PART:
            their_shown = {key: their_shown[key] for key in shown}
        assert shown == their_shown, name


def numpy(t):
    return None if t is None else t.detach().numpy()


def assert_close(ours, theirs, dtype):
    assert (ours is None) == (theirs is None)
    if ours is not None:
        np.testing.assert_allclose(numpy(ours), numpy(theirs), equal_nan=True, **TOLERANCE[dtype])


# --- scaled_dot_product_attention ---------------------------------------------------------------

SDPA = {   # name: (shapes of q, k, v, keyword arguments; "bool" / "float" masks made below)
    "plain": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)], {}),
    "bool_mask": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)], {"attn_mask": "bool"}),
    "float_mask": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)], {"attn_mask": "float"}),
    "causal": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)], {"is_causal": True}),
    "causal_and_mask": ([(1, 2, 4, 3), (1, 2, 4, 3), (1, 2, 4, 3)], {"is_causal": True, "attn_mask": "float"}),
    "scale": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)], {"scale": 0.7}),
    "gqa": ([(2, 4, 4, 5), (2, 2, 6, 5), (2, 2, 6, 5)], {"enable_gqa": True}),
    "dropout": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)], {"dropout_p": 0.3}),
    "gqa_dropout": ([(2, 4, 4, 5), (2, 2, 6, 5), (2, 2, 6, 5)], {"enable_gqa": True, "dropout_p": 0.2}),
    "gqa_three_dims": ([(4, 4, 5), (2, 6, 5), (2, 6, 5)], {"enable_gqa": True}),
    "value_size_differs": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)], {"attn_mask": "bool"}),
    "causal_math": ([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)], {"is_causal": True}),
    "three_dims": ([(3, 4, 5), (3, 6, 5), (3, 6, 5)], {"attn_mask": "float"}),
    "two_dims": ([(4, 5), (6, 5), (6, 5)], {}),
    "broadcast_batch": ([(2, 3, 4, 5), (1, 3, 6, 5), (1, 3, 6, 5)], {}),
    "no_queries": ([(2, 3, 0, 5), (2, 3, 6, 5), (2, 3, 6, 7)], {}),
    "no_keys": ([(2, 3, 4, 5), (2, 3, 0, 5), (2, 3, 0, 7)], {}),
    "masked_row": ([(1, 2, 3, 4), (1, 2, 4, 4), (1, 2, 4, 4)], {"attn_mask": "row"}),
}


def sdpa_run(lib, name, dtype):
    shapes, settings = SDPA[name]
    lib.manual_seed(0)
    leaves = [lib.randn(*shape, dtype=getattr(lib, dtype), requires_grad=True) for shape in shapes]
    length, s = shapes[0][-2], shapes[1][-2]
    keywords = dict(settings)
    if settings.get("attn_mask") == "bool":
        keywords["attn_mask"] = lib.rand(length, s) > 0.3
    elif settings.get("attn_mask") == "float":
        keywords["attn_mask"] = lib.randn(length, s, dtype=getattr(lib, dtype))
    elif settings.get("attn_mask") == "row":          # the second query may attend to nothing
        mask = lib.ones(length, s, dtype=lib.bool)
        mask[1] = False
        keywords["attn_mask"] = mask
    out = lib.nn.functional.scaled_dot_product_attention(*leaves, **keywords)
    saved = every_node_saved(out.grad_fn, [])         # (before backward frees them)
    out.pow(2).sum().backward()
    return out, [leaf.grad for leaf in leaves], saved


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(SDPA))
def test_sdpa_values_gradients_and_graph_as_torch(name, dtype):
    torch = import_torch()
    (ours, our_grads, our_saved), (theirs, their_grads, their_saved) = \
        sdpa_run(minigrad, name, dtype), sdpa_run(torch, name, dtype)
    assert graph(ours.grad_fn) == graph(theirs.grad_fn)
    assert_same_saved(our_saved, their_saved)
    assert ours.stride() == theirs.stride()
    assert_close(ours, theirs, dtype)
    for a, b in zip(our_grads, their_grads):
        assert_close(a, b, dtype)


def test_sdpa_fused_node_saves_what_pytorchs_does():
    torch = import_torch()
    nodes = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        q, k, v = (lib.randn(1, 2, 3, 4, dtype=lib.float64, requires_grad=True) for _ in range(3))
        mask = lib.randn(3, 3, dtype=lib.float64)
        out = lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.5)
        node = out.grad_fn
        nodes.append(node)
        assert node._saved_attn_mask is mask and node._saved_scale == 0.5
        assert node._saved_dropout_p == 0.0 and node._saved_is_causal is False
        assert node._saved_query is q and tuple(node._saved_logsumexp.shape) == (1, 2, 3)
    ours, theirs = nodes
    assert sorted(n for n in dir(ours) if n.startswith("_saved")) == \
        sorted(n for n in dir(theirs) if n.startswith("_saved"))
    for name in ("_saved_logsumexp", "_saved_output"):
        assert_close(getattr(ours, name), getattr(theirs, name), "float64")


def test_sdpa_output_takes_the_querys_layout():
    torch = import_torch()
    strides = []
    for lib in (minigrad, torch):
        q = lib.randn(4, 2, 3, 5, dtype=lib.float64).permute(1, 2, 0, 3)
        k = lib.randn(2, 3, 6, 5, dtype=lib.float64)
        strides.append(lib.nn.functional.scaled_dot_product_attention(q, k, k).stride())
    assert strides[0] == strides[1]


def test_sdpa_fused_gradient_has_no_derivative():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        q, k, v = (lib.randn(1, 1, 3, 2, dtype=lib.float64, requires_grad=True) for _ in range(3))
        out = lib.nn.functional.scaled_dot_product_attention(q, k, v)
        (grad,) = lib.autograd.grad(out.sum(), q, create_graph=True)
        assert graph(grad.grad_fn) == ("NotImplemented", (("AccumulateGrad", ()),) * 3 + (
            ("ScaledDotProductFlashAttentionForCpuBackward0", (1, 2, 3)),))   # (q, k, v's nodes again)
        with pytest.raises(RuntimeError) as error:
            grad.sum().backward()
        messages.append(str(error.value))
        # the three gradients are outputs 0, 1, 2 of one node; asked in another order, too
        grads = lib.autograd.grad(out.sum(), (v, q, k), create_graph=True)
        assert grads[0].grad_fn is grads[1].grad_fn is grads[2].grad_fn
        assert [g.output_nr for g in grads] == [2, 0, 1]
    assert messages[0] == messages[1]


@pytest.mark.parametrize("name", ["plain", "bool_mask", "causal", "gqa", "value_size_differs", "three_dims"])
def test_sdpa_gradcheck(name):
    shapes, settings = SDPA[name]
    minigrad.manual_seed(0)
    leaves = [minigrad.randn(*shape, dtype=minigrad.float64, requires_grad=True) for shape in shapes]
    keywords = dict(settings)
    if settings.get("attn_mask") == "bool":
        keywords["attn_mask"] = minigrad.rand(shapes[0][-2], shapes[1][-2]) > 0.3
    elif settings.get("attn_mask") == "float":
        keywords["attn_mask"] = minigrad.randn(shapes[0][-2], shapes[1][-2], dtype=minigrad.float64)

    def attention(*inputs):
        return minigrad.nn.functional.scaled_dot_product_attention(*inputs, **keywords)
    assert gradcheck(attention, leaves)


def test_sdpa_math_way_gradgradcheck():
    minigrad.manual_seed(0)
    q, k = (minigrad.randn(2, 3, 4, dtype=minigrad.float64, requires_grad=True) for _ in range(2))
    v = minigrad.randn(2, 3, 5, dtype=minigrad.float64, requires_grad=True)
    assert gradgradcheck(minigrad.nn.functional.scaled_dot_product_attention, (q, k, v))


SDPA_ERRORS = {
    "dtypes": lambda L: L.nn.functional.scaled_dot_product_attention(
        L.randn(1, 1, 2, 3, dtype=L.float64), L.randn(1, 1, 2, 3), L.randn(1, 1, 2, 3, dtype=L.float64)),
    "mask_dtype": lambda L: L.nn.functional.scaled_dot_product_attention(
        L.randn(1, 1, 2, 3), L.randn(1, 1, 2, 3), L.randn(1, 1, 2, 3), attn_mask=L.ones(2, 2, dtype=L.int64)),
    "causal_with_mask": lambda L: L.nn.functional.scaled_dot_product_attention(
        L.randn(1, 1, 2, 3), L.randn(1, 1, 2, 3), L.randn(1, 1, 2, 4), attn_mask=L.ones(2, 2), is_causal=True),
    "negative_dropout": lambda L: L.nn.functional.scaled_dot_product_attention(
        L.randn(1, 1, 2, 3), L.randn(1, 1, 2, 3), L.randn(1, 1, 2, 3), dropout_p=-0.1),
    "query_a_list": lambda L: L.nn.functional.scaled_dot_product_attention([1.0], L.randn(2, 3), L.randn(2, 3)),
    "key_none": lambda L: L.nn.functional.scaled_dot_product_attention(L.randn(2, 3), None, L.randn(2, 3)),
    "mask_a_list": lambda L: L.nn.functional.scaled_dot_product_attention(
        L.randn(2, 3), L.randn(2, 3), L.randn(2, 3), attn_mask=[[True]]),
    "dropout_a_string": lambda L: L.nn.functional.scaled_dot_product_attention(
        L.randn(2, 3), L.randn(2, 3), L.randn(2, 3), dropout_p="0.1"),
    "scale_a_string": lambda L: L.nn.functional.scaled_dot_product_attention(
        L.randn(2, 3), L.randn(2, 3), L.randn(2, 3), scale="2"),
}


@pytest.mark.parametrize("name", sorted(SDPA_ERRORS))
def test_sdpa_errors_as_torch(name):
    torch = import_torch()
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as error:
            SDPA_ERRORS[name](lib)
        caught.append((type(error.value), str(error.value)))
    assert caught[0] == caught[1]


# --- MultiheadAttention -------------------------------------------------------------------------

MHA = {   # name: (constructor settings, forward settings, how key and value relate to the query)
    "self": ({}, {}, "self"),
    "cross": ({}, {}, "cross"),
    "kv_shared": ({}, {}, "kv"),
    "no_weights": ({}, {"need_weights": False}, "self"),
    "no_weights_cross": ({}, {"need_weights": False}, "cross"),
    "batch_first": ({"batch_first": True}, {}, "self"),
    "batch_first_no_weights": ({"batch_first": True}, {"need_weights": False}, "cross"),
    "bool_mask": ({}, {"attn_mask": "bool"}, "self"),
    "float_mask": ({}, {"attn_mask": "float"}, "cross"),
    "padding": ({}, {"key_padding_mask": "bool"}, "self"),
    "padding_no_weights": ({}, {"key_padding_mask": "bool", "need_weights": False}, "self"),
    "both_masks": ({}, {"attn_mask": "float", "key_padding_mask": "bool"}, "self"),
    "per_head_weights": ({}, {"average_attn_weights": False}, "self"),
    "no_bias": ({"bias": False}, {}, "self"),
    "bias_kv": ({"add_bias_kv": True}, {"key_padding_mask": "bool"}, "self"),
    "zero_attn": ({"add_zero_attn": True}, {"attn_mask": "bool"}, "self"),
    "kdim_vdim": ({"kdim": 5, "vdim": 6}, {}, "cross"),
    "kdim_vdim_no_weights": ({"kdim": 5, "vdim": 6}, {"need_weights": False}, "cross"),
    "dropout": ({"dropout": 0.3}, {}, "self"),
    "dropout_no_weights": ({"dropout": 0.3}, {"need_weights": False}, "self"),
    "causal_no_weights": ({}, {"attn_mask": "causal", "is_causal": True, "need_weights": False}, "self"),
    "causal": ({}, {"attn_mask": "causal", "is_causal": True}, "self"),
    "unbatched": ({}, {"key_padding_mask": "bool"}, "unbatched"),
}


def mha_run(lib, name, dtype, train=True):
    settings, call, relation = MHA[name]
    kind = getattr(lib, dtype)
    lib.manual_seed(0)
    module = lib.nn.MultiheadAttention(8, 2, dtype=kind, **settings)
    if not train:
        module.eval()
    first = settings.get("batch_first", False)
    batch, length, s = 2, 3, 4

    def sequence(size, features):
        shape = (size, features) if relation == "unbatched" else \
            (batch, size, features) if first else (size, batch, features)
        return lib.randn(*shape, dtype=kind, requires_grad=True)
    query = sequence(length, 8)
    if relation in ("self", "unbatched"):
        key = value = query
    else:
        key = sequence(s, settings.get("kdim", 8))
        value = key if relation == "kv" else sequence(s, settings.get("vdim", 8))
    s = key.shape[1 if first else 0] if relation != "unbatched" else key.shape[0]
    keywords = {}
    for argument, kind_of_mask in call.items():
        if kind_of_mask == "bool" and argument == "attn_mask":
            keywords[argument] = lib.rand(length, s) > 0.6
        elif kind_of_mask == "bool":
            padding = [False] * (s - 1) + [True]
            keywords[argument] = lib.tensor(padding if relation == "unbatched" else [padding, [False] * s])
        elif kind_of_mask == "float":
            keywords[argument] = lib.randn(length, s, dtype=kind)
        elif kind_of_mask == "causal":
            keywords[argument] = lib.nn.Transformer.generate_square_subsequent_mask(length, dtype=kind)
        else:
            keywords[argument] = kind_of_mask
    out, weights = module(query, key, value, **keywords)
    saved = every_node_saved(out.grad_fn, []) + every_node_saved(getattr(weights, "grad_fn", None), [])
    (out.pow(2).sum() + (0 if weights is None else weights.sum())).backward()
    leaves = [t for t in {id(t): t for t in (query, key, value)}.values()]
    return (out, weights, [t.grad for t in leaves], list(module.named_parameters()), repr(module), saved)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(MHA))
def test_multihead_attention_as_torch(name, dtype):
    torch = import_torch()
    ours, theirs = mha_run(minigrad, name, dtype), mha_run(torch, name, dtype)
    assert ours[4] == theirs[4]                                     # printing
    assert [(n, tuple(p.shape)) for n, p in ours[3]] == [(n, tuple(p.shape)) for n, p in theirs[3]]
    for (_, a), (_, b) in zip(ours[3], theirs[3]):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())   # the same initial weights
        assert_close(a.grad, b.grad, dtype)
    assert graph(ours[0].grad_fn) == graph(theirs[0].grad_fn)
    assert_same_saved(ours[5], theirs[5])                           # what every node saved
    assert graph(None if ours[1] is None else ours[1].grad_fn) == \
        graph(None if theirs[1] is None else theirs[1].grad_fn)
    assert_close(ours[0], theirs[0], dtype)
    assert_close(ours[1], theirs[1], dtype)
    for a, b in zip(ours[2], theirs[2]):
        assert_close(a, b, dtype)


def test_multi_head_attention_gradcheck():
    minigrad.manual_seed(0)
    module = minigrad.nn.MultiheadAttention(4, 2, dtype=minigrad.float64, add_bias_kv=True)
    query = minigrad.randn(3, 2, 4, dtype=minigrad.float64, requires_grad=True)
    key = minigrad.randn(5, 2, 4, dtype=minigrad.float64, requires_grad=True)
    padding = minigrad.tensor([[False] * 4 + [True], [False] * 5])

    def attention(q, k, in_proj_weight):
        for need_weights in (True, False):
            out, _ = minigrad.nn.functional.multi_head_attention_forward(
                q, k, k, 4, 2, in_proj_weight, module.in_proj_bias, module.bias_k, module.bias_v, False, 0.0,
                module.out_proj.weight, module.out_proj.bias, key_padding_mask=padding,
                need_weights=need_weights)
            yield out
    assert gradcheck(lambda *a: tuple(attention(*a)), (query, key, module.in_proj_weight.detach().requires_grad_()))


@pytest.mark.parametrize("call", [{}, {"need_weights": False}, {"key_padding_mask": "all"},
                                  {"key_padding_mask": "all", "need_weights": False},
                                  {"average_attn_weights": False}])
def test_multihead_attention_inference_path_as_torch(call):
    """In eval mode without gradients PyTorch takes a fused kernel, which gives NaN for a query
    whose keys are all padding (the usual way gives 0)."""
    torch = import_torch()
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        module = lib.nn.MultiheadAttention(8, 2, batch_first=True, dtype=lib.float64).eval()
        x = lib.randn(2, 5, 8, dtype=lib.float64)
        keywords = dict(call)
        if call.get("key_padding_mask") == "all":
            keywords["key_padding_mask"] = lib.tensor([[True] * 5, [False, False, False, True, True]])
        with lib.no_grad():
            results.append(module(x, x, x, **keywords))
    for a, b in zip(*results):
        assert_close(a, b, "float64")


MHA_ERRORS = {
    "zero_heads": lambda L: L.nn.MultiheadAttention(8, 0),
    "not_divisible": lambda L: L.nn.MultiheadAttention(8, 3),
    "query_4d": lambda L: L.nn.MultiheadAttention(4, 2)(*(L.randn(1, 2, 3, 4),) * 3),
    "key_2d": lambda L: L.nn.MultiheadAttention(4, 2)(L.randn(2, 3, 4), L.randn(2, 4), L.randn(2, 4)),
    "unbatched_key_3d": lambda L: L.nn.MultiheadAttention(4, 2)(L.randn(2, 4), L.randn(1, 2, 4), L.randn(2, 4)),
    "padding_dims": lambda L: L.nn.MultiheadAttention(4, 2)(
        *(L.randn(2, 3, 4),) * 3, key_padding_mask=L.zeros(3, dtype=L.bool)),
    "mask_dims": lambda L: L.nn.MultiheadAttention(4, 2)(
        *(L.randn(2, 3, 4),) * 3, attn_mask=L.zeros(2, dtype=L.bool)),
    "mask_2d_shape": lambda L: L.nn.MultiheadAttention(4, 2)(
        *(L.randn(2, 3, 4),) * 3, attn_mask=L.zeros(3, 2, dtype=L.bool)),
    "mask_3d_shape": lambda L: L.nn.MultiheadAttention(4, 2)(
        *(L.randn(2, 3, 4),) * 3, attn_mask=L.zeros(2, 2, 2, dtype=L.bool)),
    "unbatched_mask_3d": lambda L: L.nn.MultiheadAttention(4, 2)(
        *(L.randn(2, 4),) * 3, attn_mask=L.zeros(1, 2, 2, dtype=L.bool)),
    "padding_shape": lambda L: L.nn.MultiheadAttention(4, 2)(
        *(L.randn(2, 3, 4),) * 3, key_padding_mask=L.zeros(3, 3, dtype=L.bool)),
    "int_mask": lambda L: L.nn.MultiheadAttention(4, 2)(
        *(L.randn(2, 3, 4),) * 3, attn_mask=L.zeros(2, 2, dtype=L.int64)),
    "causal_without_mask": lambda L: L.nn.MultiheadAttention(4, 2)(*(L.randn(2, 3, 4),) * 3, is_causal=True),
    "embed_dim": lambda L: L.nn.MultiheadAttention(4, 2)(*(L.randn(2, 3, 6),) * 3),
    "key_value_shapes": lambda L: L.nn.MultiheadAttention(4, 2)(L.randn(2, 3, 4), L.randn(2, 3, 4),
                                                                L.randn(5, 3, 4)),
    "kdim_vdim_shared": lambda L: L.nn.MultiheadAttention(4, 2, kdim=3, vdim=5)(
        L.randn(2, 3, 4), *(L.randn(2, 3, 3),) * 2),
}


@pytest.mark.parametrize("name", sorted(MHA_ERRORS))
def test_multihead_attention_errors_as_torch(name):
    torch = import_torch()
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as error:
            MHA_ERRORS[name](lib)
        caught.append((type(error.value), str(error.value)))
    assert caught[0] == caught[1]


def test_mismatched_masks_warn_as_torch():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        module = lib.nn.MultiheadAttention(4, 2)
        x = lib.randn(2, 3, 4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module(x, x, x, key_padding_mask=lib.zeros(3, 2, dtype=lib.bool), attn_mask=lib.zeros(2, 2))
        messages.append([str(w.message) for w in caught])
    assert messages[0] == messages[1] and len(messages[0]) == 1


# --- the Transformer layers ---------------------------------------------------------------------

def build(lib, kind, settings):
    kind_of = lib.float64
    if kind == "encoder_layer":
        return lib.nn.TransformerEncoderLayer(8, 2, 16, dtype=kind_of, **settings)
    if kind == "decoder_layer":
        return lib.nn.TransformerDecoderLayer(8, 2, 16, dtype=kind_of, **settings)
    if kind == "encoder":
        return lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(8, 2, 16, dtype=kind_of, **settings), 2,
                                         norm=lib.nn.LayerNorm(8, dtype=kind_of))
    if kind == "decoder":
        return lib.nn.TransformerDecoder(lib.nn.TransformerDecoderLayer(8, 2, 16, dtype=kind_of, **settings), 2)
    return lib.nn.Transformer(8, 2, 2, 2, 16, dtype=kind_of, **settings)


TRANSFORMERS = {
    "encoder_layer": ("encoder_layer", {}, {}),
    "encoder_layer_norm_first": ("encoder_layer", {"norm_first": True}, {}),
    "encoder_layer_gelu": ("encoder_layer", {"activation": "gelu"}, {"src_key_padding_mask": "pad"}),
    "encoder_layer_callable": ("encoder_layer", {"activation": "sigmoid"}, {"src_mask": "causal"}),
    "encoder_layer_batch_first": ("encoder_layer", {"batch_first": True}, {"src_mask": "causal", "is_causal": True}),
    "encoder_layer_no_bias": ("encoder_layer", {"bias": False, "dropout": 0.0}, {}),
    "decoder_layer": ("decoder_layer", {}, {"tgt_mask": "causal", "memory_key_padding_mask": "pad"}),
    "decoder_layer_norm_first": ("decoder_layer", {"norm_first": True}, {"tgt_mask": "causal", "tgt_is_causal": True}),
    "encoder": ("encoder", {}, {"mask": "causal"}),
    "encoder_batch_first": ("encoder", {"batch_first": True}, {"src_key_padding_mask": "pad"}),
    "decoder": ("decoder", {}, {"tgt_mask": "causal", "tgt_key_padding_mask": "pad"}),
    "transformer": ("transformer", {}, {}),
    "transformer_batch_first": ("transformer", {"batch_first": True}, {"tgt_mask": "causal"}),
    "transformer_norm_first": ("transformer", {"norm_first": True, "activation": "gelu"},
                               {"src_key_padding_mask": "pad", "memory_key_padding_mask": "pad"}),
}


def transformer_run(lib, name, train):
    kind, settings, call = TRANSFORMERS[name]
    settings = dict(settings)
    if settings.get("activation") == "sigmoid":
        settings["activation"] = lib.sigmoid
    lib.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = build(lib, kind, settings)
    if not train:
        module.eval()
    first = settings.get("batch_first", False)
    src = lib.randn(*((2, 5, 8) if first else (5, 2, 8)), dtype=lib.float64, requires_grad=True)
    tgt = lib.randn(*((2, 4, 8) if first else (4, 2, 8)), dtype=lib.float64, requires_grad=True)
    keywords = {}
    for argument, kind_of_mask in call.items():
        on_source = argument.startswith(("src", "memory")) or argument == "mask"
        size = 5 if on_source else 4
        if kind_of_mask == "causal":
            keywords[argument] = lib.nn.Transformer.generate_square_subsequent_mask(size, dtype=lib.float64)
        elif kind_of_mask == "pad":
            keywords[argument] = lib.tensor([[False] * (size - 1) + [True], [False] * size])
        else:
            keywords[argument] = kind_of_mask
    if kind.startswith("encoder"):
        out = module(src, **keywords)
    elif kind == "transformer":
        out = module(src, tgt, **keywords)
    else:
        out = module(tgt, src, **keywords)
    saved = every_node_saved(out.grad_fn, [])
    out.pow(2).sum().backward()
    return (out, [src.grad, tgt.grad], list(module.named_parameters()), repr(module),
            [str(w.message) for w in caught], saved)


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("name", sorted(TRANSFORMERS))
def test_transformer_layers_as_torch(name, train):
    torch = import_torch()
    ours, theirs = transformer_run(minigrad, name, train), transformer_run(torch, name, train)
    assert ours[3] == theirs[3] and ours[4] == theirs[4]           # printing, warnings
    assert [(n, tuple(p.shape)) for n, p in ours[2]] == [(n, tuple(p.shape)) for n, p in theirs[2]]
    for (_, a), (_, b) in zip(ours[2], theirs[2]):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
        assert_close(a.grad, b.grad, "float64")
    assert graph(ours[0].grad_fn) == graph(theirs[0].grad_fn)
    assert_same_saved(ours[5], theirs[5])
    assert_close(ours[0], theirs[0], "float64")
    for a, b in zip(ours[1], theirs[1]):
        assert_close(a, b, "float64")


def test_default_activation_is_f_relu():
    layer = minigrad.nn.TransformerEncoderLayer(4, 2, 8)
    assert layer.activation is minigrad.nn.functional.relu and layer.activation_relu_or_gelu == 1
    layer = minigrad.nn.TransformerDecoderLayer(4, 2, 8, activation="gelu")
    assert layer.activation is minigrad.nn.functional.gelu


@pytest.mark.parametrize("padding", ["end", "all", "middle"])
@pytest.mark.parametrize("kind", ["encoder", "encoder_layer"])
def test_encoder_inference_paths_as_torch(kind, padding):
    """Eval mode without gradients: PyTorch's encoder drops the padding (a nested tensor) and
    gives 0 there, and the layer's fused kernel gives NaN for a sequence that is all padding."""
    torch = import_torch()
    outputs = []
    masks = {"end": [[False, False, False, True, True], [False] * 5], "all": [[True] * 5, [False] * 5],
             "middle": [[False, True, False, True, True], [False] * 5]}
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, dtype=lib.float64)
        module = (lib.nn.TransformerEncoder(layer, 2) if kind == "encoder" else layer).eval()
        x = lib.randn(2, 5, 8, dtype=lib.float64)
        with lib.no_grad():
            outputs.append(module(x, src_key_padding_mask=lib.tensor(masks[padding])))
    assert_close(outputs[0], outputs[1], "float64")


@pytest.mark.parametrize("settings", [{}, {"norm_first": True, "batch_first": True},
                                      {"batch_first": True, "activation": "sigmoid"},
                                      {"batch_first": True, "bias": False}, {"batch_first": True, "nhead": 1},
                                      {"batch_first": True, "layer_norm_eps": 1e-6}])
def test_enable_nested_tensor_warning_as_torch(settings):
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        settings_here = dict(settings)
        if settings_here.get("activation") == "sigmoid":
            settings_here["activation"] = lib.sigmoid
        nhead = settings_here.pop("nhead", 2)
        layer = lib.nn.TransformerEncoderLayer(4, nhead, 8, **settings_here)
        if "layer_norm_eps" in settings:
            layer.norm2.eps = 1e-5
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            encoder = lib.nn.TransformerEncoder(layer, 1)
        messages.append(([str(w.message) for w in caught], encoder.use_nested_tensor))
    assert messages[0] == messages[1]


def test_square_subsequent_mask_as_torch():
    torch = import_torch()
    ours = minigrad.nn.Transformer.generate_square_subsequent_mask(4)
    theirs = torch.nn.Transformer.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert ours.dtype is minigrad.float32


TRANSFORMER_ERRORS = {
    "activation": lambda L: L.nn.TransformerEncoderLayer(4, 2, activation="tanh"),
    "decoder_activation": lambda L: L.nn.TransformerDecoderLayer(4, 2, activation="elu"),
    "batch": lambda L: L.nn.Transformer(4, 2, 1, 1, 8)(L.randn(3, 2, 4), L.randn(3, 1, 4)),
    "features": lambda L: L.nn.Transformer(4, 2, 1, 1, 8)(L.randn(3, 2, 4), L.randn(3, 2, 6)),
    "int_padding": lambda L: L.nn.TransformerEncoderLayer(4, 2, 8)(
        L.randn(3, 2, 4), src_key_padding_mask=L.zeros(2, 3, dtype=L.int64)),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMER_ERRORS))
def test_transformer_errors_as_torch(name):
    torch = import_torch()
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as error:
            TRANSFORMER_ERRORS[name](lib)
        caught.append((type(error.value), str(error.value)))
    assert caught[0] == caught[1]


# --- transforms: forward mode and vmap ----------------------------------------------------------

def forward_mode(lib, mask_requires_grad):
    from importlib import import_module
    forward_ad = import_module(lib.__name__ + ".autograd.forward_ad")
    lib.manual_seed(0)
    q, k = lib.randn(2, 2, 4, 5, dtype=lib.float64), lib.randn(2, 2, 6, 5, dtype=lib.float64)
    mask = lib.randn(4, 6, dtype=lib.float64, requires_grad=mask_requires_grad)   # (a mask needing
    with forward_ad.dual_level():                                                   # grad: the math way)
        dual = forward_ad.make_dual(q, lib.ones_like(q))
        out = lib.nn.functional.scaled_dot_product_attention(dual, k, k, attn_mask=mask)
        return forward_ad.unpack_dual(out).tangent


def test_forward_mode_as_torch():
    torch = import_torch()
    assert_close(forward_mode(minigrad, True), forward_mode(torch, True), "float64")
    messages = []
    for lib in (minigrad, torch):
        with pytest.raises(NotImplementedError) as error:
            forward_mode(lib, False)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_vmap_and_grad_as_torch():
    torch = import_torch()
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        q, k = lib.randn(3, 2, 4, 4, 5, dtype=lib.float64), lib.randn(3, 2, 2, 6, 5, dtype=lib.float64)

        def loss(a, b):
            return lib.nn.functional.scaled_dot_product_attention(a, b, b, enable_gqa=True).pow(2).sum()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = lib.func.vmap(lambda a, b: lib.nn.functional.scaled_dot_product_attention(
                a, b, b, enable_gqa=True))(q, k)
        grads = lib.func.vmap(lib.func.grad(loss, argnums=(0, 1)))(q, k)
        results.append((out, grads, [str(w.message).split(" (Triggered")[0] for w in caught]))
    (out, grads, messages), (their_out, their_grads, their_messages) = results
    assert messages == their_messages and len(messages) == 1
    assert_close(out, their_out, "float64")
    for a, b in zip(grads, their_grads):
        assert_close(a, b, "float64")


# --- the functional form with its rarer arguments -------------------------------------------------

def functional_run(lib):
    lib.manual_seed(0)
    kind = lib.float64
    q, k = lib.randn(3, 2, 4, dtype=kind, requires_grad=True), lib.randn(5, 2, 4, dtype=kind)
    w, b = lib.randn(12, 4, dtype=kind, requires_grad=True), lib.randn(12, dtype=kind, requires_grad=True)
    out_w, out_b = lib.randn(4, 4, dtype=kind, requires_grad=True), lib.randn(4, dtype=kind, requires_grad=True)
    static_k, static_v = (lib.randn(4, 6, 2, dtype=kind, requires_grad=True) for _ in range(2))
    mha = lib.nn.functional.multi_head_attention_forward
    out, weights = mha(q, k, k, 4, 2, w, b, None, None, True, 0.0, out_w, out_b, static_k=static_k,
                       static_v=static_v)
    separate, _ = mha(q, k, k, 4, 2, None, b, None, None, False, 0.0, out_w, out_b, need_weights=False,
                      use_separate_proj_weight=True, q_proj_weight=w[:4], k_proj_weight=w[4:8],
                      v_proj_weight=w[8:])
    (out.sum() + separate.sum()).backward()
    return [out, weights, separate, w.grad, static_k.grad, static_v.grad], \
        [graph(out.grad_fn), graph(separate.grad_fn)]


def test_functional_static_keys_and_separate_weights_as_torch():
    torch = import_torch()
    (ours, our_graphs), (theirs, their_graphs) = functional_run(minigrad), functional_run(torch)
    assert our_graphs == their_graphs
    for a, b in zip(ours, theirs):
        assert_close(a, b, "float64")


FUNCTIONAL_ERRORS = {
    "static_k_size": lambda L, q, w: L.nn.functional.multi_head_attention_forward(
        q, q, q, 4, 2, w, None, None, None, False, 0.0, w[:4], None, static_k=L.randn(3, 6, 2)),
    "bias_k_alone": lambda L, q, w: L.nn.functional.multi_head_attention_forward(
        q, q, q, 4, 2, w, None, L.randn(1, 1, 4), None, False, 0.0, w[:4], None),
    "no_in_proj_weight": lambda L, q, w: L.nn.functional.multi_head_attention_forward(
        q, q, q, 4, 2, None, None, None, None, False, 0.0, w[:4], None),
    "separate_weight_shape": lambda L, q, w: L.nn.functional.multi_head_attention_forward(
        q, q, q, 4, 2, None, None, None, None, False, 0.0, w[:4], None, use_separate_proj_weight=True,
        q_proj_weight=w[:4], k_proj_weight=w[4:8], v_proj_weight=w[8:10]),
    "separate_weight_missing": lambda L, q, w: L.nn.functional.multi_head_attention_forward(
        q, q, q, 4, 2, None, None, None, None, False, 0.0, w[:4], None, use_separate_proj_weight=True,
        q_proj_weight=w[:4], k_proj_weight=None, v_proj_weight=w[8:]),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONAL_ERRORS))
def test_functional_errors_as_torch(name):
    torch = import_torch()
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as error:
            FUNCTIONAL_ERRORS[name](lib, lib.randn(3, 2, 4), lib.randn(12, 4))
        caught.append((type(error.value), str(error.value)))
    assert caught[0] == caught[1]
