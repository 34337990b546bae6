"""Batching rules for losses, index operations, roll, diagonal, einsum and indexing.

Each program runs under vmap in minigrad and in PyTorch: the outputs' values, the graph
recorded (node names and next_functions, as backward outside vmap sees it), the
gradients and the "performance drop" warnings must agree. PyTorch runs some of these
operations as their decomposition (cross_entropy, nll_loss, l1_loss, ...): the graph then
shows the decomposition's nodes, and so must minigrad's.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch
from test_vmap_batched_vs_torch import graph, _x, _c, _assert_close


def _program(body, *shapes, **vmap_options):
    def run(L):
        inputs = [_x(L, *shape, seed=i) for i, shape in enumerate(shapes)]
        return L.func.vmap(lambda *a: body(L, *a), **vmap_options)(*inputs), inputs
    return run


def _labels(L, *values):
    return L.tensor(list(values))


def _F(L):
    return L.nn.functional


def _probabilities(L, *shape):
    return _c(L, *shape).abs() / 2 + 0.25


def _with_labels(body, shape, labels, **vmap_options):
    """A program whose function gets a batch of samples and a batch of labels."""
    def run(L):
        x = _x(L, *shape)
        return L.func.vmap(lambda t, y: body(L, t, y), **vmap_options)(
            x, L.tensor(labels)), [x]
    return run


PROGRAMS = {
    # cross_entropy and nll_loss: PyTorch's decomposition (gather, where, sum, div)
    "cross_entropy": _program(lambda L, t: _F(L).cross_entropy(t, _labels(L, 0, 2)), (4, 2, 3)),
    "cross_entropy_vector": _program(lambda L, t: _F(L).cross_entropy(t, _labels(L, 2)[0]), (4, 3)),
    "cross_entropy_sum": _program(
        lambda L, t: _F(L).cross_entropy(t, _labels(L, 0, 2), reduction="sum"), (4, 2, 3)),
    "cross_entropy_none": _program(
        lambda L, t: _F(L).cross_entropy(t, _labels(L, 0, 2), reduction="none"), (4, 2, 3)),
    "cross_entropy_weight": _program(
        lambda L, t: _F(L).cross_entropy(t, _labels(L, 0, 2), weight=_c(L, 3).abs() + 1), (4, 2, 3)),
    "cross_entropy_ignore": _program(
        lambda L, t: _F(L).cross_entropy(t, _labels(L, 1, -100)), (4, 2, 3)),
    "cross_entropy_ignore_index": _program(
        lambda L, t: _F(L).cross_entropy(t, _labels(L, 1, 2), ignore_index=2), (4, 2, 3)),
    "cross_entropy_batched_labels": _with_labels(
        lambda L, t, y: _F(L).cross_entropy(t, y), (4, 2, 3), [[0, 1], [2, 2], [1, 0], [0, 0]]),
    "cross_entropy_per_sample": _with_labels(
        lambda L, t, y: _F(L).cross_entropy(t.unsqueeze(0), y.unsqueeze(0)), (4, 3), [0, 2, 1, 1]),
    "cross_entropy_vector_none": _with_labels(
        lambda L, t, y: _F(L).cross_entropy(t, y, reduction="none"), (4, 3), [0, 2, 1, 1]),
    "nll_loss": _program(lambda L, t: _F(L).nll_loss(t, _labels(L, 0, 2)), (4, 2, 3)),
    "nll_loss_weight_sum": _program(lambda L, t: _F(L).nll_loss(
        t, _labels(L, 0, 2), weight=_c(L, 3).abs() + 1, reduction="sum"), (4, 2, 3)),
    "nll_loss_log_softmax": _with_labels(
        lambda L, t, y: _F(L).nll_loss(t.log_softmax(-1), y), (4, 2, 3), [[0, 1], [2, 2], [1, 0], [0, 0]]),
    "cross_entropy_module": _program(
        lambda L, t: L.nn.CrossEntropyLoss()(t, _labels(L, 0, 2)), (4, 2, 3)),
    # the elementwise losses
    "l1_loss": _program(lambda L, t: _F(L).l1_loss(t, _c(L, 2, 3)), (4, 2, 3)),
    "l1_loss_sum_batched": _program(
        lambda L, t, u: _F(L).l1_loss(t, u, reduction="sum"), (4, 2, 3), (4, 2, 3)),
    "l1_loss_none": _program(lambda L, t: _F(L).l1_loss(t, _c(L, 3), reduction="none"), (4, 3)),
    "smooth_l1_loss": _program(lambda L, t: _F(L).smooth_l1_loss(t, _c(L, 2, 3)), (4, 2, 3)),
    "smooth_l1_loss_beta": _program(
        lambda L, t: _F(L).smooth_l1_loss(t, _c(L, 2, 3), beta=0.5, reduction="sum"), (4, 2, 3)),
    "huber_loss": _program(lambda L, t: _F(L).huber_loss(t, _c(L, 2, 3)), (4, 2, 3)),
    "huber_loss_delta_none": _program(
        lambda L, t, u: _F(L).huber_loss(t, u, delta=0.5, reduction="none"), (4, 2, 3), (4, 2, 3)),
    "l1_loss_module": _program(lambda L, t: L.nn.L1Loss()(t, _c(L, 3)), (4, 3)),
    "binary_cross_entropy": _program(
        lambda L, t: _F(L).binary_cross_entropy(t.sigmoid(), _probabilities(L, 2, 3)), (4, 2, 3)),
    "binary_cross_entropy_sum": _program(lambda L, t: _F(L).binary_cross_entropy(
        t.sigmoid(), _probabilities(L, 3), reduction="sum"), (4, 3)),
    "binary_cross_entropy_weight": _program(lambda L, t: _F(L).binary_cross_entropy(
        t.sigmoid(), _probabilities(L, 2, 3), weight=_c(L, 3).abs()), (4, 2, 3)),
    "binary_cross_entropy_batched_target": _program(lambda L, t, u: _F(L).binary_cross_entropy(
        t.sigmoid(), u.sigmoid().detach(), reduction="none"), (4, 2, 3), (4, 2, 3)),
    "bce_with_logits": _program(lambda L, t: _F(L).binary_cross_entropy_with_logits(
        t, _probabilities(L, 2, 3)), (4, 2, 3)),
    "bce_with_logits_none": _program(lambda L, t, u: _F(L).binary_cross_entropy_with_logits(
        t, u.sigmoid(), reduction="none"), (4, 3), (4, 3)),
    "bce_with_logits_module": _program(
        lambda L, t: L.nn.BCEWithLogitsLoss()(t, _probabilities(L, 3)), (4, 3)),
}


def _positions(L, *values):
    return L.tensor(list(values))


PROGRAMS.update({
    # index_select is one gather in PyTorch's rule; scatter and scatter_add are batched
    "index_select": _program(lambda L, t: t.index_select(1, _positions(L, 2, 0)), (4, 2, 3)),
    "torch_index_select": _program(
        lambda L, t: L.index_select(t, 0, _positions(L, 1, 0, 1)), (4, 2, 3)),
    # (a position given as a number is repeated along the dim by PyTorch's rule)
    "index_select_number": _program(lambda L, t: t.index_select(1, L.tensor(2)), (4, 2, 3)),
    "index_select_vector": _program(lambda L, t: t.index_select(0, _positions(L, 2, 0)), (4, 3)),
    "index_select_batched_index": _with_labels(
        lambda L, t, i: t.index_select(1, i), (4, 2, 3), [[2, 0], [1, 1], [0, 0], [2, 2]]),
    "index_select_captured_input": lambda L: ((lambda x: (L.func.vmap(
        lambda i: x[0].index_select(1, i))(L.tensor([[2, 0], [1, 1], [0, 0], [2, 2]])), [x]))(
            _x(L, 4, 2, 3))),
    "scatter": _program(
        lambda L, t: L.zeros(2, 3).scatter(1, _positions(L, [2], [0]), t[:, :1]), (4, 2, 3)),
    "scatter_number": _program(lambda L, t: t.scatter(1, _positions(L, [2], [0]), 5.0), (4, 2, 3)),
    "scatter_batched_src": _program(
        lambda L, t: t.scatter(1, _positions(L, [2], [0]), t[:, :1] * 2), (4, 2, 3)),
    "scatter_batched_index": _with_labels(
        lambda L, t, i: t.scatter(0, i, 5.0), (4, 3), [[2], [1], [0], [2]]),
    "scatter_reduce_add": _program(
        lambda L, t: t.detach().scatter(1, _positions(L, [2], [0]), t[:, :1].detach(), reduce="add"),
        (4, 2, 3)),
    "scatter_add": _program(
        lambda L, t: t.scatter_add(1, _positions(L, [2], [0]), t[:, :1]), (4, 2, 3)),
    "scatter_add_captured_input": _program(
        lambda L, t: L.zeros(2, 3).scatter_add(1, _positions(L, [2], [0]), t[:, :1]), (4, 2, 3)),
    "torch_scatter_add": _program(
        lambda L, t: L.scatter_add(t, 0, _positions(L, [1, 0, 1]), t[:1]), (4, 2, 3)),
    # roll and diagonal
    "roll": _program(lambda L, t: t.roll(1, 1), (4, 2, 3)),
    "roll_flattened": _program(lambda L, t: t.roll(1), (4, 2, 3)),
    "roll_dims": _program(lambda L, t: t.roll((1, 2), (0, 1)), (4, 2, 3)),
    "torch_roll_negative": _program(lambda L, t: L.roll(t, -1, -1), (4, 2, 3)),
    "roll_in_dims_1": _program(lambda L, t: t.roll(1, 0), (2, 4, 3), in_dims=1),
    "diagonal": _program(lambda L, t: t.diagonal(), (4, 3, 3)),
    "torch_diagonal": _program(lambda L, t: L.diagonal(t, 1, 0, 1), (4, 3, 3)),
    "diagonal_negative": _program(lambda L, t: t.diagonal(-1, -1, -2), (4, 2, 3)),
    "diagonal_keyword": _program(lambda L, t: L.diagonal(t, offset=1), (4, 2, 3)),
    "diagonal_in_dims_2": _program(lambda L, t: t.diagonal(), (3, 3, 4), in_dims=2),
})


PROGRAMS.update({
    # einsum: PyTorch runs einsum's steps on the batch (permutes, reshapes, a batched bmm)
    "einsum_matrix": _program(lambda L, t: L.einsum("ij,jk->ik", t, _c(L, 3, 5)), (4, 2, 3)),
    "einsum_both_batched": _program(lambda L, t, u: L.einsum("ij,ij->i", t, u), (4, 2, 3), (4, 2, 3)),
    "einsum_captured_first": _program(lambda L, t: L.einsum("ki,ij->kj", _c(L, 5, 2), t), (4, 2, 3)),
    "einsum_dot": _program(lambda L, t: L.einsum("i,i->", t, _c(L, 3)), (4, 3)),
    "einsum_outer": _program(lambda L, t: L.einsum("i,j->ij", t, _c(L, 2)), (4, 3)),
    "einsum_trace": _program(lambda L, t: L.einsum("ii->", t), (4, 3, 3)),
    "einsum_diagonal": _program(lambda L, t: L.einsum("ii->i", t), (4, 3, 3)),
    "einsum_sum": _program(lambda L, t: L.einsum("ij->j", t), (4, 2, 3)),
    "einsum_ellipsis": _program(lambda L, t: L.einsum("...j,jk->...k", t, _c(L, 3, 2)), (4, 2, 3)),
    "einsum_three": _program(
        lambda L, t: L.einsum("ij,jk,k->i", t, _c(L, 3, 5), _c(L, 5)), (4, 2, 3)),
    "einsum_in_dims_1": _program(lambda L, t: L.einsum("ij,jk->ik", t, _c(L, 3, 5)), (2, 4, 3),
                                 in_dims=1),
    "reshape_viewable_in_dims_1": _program(lambda L, t: t.reshape(2, 1, 3), (2, 4, 3), in_dims=1),
    "bmm": _program(lambda L, t: t.bmm(_c(L, 2, 3, 5)), (4, 2, 2, 3)),
    "bmm_both_batched": _program(lambda L, t, u: L.bmm(t, u.transpose(1, 2)), (4, 2, 2, 3), (4, 2, 2, 3)),
})


_ROWS = [[1, 0], [1, 1], [0, 1], [1, 0]]
_COLUMNS = [[2, 0], [1, 1], [0, 0], [2, 2]]

PROGRAMS.update({
    # indexing with batched positions or several lists: one index of the whole batch
    "index_batched_positions": _with_labels(lambda L, t, i: t[i], (4, 2, 3), _ROWS),
    "index_batched_second": _with_labels(lambda L, t, i: t[:, i], (4, 2, 3), _COLUMNS),
    "index_batched_both": lambda L: ((lambda x: (L.func.vmap(lambda t, i, j: t[i, j])(
        x, L.tensor(_ROWS), L.tensor(_COLUMNS)), [x]))(_x(L, 4, 2, 3))),
    "index_batched_and_list": _with_labels(lambda L, t, i: t[i, [0, 2]], (4, 2, 3), _ROWS),
    "index_batched_captured": lambda L: ((lambda x: (L.func.vmap(lambda i: x[0][:, i])(
        L.tensor(_COLUMNS)), [x]))(_x(L, 4, 2, 3))),
    "index_batched_captured_first": lambda L: ((lambda x: (L.func.vmap(lambda i: x[0][i])(
        L.tensor(_ROWS)), [x]))(_x(L, 4, 2, 3))),
    "index_batched_matrix": _with_labels(lambda L, t, i: t[i.unsqueeze(1), i], (4, 2, 2),
                                         [[1, 0], [1, 1], [0, 1], [1, 0]]),
    "index_two_lists": _program(lambda L, t: t[[0, 1], [2, 0]], (4, 2, 3)),
    "index_two_lists_number": _program(lambda L, t: t[[0, 1], 2], (4, 2, 3)),
    "index_list_and_tensor": _program(
        lambda L, t: t[L.tensor([1, 0]), L.tensor([[2], [0]])], (4, 2, 3)),
    "index_two_lists_in_dims_1": _program(lambda L, t: t[[0, 1], [2, 0]], (4, 2, 3), in_dims=1),
    "index_mask": _program(lambda L, t: t[L.tensor([True, False])], (4, 2, 3)),
    "index_number_then_batched": _with_labels(lambda L, t, i: t[0, i], (4, 2, 3), _COLUMNS),
    "index_batched_then_number": _with_labels(lambda L, t, i: t[i, 1], (4, 2, 3), _ROWS),
    "index_ellipsis_batched": _with_labels(lambda L, t, i: t[..., i], (4, 2, 3), _COLUMNS),
    "index_none_batched": _with_labels(lambda L, t, i: t[None, i], (4, 2, 3), _ROWS),
    "index_batched_none": _with_labels(lambda L, t, i: t[i, None], (4, 2, 3), _ROWS),
    "index_lists_apart": _program(lambda L, t: t[[0, 1], :, [2, 0]], (4, 2, 2, 3)),
    "index_lists_and_number": _program(lambda L, t: t[[0, 1], 1, [2, 0]], (4, 2, 2, 3)),
    "index_batched_apart": _with_labels(lambda L, t, i: t[i, :, [2, 0]], (4, 2, 2, 3), _ROWS),
    "index_ellipsis_lists": _program(lambda L, t: t[..., [0, 1], [2, 0]], (4, 2, 2, 3)),
})


PROGRAMS.update({
    # a matrix product whose batched operand has its batch dim elsewhere than in front
    "matmul_in_dims_1": _program(lambda L, t: t @ _c(L, 3, 5), (2, 4, 3), in_dims=1),
    "matmul_vector_in_dims_1": _program(lambda L, t: t @ _c(L, 3, 5), (3, 4), in_dims=1),
    "matmul_matrix_vector_in_dims_1": _program(lambda L, t: t @ _c(L, 3), (2, 4, 3), in_dims=1),
    "matmul_dot_in_dims_1": _program(lambda L, t: t @ _c(L, 3), (3, 4), in_dims=1),
    "mm_in_dims_2": _program(lambda L, t: t.mm(_c(L, 3, 5)), (2, 3, 4), in_dims=2),
    "linear_in_dims_1": _program(
        lambda L, t: L.nn.functional.linear(t, _c(L, 5, 3), _c(L, 5)), (2, 4, 3), in_dims=1),
    "matmul_left_in_dims_1": _program(lambda L, t: _c(L, 5, 2) @ t, (2, 4, 3), in_dims=1),
})


PROGRAMS.update({
    # kl_div: aten::kl_div has no rule (PyTorch's fallback, once per sample, with its warning)
    "kl_div_batchmean": _program(lambda L, t: _F(L).kl_div(
        t.log_softmax(-1), _c(L, 2, 3).softmax(-1), reduction="batchmean"), (4, 2, 3)),
    "kl_div_mean": _program(lambda L, t: _F(L).kl_div(t.log_softmax(-1), _c(L, 3).softmax(-1)), (4, 3)),
    "kl_div_sum_batched_target": _program(lambda L, t, u: _F(L).kl_div(
        t.log_softmax(-1), u.softmax(-1).detach(), reduction="sum"), (4, 2, 3), (4, 2, 3)),
    "kl_div_none_log_target": _program(lambda L, t: _F(L).kl_div(
        t, _c(L, 2, 3), reduction="none", log_target=True), (4, 2, 3)),
    "kl_div_in_dims_1": _program(lambda L, t: _F(L).kl_div(
        t.log_softmax(-1), _c(L, 2, 3).softmax(-1), reduction="batchmean"), (2, 4, 3), in_dims=1),
    "kl_div_module": _program(lambda L, t: L.nn.KLDivLoss(reduction="batchmean")(
        t.log_softmax(-1), _c(L, 2, 3).softmax(-1)), (4, 2, 3)),
})


PROGRAMS.update({
    # more forms of the losses: class probabilities, images, weights
    "cross_entropy_probabilities": _program(
        lambda L, t: _F(L).cross_entropy(t, _c(L, 2, 3).softmax(-1)), (4, 2, 3)),
    "cross_entropy_probabilities_weight_none": _program(lambda L, t: _F(L).cross_entropy(
        t, _c(L, 2, 3).softmax(-1), weight=_c(L, 3).abs(), reduction="none"), (4, 2, 3)),
    "cross_entropy_probabilities_sum": _program(lambda L, t: _F(L).cross_entropy(
        t, _c(L, 3).softmax(-1), reduction="sum"), (4, 3)),
    "cross_entropy_3d": _program(
        lambda L, t: _F(L).cross_entropy(t, L.tensor([[0, 1], [2, 2]])), (4, 2, 3, 2)),
    "nll_loss_3d": _program(lambda L, t: _F(L).nll_loss(t, L.tensor([[0, 1]])), (4, 1, 3, 2)),
    "nll_loss_3d_none": _program(
        lambda L, t: _F(L).nll_loss(t, L.tensor([[0, 1]]), reduction="none"), (4, 1, 3, 2)),
    "nll_loss_4d_weight": _program(lambda L, t: _F(L).nll_loss(
        t, L.tensor([[[0, 1], [2, 0]]]), weight=_c(L, 3).abs() + 1), (4, 1, 3, 2, 2)),
    "nll_loss_5d": _program(
        lambda L, t: _F(L).nll_loss(t, L.tensor([[[[0, 1]], [[2, 0]]]]), reduction="sum"),
        (4, 1, 3, 2, 1, 2)),
    "bce_with_logits_pos_weight": _program(lambda L, t: _F(L).binary_cross_entropy_with_logits(
        t, _probabilities(L, 3), pos_weight=_c(L, 3).abs()), (4, 3)),
    "bce_with_logits_weight_sum": _program(lambda L, t: _F(L).binary_cross_entropy_with_logits(
        t, _probabilities(L, 2, 3), weight=_c(L, 3).abs(), reduction="sum"), (4, 2, 3)),
    "huber_loss_weight": _program(
        lambda L, t: _F(L).huber_loss(t, _c(L, 3), weight=_c(L, 3).abs()), (4, 3)),
    "huber_loss_weight_sum": _program(lambda L, t: _F(L).huber_loss(
        t, _c(L, 2, 3), weight=_c(L, 2, 3).abs(), reduction="sum"), (4, 2, 3)),
})


PROGRAMS.update({
    "cross_entropy_label_smoothing": _program(lambda L, t: _F(L).cross_entropy(
        t, _labels(L, 0, 2), label_smoothing=0.1), (4, 2, 3)),
    "cross_entropy_label_smoothing_ignored_weight": _program(lambda L, t: _F(L).cross_entropy(
        t, _labels(L, 0, -100), weight=_c(L, 3).abs() + 1, label_smoothing=0.2), (4, 2, 3)),
    "cross_entropy_label_smoothing_batched_sum": _with_labels(lambda L, t, y: _F(L).cross_entropy(
        t, y, label_smoothing=0.3, reduction="sum"), (4, 2, 3), [[0, 1], [2, 2], [1, 0], [0, 0]]),
    # (refused by PyTorch: its C++ selects the kept labels, a shape that depends on the batch)
    "cross_entropy_label_smoothing_batched_weight": _with_labels(lambda L, t, y: _F(L).cross_entropy(
        t, y, weight=_c(L, 3).abs() + 1, label_smoothing=0.3), (4, 2, 3), [[0, 1], [2, 2], [1, 0], [0, 0]]),
    "cross_entropy_label_smoothing_none": _program(lambda L, t: _F(L).cross_entropy(
        t, _labels(L, 0, 2), label_smoothing=0.1, reduction="none"), (4, 2, 3)),
    "cross_entropy_label_smoothing_probabilities": _program(lambda L, t: _F(L).cross_entropy(
        t, _c(L, 2, 3).softmax(-1), label_smoothing=0.1), (4, 2, 3)),
})


def _nested(body, shape):
    def run(L):
        x = _x(L, *shape)
        return L.func.vmap(L.func.vmap(lambda t: body(L, t)))(x), [x]
    return run


PROGRAMS.update({
    # nested vmaps: each level's rule in turn (kl_div: the fallback of each level, nested)
    "nested_kl_div": _nested(lambda L, t: _F(L).kl_div(t.log_softmax(-1), _c(L, 3).softmax(-1),
                                                       reduction="sum"), (2, 4, 3)),
    "nested_kl_div_batchmean": _nested(lambda L, t: _F(L).kl_div(
        t.log_softmax(-1), _c(L, 2, 3).softmax(-1), reduction="batchmean"), (2, 4, 2, 3)),
    "nested_einsum": _nested(lambda L, t: L.einsum("ij,jk->ik", t, _c(L, 3, 5)), (2, 4, 2, 3)),
    "nested_cross_entropy": _nested(lambda L, t: _F(L).cross_entropy(t, _labels(L, 0, 2)), (2, 4, 2, 3)),
    "nested_l1_loss": _nested(lambda L, t: _F(L).l1_loss(t, _c(L, 3)), (2, 4, 3)),
    "nested_index_select": _nested(lambda L, t: t.index_select(0, _positions(L, 2, 0)), (2, 4, 3)),
    "nested_roll": _nested(lambda L, t: t.roll(1), (2, 4, 2, 3)),
    "nested_two_lists": _nested(lambda L, t: t[[0, 1], [2, 0]], (2, 4, 2, 3)),
    "chunked_cross_entropy": _program(
        lambda L, t: _F(L).cross_entropy(t, _labels(L, 0, 2)), (5, 2, 3), chunk_size=2),
})


PROGRAMS.update({
    # the batch dim elsewhere than in front, and only the labels batched
    "cross_entropy_in_dims_1": _program(
        lambda L, t: _F(L).cross_entropy(t, _labels(L, 0, 2)), (2, 4, 3), in_dims=1),
    "nll_loss_in_dims_2": _program(lambda L, t: _F(L).nll_loss(t, _labels(L, 0, 2)), (2, 3, 4),
                                   in_dims=2),
    "l1_loss_in_dims_1": _program(lambda L, t: _F(L).l1_loss(t, _c(L, 2, 3)), (2, 4, 3), in_dims=1),
    "huber_loss_in_dims_1": _program(lambda L, t: _F(L).huber_loss(t, _c(L, 2, 3)), (2, 4, 3),
                                     in_dims=1),
    "binary_cross_entropy_in_dims_1": _program(lambda L, t: _F(L).binary_cross_entropy(
        t.sigmoid(), _probabilities(L, 2, 3)), (2, 4, 3), in_dims=1),
    "index_select_in_dims_1": _program(lambda L, t: t.index_select(1, _positions(L, 2, 0)), (2, 4, 3),
                                       in_dims=1),
    "scatter_in_dims_1": _program(lambda L, t: t.scatter(1, _positions(L, [2], [0]), 5.0), (2, 4, 3),
                                  in_dims=1),
    "index_batched_in_dims_1": lambda L: ((lambda x: (L.func.vmap(lambda t, i: t[:, i], in_dims=(1, 0))(
        x, L.tensor(_COLUMNS)), [x]))(_x(L, 2, 4, 3))),
    "cross_entropy_only_labels_batched": lambda L: ((lambda x: (L.func.vmap(
        lambda y: _F(L).cross_entropy(x, y))(L.tensor([[0, 1], [2, 2], [1, 0], [0, 0]])), [x]))(
            _x(L, 2, 3))),
})


PROGRAMS.update({
    # masked_fill with a tensor value: no rule in PyTorch either (its fallback's graph)
    "masked_fill_tensor_value": _program(lambda L, t: t.masked_fill(t > 0, L.tensor(0.5)), (4, 2, 3)),
    "masked_fill_batched_value": _program(
        lambda L, t, u: t.masked_fill(t > 0, u.sum()), (4, 2, 3), (4, 3)),
    "masked_fill_tensor_value_in_dims_1": _program(
        lambda L, t: t.masked_fill(t > 0, L.tensor(0.5)), (2, 4, 3), in_dims=1),
})


def _outcome(L, name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, leaves = PROGRAMS[name](L)
        except RuntimeError as error:           # refused as PyTorch refuses it
            return type(error).__name__, str(error)
    outs = out if isinstance(out, tuple) else (out,)
    shown = [(tuple(o.shape), graph(o)) for o in outs]
    values = [o.detach().numpy() for o in outs]
    if outs[0].requires_grad:
        outs[0].double().pow(2).sum().backward()
    grads = [None if x.grad is None else x.grad.numpy() for x in leaves]
    drops = [str(w.message).split(". Please")[0].split(" (Triggered internally")[0]
             for w in caught]
    return shown, values, grads, drops


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_batched_program_matches_torch(name):
    torch = import_torch()
    theirs = _outcome(torch, name)
    ours = _outcome(minigrad, name)
    if isinstance(theirs[0], str):
        assert ours == theirs             # the same error
        return
    assert ours[0] == theirs[0]           # shapes and graphs
    _assert_close(ours[1], theirs[1])     # values
    _assert_close(ours[2], theirs[2])     # gradients
    assert ours[3] == theirs[3]           # warnings ("performance drop", ...)


# --- functions however they were reached: torch.xxx, F.xxx, or imported by name -------------------

def _functions_given_to_vmap(L):
    x = _x(L, 4, 3)
    F = L.nn.functional
    return [graph(L.func.vmap(function)(x)) for function in (L.sin, L.exp, F.relu, F.softplus)]


def test_functions_given_to_vmap_are_batched():
    torch = import_torch()
    assert _functions_given_to_vmap(minigrad) == _functions_given_to_vmap(torch)


def _functions_imported_by_name(L):
    exp, relu, mse_loss = L.exp, L.nn.functional.relu, L.nn.functional.mse_loss
    x = _x(L, 4, 3)
    return [graph(L.func.vmap(function)(x)) for function in (
        lambda t: exp(t) + 1, lambda t: relu(t).sum(), lambda t: mse_loss(t, t * 2))]


def test_functions_imported_by_name_are_batched():
    """``from torch import exp`` before the vmap: PyTorch batches it, and so does minigrad."""
    torch = import_torch()
    assert _functions_imported_by_name(minigrad) == _functions_imported_by_name(torch)
