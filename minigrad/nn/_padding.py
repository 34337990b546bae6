"""Padding: F.pad and the operations under it (constant, reflect, replicate, circular).

``pad`` lists amounts from the LAST dim backwards, two per dim: ``(left, right)`` pads the
last dim, ``(left, right, top, bottom)`` the last two. A negative amount crops instead.

* constant   - new positions hold ``value`` (zeros by default). Its gradient simply drops
               the padded positions: the same operation with every amount negated.
* reflect    - mirror the input at its edge, without repeating the edge: [a b c] -> b [a b c] b
* replicate  - repeat the edge value:                                      [a b c] -> a [a b c] c
* circular   - wrap around:                                                [a b c] -> c [a b c] a

Reflect and replicate read each output position from one input position (an index per
dim), so their gradient adds each output's gradient back into the position it came from:
an edge value that was copied three times gets three gradients.
"""
import numpy as np

from .._dtype import bool_
from .._type_names import type_name
from .._tensor import Tensor
from .._ops import result, zeros_set_in_place
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from ._size_arguments import int_tuple_error
from ..autograd.kernel_writes import kernel_writes
from .._ops.pointwise import laid_out_as_pytorch


# --- constant padding -------------------------------------------------------------------------

# grad_fn._saved_pad: PyTorch shows negative amounts as the unsigned 64-bit number of the same bits
_SETTINGS_KEPT_AS["ConstantPadNdBackward0"] = {"pad": lambda settings: tuple(p % 2**64 for p in settings["amounts"])}


class ConstantPadNdBackward0(Node):
    """result = constant_pad_nd(self, pad, value)   ->   grad_self = constant_pad_nd(grad, -pad)

    Padding with negated amounts crops the padded positions away again (they do not
    depend on the input, so they get no gradient)."""

    def backward(self, grad):
        return (constant_pad_nd(grad, [-p for p in self.amounts]),)

    def jvp(self, tangents, inputs, out):
        """result_t = constant_pad_nd(self_t, pad, 0) (the padded value is a constant: no change)"""
        return constant_pad_nd(tangents[0], self.amounts)


