"""Batching rules for the convolutions: the vmap's batch folded into the convolution's own dims.

A convolution already runs over a batch (its dim N) and over groups of channels, so
``vmap(F.conv2d)`` needs no loop: PyTorch's rule folds the vmap's batch into one of them
and runs one convolution (one ConvolutionBackward0 for the whole batch):

* only the input batched        - the batch joins N:        (B, N, C, ...) -> (B*N, C, ...)
* only the weight batched       - the batch joins the output channels (weights stacked);
                                  with groups, inside each group
* input and weight both batched - the batch becomes groups: sample b's channels meet
                                  only sample b's kernels (groups * B)

and takes the batch back out of the result with a reshape. A batched bias (or a bias with
a batched weight) is added after the convolution, as PyTorch does.

F.conv1d/2d/3d and conv_transpose1d/2d/3d call ``convolution`` after making an unbatched
sample a batch of one (unsqueeze, squeeze after), as outside vmap, and pad the whole batch
first for ``padding='same'``. Arguments of the wrong kind go to the per-sample fallback;
shapes that do not fit are refused by the folded convolution, with its sizes, as in PyTorch.

PyTorch: aten/src/ATen/functorch/BatchRulesConvolution.cpp.
"""
import importlib

from .._tensor import Tensor
from ._batched_tensor import BatchedTensor
from ._batch_rules import dispatch, wrap, unwrap, _arguments


def _convolution():
    """minigrad.nn._convolution (imported when first needed: minigrad.nn imports this package)."""
    return importlib.import_module("minigrad.nn._convolution")


def _dim_into(value, src, dst):
    """``value`` with dim ``src`` moved to ``dst`` and merged into the dim after it (PyTorch's
    reshape_dim_into: a permute, recorded even when nothing moves, then a reshape)."""
    order = [d for d in range(value.dim()) if d != src]
    order.insert(dst, src)
    moved = value.permute(*order)
    shape = list(moved.shape)
    size = shape.pop(dst)
    shape[dst] *= size
    return moved.reshape(shape)


