"""Recurrent networks: the RNN, LSTM and GRU cells, and the loop that runs them over a sequence.

A recurrent layer reads a sequence one step at a time and carries a hidden state h from
step to step. Each cell is a few lines of ordinary operations, written in the order
PyTorch's CPU code uses (aten/src/ATen/native/RNN.cpp), so that values agree to the last
bit and the recorded graph has the same nodes:

    RNN    h' = tanh(W_hh h + b_hh + W_ih x + b_ih)                    (or relu)

    LSTM   i, f, g, o = chunks of (W_hh h + b_hh + W_ih x + b_ih)
           i, f, o = sigmoid(i), sigmoid(f), sigmoid(o);  g = tanh(g)
           c' = f * c + i * g
           h' = o * tanh(c')                   (then h' @ W_hr^T with proj_size)

    GRU    r, z, n from W_ih x + b_ih and W_hh h + b_hh (three chunks each)
           r = sigmoid(r_h + r_x);  z = sigmoid(z_h + z_x)
           n = tanh(n_x + r * n_h)
           h' = (h - n) * z + n                (= (1 - z) * n + z * h)

Over a sequence, the input's share ``W_ih x + b_ih`` is computed for all steps at once
(one matrix product), then the cell runs step by step. A layer going backwards in time
reads the steps in reverse. Layers are stacked, with dropout between them.

float32 LSTMs on CPU: PyTorch hands a whole layer to oneDNN, recorded as one node
(MkldnnRnnLayerBackward0): see _onednn_lstm.py.
"""
import numpy as np

from .._tensor import Tensor, _wrap
from .._functorch import batched_levels, warn_no_batching_rule
from ..autograd.graph import Node, attach_outputs, connect, keep_settings, needs_grad
from ..autograd.function import _FuncTransforms
from .._ops import plain_output
from ..autograd.forward_ad import _DualLevel, push_tangents_of_pieces
from .._ops.pointwise import relu, tanh
from .._ops.linalg import matmul
from .._ops.shape import cat, stack


# --- unsafe_chunk: the gates as pieces that are not views ------------------------------------------

class UnsafeSplitBackward0(Node):
    """results = self.unsafe_split(size, dim)   ->   grad_self = cat(grads of the pieces, dim)

    Like split, but the pieces are not views of ``self``: a gate can then be changed in
    place (``sigmoid_``) without PyTorch's view bookkeeping."""

    def backward(self, *grads):
        grads = [g if g is not None else _zeros(shape, self._output_dtype)
                 for g, shape in zip(grads, self._output_shapes)]
        return (cat(grads, self.dim),)

    def jvp(self, tangents, inputs, out):
        """results_t = self_t.unsafe_split(size, dim)"""
        return unsafe_chunk(tangents[0], len(out), self.dim)


def _zeros(shape, dtype):
    """A tensor of zeros for a numpy ``dtype`` (the gradient of an output nobody used)."""
    return _wrap(np.zeros(shape, dtype=dtype))


def unsafe_chunk(input, chunks, dim):
    """``chunks`` equal pieces of ``input`` along ``dim``, recorded as one UnsafeSplitBackward0."""
    size = input.shape[dim] // chunks
    array = input._array
    arrays = [array[(slice(None),) * dim + (slice(k * size, (k + 1) * size),)] for k in range(chunks)]
    pieces = tuple(plain_output(a, input) for a in arrays)
    settings = {"dim": dim, "dim_as_given": dim, "split_size": size, "input_shape": tuple(input.shape)}
    if _DualLevel.open:         # forward mode: each piece gets its part of the input's tangent
        push_tangents_of_pieces(pieces, input, UnsafeSplitBackward0, settings)
    if needs_grad((input,)):
        node = connect(pieces[0], UnsafeSplitBackward0(), (input,))
        keep_settings(node, settings)
        attach_outputs(node, pieces)
    return pieces


# --- the cells ------------------------------------------------------------------------------------

def _linear(input, weight, bias):
    """``input @ weight.T + bias``. PyTorch's linear fuses the bias into one addmm only for an
    input laid out in order; a transposed one (batch_first) gets a matmul, then ``add_``."""
    from .functional import linear
    if bias is not None and input.ndim == 3 and not input.is_contiguous():
        return matmul(input, weight.t()).add_(bias)
    return linear(input, weight, bias)


