"""What the matrix-product nodes show, as PyTorch's nodes show it.

For every node of a product's graph (MmBackward0, AddmmBackward0, BmmBackward0,
BaddbmmBackward0, AddbmmBackward0, AddmvBackward0, AddrBackward0, MvBackward0, DotBackward0,
VdotBackward0, ...), dir() lists the same ``_saved_*`` and ``_raw_saved_*`` names and each
shows the same value: a saved input, or None where PyTorch saves nothing (an input whose
saved value only the gradient of an input that needs none would use), and the settings
(alpha, beta, each matrix's sizes, and its strides, as the view it was: ``x @ W.T`` in
``linear`` multiplies by a transposed W). Also: pack_padded_sequence with lengths longer
than the input, and an LSTM given one tensor as hx.
"""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()

# minigrad's own Node internals that happen to start with "_saved" (not saved values)
INTERNALS = {"_saved", "_saved_names", "_saved_value", "_saved_versions", "_raw_saved_value"}


def shown(value):
    """A saved value as something both libraries' values compare equal by."""
    if hasattr(value, "shape"):
        return (tuple(value.shape), str(value.dtype).split(".")[-1], tuple(value.stride()),
                np.asarray(value.detach()).tolist())
    return value


def every_node_shows(grad_fn, seen):
    """(name, dir()'s _saved_* / _raw_saved_* names, each _saved_ value) of every node below
    ``grad_fn``, depth first (AccumulateGrad left out)."""
    if grad_fn is None or type(grad_fn).__name__ == "AccumulateGrad":
        return seen
    names = [n for n in dir(grad_fn) if n.startswith(("_saved_", "_raw_saved_")) and n not in INTERNALS]
    values = {n: shown(getattr(grad_fn, n)) for n in names if n.startswith("_saved_")}
    seen.append((type(grad_fn).__name__, names, values))
    for child, _ in grad_fn.next_functions:
        every_node_shows(child, seen)
    return seen


def mm_t(L, a, b):
    return L.mm(a, b.T)


