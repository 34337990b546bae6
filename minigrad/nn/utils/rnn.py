"""Sequences of different lengths in one batch (PyTorch: torch/nn/utils/rnn.py).

A batch of sequences is usually padded to the longest one: a (time, batch, features) tensor.
A ``PackedSequence`` drops the padding: it keeps, step by step, only the rows of the
sequences still running (longest first), with ``batch_sizes`` saying how many rows each
step has. For lengths 3, 2 and 1 the data is a1 b1 c1 a2 b2 a3 and batch_sizes is [3, 2, 1].

    pad_sequence          list of (length, *) tensors -> padded (time, batch, *) tensor
    pack_padded_sequence  padded tensor and lengths   -> PackedSequence
    pad_packed_sequence   PackedSequence              -> padded tensor and lengths
    pack_sequence         list of tensors             -> PackedSequence (the two above)
    unpad_sequence, unpack_sequence                   -> back to a list of tensors
"""
from collections.abc import Iterable
from typing import NamedTuple, Optional

import numpy as np

from ..._creation import arange, empty_like, full, zeros, as_tensor
from ..._tensor import Tensor
from ...autograd.graph import Node
from ..._ops import result
from ... import _dtype


class PackedSequence_(NamedTuple):
    """The four fields of a PackedSequence."""

    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Optional[Tensor]
    unsorted_indices: Optional[Tensor]


class PackedSequence(PackedSequence_):
    """The rows of a batch of sequences without padding, step after step (see the module's text).

    ``sorted_indices`` says which sequence of the original batch each column is (sequences are
    packed longest first), ``unsorted_indices`` turns them back into the original order."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """The same sequence with ``data`` converted (``self`` if nothing changes)."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def double(self):
        """``data`` as float64."""
        return self.to(dtype=_dtype.float64)

    def float(self):
        """``data`` as float32."""
        return self.to(dtype=_dtype.float32)

    @property
    def is_cuda(self):
        """False: minigrad computes on the CPU."""
        return False


def invert_permutation(permutation):
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    output = empty_like(permutation)
    output.scatter_(0, permutation, arange(0, permutation.numel()))
    return output


class PackPaddedSequenceBackward0(Node):
    """result = _pack_padded_sequence(input, lengths, batch_first)[0]   ->
        grad_input = zeros of input's shape with grad's rows put back where each step's came from"""

    _saved_names = ("result1",)

    def backward(self, grad):
        (batch_sizes,) = self.saved_tensors
        return (_pack_padded_sequence_backward(grad, self.input_sym_sizes, batch_sizes, self.batch_first),)

    def jvp(self, tangents, inputs, out):
        """result_t = error: PyTorch has no forward-mode rule for _pack_padded_sequence"""
        raise NotImplementedError(
            "Trying to use forward AD with _pack_padded_sequence that does not support it because it has not been "
            "implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/"
            "new?template=feature-request.yml so that we can prioritize its implementation or submit a PR "
            "adding the implementation to derivatives.yaml")


def _pack_padded_sequence_backward(grad, input_size, batch_sizes, batch_first):
    """Each step's rows of ``grad`` copied back into a zero tensor of the padded shape."""
    size = list(input_size)
    if batch_first:
        size[0], size[1] = size[1], size[0]
    grad_input = zeros(*size, dtype=grad.dtype)
    offset = 0
    for step, count in enumerate(batch_sizes.tolist()):
        # (select: a length longer than the input had no rows packed for its last steps, and
        # PyTorch's backward fails here with select's IndexError)
        grad_input.select(0, step).narrow(0, 0, count).copy_(grad.narrow(0, offset, count))
        offset += count
    return grad_input.transpose(0, 1) if batch_first else grad_input