def _input_share(input, w_ih, b_ih, precomputed):
    """``W_ih x + b_ih``, unless the layer already computed it for all steps at once."""
    return input if precomputed else _linear(input, w_ih, b_ih)


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None, precomputed=False):
    """One step of an Elman RNN: ``tanh(W_hh h + b_hh + W_ih x + b_ih)``."""
    return tanh(_linear(hx, w_hh, b_hh).add_(_input_share(input, w_ih, b_ih, precomputed)))


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None, precomputed=False):
    """One step of an Elman RNN with ReLU: ``relu(W_hh h + b_hh + W_ih x + b_ih)``."""
    return relu(_linear(hx, w_hh, b_hh).add_(_input_share(input, w_ih, b_ih, precomputed)))


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None, precomputed=False):
    """One step of an LSTM: ``(h', c')`` from the input and ``hx = (h, c)``."""
    h, c = hx
    gates = _linear(h, w_hh, b_hh).add_(_input_share(input, w_ih, b_ih, precomputed))
    i, f, g, o = unsafe_chunk(gates, 4, 1)
    i, f, g, o = i.sigmoid_(), f.sigmoid_(), g.tanh_(), o.sigmoid_()   # (in place, as PyTorch)
    c_next = (f * c).add_(i * g)            # how much to keep, plus how much to write
    h_next = o * c_next.tanh()              # how much to show
    if w_hr is not None:                    # proj_size: h is projected to fewer numbers
        h_next = matmul(h_next, w_hr.t())
    return h_next, c_next


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None, precomputed=False):
    """One step of a GRU: the new hidden state from the input and ``hx``."""
    r_x, z_x, n_x = unsafe_chunk(_input_share(input, w_ih, b_ih, precomputed), 3, 1)
    r_h, z_h, n_h = unsafe_chunk(_linear(hx, w_hh, b_hh), 3, 1)
    r = r_h.add_(r_x).sigmoid_()            # reset: how much of the old state the candidate sees
    z = z_h.add_(z_x).sigmoid_()            # update: how much of the old state to keep
    n = n_x.add(n_h.mul_(r)).tanh_()        # the candidate state
    return (hx - n).mul_(z).add_(n)         # z * h + (1 - z) * n


# --- one layer over the whole sequence ------------------------------------------------------------

_CELLS = {"RNN_TANH": rnn_tanh_cell, "RNN_RELU": rnn_relu_cell, "LSTM": lstm_cell, "GRU": gru_cell}


def _stepper(mode, weights):
    """``step(share, hidden) -> hidden``: the cell with this layer's weights, given the input's
    share ``W_ih x + b_ih`` (computed for all steps at once); and what a step outputs (h)."""
    cell = _CELLS[mode]
    w_ih, w_hh, b_ih, b_hh = weights[:4]
    extra = {"w_hr": weights[4]} if len(weights) > 4 else {}

    def step(share, hidden):
        return cell(share, hidden, w_ih, w_hh, b_ih, b_hh, precomputed=True, **extra)

    def shown(hidden):
        return hidden[0] if mode == "LSTM" else hidden
    return step, shown


def _run_layer(mode, input, hidden, weights, reverse):
    """One direction of one layer: ``(output of every step stacked, last hidden state)``.

    ``weights`` is (w_ih, w_hh, b_ih, b_hh[, w_hr]) with None for missing biases."""
    step, shown = _stepper(mode, weights)
    shares = list(_linear(input, weights[0], weights[2]).unbind(0))     # W_ih x + b_ih, every step
    if not shares:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    if reverse:
        shares.reverse()
    outputs = []
    for share in shares:
        hidden = step(share, hidden)
        outputs.append(shown(hidden))
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), hidden


# A packed sequence keeps, step after step, the rows of the sequences still running, longest
# first (batch_sizes: how many rows each step has). Going forward in time the batch shrinks:
# the hidden state of a sequence that has ended is put aside as its last one. Going backward
# it grows: a sequence starts (from its end) with its own h0.

def _narrow(hidden, start, end):
    """Rows start..end of a hidden state (both h and c for an LSTM)."""
    if isinstance(hidden, tuple):
        return tuple(h.narrow(0, start, end - start) for h in hidden)
    return hidden.narrow(0, start, end - start)


def _concat(hiddens):
    """Hidden states joined along the batch (h with h, c with c for an LSTM)."""
    if isinstance(hiddens[0], tuple):
        return tuple(cat(list(parts), 0) for parts in zip(*hiddens))
    return cat(hiddens, 0)