def _pairs(pad, ndim):
    """[(dim, left, right), ...] from F.pad's flat list (last dim first)."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


def constant_pad_nd(input, pad, value=0):
    """``torch.constant_pad_nd``: ``input`` with ``value`` added around it (negative amounts crop)."""
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {input.ndim}")
    array = input._array
    shape = list(array.shape)
    source = [slice(None)] * array.ndim       # the part of the input that survives
    target = [slice(None)] * array.ndim       # where it goes in the output
    for dim, left, right in _pairs(pad, array.ndim):
        size = shape[dim] + left + right
        # (negative amounts cut the input first, and cannot cut more than it has)
        if size < 0 or shape[dim] + min(left, 0) + min(right, 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        source[dim] = slice(max(-left, 0), shape[dim] - max(-right, 0))
        target[dim] = slice(max(left, 0), size - max(right, 0))
        shape[dim] = size
    out = np.full(shape, value, dtype=array.dtype)
    if all(s.start < s.stop for s in source if s != slice(None)):
        out[tuple(target)] = array[tuple(source)]
    if all(amount <= 0 for amount in pad):
        # only cropping: PyTorch clones the narrowed input, keeping the order of its dims in
        # memory (a transposed gradient cropped in pad's backward stays transposed)
        out = laid_out_as_pytorch(out, array[tuple(source)])
    return kernel_writes("constant_pad_nd", result(out, ConstantPadNdBackward0, (input,), amounts=tuple(pad)), input,
                         pad=pad)


# --- reflect and replicate: each output reads one input position per dim -----------------------

def _reflected(size, left, right):
    """Input positions for positions -left .. size+right-1, mirrored at the edges (no repeat)."""
    positions = np.arange(-left, size + right)
    period = 2 * (size - 1)
    positions = np.abs(positions) % period if period else np.zeros_like(positions)
    return np.where(positions >= size, period - positions, positions)


def _replicated(size, left, right):
    """Input positions for positions -left .. size+right-1, the edge repeated."""
    return np.clip(np.arange(-left, size + right), 0, size - 1)


def _gather(array, indices):
    """numpy: ``array`` read at ``indices[dim]`` along each padded dim."""
    for dim, index in indices:
        array = np.take(array, index, axis=dim)
    return array


def _scatter_add(grad, indices, input_shape):
    """numpy: the reverse of ``_gather``: each gradient added to the position it was read from.

    All padded dims at once, output position after output position (np.add.at keeps their
    order), as PyTorch's loop adds them: an edge value read many times sums its gradients
    in that order, and floats round the same."""
    first = indices[-1][0]                       # the padded dims are the last ones
    lead = grad.shape[:first]
    padded_in, padded_out = input_shape[first:], grad.shape[first:]
    # the flat input position each output position was read from, over the padded dims
    grids = np.meshgrid(*[index for _, index in reversed(indices)], indexing="ij")
    places = np.ravel_multi_index(grids, padded_in).ravel()
    planes = int(np.prod(lead))
    summed = np.zeros((planes, int(np.prod(padded_in))), dtype=grad.dtype)
    np.add.at(summed, (np.arange(planes)[:, None], places[None, :]), grad.reshape(planes, int(np.prod(padded_out))))
    return summed.reshape(input_shape)


class _IndexPadBackward(Node):
    """result = self read at one input position per output position (reflect or replicate padding)   ->
        grad_self = grad added back into the position each output was read from

    Shared by ReflectionPad1DBackward0 ... ReplicationPad3DBackward0 (made below)."""

    _saved_names = ("self",)

    def backward(self, grad):
        (input,) = self.saved_tensors
        values = _scatter_add(grad._array, self.indices, tuple(input.shape))
        return (result(np.ascontiguousarray(values), self.double_backward_class, (grad, input),
                       indices=self.indices, padding=self.padding, double_backward_of=type(self)),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t padded the same way (reading positions is linear)"""
        return _index_pad(tangents[0], self.padding, type(self))


class _IndexPadBackwardBackward(Node):
    """result = the padding's gradient (grad added back)   ->   grad_grad = gg padded again

    The gradient of "add back" is reading again, i.e. padding again."""

    def backward(self, gg):
        # (input: PyTorch's zeros_like(self); gg has self's shape and dtype)
        zeros = zeros_set_in_place(gg._array.shape, gg._array.dtype) if self.should_compute_output(1) else None
        return _index_pad(gg, self.padding, self.double_backward_of), zeros


def _index_pad(input, padding, node_class):
    """``input`` padded by reading positions (reflect or replicate), recorded as ``node_class``."""
    positions = _reflected if node_class.mode == "reflect" else _replicated
    indices = tuple((dim, positions(input.shape[dim], left, right)) for dim, left, right in _pairs(padding, input.ndim))
    values = np.ascontiguousarray(_gather(input._array, indices))
    return result(values, node_class, (input,), saved=(input,), padding=tuple(padding), indices=indices)


def _pad_node_classes():
    """ReflectionPad1DBackward0 ... ReplicationPad3DBackward0 and their double-backward nodes:
    PyTorch has one name per mode and number of dims; minigrad's differ in nothing else."""
    classes = {}
    for mode, word, rule in (("reflect", "Reflection", "mirrored at the edge"),
                             ("replicate", "Replication", "the edge value repeated")):
        for dims in (1, 2, 3):
            name = f"{word}Pad{dims}DBackward0"
            # (grad_fn._saved_padding only: the indices are minigrad's own)
            _SETTINGS_KEPT_AS[name] = _SETTINGS_KEPT_AS[name[:-1] + "Backward0"] = {"padding": "padding"}
            twice = type(f"{word}Pad{dims}DBackwardBackward0", (_IndexPadBackwardBackward,), {
                "__doc__": f"result = {name}'s gradient   ->   grad_grad = {mode}-pad(gg) again",
                "__module__": __name__})
            classes[mode, dims] = type(name, (_IndexPadBackward,), {
                "__doc__": (f"result = self padded over its last {dims} dim(s), {rule}   ->\n"
                            "        grad_self = grad added back into the input position each output was read from"),
                "mode": mode, "double_backward_class": twice, "__module__": __name__})
            globals()[name] = classes[mode, dims]
            globals()[twice.__name__] = twice
    return classes


