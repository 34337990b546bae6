"""memory_format= in clone, contiguous and is_contiguous: the same strides, flags, nodes and
errors as PyTorch (contiguous_format, preserve_format, channels_last, channels_last_3d)."""
import pytest

import minigrad

from conftest import import_torch

PROGRAMS = {
    "channels_last_strides": lambda L, x: x.contiguous(memory_format=L.channels_last).stride(),
    "channels_last_flags": lambda L, x: (
        x.contiguous(memory_format=L.channels_last).is_contiguous(),
        x.contiguous(memory_format=L.channels_last).is_contiguous(memory_format=L.channels_last),
        x.is_contiguous(memory_format=L.channels_last)),
    "clone_preserves_layout": lambda L, x: (
        x.transpose(0, 3).clone().stride(),
        x.contiguous(memory_format=L.channels_last).clone().stride()),
    "clone_to_row_major": lambda L, x: x.transpose(0, 3).clone(
        memory_format=L.contiguous_format).stride(),
    "function_form": lambda L, x: L.clone(x.contiguous(memory_format=L.channels_last)).stride(),
    "contiguous_is_itself": lambda L, x: (
        x.contiguous() is x,
        x.contiguous(memory_format=L.preserve_format) is x,
        x.contiguous(memory_format=L.channels_last).contiguous().stride()),
    "recorded_as_clone": lambda L, x: (
        x.clone().requires_grad_().contiguous(memory_format=L.channels_last).grad_fn.name()),
    "values_unchanged": lambda L, x: x.contiguous(memory_format=L.channels_last).sum().item(),
    "channels_last_3d": lambda L, x: x.reshape(1, 2, 3, 2, 2).contiguous(
        memory_format=L.channels_last_3d).stride(),
    "gradient_flows": lambda L, x: _gradient(L, x),
    "clone_str_format": lambda L, x: x.clone(memory_format="contiguous"),
    "contiguous_wrong_rank": lambda L, x: L.ones(3).contiguous(memory_format=L.channels_last),
    "clone_wrong_rank_3d": lambda L, x: L.ones(3).clone(memory_format=L.channels_last_3d),
    "is_contiguous_int_format": lambda L, x: x.is_contiguous(memory_format=1),
}


def _gradient(L, x):
    leaf = x.clone().requires_grad_()
    (leaf.contiguous(memory_format=L.channels_last) * 2).sum().backward()
    return leaf.grad.sum().item(), leaf.grad.stride()


def run(program, L):
    x = L.arange(24.).reshape(1, 2, 3, 4)
    try:
        return ("ok", PROGRAMS[program](L, x))
    except Exception as error:          # compared with PyTorch's class and text
        return ("raised", type(error).__name__, str(error))


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_memory_format_matches_pytorch(program):
    torch = import_torch()
    assert run(program, minigrad) == run(program, torch)


def test_formats_print_and_copy_as_singletons():
    import copy
    assert repr(minigrad.channels_last) == "torch.channels_last"
    assert copy.deepcopy(minigrad.preserve_format) is minigrad.preserve_format


def test_clone_keeps_the_dims_order_but_not_of_an_expanded_tensor(torch):
    def strides(L):
        x = L.arange(24.0).reshape(2, 3, 4)
        views = [x.expand(2, 2, 3, 4)[0], x[:, None].expand(2, 2, 3, 4), x.transpose(0, 2),
                 x.transpose(0, 2)[::2], x[:, ::2], x.permute(2, 0, 1)[1:], x[0, :1].expand(3, 4),
                 L.ones(3)[0].expand(2, 3)]
        return [list(v.clone().stride()) for v in views]
    assert strides(minigrad) == strides(torch)


SHAPES_WITH_SIZE_ONE_DIMS = [(2, 3, 1, 1), (2, 1, 4, 4), (1, 3, 4, 4), (2, 3, 1, 4), (2, 3, 4, 1),
                             (1, 1, 1, 1), (2, 3, 0, 2)]


def _channels_last_everywhere(L, shape):
    row_major = L.zeros(shape)
    return (L.empty(shape, memory_format=L.channels_last).stride(),
            L.empty_like(row_major, memory_format=L.channels_last).stride(),
            row_major.to(memory_format=L.channels_last).stride(),
            row_major.clone(memory_format=L.channels_last).stride(),
            row_major.contiguous(memory_format=L.channels_last).stride(),
            row_major.is_contiguous(memory_format=L.channels_last))


@pytest.mark.parametrize("shape", SHAPES_WITH_SIZE_ONE_DIMS)
def test_new_channels_last_memory_steps_size_one_dims_as_pytorch(shape):
    """New channels-last memory steps every dim by the sizes inside it, size-1 dims too, even
    where the row-major tensor already counts as channels-last (contiguous() then keeps it)."""
    torch = import_torch()
    assert _channels_last_everywhere(minigrad, shape) == _channels_last_everywhere(torch, shape)