def _run_packed_layer(mode, data, batch_sizes, hidden, weights, reverse):
    """One direction of one layer over a packed sequence's ``data``: (output data, last hidden)."""
    step, shown = _stepper(mode, weights)
    shares = _linear(data, weights[0], weights[2])              # W_ih x + b_ih, every row
    starts = [sum(batch_sizes[:t]) for t in range(len(batch_sizes))]
    if reverse:
        return _packed_backward_in_time(step, shown, shares, starts, batch_sizes, hidden)
    outputs, ended, previous = [], [], batch_sizes[0]
    for start, size in zip(starts, batch_sizes):
        if size < previous:                     # the shortest sequences have ended
            ended.append(_narrow(hidden, size, previous))
            hidden = _narrow(hidden, 0, size)
        previous = size
        hidden = step(shares.narrow(0, start, size), hidden)
        outputs.append(shown(hidden))
    ended.append(hidden)
    ended.reverse()
    return cat(outputs, 0), _concat(ended)


def _packed_backward_in_time(step, shown, shares, starts, batch_sizes, initial):
    """The reverse direction: from the last step to the first, sequences joining as they start."""
    outputs, previous = [], batch_sizes[-1]
    hidden = _narrow(initial, 0, previous)
    for start, size in zip(reversed(starts), reversed(batch_sizes)):
        if size > previous:                     # longer sequences start here (from their end)
            hidden = _concat([hidden, _narrow(initial, previous, size)])
        previous = size
        hidden = step(shares.narrow(0, start, size), hidden)
        outputs.append(shown(hidden))
    outputs.reverse()
    return cat(outputs, 0), hidden