# name -> (program, shapes of the inputs)
PROGRAMS = {
    "mm": (lambda L, a, b: L.mm(a, b), [(2, 3), (3, 4)]),
    "mm_transposed_mat2": (mm_t, [(2, 3), (4, 3)]),
    "mm_transposed_self": (lambda L, a, b: L.mm(a.T, b), [(3, 2), (3, 4)]),
    "mm_sliced": (lambda L, a, b: L.mm(a[:, ::2], b[1:]), [(2, 6), (4, 4)]),
    "mm_expanded": (lambda L, a, b: L.mm(a.expand(2, 3), b), [(1, 3), (3, 4)]),
    "mm_one_row": (lambda L, a, b: L.mm(a, b), [(1, 3), (3, 1)]),
    "mm_empty": (lambda L, a, b: L.mm(a, b), [(0, 3), (3, 4)]),
    "matmul_2d": (lambda L, a, b: a @ b, [(2, 3), (3, 4)]),
    "matmul_1d_2d": (lambda L, a, b: a @ b, [(3,), (3, 4)]),
    "matmul_3d_2d": (lambda L, a, b: a @ b, [(2, 4, 3), (3, 2)]),
    "matmul_broadcast": (lambda L, a, b: a @ b, [(2, 1, 2, 3), (3, 3, 4)]),
    "matrix_power": (lambda L, a: L.linalg.matrix_power(a, 3), [(3, 3)]),
    "multi_dot": (lambda L, a, b, c: L.linalg.multi_dot([a, b, c]), [(2, 3), (3, 4), (4, 2)]),
    "addmm": (lambda L, c, a, b: L.addmm(c, a, b), [(2, 4), (2, 3), (3, 4)]),
    "addmm_scaled": (lambda L, c, a, b: L.addmm(c, a, b, beta=0.5, alpha=2), [(4,), (2, 3), (3, 4)]),
    "addmm_int_scales": (lambda L, c, a, b: L.addmm(c, a, b, beta=2, alpha=3), [(4,), (2, 3), (3, 4)]),
    "addmm_transposed": (lambda L, c, a, b: L.addmm(c, a.T, b.T, beta=0, alpha=2.5),
                         [(2, 4), (3, 2), (4, 3)]),
    "linear": (lambda L, x, w, b: L.nn.functional.linear(x, w, b), [(2, 3), (4, 3), (4,)]),
    "linear_no_bias": (lambda L, x, w: L.nn.functional.linear(x, w), [(2, 3), (4, 3)]),
    "linear_3d": (lambda L, x, w, b: L.nn.functional.linear(x, w, b), [(5, 2, 3), (4, 3), (4,)]),
    "linear_1d": (lambda L, x, w, b: L.nn.functional.linear(x, w, b), [(3,), (4, 3), (4,)]),
    "bmm": (lambda L, a, b: L.bmm(a, b), [(2, 2, 3), (2, 3, 4)]),
    "bmm_transposed": (lambda L, a, b: L.bmm(a, b.transpose(1, 2)), [(2, 2, 3), (2, 4, 3)]),
    "matmul_3d": (lambda L, a, b: a @ b, [(2, 2, 3), (2, 3, 4)]),
    "baddbmm": (lambda L, c, a, b: L.baddbmm(c, a, b), [(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
    "baddbmm_scaled": (lambda L, c, a, b: L.baddbmm(c, a, b, beta=0.5, alpha=2),
                       [(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
    "baddbmm_transposed": (lambda L, c, a, b: L.baddbmm(c, a.transpose(1, 2), b),
                           [(2, 2, 4), (2, 3, 2), (2, 3, 4)]),
    "addbmm": (lambda L, c, a, b: L.addbmm(c, a, b, beta=0.5, alpha=2), [(2, 4), (2, 2, 3), (2, 3, 4)]),
    "addmv": (lambda L, c, a, b: L.addmv(c, a, b, beta=0.5, alpha=2), [(2,), (2, 3), (3,)]),
    "addmv_default": (lambda L, c, a, b: L.addmv(c, a, b), [(2,), (2, 3), (3,)]),
    "addr": (lambda L, c, a, b: L.addr(c, a, b, beta=0.5, alpha=2), [(2, 3), (2,), (3,)]),
    "addr_default": (lambda L, c, a, b: L.addr(c, a, b), [(2, 3), (2,), (3,)]),
    "mv": (lambda L, a, b: L.mv(a, b), [(2, 3), (3,)]),
    "mv_transposed": (lambda L, a, b: L.mv(a.T, b), [(3, 2), (3,)]),
    "dot": (lambda L, a, b: L.dot(a, b), [(3,), (3,)]),
    "vdot": (lambda L, a, b: L.vdot(a, b), [(3,), (3,)]),
    "inner": (lambda L, a, b: L.inner(a, b), [(3,), (3,)]),
    "inner_2d": (lambda L, a, b: L.inner(a, b), [(2, 3), (4, 3)]),
    "tensordot": (lambda L, a, b: L.tensordot(a, b, dims=1), [(2, 3), (3, 4)]),
    "tensordot_lists": (lambda L, a, b: L.tensordot(a, b, dims=([-1, 0], [0, -1])), [(3, 2, 4), (4, 5, 3)]),
    "outer": (lambda L, a, b: L.outer(a, b), [(2,), (3,)]),
    "kron": (lambda L, a, b: L.kron(a, b), [(2, 2), (2, 3)]),
    "cross": (lambda L, a, b: L.linalg.cross(a, b), [(2, 3), (2, 3)]),
}


def _cases():
    """Each program with every choice of which inputs require grad (at least one)."""
    for name, (_, shapes) in PROGRAMS.items():
        count = len(shapes)
        for mask in range(1, 2 ** count):
            needs = tuple(bool(mask >> i & 1) for i in range(count))
            yield pytest.param(name, needs, id=f"{name}-{''.join('g' if n else '_' for n in needs)}")


@pytest.mark.parametrize("name,needs", list(_cases()))
def test_product_nodes_show_what_torchs_show(name, needs):
    program, shapes = PROGRAMS[name]
    rng = np.random.default_rng(sum(name.encode()))
    arrays = [rng.standard_normal(shape) for shape in shapes]
    graphs = []
    for L in (torch, minigrad):
        inputs = [L.tensor(a, requires_grad=n) for a, n in zip(arrays, needs)]
        graphs.append(every_node_shows(program(L, *inputs).grad_fn, []))
    expected, got = graphs
    assert [node[:2] for node in got] == [node[:2] for node in expected]
    for (node, _, want), (_, _, have) in zip(expected, got):
        for key in want:
            if isinstance(want[key], tuple) and len(want[key]) == 4 and isinstance(want[key][3], list):
                assert have[key][:3] == want[key][:3], (node, key)
                np.testing.assert_allclose(have[key][3], want[key][3], rtol=1e-12, err_msg=f"{node} {key}")
            else:
                assert have[key] == want[key] and type(have[key]) is type(want[key]), (node, key)


def test_linear_layer_shows_the_transposed_weight():
    """nn.Linear: AddmmBackward0 keeps W.T, a view with strides (1, in_features)."""
    results = []
    for L in (torch, minigrad):
        L.manual_seed(0)
        layer = L.nn.Linear(3, 4).double()
        out = layer(L.ones(2, 3, dtype=L.float64))
        node = out.grad_fn
        results.append((node._saved_mat2_sym_strides, node._saved_mat2_sym_sizes, node._saved_mat1.stride(),
                        node._saved_mat1_sym_strides, node._saved_alpha, node._saved_beta))
    assert results[1] == results[0] == ((1, 3), (3, 4), (3, 1), (), 1, 1)


@pytest.mark.parametrize("name", ["mm", "addmm", "baddbmm", "bmm", "vdot", "dot", "mv"])
def test_raw_saved_values_unpack_to_the_saved_ones(name):
    program, shapes = PROGRAMS[name]
    arrays = [np.arange(np.prod(shape), dtype=float).reshape(shape) + 1 for shape in shapes]
    for L in (torch, minigrad):
        node = program(L, *[L.tensor(a, requires_grad=True) for a in arrays]).grad_fn
        raw_names = [n for n in dir(node) if n.startswith("_raw_saved_")]
        assert raw_names, name
        for raw in raw_names:
            assert getattr(node, raw) is not None


@pytest.mark.parametrize("changed", [0, 1])
def test_vdot_saves_an_input_only_for_the_others_gradient(changed):
    """vdot(a, b) with only a requiring grad saves b, not a: a may change in place before backward."""
    outcomes = []
    for L in (torch, minigrad):
        a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = L.tensor([4.0, 5.0, 6.0])
        x = a * 1
        out = L.vdot(x, b)
        (x if changed == 0 else b).add_(1)
        try:
            out.backward()
            outcomes.append(("ok", a.grad.tolist()))
        except RuntimeError as error:
            outcomes.append((type(error).__name__, str(error).split("\nminigrad hint:")[0]))
    assert outcomes[1] == outcomes[0]


# --- pack_padded_sequence with lengths longer than the input -----------------------------------

@pytest.mark.parametrize("batch_first,lengths,enforce_sorted", [
    (False, [5, 2], True), (False, [3, 4], False), (True, [3, 2], False), (False, [7, 6], True),
    (True, [9, 1], False), (False, [3, 2], True)])
def test_pack_padded_sequence_with_lengths_past_the_input_as_torch(batch_first, lengths, enforce_sorted):
    """PyTorch packs the rows there are (the missing steps pack none) and its backward then fails
    with select's IndexError."""
    results = []
    for L in (torch, minigrad):
        x = L.arange(24.0, dtype=L.float64).reshape(3, 2, 4).requires_grad_()
        packed = L.nn.utils.rnn.pack_padded_sequence(x, L.tensor(lengths), batch_first=batch_first,
                                                     enforce_sorted=enforce_sorted)
        outcome = [packed.data.tolist(), packed.batch_sizes.tolist(),
                   None if packed.sorted_indices is None else packed.sorted_indices.tolist()]
        try:
            packed.data.sum().backward()
            outcome.append(x.grad.tolist())
        except IndexError as error:
            outcome.append(("IndexError", str(error)))
        results.append(outcome)
    assert results[1] == results[0]


# --- an LSTM given one tensor as hx ------------------------------------------------------------

def _lstm_cases(L):
    x = L.randn(3, 2, 4)
    return [
        (L.nn.LSTM(4, 5), x, L.zeros(2, 1, 2, 5)),
        (L.nn.LSTM(4, 5, batch_first=True, num_layers=2, bidirectional=True), x, L.zeros(2, 4, 3, 5)),
        (L.nn.LSTM(4, 5, bias=False), x, L.zeros(2, 1, 2, 5)),
        (L.nn.LSTM(4, 5, proj_size=2), x, L.zeros(2, 1, 2, 2)),
        (L.nn.LSTM(4, 5), L.randn(3, 4), L.zeros(2, 1, 5, 5)),
        (L.nn.LSTM(4, 5), L.randn(3, 4), L.zeros(2, 1, 5)),
        (L.nn.LSTM(4, 5), L.nn.utils.rnn.pack_sequence([L.randn(3, 4), L.randn(2, 4)]), L.zeros(2, 1, 2, 5)),
        (L.nn.LSTM(4, 5), L.nn.utils.rnn.pack_sequence([L.randn(2, 4), L.randn(3, 4)], enforce_sorted=False),
         L.zeros(2, 1, 2, 5)),
        (L.nn.LSTM(4, 5), L.nn.utils.rnn.pack_sequence([L.randn(2, 4), L.randn(3, 4)], enforce_sorted=False),
         [L.zeros(1, 2, 5), L.zeros(1, 2, 5)]),
        (L.nn.LSTM(4, 5), x, L.zeros(1, 2, 5)),
    ]


@pytest.mark.parametrize("case", range(10))
def test_lstm_given_one_tensor_as_hx_as_torch(case):
    outcomes = []
    for L in (torch, minigrad):
        L.manual_seed(0)
        module, data, hx = _lstm_cases(L)[case]
        try:
            out, (h, c) = module(data, hx)
            outcomes.append(("ok", tuple(h.shape), tuple(c.shape)))
        except Exception as error:      # (the exception class and message are what is compared)
            message = str(error).split("\nminigrad hint:")[0]
            outcomes.append((type(error).__name__, message.rstrip("\n")))
    assert outcomes[1] == outcomes[0]


@pytest.mark.parametrize("lengths", [[5, 2], [4, 4], [3, 3], [3, 1]])
def test_pad_packed_sequence_of_data_packed_past_the_input_as_torch(lengths):
    """Unpacking data packed with lengths longer than its input: PyTorch's view error."""
    results = []
    for L in (torch, minigrad):
        x = L.arange(24.0, dtype=L.float64).reshape(3, 2, 4)
        packed = L.nn.utils.rnn.pack_padded_sequence(x, L.tensor(lengths))
        try:
            padded, found = L.nn.utils.rnn.pad_packed_sequence(packed)
            results.append((padded.tolist(), found.tolist()))
        except RuntimeError as error:
            results.append(("RuntimeError", str(error)))
    assert results[1] == results[0]