_INDEX_PAD_NODES = _pad_node_classes()


# --- F.pad ------------------------------------------------------------------------------------

_UNSUPPORTED = ("Padding size {size} is not supported for {ndim}D input tensor.\n"
                "Supported combinations for non-constant padding:\n"
                "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _sliced(tensor, dim, start, end):
    """``tensor[..., start:end, ...]`` along ``dim``: a view recorded as SliceBackward0, even
    when it is the whole dim (which x[:, 0:n] would record as an alias)."""
    return tensor.narrow(dim, start, end - start)


def _circular_pad(input, pad):
    """Wrap around, in PyTorch's steps (so the recorded graph is PyTorch's chain of CopySlices):
    a new tensor; the input copied into its middle; then, dim after dim, each border copied
    from the far end of what is already there (so corners wrap in both dims)."""
    pairs = _pairs(pad, input.ndim)[::-1]                # the first padded dim first
    for dim, left, right in pairs:
        if left > input.shape[dim] or right > input.shape[dim]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
    shape = list(input.shape)
    for dim, left, right in pairs:
        shape[dim] += left + right
    out = input.new_empty(shape)
    middle, source = out, input
    for dim, left, right in pairs:
        middle = _sliced(middle, dim, max(left, 0), shape[dim] - max(right, 0))
        source = _sliced(source, dim, max(-left, 0), input.shape[dim] - max(-right, 0))
    middle.copy_(source)
    for dim, left, right in pairs:
        size = shape[dim]
        if left > 0:
            _sliced(out, dim, 0, left).copy_(_sliced(out, dim, size - left - max(right, 0), size - max(right, 0)))
        if right > 0:
            _sliced(out, dim, size - right, size).copy_(_sliced(out, dim, max(left, 0), max(left, 0) + right))
    return out


def pad(input, pad, mode="constant", value=None):
    """``input`` padded around its last dims: ``pad`` = (left, right) for the last dim, then
    (top, bottom) for the one before, ... ``mode``: 'constant' (with ``value``, default 0),
    'reflect', 'replicate' or 'circular'.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"pad(): argument 'input' (position 1) must be Tensor, not {type_name(input)}")
    error = int_tuple_error("pad", "pad", pad, 2, allow_int=False)
    if error is not None:
        raise error
    pad = [int(p) for p in pad]
    if mode == "constant":
        return constant_pad_nd(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {input.ndim}")
    dims = len(pad) // 2
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if dims not in (1, 2, 3) or input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(_UNSUPPORTED.format(size=len(pad), ndim=input.ndim))
    if mode == "circular":
        return _circular_pad(input, pad)
    # reflect and replicate read edge values: only the batch dim (if any) may be empty
    batched = input.ndim == dims + 2
    if 0 in input.shape[1 if batched else 0:]:
        raise RuntimeError(f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with possibly 0 batch size "
                           "and other non-zero dimensions for input, but got: "
                           f"[{', '.join(map(str, input.shape))}]")
    if mode == "reflect":
        for i, (dim, left, right) in enumerate(_pairs(pad, input.ndim)):
            if left >= input.shape[dim] or right >= input.shape[dim]:
                raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                                   f"input dimension, but got: padding ({left}, {right}) at dimension {dim} of "
                                   f"input [{', '.join(map(str, input.shape))}]")
    if input.dtype == bool_:
        # PyTorch's reflect and replicate kernels take numbers only (circular copies, so takes bools)
        kernel = "reflection" if mode == "reflect" else "replication"
        raise NotImplementedError(f'"{kernel}_pad{dims}d" not implemented for \'Bool\'')
    return _index_pad(input, pad, _INDEX_PAD_NODES[mode, dims])
