"""nn.RNN, nn.LSTM, nn.GRU and their cells against PyTorch: parameter names, shapes and initial
values after manual_seed, outputs and gradients, the recorded graph (every node and edge, also
oneDNN's MkldnnRnnLayerBackward0 of a float32 LSTM), dropout between layers, unbatched input,
printing, gradcheck of the cells and the error messages."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import every_node_saved, import_torch


def signature(*roots):
    """The graph below ``roots``: each node's name and its edges (node number, output_nr), the
    nodes numbered in the order a depth-first walk meets them (a shared node appears once)."""
    numbers, rows, todo = {}, [], []

    def number(node):
        if node is None:
            return None
        if node not in numbers:
            numbers[node] = len(numbers)
            rows.append(None)
            todo.append(node)
        return numbers[node]

    for root in roots:
        number(root)
    while todo:
        node = todo.pop()
        rows[numbers[node]] = (type(node).__name__,
                               tuple((number(child), nr) for child, nr in node.next_functions))
    return rows


LAYERS = [
    ("RNN", {}), ("RNN", {"nonlinearity": "relu", "num_layers": 2}), ("RNN", {"bidirectional": True}),
    ("GRU", {}), ("GRU", {"num_layers": 2, "bidirectional": True}), ("GRU", {"bias": False}),
    ("LSTM", {}), ("LSTM", {"num_layers": 2, "bidirectional": True}), ("LSTM", {"bias": False}),
    ("LSTM", {"proj_size": 2}), ("LSTM", {"proj_size": 3, "num_layers": 2, "bidirectional": True}),
    ("RNN", {"batch_first": True}), ("GRU", {"batch_first": True}), ("LSTM", {"batch_first": True}),
    ("LSTM", {"batch_first": True, "bidirectional": True, "num_layers": 2}),
]
SHAPES = [(4, 2, 3), (4, 3)]         # (time, batch, features) and unbatched (time, features)


def layer_id(case):
    name, settings = case
    return name + "".join(f"-{k}={v}" for k, v in settings.items())


def run_layer(L, name, settings, dtype, shape, given_state, seed=0):
    """Build the layer after manual_seed, run it (with h0/c0 if asked) and backpropagate."""
    L.manual_seed(seed)
    dtype = getattr(L, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # PyTorch: no oneDNN for LSTMs with projections
        layer = getattr(L.nn, name)(3, 5, **settings).to(dtype)
    if settings.get("batch_first") and len(shape) == 3:
        shape = (shape[1], shape[0], shape[2])
    x = L.randn(*shape, dtype=dtype, requires_grad=True)
    args = []
    if given_state:
        count = settings.get("num_layers", 1) * (2 if settings.get("bidirectional") else 1)
        batch = () if len(shape) == 2 else (2,)
        h0 = L.randn(count, *batch, settings.get("proj_size") or 5, dtype=dtype, requires_grad=True)
        if name == "LSTM":
            args = [(h0, L.randn(count, *batch, 5, dtype=dtype, requires_grad=True))]
        else:
            args = [h0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out, hidden = layer(x, *args)
    finals = list(hidden) if isinstance(hidden, tuple) else [hidden]
    graph = signature(out.grad_fn, *[h.grad_fn for h in finals])
    weights = L.arange(float(out.numel()), dtype=dtype).reshape(out.shape).sin()
    ((out * weights).sum() + sum(h.sum() for h in finals)).backward()
    leaves = [x] + [t for arg in args for t in (arg if isinstance(arg, tuple) else (arg,))]
    grads = [t.grad.numpy() for t in leaves] + [p.grad.numpy() for p in layer.parameters()]
    values = [out.detach().numpy()] + [h.detach().numpy() for h in finals]
    return layer, values, grads, graph


def tolerance(dtype):
    return {"rtol": 1e-12, "atol": 1e-14} if dtype == "float64" else {"rtol": 2e-5, "atol": 2e-6}


@pytest.mark.parametrize("case", LAYERS, ids=layer_id)
def test_parameters_and_initial_values_as_torch(case):
    torch = import_torch()
    name, settings = case
    ours = run_layer(minigrad, name, settings, "float32", (4, 2, 3), False)[0]
    theirs = run_layer(torch, name, settings, "float32", (4, 2, 3), False)[0]
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    for (_, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert p.shape == q.shape
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    assert repr(ours) == repr(theirs)
    assert ours._flat_weights_names == theirs._flat_weights_names


@pytest.mark.parametrize("given_state", [False, True], ids=["zero-state", "given-state"])
@pytest.mark.parametrize("shape", SHAPES, ids=["batched", "unbatched"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", LAYERS, ids=layer_id)
def test_values_gradients_and_graph_as_torch(case, dtype, shape, given_state):
    torch = import_torch()
    name, settings = case
    _, our_values, our_grads, our_graph = run_layer(minigrad, name, settings, dtype, shape, given_state)
    _, their_values, their_grads, their_graph = run_layer(torch, name, settings, dtype, shape, given_state)
    assert our_graph == their_graph
    for ours, theirs in zip(our_values + our_grads, their_values + their_grads):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, **tolerance(dtype))


@pytest.mark.parametrize("settings", [{}, {"num_layers": 2, "bidirectional": True, "batch_first": True},
                                      {"bias": False, "train": False}], ids=["plain", "stacked", "eval"])
def test_float32_lstm_is_one_onednn_node_per_layer_and_direction(settings):
    torch = import_torch()
    settings = dict(settings)
    train = settings.pop("train", True)
    shown = []
    for L in (minigrad, torch):
        L.manual_seed(0)
        layer = L.nn.LSTM(3, 4, **settings).train(train)
        out, (h, c) = layer(L.randn(5, 2, 3, requires_grad=True))
        nodes = [(name, {key: value for key, value in saved.items() if key != "_saved_result3"})
                 for name, saved in every_node_saved(h.grad_fn, []) if name == "MkldnnRnnLayerBackward0"]
        shown.append((nodes, [(type(n).__name__, nr) for n, nr in h.grad_fn.next_functions],
                       [nr for _, nr in c.grad_fn.next_functions]))
    assert shown[0] == shown[1]
    assert shown[0][0]


def test_float32_lstm_differentiates_twice_as_torch():
    torch = import_torch()
    results = []
    for L in (minigrad, torch):
        L.manual_seed(0)
        layer = L.nn.LSTM(2, 3, num_layers=2, bidirectional=True)
        x = L.randn(4, 2, 2, requires_grad=True)
        h0 = L.randn(4, 2, 3, requires_grad=True)
        out, _ = layer(x, (h0, L.zeros(4, 2, 3)))
        g, gh = L.autograd.grad((out ** 2).sum(), (x, h0), create_graph=True)
        (g.sin().sum() + gh.sum()).backward()
        results.append([g.detach().numpy(), x.grad.numpy(), h0.grad.numpy()]
                       + [p.grad.numpy() for p in layer.parameters()])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=2e-5, atol=1e-6)


def test_layers_without_grad_record_nothing():
    for name in ("RNN", "GRU", "LSTM"):
        for dtype in (minigrad.float32, minigrad.float64):
            layer = getattr(minigrad.nn, name)(3, 4, dtype=dtype)
            with minigrad.no_grad():
                out, hidden = layer(minigrad.randn(5, 2, 3, dtype=dtype))
            assert out.grad_fn is None and not out.requires_grad


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_dropout_between_layers_draws_as_torch(name):
    torch = import_torch()
    results = []
    for L in (minigrad, torch):
        L.manual_seed(3)
        layer = getattr(L.nn, name)(3, 6, num_layers=3, dropout=0.5, dtype=L.float64)
        x = L.randn(4, 2, 3, dtype=L.float64)
        train, _ = layer(x)
        layer.eval()
        evaluated, _ = layer(x)
        results.append((train.detach().numpy(), evaluated.detach().numpy(),
                        signature(train.grad_fn)))
    for ours, theirs in zip(*results):
        if isinstance(ours, list):
            assert ours == theirs
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)


def test_dropout_with_one_layer_warns_as_torch():
    torch = import_torch()
    messages = []
    for L in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            L.nn.GRU(2, 3, dropout=0.25)
        messages.append([str(w.message) for w in caught])
    assert messages[0] == messages[1] and len(messages[0]) == 1


# --- cells ------------------------------------------------------------------------------------------

CELLS = [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}), ("RNNCell", {"bias": False}),
         ("LSTMCell", {}), ("LSTMCell", {"bias": False}), ("GRUCell", {}), ("GRUCell", {"bias": False})]


def run_cell(L, name, settings, dtype, batched, given_state):
    L.manual_seed(1)
    dtype = getattr(L, dtype)
    cell = getattr(L.nn, name)(3, 4, **settings).to(dtype)
    batch = (2,) if batched else ()
    x = L.randn(*batch, 3, dtype=dtype, requires_grad=True)
    state = []
    if given_state:
        state = [L.randn(*batch, 4, dtype=dtype, requires_grad=True) for _ in range(2 if name == "LSTMCell" else 1)]
    out = cell(x, tuple(state) if name == "LSTMCell" and state else (state[0] if state else None))
    outs = list(out) if isinstance(out, tuple) else [out]
    graph = signature(*[o.grad_fn for o in outs])
    sum((o * (k + 2)).sum() for k, o in enumerate(outs)).backward()
    grads = [t.grad.numpy() for t in [x] + state] + [p.grad.numpy() for p in cell.parameters()]
    params = [(n, p.detach().numpy()) for n, p in cell.named_parameters()]
    return repr(cell), params, [o.detach().numpy() for o in outs], grads, graph


@pytest.mark.parametrize("given_state", [False, True], ids=["zero-state", "given-state"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CELLS, ids=layer_id)
def test_cells_as_torch(case, dtype, batched, given_state):
    torch = import_torch()
    ours = run_cell(minigrad, *case, dtype, batched, given_state)
    theirs = run_cell(torch, *case, dtype, batched, given_state)
    assert ours[0] == theirs[0]                                         # repr
    assert [n for n, _ in ours[1]] == [n for n, _ in theirs[1]]
    for (_, p), (_, q) in zip(ours[1], theirs[1]):
        np.testing.assert_array_equal(p, q)                             # initial weights, to the bit
    assert ours[4] == theirs[4]                                         # graph
    for our, their in zip(ours[2] + ours[3], theirs[2] + theirs[3]):
        assert our.dtype == their.dtype and our.shape == their.shape
        np.testing.assert_allclose(our, their, **tolerance(dtype))


@pytest.mark.parametrize("name", ["rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell"])
def test_cells_gradcheck(name):
    from minigrad.nn import _recurrent
    minigrad.manual_seed(0)
    chunks = {"lstm_cell": 4, "gru_cell": 3}.get(name, 1)

    def t(*shape):
        return minigrad.randn(*shape, dtype=minigrad.float64, requires_grad=True)

    x, h, c = t(2, 3), t(2, 4), t(2, 4)
    weights = (t(4 * chunks, 3), t(4 * chunks, 4), t(4 * chunks), t(4 * chunks))
    if name == "lstm_cell":
        def cell(x, h, c, *weights):
            return _recurrent.lstm_cell(x, (h, c), *weights)
        inputs = (x, h, c) + weights
    else:
        def cell(x, h, *weights):
            return getattr(_recurrent, name)(x, h, *weights)
        inputs = (x, h) + weights
    assert gradcheck(cell, inputs)
    assert gradgradcheck(cell, inputs)


def test_float64_layer_gradcheck():
    minigrad.manual_seed(0)
    layer = minigrad.nn.LSTM(2, 3, num_layers=2, bidirectional=True, proj_size=2, dtype=minigrad.float64)
    x = minigrad.randn(3, 2, 2, dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(lambda x: layer(x)[0], (x,))


# --- errors -----------------------------------------------------------------------------------------

def failure(L, make):
    try:
        make(L)
    except Exception as error:        # noqa: BLE001  (the class and message are compared)
        return type(error).__name__, str(error)
    return None


def _layer(name, *args, **kwargs):
    return lambda L: getattr(L.nn, name)(*args, **kwargs)


def _call(name, settings, *shapes, state=None):
    def make(L):
        L.manual_seed(0)
        layer = getattr(L.nn, name)(3, 4, **settings)
        args = [L.randn(*shapes[0])]
        if state is not None:
            parts = [L.randn(*shape) for shape in state]
            args.append(tuple(parts) if name in ("LSTM", "LSTMCell") else parts[0])
        return layer(*args)
    return make


ERRORS = {
    "dropout": _layer("RNN", 3, 4, dropout=1.5),
    "dropout-bool": _layer("LSTM", 3, 4, dropout=True),
    "bias": _layer("GRU", 3, 4, bias=1),
    "batch_first": _layer("GRU", 3, 4, batch_first=None),
    "input_size": _layer("RNN", 3.0, 4),
    "input_size-zero": _layer("RNN", 0, 4),
    "hidden_size": _layer("LSTM", 3, 4.0),
    "hidden_size-zero": _layer("LSTM", 3, 0),
    "num_layers": _layer("LSTM", 3, 4, num_layers=0),
    "proj_size-negative": _layer("LSTM", 3, 4, proj_size=-1),
    "proj_size-large": _layer("LSTM", 3, 4, proj_size=4),
    "proj_size-rnn": _layer("RNN", 3, 4, proj_size=2),
    "proj_size-gru": _layer("GRU", 3, 4, proj_size=2),
    "nonlinearity": _layer("RNN", 3, 4, nonlinearity="sigmoid"),
    "proj_size-float": _layer("LSTM", 3, 4, proj_size=1.5),
    "cell-hidden-float": _layer("RNNCell", 3, 4.0),
    "cell-input-float": _layer("GRUCell", 3.5, 4),
    "rnn-1d": _call("RNN", {}, (3,)),
    "lstm-4d": _call("LSTM", {}, (1, 2, 3, 3)),
    "gru-4d": _call("GRU", {}, (1, 2, 3, 3)),
    "input-size": _call("GRU", {}, (5, 2, 2)),
    "input-dtype": lambda L: L.nn.RNN(3, 4)(L.randn(5, 2, 3, dtype=L.float64)),
    "hidden-shape": _call("RNN", {}, (5, 2, 3), state=[(1, 3, 4)]),
    "hidden-dims": _call("RNN", {}, (5, 2, 3), state=[(2, 4)]),
    "hidden-dims-unbatched": _call("GRU", {}, (5, 3), state=[(1, 2, 4)]),
    "lstm-h0-shape": _call("LSTM", {}, (5, 2, 3), state=[(1, 2, 3), (1, 2, 4)]),
    "lstm-c0-shape": _call("LSTM", {"proj_size": 2}, (5, 2, 3), state=[(1, 2, 2), (1, 2, 2)]),
    "lstm-state-dims": _call("LSTM", {}, (5, 2, 3), state=[(2, 4), (1, 2, 4)]),
    "lstm-state-dims-unbatched": _call("LSTM", {}, (5, 3), state=[(1, 4), (1, 1, 4)]),
    "empty-sequence": _call("GRU", {}, (0, 2, 3)),
    "base-has-no-forward": lambda L: L.nn.RNNBase("GRU", 3, 4)(L.randn(2, 1, 3)),
    "base-mode": _layer("RNNBase", "LSTMP", 3, 4),
    "hidden-dtype": lambda L: L.nn.RNN(3, 4)(L.randn(2, 1, 3), L.randn(1, 1, 4, dtype=L.float64)),
    "lstm-hidden-dtype": lambda L: L.nn.LSTM(3, 4)(L.randn(2, 1, 3), (L.randn(1, 1, 4, dtype=L.float64),
                                                                       L.randn(1, 1, 4))),
    "cell-dtype": lambda L: L.nn.GRUCell(3, 4)(L.randn(2, 3, dtype=L.float64)),
    "cell-3d": _call("RNNCell", {}, (1, 2, 3)),
    "cell-hidden-3d": _call("GRUCell", {}, (2, 3), state=[(1, 2, 4)]),
    "lstmcell-3d": _call("LSTMCell", {}, (1, 2, 3)),
    "lstmcell-hx-3d": _call("LSTMCell", {}, (2, 3), state=[(2, 4), (1, 2, 4)]),
    "cell-input-size": _call("RNNCell", {}, (2, 5)),
    "cell-batch": _call("GRUCell", {}, (2, 3), state=[(3, 4)]),
    "cell-hidden-size": _call("RNNCell", {}, (2, 3), state=[(2, 5)]),
    "lstmcell-c-size": _call("LSTMCell", {}, (2, 3), state=[(2, 4), (2, 5)]),
    "lstmcell-batch": _call("LSTMCell", {}, (2, 3), state=[(3, 4), (2, 4)]),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_as_torch(case):
    torch = import_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = failure(minigrad, ERRORS[case]), failure(torch, ERRORS[case])
    assert theirs is not None
    assert (ours[0], ours[1].split("\nminigrad hint:")[0]) == theirs


# --- packed sequences -------------------------------------------------------------------------------

PACKED_LAYERS = [("RNN", {}), ("RNN", {"nonlinearity": "relu", "bidirectional": True}),
                 ("GRU", {"num_layers": 2, "bidirectional": True}), ("LSTM", {}),
                 ("LSTM", {"num_layers": 2, "bidirectional": True}), ("LSTM", {"proj_size": 2})]


def run_packed(L, name, settings, dtype, lengths, given_state):
    L.manual_seed(0)
    dtype = getattr(L, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        layer = getattr(L.nn, name)(3, 4, **settings).to(dtype)
    sequences = [L.randn(n, 3, dtype=dtype, requires_grad=True) for n in lengths]
    packed = L.nn.utils.rnn.pack_sequence(sequences, enforce_sorted=list(lengths) == sorted(lengths, reverse=True))
    args = []
    if given_state:
        count = settings.get("num_layers", 1) * (2 if settings.get("bidirectional") else 1)
        h0 = L.randn(count, len(lengths), settings.get("proj_size") or 4, dtype=dtype, requires_grad=True)
        args = [(h0, L.randn(count, len(lengths), 4, dtype=dtype))] if name == "LSTM" else [h0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out, hidden = layer(packed, *args)
    finals = list(hidden) if isinstance(hidden, tuple) else [hidden]
    graph = signature(out.data.grad_fn, *[h.grad_fn for h in finals])
    padded, found = L.nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
    (padded.sin().sum() + sum(h.sum() for h in finals)).backward()
    indices = [t.tolist() if t is not None else None for t in (out.batch_sizes, out.sorted_indices, out.unsorted_indices)]
    values = [padded.detach().numpy()] + [h.detach().numpy() for h in finals]
    grads = [s.grad.numpy() for s in sequences] + [p.grad.numpy() for p in layer.parameters()]
    return type(out).__name__, indices, found.tolist(), graph, values, grads


@pytest.mark.parametrize("given_state", [False, True], ids=["zero-state", "given-state"])
@pytest.mark.parametrize("lengths", [(4, 3, 1), (2, 4, 1, 4)], ids=["sorted", "unsorted"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", PACKED_LAYERS, ids=layer_id)
def test_packed_sequences_as_torch(case, dtype, lengths, given_state):
    torch = import_torch()
    ours = run_packed(minigrad, *case, dtype, lengths, given_state)
    theirs = run_packed(torch, *case, dtype, lengths, given_state)
    assert ours[:4] == theirs[:4]
    for our, their in zip(ours[4] + ours[5], theirs[4] + theirs[5]):
        assert our.dtype == their.dtype and our.shape == their.shape
        np.testing.assert_allclose(our, their, **tolerance(dtype))


def packing(L, batch_first, enforce_sorted, padding_side):
    """pad_sequence, pack_padded_sequence, pad_packed_sequence and unpacking, with the graphs."""
    rng = np.random.default_rng(5)
    sequences = [L.tensor(rng.standard_normal((n, 2)), requires_grad=True) for n in (3, 1, 4)]
    if enforce_sorted:
        sequences = sorted(sequences, key=len, reverse=True)
    padded = L.nn.utils.rnn.pad_sequence(sequences, batch_first=batch_first, padding_value=-1.0,
                                         padding_side=padding_side)
    lengths = [len(s) for s in sequences]
    packed = L.nn.utils.rnn.pack_padded_sequence(padded, lengths, batch_first=batch_first,
                                                 enforce_sorted=enforce_sorted)
    node = packed.data.grad_fn
    saved = (node._saved_batch_first, tuple(node._saved_input_sym_sizes), node._saved_result1.tolist())
    back, found = L.nn.utils.rnn.pad_packed_sequence(packed, batch_first=batch_first, padding_value=7.0,
                                                     total_length=5)
    (back * L.arange(float(back.numel()), dtype=L.float64).reshape(back.shape)).sum().backward()
    unpacked = L.nn.utils.rnn.unpack_sequence(L.nn.utils.rnn.pack_sequence(sequences, enforce_sorted=False))
    return (padded.detach().numpy().tolist(), packed.data.detach().numpy().tolist(),
            [t.tolist() if t is not None else None for t in packed[1:]], saved,
            signature(padded.grad_fn), signature(back.grad_fn), back.detach().numpy().tolist(), found.tolist(),
            [s.grad.numpy().tolist() for s in sequences], [u.detach().numpy().tolist() for u in unpacked])


@pytest.mark.parametrize("padding_side", ["right", "left"])
@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("batch_first", [False, True])
def test_packing_utilities_as_torch(batch_first, enforce_sorted, padding_side):
    torch = import_torch()
    if padding_side == "left":      # (packing reads the first steps: left padding is only padded)
        ours, theirs = (L.nn.utils.rnn.pad_sequence([L.arange(1.0, n + 1) for n in (3, 1)], batch_first,
                                                    padding_side="left") for L in (minigrad, torch))
        assert ours.tolist() == theirs.tolist()
        return
    assert packing(minigrad, batch_first, enforce_sorted, padding_side) == \
        packing(torch, batch_first, enforce_sorted, padding_side)


def test_packed_sequence_gradcheck():
    rnn_utils = minigrad.nn.utils.rnn

    def round_trip(a, b):
        packed = rnn_utils.pack_sequence([a, b])
        return rnn_utils.pad_packed_sequence(packed, batch_first=True)[0]

    a = minigrad.randn(3, 2, dtype=minigrad.float64, requires_grad=True)
    b = minigrad.randn(2, 2, dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(round_trip, (a, b))
    assert gradgradcheck(round_trip, (a, b))


def _packing_error(call):
    def make(L):
        padded = L.zeros(3, 3, 2)
        R = L.nn.utils.rnn
        return {"unsorted": lambda: R.pack_padded_sequence(padded, [1, 3, 2]),
                "count": lambda: R.pack_padded_sequence(padded, [3, 2]),
                "zero": lambda: R.pack_padded_sequence(padded, [3, 0, 2], enforce_sorted=False),
                "2d-lengths": lambda: R.pack_padded_sequence(padded, L.tensor([[3, 2, 1]])),
                "total_length": lambda: R.pad_packed_sequence(R.pack_padded_sequence(padded, [3, 2, 1]),
                                                              total_length=2),
                "pad-shapes": lambda: R.pad_sequence([L.zeros(2, 2), L.zeros(2, 3)]),
                "pad-nothing": lambda: R.pad_sequence([]),
                "pack-nothing": lambda: R.pack_sequence([]),
                "pad-side": lambda: R.pad_sequence([L.ones(2)], padding_side="middle"),
                "pad-0d": lambda: R.pad_sequence([L.tensor(1.0)]),
                "packed-input-size": lambda: L.nn.GRU(3, 4)(R.pack_padded_sequence(padded, [3, 2, 1])),
                "packed-hidden": lambda: L.nn.RNN(2, 4)(R.pack_padded_sequence(padded, [3, 2, 1]),
                                                        L.zeros(1, 2, 4)),
                }[call]()
    return make


@pytest.mark.parametrize("call", ["unsorted", "count", "zero", "2d-lengths", "total_length", "pad-shapes",
                                  "pad-nothing", "pack-nothing", "pad-side", "pad-0d", "packed-input-size",
                                  "packed-hidden"])
def test_packing_errors_as_torch(call):
    torch = import_torch()
    ours, theirs = failure(minigrad, _packing_error(call)), failure(torch, _packing_error(call))
    assert theirs is not None
    assert (ours[0], ours[1].split("\nminigrad hint:")[0]) == theirs


def test_float32_lstm_with_projections_warns_once_as_torch():
    from minigrad import _warnings
    message = ("LSTM with projections is not supported with oneDNN. Using default implementation. "
               "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)")
    _warnings._warned_once.discard(message)
    layer = minigrad.nn.LSTM(3, 4, proj_size=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer(minigrad.randn(2, 1, 3))
        layer(minigrad.randn(2, 1, 3))
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, message)]


@pytest.mark.parametrize("name", ["LSTMCell", "GRUCell"])
def test_gate_chunks_show_what_torch_saves(name):
    torch = import_torch()
    shown = []
    for L in (minigrad, torch):
        L.manual_seed(0)
        out = getattr(L.nn, name)(3, 4, dtype=L.float64)(L.randn(2, 3, dtype=L.float64))
        out = out[0] if isinstance(out, tuple) else out
        shown.append([(node, saved) for node, saved in every_node_saved(out.grad_fn, [])
                      if node == "UnsafeSplitBackward0"])
    assert shown[0] == shown[1] and shown[0]


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_forward_mode_as_torch(name):
    torch = import_torch()
    tangents = []
    for L in (minigrad, torch):
        forward_ad = L.autograd.forward_ad
        L.manual_seed(0)
        layer = getattr(L.nn, name)(3, 4, num_layers=2, bidirectional=True, dtype=L.float64)
        x, t = L.randn(3, 2, 3, dtype=L.float64), L.randn(3, 2, 3, dtype=L.float64)
        with forward_ad.dual_level():
            out, _ = layer(forward_ad.make_dual(x, t))
            tangents.append(forward_ad.unpack_dual(out).tangent.detach().numpy())
    np.testing.assert_allclose(tangents[0], tangents[1], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("what", ["float32-lstm", "packing"])
def test_forward_mode_fails_as_torch(what):
    torch = import_torch()

    def make(L):
        forward_ad = L.autograd.forward_ad
        with forward_ad.dual_level():
            x = forward_ad.make_dual(L.randn(3, 2, 3), L.randn(3, 2, 3))
            if what == "packing":
                L.nn.utils.rnn.pack_padded_sequence(x, [3, 1])
            else:
                L.nn.LSTM(3, 4)(x)
    assert failure(minigrad, make) == failure(torch, make) != None      # noqa: E711


def test_saved_tensor_hooks_see_what_onednns_node_saves():
    torch = import_torch()
    seen = []
    for L in (minigrad, torch):
        packed = []

        def pack(tensor):
            packed.append(tuple(tensor.shape))
            return tensor
        L.manual_seed(0)
        layer = L.nn.LSTM(3, 4)
        with L.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
            out, _ = layer(L.randn(2, 1, 3, requires_grad=True), (L.ones(1, 1, 4), L.zeros(1, 1, 4)))
        out.sum().backward()
        seen.append(packed)
    assert seen[0] == seen[1][:-1] and len(seen[1][-1]) == 1     # (PyTorch's last: oneDNN's workspace)


VMAPPED = {
    "GRUCell": (lambda L: L.nn.GRUCell(3, 4, dtype=L.float64), lambda layer, v: layer(v)),
    "RNNCell-relu": (lambda L: L.nn.RNNCell(3, 4, nonlinearity="relu", dtype=L.float64), lambda layer, v: layer(v)),
    "RNNCell-given-h": (lambda L: L.nn.RNNCell(3, 4, dtype=L.float64), lambda layer, v: layer(v, v.sin()[:, :1] * v[:1, :1].expand(2, 4))),
    "LSTMCell": (lambda L: L.nn.LSTMCell(3, 4, dtype=L.float64), lambda layer, v: layer(v)[1]),
    "GRU": (lambda L: L.nn.GRU(3, 4, dtype=L.float64), lambda layer, v: layer(v)[0]),
    "RNN": (lambda L: L.nn.RNN(3, 4, dtype=L.float64), lambda layer, v: layer(v)[0]),
    "LSTM": (lambda L: L.nn.LSTM(3, 4), lambda layer, v: layer(v)[0]),
}


@pytest.mark.parametrize("case", sorted(VMAPPED))
def test_vmap_as_torch(case):
    """PyTorch's vmap runs the GRU and RNN cells once per sample (with a warning) and refuses
    lstm_cell and the layers."""
    torch = import_torch()
    make, call = VMAPPED[case]
    outcomes = []
    for L in (minigrad, torch):
        L.manual_seed(0)
        layer = make(L)
        x = L.randn(5, 2, 3, dtype=layer.weight_ih_l0.dtype if hasattr(layer, "weight_ih_l0") else L.float64)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = L.func.vmap(lambda v: call(layer, v))(x).detach().numpy()
            except RuntimeError as error:
                value = str(error)
        said = [str(w.message).split(" (Triggered internally")[0] for w in caught
                if "jit" not in str(w.message)]
        outcomes.append((value, said))
    (ours, our_warnings), (theirs, their_warnings) = outcomes
    assert our_warnings == their_warnings
    if isinstance(theirs, str):
        assert ours == theirs
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)


def test_func_grad_through_float32_lstm_as_torch():
    torch = import_torch()
    grads = []
    for L in (minigrad, torch):
        L.manual_seed(0)
        layer = L.nn.LSTM(3, 4)
        grads.append(L.func.grad(lambda v: layer(v)[0].sum())(L.randn(5, 2, 3)).detach().numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=2e-5, atol=1e-6)


def test_a_few_training_steps_as_torch():
    torch = import_torch()
    losses = []
    for L in (minigrad, torch):
        L.manual_seed(0)
        layer = L.nn.LSTM(2, 5, num_layers=2, batch_first=True, dtype=L.float64)
        head = L.nn.Linear(5, 1, dtype=L.float64)
        optimizer = L.optim.SGD(list(layer.parameters()) + list(head.parameters()), lr=0.5)
        x = L.randn(4, 6, 2, dtype=L.float64)
        target = x.sum(dim=(1, 2)).unsqueeze(1)
        seen = []
        for _ in range(5):
            optimizer.zero_grad()
            out, _ = layer(x)
            loss = L.nn.functional.mse_loss(head(out[:, -1]), target)
            loss.backward()
            optimizer.step()
            seen.append(loss.item())
        losses.append(seen)
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-10)
