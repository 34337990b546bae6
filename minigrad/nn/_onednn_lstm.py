"""A float32 LSTM layer as one node, as PyTorch's CPU build records it.

PyTorch hands each layer and direction of a float32 LSTM (without projections) to oneDNN,
which computes all its steps at once and is recorded as one node, MkldnnRnnLayerBackward0,
with edges to the layer's input, weights, biases, h0 and c0, and three outputs: the
layer's output, h_n and c_n. minigrad records that node too. Inside, the steps are
_recurrent.py's own (run on stand-ins detached from the caller's graph), so the values
agree with PyTorch's to rounding (oneDNN adds in its own order), not to the last bit;
backward replays those steps' derivatives.
"""
import contextlib

from .._tensor import Tensor
from .. import _dtype
from .._warnings import warn_once
from ..autograd.forward_ad import _DualLevel, input_tangents
from ..autograd.graph import Node, SavedOutput, attach_outputs, connect, keep_settings, needs_grad
from ..autograd._saved_tensor_hooks import _Hooks
from ..autograd.grad_mode import enable_grad, is_grad_enabled, no_grad
from .._ops import plain_output
from .._ops.shape import cat, stack
from ._recurrent import _run_layer, _zeros


def uses_onednn(input, weights):
    """PyTorch runs float32 LSTMs on CPU through oneDNN, except those with projections."""
    if not (input.dtype == _dtype.float32 and input.numel() > 0):
        return False
    if len(weights[0]) > 4:
        warn_once("LSTM with projections is not supported with oneDNN. Using default implementation. "
                  "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)")
        return False
    return True


# --- float32 LSTM: a layer as one node, as oneDNN's ------------------------------------------------

class MkldnnRnnLayerBackward0(Node):
    """results = lstm layer over input from (hx_, cx_) with weight0..3 (oneDNN's kernel in PyTorch)   ->
        grad_input = backpropagation through time over the lstm_cell steps; grad_weight0 = the same
        (and for weight1, weight2, weight3); grad_hx_ = the same; grad_cx_ = the same"""

    _saved_names = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_",
                    "result0", "result1", "result2")
    _pack_order = (6, 5, 0, 1, 2, 3, 4, 7, 8, 9)     # saved-tensor hooks see cx_ and hx_ first

    def backward(self, *grads):
        create_graph = is_grad_enabled()
        if create_graph:            # the steps again, from the node's own inputs (recorded now)
            leaves = list(self.saved_tensors[:7])
            output, (h_n, c_n) = _run_layer("LSTM", leaves[0], (leaves[5], leaves[6]),
                                            _used(leaves[1:5], self.__dict__), self.reverse)
            outputs = (output, h_n, c_n)
        else:                       # the steps forward recorded on stand-ins
            leaves, outputs = self._steps
        wanted = [(k, leaf) for k, leaf in enumerate(leaves)
                  if leaf is not None and self.should_compute_output(k)]
        grads = [g if g is not None else _zeros(o.shape, o._array.dtype) for g, o in zip(grads, outputs)]
        from ..autograd import grad as _grad
        with enable_grad():
            found = _grad(outputs, [leaf for _, leaf in wanted], grads, retain_graph=True,
                          create_graph=create_graph, allow_unused=True)
        result = [None] * len(leaves)
        for (k, _), g in zip(wanted, found):
            result[k] = g
        return tuple(result)


@contextlib.contextmanager
def _inside_one_node():
    """The steps inside oneDNN's node are its own business: saved-tensor hooks see only what
    the node itself saves, as in PyTorch."""
    hooks, _Hooks.stack = _Hooks.stack, ()
    try:
        yield
    finally:
        _Hooks.stack = hooks


def _used(weights, settings):
    """(w_ih, w_hh, b_ih, b_hh) as the steps use them: without the stand-in zero biases."""
    return tuple(weights) if settings["has_biases"] else (weights[0], weights[1], None, None)


def _onednn_layer(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, settings):
    """One layer and direction of a float32 LSTM, recorded as one MkldnnRnnLayerBackward0."""
    inputs = (input, w_ih, w_hh, b_ih, b_hh, hx, cx)
    if _DualLevel.open and input_tangents(inputs) is not None:
        raise NotImplementedError(
            "Trying to use forward AD with mkldnn_rnn_layer that does not support it because it has not been "
            "implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/"
            "new?template=feature-request.yml so that we can prioritize its implementation or submit a PR "
            "adding the implementation to derivatives.yaml")
    record = needs_grad(inputs)
    # the steps run on stand-ins detached from the caller's graph; backward replays them
    leaves = [v.detach().requires_grad_(v.requires_grad) if isinstance(v, Tensor) and record else v
              for v in inputs]
    with enable_grad() if record else no_grad(), _inside_one_node():
        output, (h_n, c_n) = _run_layer("LSTM", leaves[0], (leaves[5], leaves[6]), _used(leaves[1:5], settings),
                                        reverse)
    results = tuple(plain_output(t._array, input) for t in (output, h_n, c_n))
    if record:
        node = attach_outputs(connect(results[0], MkldnnRnnLayerBackward0(), inputs), results)
        node._steps = ([v if isinstance(v, Tensor) and v.requires_grad else None for v in leaves],
                       (output, h_n, c_n))
        node.save_for_backward(*inputs, *(SavedOutput(r) for r in results))
        keep_settings(node, dict(settings, reverse=reverse, batch_sizes=()))
    return results


def onednn_lstm(input, hx, weights, num_layers, dropout, train, bidirectional, batch_first):
    """PyTorch's oneDNN path: per layer and direction one node, joined as in the usual path."""
    from .functional import dropout as _dropout
    from .._creation import zeros
    directions = 2 if bidirectional else 1
    if batch_first:
        input = input.transpose(0, 1)
    input = input.contiguous()
    h0, c0 = hx[0].contiguous(), hx[1].contiguous()
    if h0.dtype != _dtype.float32 or c0.dtype != _dtype.float32:
        raise RuntimeError("get_mkldnn_dtype: unsupported data type")
    has_biases = weights[0][2] is not None
    hidden_size = h0.shape[2]
    settings = dict(mode=2, hidden_size=hidden_size, num_layers=num_layers, has_biases=has_biases,
                    bidirectional=bidirectional, batch_first=batch_first, train=train)
    hs, cs = [], []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            w_ih, w_hh, b_ih, b_hh = weights[index]
            if not has_biases:      # PyTorch passes zeros (shaped as the weights) that add nothing
                b_ih = zeros(*w_ih.shape, dtype=w_ih.dtype)
                b_hh = zeros(*w_hh.shape, dtype=w_hh.dtype)
            output, h_n, c_n = _onednn_layer(input, w_ih, w_hh, b_ih, b_hh, h0[index], c0[index],
                                             direction == 1, settings)
            outputs.append(output)
            hs.append(h_n)
            cs.append(c_n)
        input = outputs[0] if directions == 1 else cat(outputs, -1)
        if dropout != 0 and train and layer < num_layers - 1:
            input = _dropout(input, dropout, True)
    output = input.transpose(0, 1) if batch_first else input
    return output, (stack(hs, 0), stack(cs, 0))
