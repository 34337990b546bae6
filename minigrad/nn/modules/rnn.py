"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and their one-step cells ``RNNCell``,
``LSTMCell``, ``GRUCell`` (PyTorch: torch/nn/modules/rnn.py).

The layers check their arguments and shapes as PyTorch does, then hand the work to
``minigrad/nn/_recurrent.py``, where the cells' equations are.
"""
import math
import numbers
import warnings

from ..._creation import empty, zeros
from .. import init
from .. import _recurrent
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .linear import _check_features
from .module import Module


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the weights of every layer and direction, the checks."""

    _GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        _check_settings(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size)
        if mode not in self._GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = self._GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * directions
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = [("weight_ih", (gate_size, layer_input_size)),
                          ("weight_hh", (gate_size, real_hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr", (proj_size, hidden_size))]
                names = []
                for name, shape in shapes:
                    if len(shape) == 2:
                        _check_features(*shape)     # (PyTorch's messages for sizes that aren't ints)
                    setattr(self, name + suffix, Parameter(empty(*shape, dtype=dtype)))
                    names.append(name + suffix)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        """Every weight, layer by layer and direction by direction (PyTorch's order)."""
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        """The weights of each layer and direction, as lists."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """Does nothing: PyTorch packs the weights into one block of memory for cuDNN."""

    def reset_parameters(self):
        """PyTorch's init: every weight and bias uniform in [-1/sqrt(hidden_size), 1/sqrt(hidden_size)]."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _weights_by_layer(self):
        """(w_ih, w_hh, b_ih, b_hh[, w_hr]) per layer and direction, None for missing biases."""
        groups = []
        for names in self._all_weights:
            weights = [getattr(self, name) for name in names]
            if not self.bias:
                weights[2:2] = [None, None]
            groups.append(tuple(weights))
        return groups

    # -- checks, with PyTorch's messages --

    def check_input(self, input, batch_sizes):
        """The input's dtype, number of dims and feature size must fit the weights."""
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                             f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        """(layers * directions, batch, hidden size or proj_size)."""
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        """``hx`` must have the expected shape."""
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        """The input, then the hidden state."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def _prepare(self, input, hx, state_size):
        """Unbatched input gets a batch dim; a missing h0 is zeros. Returns (input, hx, batched)."""
        if input.dim() not in (2, 3):
            name = "RNN" if self.mode.startswith("RNN") else self.mode
            tail = " tensor" if name == "RNN" else ""
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tail} instead")
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        if hx is None:
            hx = self._zero_state(input, state_size)
        return input, hx, batched

    def _zero_state(self, input, size):
        directions = 2 if self.bidirectional else 1
        batch = input.size(0) if self.batch_first else input.size(1)
        return zeros(self.num_layers * directions, batch, size, dtype=input.dtype)

    def _run(self, input, hx, batch_sizes=None):
        return _recurrent.rnn(self.mode, input, hx, self._weights_by_layer(), self.num_layers, self.dropout,
                              self.training, self.bidirectional, self.batch_first and batch_sizes is None,
                              batch_sizes)

    def permute_hidden(self, hx, permutation):
        """``hx`` with its batch in the order ``permutation`` gives (None: unchanged)."""
        if permutation is None:
            return hx
        if isinstance(hx, tuple):
            return tuple(h.index_select(1, permutation) for h in hx)
        return hx.index_select(1, permutation)

    def _run_packed(self, input, hx):
        """A PackedSequence in, a PackedSequence out (its hidden states in the caller's order)."""
        data, batch_sizes, sorted_indices, unsorted_indices = input
        if hx is None:
            hx = self._packed_zero_state(data, int(batch_sizes[0]))
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, batch_sizes)
        output, hidden = self._run(data, hx, batch_sizes.tolist())
        return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                self.permute_hidden(hidden, unsorted_indices))

    def _packed_zero_state(self, data, batch):
        count = self.num_layers * (2 if self.bidirectional else 1)
        return zeros(count, batch, self.hidden_size, dtype=data.dtype)

    def _forward(self, input, hx=None):
        """RNN's and GRU's forward: ``(output, h_n)`` (RNNBase itself has none, as in PyTorch)."""
        if isinstance(input, PackedSequence):
            return self._run_packed(input, hx)
        input, hx, batched = self._prepare(input, hx, self.hidden_size)
        self.check_forward_args(input, hx, None)
        output, hidden = self._run(input, hx)
        if not batched:
            output, hidden = output.squeeze(0 if self.batch_first else 1), hidden.squeeze(1)
        return output, hidden

    def extra_repr(self):
        """The settings that differ from the defaults, as PyTorch prints them."""
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


def _check_settings(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size):
    """PyTorch's checks of a recurrent layer's settings, in its order and words."""
    if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
        raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                         "element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                      f"expects num_layers greater than 1, but got dropout={dropout} and "
                      f"num_layers={num_layers}", stacklevel=4)
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int)):
        if not isinstance(value, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNN(RNNBase):
    """An Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or relu), per layer."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        """``(output, h_n)``: output has every step's last-layer hidden state, h_n every layer's last."""
        return self._forward(input, hx)


class GRU(RNNBase):
    """A gated recurrent unit: a reset and an update gate decide what the new state keeps."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        """``(output, h_n)``: output has every step's last-layer hidden state, h_n every layer's last."""
        return self._forward(input, hx)


class LSTM(RNNBase):
    """Long short-term memory: a cell state c carried with input, forget and output gates."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        """(layers * directions, batch, hidden_size): c is never projected."""
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        """The input, then h0 and c0."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        """``(h, c)`` with their batch in the order ``permutation`` gives (None: ``hx`` unchanged).
        As PyTorch's, it takes hx[0] and hx[1] of whatever ``hx`` is: a list, or even one tensor."""
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def _packed_zero_state(self, data, batch):
        count = self.num_layers * (2 if self.bidirectional else 1)
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (zeros(count, batch, size, dtype=data.dtype), zeros(count, batch, self.hidden_size, dtype=data.dtype))

    def forward(self, input, hx=None):
        """``(output, (h_n, c_n))``."""
        if isinstance(input, PackedSequence):
            return self._run_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            hx = (self._zero_state(input, real_hidden_size), self._zero_state(input, self.hidden_size))
        else:
            expected = 3 if batched else 2
            if hx[0].dim() != expected or hx[1].dim() != expected:
                kind = "batched 3-D" if batched else "unbatched 2-D"
                raise RuntimeError(f"For {kind} input, hx and cx should also be {expected}-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            if not batched:
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        output, (h_n, c_n) = self._run(input, hx)
        if not batched:
            output, h_n, c_n = output.squeeze(batch_dim), h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


# --- cells: one step ------------------------------------------------------------------------------

class RNNCellBase(Module):
    """What the cells share: weight_ih, weight_hh, bias_ih, bias_hh, and their init."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        _check_features(num_chunks * hidden_size, input_size)     # (PyTorch's messages for sizes that aren't ints)
        self.weight_ih = Parameter(empty(num_chunks * hidden_size, input_size, dtype=dtype))
        _check_features(num_chunks * hidden_size, hidden_size)
        self.weight_hh = Parameter(empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        """``input_size, hidden_size`` and the settings that differ from the defaults."""
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self):
        """Every weight and bias uniform in [-1/sqrt(hidden_size), 1/sqrt(hidden_size)]."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _check(self, input, hx, label):
        """PyTorch's C++ checks of the input's and the hidden state's sizes."""
        if input.size(1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                               f"{self.input_size}")
        if input.size(0) != hx.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size "
                               f"{hx.size(0)}")
        if hx.size(1) != self.hidden_size:
            raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, expected "
                               f"{self.hidden_size}")

    def _batched(self, input, hx, name, hidden_name="hidden"):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {hidden_name} to be 1D or 2D, got {hx.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not batched:
            hx = hx.unsqueeze(0)
        return input, hx, batched

    def _weights(self):
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or relu)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        """The next hidden state."""
        input, hx, batched = self._batched(input, hx, "RNNCell")
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check(input, hx, "0")
        out = _recurrent.run_cell(f"rnn_{self.nonlinearity}_cell", (input, hx, *self._weights()))
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of an LSTM: ``(h', c')`` from the input and ``(h, c)``."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        """``(h', c')``."""
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for index, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{index}] to be 1D or 2D, got {value.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            state = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (state, state)
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        self._check(input, hx[0], "0")
        self._check(input, hx[1], "1")
        h, c = _recurrent.run_cell("lstm_cell", (input, hx, *self._weights()))
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of a GRU: the next hidden state."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        """The next hidden state."""
        input, hx, batched = self._batched(input, hx, "GRUCell")
        self._check(input, hx, "0")
        out = _recurrent.run_cell("gru_cell", (input, hx, *self._weights()))
        return out if batched else out.squeeze(0)