def _pack_padded_sequence(input, lengths, batch_first):
    """PyTorch's ``_pack_padded_sequence``: (data, batch_sizes), lengths sorted longest first."""
    if lengths.dtype != _dtype.int64 or lengths.dim() != 1:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got {lengths.dim()}D cpu "
                           f"{_dtype.scalar_type_name(lengths.dtype)} tensor")
    steps_first = input.transpose(0, 1) if batch_first else input
    batch_size = steps_first.size(1)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    counts = lengths.tolist()
    if len(counts) != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(counts)} "
                           f"(batch_size={batch_size})")
    if counts[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in "
                           "'lengths' that is <= 0")
    if any(later > earlier for earlier, later in zip(counts, counts[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                           "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                           "to sidestep this requirement if you do not need ONNX exportability.")
    # step t keeps the sequences longer than t: the first batch_sizes[t] columns
    sizes = [sum(1 for n in counts if n > t) for t in range(counts[0])]
    array = steps_first._array
    # (a length longer than the input: PyTorch slices each run of steps, and a slice past the
    # end just stops there, so those steps pack no rows; only backward then fails)
    rows = [array[t, :count] for t, count in enumerate(sizes) if t < array.shape[0]]
    values = np.concatenate(rows, axis=0) if rows else array[:0, 0]
    batch_sizes = as_tensor(sizes, dtype=_dtype.int64)
    data = result(np.ascontiguousarray(values), PackPaddedSequenceBackward0, (input,), saved=(batch_sizes,),
                  batch_first=batch_first, input_sym_sizes=tuple(input.shape))
    return data, batch_sizes


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch: ``lengths`` says how long each sequence really is.

    With ``enforce_sorted=False`` the sequences may come in any order; they are sorted
    longest first (``sorted_indices``) and ``pad_packed_sequence`` puts them back."""
    if not isinstance(lengths, Tensor):
        lengths = as_tensor(lengths, dtype=_dtype.int64)
    else:
        lengths = lengths.to(dtype=_dtype.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    """PyTorch's ``_pad_packed_sequence``: runs of steps with the same batch size copied into
    a tensor full of ``padding_value``; and each sequence's length."""
    sizes = batch_sizes.tolist()
    max_batch = sizes[0]
    output = full((total_length, max_batch) + tuple(data.shape[1:]), padding_value, dtype=data.dtype)
    lengths = [0] * max_batch
    offset, previous, start = 0, max_batch, 0
    for step in range(len(sizes) + 1):
        size = sizes[step] if step < len(sizes) else 0
        if size != previous:                # a run of steps with ``previous`` rows each ends here
            count = previous * (step - start)
            # (a slice, as PyTorch's: past the end of data packed with lengths longer than its
            # input it stops there, and view then gives PyTorch's error)
            rows = data[offset:offset + count].view(step - start, previous, *data.shape[1:])
            output.narrow(0, start, step - start).narrow(1, 0, previous).copy_(rows)
            offset += count
            start = step
        for column in range(size, previous):
            lengths[column] = step
        previous = size
    if batch_first:
        output = output.transpose(0, 1)
    return output, as_tensor(lengths, dtype=_dtype.int64)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo ``pack_padded_sequence``: the padded batch (in the original order) and the lengths."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    padded, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                                           max_seq_length)
    if sequence.unsorted_indices is not None:
        return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices])
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack sequences of different lengths into one tensor, padded with ``padding_value``."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if sequences[0].dim() == 0:     # (PyTorch's C++ cuts the sizes after the first)
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    longest = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = (len(sequences), longest) + trailing if batch_first else (longest, len(sequences)) + trailing
    out = full(shape, padding_value, dtype=sequences[0].dtype)
    for i, sequence in enumerate(sequences):
        length = sequence.size(0)
        start = longest - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(sequence)
        else:
            out.narrow(0, start, length).select(1, i).copy_(sequence)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """Undo ``pad_sequence``: the list of sequences, each cut to its length."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    index = arange(padded_sequences.shape[1])
    return [sequence[index < length] for sequence, length in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of sequences (longest first unless ``enforce_sorted=False``)."""
    lengths = as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """Undo ``pack_sequence``: the list of sequences."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