def rnn(mode, input, hx, weights, num_layers, dropout, train, bidirectional, batch_first, batch_sizes=None):
    """The whole stack of layers: ``(output, h_n)``, or ``(output, (h_n, c_n))`` for an LSTM.

    ``hx`` is h0 (c0 too for an LSTM, as a pair), shaped (layers * directions, batch, size);
    ``weights`` lists the (w_ih, w_hh, b_ih, b_hh[, w_hr]) of each layer and direction.
    With ``batch_sizes`` (a list), ``input`` is a packed sequence's data."""
    from .functional import dropout as _dropout
    if mode == "LSTM" and isinstance(hx, Tensor):
        raise _lstm_arguments_error(hx, weights, batch_sizes is not None)
    _refuse_vmap(_ATEN_NAMES[mode] + (".input" if batch_sizes is None else ".data"), (input, hx, weights))
    # (inside torch.func transforms, which show no graph, the layer records its steps' own nodes)
    if batch_sizes is None and not _FuncTransforms.depth and mode == "LSTM":
        from ._onednn_lstm import onednn_lstm, uses_onednn     # (it runs this file's steps)
        if uses_onednn(input, weights):
            return onednn_lstm(input, hx, weights, num_layers, dropout, train, bidirectional, batch_first)
    directions = 2 if bidirectional else 1
    if batch_first:
        input = input.transpose(0, 1)
    if mode == "LSTM":
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    else:
        hiddens = list(hx.unbind(0))
    last = []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            if batch_sizes is None:
                output, hidden = _run_layer(mode, input, hiddens[index], weights[index], direction == 1)
            else:
                output, hidden = _run_packed_layer(mode, input, batch_sizes, hiddens[index], weights[index],
                                                   direction == 1)
            outputs.append(output)
            last.append(hidden)
        input = outputs[0] if directions == 1 else cat(outputs, outputs[0].dim() - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            input = _dropout(input, dropout, True)
    if batch_first:     # (PyTorch turns an RNN's and a GRU's output back in place, an LSTM's not)
        output = input.transpose(0, 1) if mode == "LSTM" else input.transpose_(0, 1)
    else:
        output = input
    if mode == "LSTM":
        return output, (stack([h for h, _ in last], 0), stack([c for _, c in last], 0))
    return output, stack(last, 0)


# --- vmap: PyTorch has no batching rules for recurrent layers and cells -----------------------------

def _lstm_arguments_error(hx, weights, packed):
    """PyTorch's TypeError for an LSTM given one tensor as ``hx`` (it takes a pair (h0, c0)): its
    argument parser finds neither form of ``lstm()`` takes that call, and lists both, marking the
    arguments of the wrong type between ``!``. Its parser refuses the list of weights too."""
    names = ", ".join(type(w).__name__ for layer in weights for w in layer if w is not None)
    weight_list = f"!list of [{names}]!"
    if packed:       # lstm(data, batch_sizes, hx, weights, has_biases, num_layers, dropout, train, bidirectional)
        given = "(Tensor, Tensor, Tensor, list, bool, int, float, bool, bool)"
        as_data = f"(Tensor, Tensor, !Tensor!, {weight_list}, bool, int, float, bool, bool)"
        as_input = f"(Tensor, !Tensor!, !Tensor!, {weight_list}, !bool!, int, !float!, bool, bool)"
    else:            # lstm(input, hx, weights, has_biases, num_layers, dropout, train, bidirectional, batch_first)
        given = "(Tensor, Tensor, list, bool, int, float, bool, bool, bool)"
        as_data = f"(Tensor, Tensor, {weight_list}, !bool!, !int!, !float!, !bool!, bool, bool)"
        as_input = f"(Tensor, !Tensor!, {weight_list}, bool, int, float, bool, bool, bool)"
    return TypeError(
        f"lstm() received an invalid combination of arguments - got {given}, but expected one of:\n"
        " * (Tensor data, Tensor batch_sizes, tuple of Tensors hx, tuple of Tensors params, bool has_biases, "
        "int num_layers, float dropout, bool train, bool bidirectional)\n"
        f"      didn't match because some of the arguments have invalid types: {as_data}\n"
        " * (Tensor input, tuple of Tensors hx, tuple of Tensors params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional, bool batch_first)\n"
        f"      didn't match because some of the arguments have invalid types: {as_input}\n"
        "minigrad hint: an LSTM's hx is a pair (h0, c0) of tensors, not one tensor")


_ATEN_NAMES = {"RNN_TANH": "rnn_tanh", "RNN_RELU": "rnn_relu", "GRU": "gru", "LSTM": "lstm"}


def _batched(inputs):
    """Is one of ``inputs`` batched by a running vmap (a BatchedTensor, or one sample of a
    fallback that runs an operation sample by sample)?"""
    from ..func._batch_rules import innermost_level
    return bool(innermost_level(inputs) or batched_levels(inputs))


def _refuse_vmap(name, inputs):
    """PyTorch's vmap cannot run a whole layer, nor lstm_cell: no batching rule, no fallback."""
    if _FuncTransforms.vmaps and _batched(inputs):
        raise RuntimeError(f"Batching rule not implemented for aten::{name}. We could not generate a fallback.")


def run_cell(name, inputs):
    """``rnn_tanh_cell``, ``rnn_relu_cell``, ``gru_cell`` or ``lstm_cell`` of ``inputs``. Inside vmap,
    PyTorch's fallback: the cell once per sample, with its warning (lstm_cell has none)."""
    cell = globals()[name]
    if not _FuncTransforms.vmaps:
        return cell(*inputs)
    if name == "lstm_cell":
        _refuse_vmap(name, inputs)
    from ..func._batch_rules import dispatch, innermost_level
    if innermost_level(inputs):             # the batch: once per sample
        return dispatch(name, lambda *sample: run_cell(name, sample), inputs, {})
    warn_no_batching_rule(name, inputs)     # (one sample: PyTorch warns once per call)
    return _as_one_operation(cell, inputs)


def _as_one_operation(cell, inputs):
    """``cell(*inputs)`` on one sample of a vmap's fallback, as PyTorch runs its C++ cell: the
    steps inside see plain tensors (vmap's rules for in-place changes don't apply to them);
    the results are one sample again."""
    tensors = [t for t in _flat(inputs) if isinstance(t, Tensor)]
    marks = [t._vmap_levels for t in tensors]
    levels = batched_levels(inputs)
    for t in tensors:
        t._vmap_levels = 0
    try:
        out = cell(*inputs)
    finally:
        for t, mark in zip(tensors, marks):
            t._vmap_levels = mark
    for t in _flat(out):
        t._vmap_levels = levels
    return out


def _flat(values):
    """The tensors in nested tuples and lists."""
    for value in values if isinstance(values, (tuple, list)) else (values,):
        if isinstance(value, (tuple, list)):
            yield from _flat(value)
        elif value is not None:
            yield value