def _dim_out_of(value, dim, size):
    """``value`` with dim ``dim`` split into (size, rest) (PyTorch's reshape_dim_outof)."""
    shape = list(value.shape)
    shape[dim:dim + 1] = [size, shape[dim] // size]
    return value.reshape(shape)


def _at(value, level):
    """(the tensor inside, its batch dim) for a BatchedTensor of ``level``; (value, None) else."""
    if isinstance(value, BatchedTensor) and value._level == level:
        return value._value, value._bdim
    return value, None


def _convolve(*args):
    """``convolution`` on values that an outer vmap may batch (then its rule runs again)."""
    return dispatch("convolution", _convolution().convolution, args, {})


def batched_convolution(level, input, weight, bias, stride, padding, dilation, transposed,
                        output_padding, groups):
    """``convolution(...)`` with BatchedTensors of ``level`` among input, weight and bias:
    one convolution of the whole batch (see the module docstring)."""
    x, x_bdim = _at(input, level)
    w, w_bdim = _at(weight, level)
    b, b_bdim = _at(bias, level)
    separate_bias = b_bdim is not None or (w_bdim is not None and bias is not None)
    settings = (stride, padding, dilation, transposed, output_padding)

    def convolve(x, w, groups):
        return _convolve(x, w, None if separate_bias else bias, *settings, groups)
    if x_bdim is not None and w_bdim is None:
        size = x.shape[x_bdim]
        out, out_bdim = _dim_out_of(convolve(_dim_into(x, x_bdim, 0), w, groups), 0, size), 0
    elif x_bdim is None and w_bdim is not None:
        size = w.shape[w_bdim]
        out, out_bdim = _weight_batched(convolve, x, w, w_bdim, size, transposed, groups), 1
    elif x_bdim is not None:
        size = x.shape[x_bdim]
        out = convolve(_dim_into(x, x_bdim, 1), _dim_into(w, w_bdim, 0), groups * size)
        out, out_bdim = _dim_out_of(out, 1, size), 1
    else:
        out, out_bdim = convolve(x, w, groups), None
    if not separate_bias:
        return wrap(out, level, out_bdim)
    return _add_bias(out, out_bdim, b, b_bdim, weight.dim() - 2, level)


def _weight_batched(convolve, x, w, w_bdim, size, transposed, groups):
    """Only the weight batched: each sample's kernels become more output channels (inside
    each group), and the result's channels are split back into (batch, channels)."""
    if groups == 1:
        return _dim_out_of(convolve(x, _dim_into(w, w_bdim, 1 if transposed else 0), 1), 1, size)
    if transposed:            # B(GI)O... -> (GI)(BO)...: the batch joins each group's outputs
        folded = _dim_into(w, w_bdim, 1)
    else:                     # B(GO)I... -> G(BO)I... -> (GBO)I...
        folded = _dim_out_of(w, 1 if w_bdim == 0 else 0, groups)
        folded = _dim_into(folded, w_bdim + (w_bdim > 0), 1)
        folded = _dim_into(folded, 0, 0)
    out = convolve(x, folded, groups)                       # N(GBO)...
    out = _dim_out_of(_dim_out_of(out, 1, groups), 2, size)    # NGBO...
    return _dim_into(out, 1, 2)                              # NB(GO)...


def _add_bias(out, out_bdim, bias, bias_bdim, spatial_dims, level):
    """The convolution's result plus a bias of each sample (or a bias beside batched weights),
    lined up as PyTorch's rule does: batch dims in front, the bias one size-1 dim per spatial
    dim and, when batched, size-1 dims after its batch dim up to the result's rank."""
    if out_bdim is not None:
        out = _in_front(out, out_bdim)
    if bias_bdim is not None:
        bias = _in_front(bias, bias_bdim)
    for _ in range(spatial_dims):
        bias = bias.unsqueeze(-1)
    if bias_bdim is not None:
        out_rank = out.dim() - (out_bdim is not None)
        missing = out_rank - (bias.dim() - 1)
        if missing > 0:
            bias = bias.view((bias.shape[0],) + (1,) * missing + tuple(bias.shape[1:]))
    return wrap(out + bias, level, 0)


def _in_front(value, bdim):
    order = [bdim] + [d for d in range(value.dim()) if d != bdim]
    return value.permute(*order) if bdim != 0 else value


# --- the functions: convolution, and conv1d ... conv_transpose3d around it ----------------------

def _sizes_fit(value):
    """An int, or a tuple/list of ints (anything else: the function's own message)."""
    values = value if isinstance(value, (tuple, list)) else (value,)
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _convolution_rule(op, level, args, kwargs):
    """torch.convolution(input, weight, bias, stride, padding, dilation, transposed,
    output_padding, groups)."""
    given = _arguments(("input", "weight", "bias", "stride", "padding", "dilation", "transposed",
                        "output_padding", "groups"), args, kwargs)
    if given is None or len(given) != 9 or not _fits(given):
        return NotImplemented
    return _checked_and_run(level, given, given["transposed"])


def _fits(given):
    return (isinstance(given["input"], Tensor) and isinstance(given["weight"], Tensor)
            and isinstance(given["bias"], (Tensor, type(None)))
            and all(_sizes_fit(given[name]) for name in ("stride", "padding", "dilation", "output_padding"))
            and isinstance(given["groups"], int) and not isinstance(given["groups"], bool)
            and given["weight"].dim() >= 3)


def _checked_and_run(level, given, transposed):
    """The convolution on the whole batch (its checks, and PyTorch's messages, are those of
    the folded convolution, as in PyTorch)."""
    input, weight, bias = given["input"], given["weight"], given["bias"]
    dims = weight.dim() - 2
    settings = {name: _convolution()._expanded(given[name], name, dims)
                for name in ("stride", "padding", "dilation", "output_padding")}
    return batched_convolution(level, input, weight, bias, settings["stride"], settings["padding"],
                               settings["dilation"], bool(transposed), settings["output_padding"],
                               given["groups"])


def _conv_function_rule(dims, transposed):
    """The rule of F.conv{dims}d (or F.conv_transpose{dims}d): an unbatched sample made a
    batch of one, as the function does, then the convolution's rule."""
    names = (("input", "weight", "bias", "stride", "padding", "output_padding", "groups", "dilation")
             if transposed else ("input", "weight", "bias", "stride", "padding", "dilation", "groups"))

    def rule(op, level, args, kwargs):
        given = _arguments(names, args, kwargs, bias=None, stride=1, padding=0, dilation=1,
                           groups=1, output_padding=0)
        if given is None:
            return NotImplemented
        if given["padding"] == "valid" and not transposed:
            given["padding"] = 0
        same = given["padding"] == "same" and not transposed
        if same:
            given["padding"] = 0           # (for the checks below; the padding comes after)
        if not _fits(given) or given["weight"].dim() != dims + 2 or \
                given["input"].dim() not in (dims + 1, dims + 2):
            return NotImplemented
        for name in ("stride", "padding", "dilation", "output_padding"):
            if isinstance(given[name], int):       # (one number stands for every spatial dim)
                given[name] = (given[name],) * dims
        input = given["input"]
        unbatched = input.dim() == dims + 1
        if unbatched:
            given["input"] = input.unsqueeze(0)
        if same and not _padded_the_same(level, given):
            return NotImplemented
        out = _checked_and_run(level, given, transposed)
        if out is NotImplemented:
            return out
        return out.squeeze(0) if unbatched else out
    return rule


def _padded_the_same(level, given):
    """padding='same': the input of the whole batch padded as the function pads one sample
    (its own zeros first, where a kernel spans an even length, with its warning, once), and
    the convolution's symmetric padding in ``given``. False where it cannot (the fallback)."""
    value, batched = unwrap(given["input"], level)
    if not batched or isinstance(value, BatchedTensor):
        return False
    try:
        padded, padding = _convolution()._same_padding(value, given["weight"], given["stride"],
                                                        given["dilation"])
    except RuntimeError:
        return False
    given["input"], given["padding"] = wrap(padded, level), padding
    return True


CONV_RULES = {"convolution": _convolution_rule}
for _dims in (1, 2, 3):
    for _prefix in ("", "F."):
        CONV_RULES[f"{_prefix}conv{_dims}d"] = _conv_function_rule(_dims, transposed=False)
        CONV_RULES[f"{_prefix}conv_transpose{_dims}d"] = _conv_function_rule(_dims, transposed=True)
