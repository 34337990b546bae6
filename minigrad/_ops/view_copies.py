"""torch.view_copy, permute_copy, split_copy, ...: a view operation whose result is new memory.

PyTorch has a ``*_copy`` twin for each view operation (its functionalization pass turns
views into them). The result holds the view's values, contiguous, in memory of its own, and
it is not a view: writing into it leaves the input alone. Its node is the view's node under
PyTorch's own name for the twin, ``PermuteBackward0_copy``, with the same gradient and the
same saved settings (``grad_fn._saved_dims``).

unsafe_split / unsafe_chunk are the other way round: pieces that share the input's memory
but that autograd does not treat as views (UnsafeSplitBackward0), so writing into a piece in
place is not checked against the input's history.
"""
import numpy as np

from ..autograd.graph import _SETTINGS_KEPT_AS
from ..autograd.forward_ad import _DualLevel, _tangent_of, _set_tangent
from . import plain_output
from .shape import (ViewBackward0, ExpandBackward0, PermuteBackward0, TransposeBackward0, TBackward0,
                    SqueezeBackward0, SqueezeBackward1, SqueezeBackward2, UnsqueezeBackward0,
                    SplitBackward0, SplitWithSizesBackward0, UnbindBackward0, view, expand, permute,
                    transpose, t, squeeze, unsqueeze, split, unbind, select)
from .einsum import diagonal
from .diagonals import DiagonalBackward0_copy
from .shape import SelectBackward0
from .indexing import SliceBackward0, AliasBackward0, _slice
from .rearrange import UnfoldBackward0, unfold
from .views import AsStridedBackward0
from .strided import as_strided
from .rounding import _NotImplementedBackward
from .._tensor import _normalize_dim
from ..autograd.kernel_writes import kernel_writes


# (PyTorch's names end in _copy: not Python's usual spelling of a class)
class ViewBackward0_copy(ViewBackward0):                 # noqa: N801
    """result = self.view(shape), copied   ->   grad_self = grad.reshape(self.shape)"""


class ExpandBackward0_copy(ExpandBackward0):             # noqa: N801
    """result = self.expand(sizes), copied   ->   grad_self = grad summed over the expanded dims"""


class PermuteBackward0_copy(PermuteBackward0):           # noqa: N801
    """result = self.permute(dims), copied   ->   grad_self = grad.permute(the inverse of dims)"""


class TransposeBackward0_copy(TransposeBackward0):       # noqa: N801
    """result = self.transpose(dim0, dim1), copied   ->   grad_self = grad.transpose(dim0, dim1)"""


class TBackward0_copy(TBackward0):                       # noqa: N801
    """result = self.t(), copied   ->   grad_self = grad.t()"""


class SelectBackward0_copy(SelectBackward0):             # noqa: N801
    """result = self.select(dim, index), copied   ->   grad_self = zeros, with grad at index"""


class SliceBackward0_copy(SliceBackward0):               # noqa: N801
    """result = self[start:end:step] along dim, copied   ->
        grad_self = zeros, with grad at those positions"""


class UnsqueezeBackward0_copy(UnsqueezeBackward0):       # noqa: N801
    """result = self.unsqueeze(dim), copied   ->   grad_self = grad.squeeze(dim)"""


class SqueezeBackward0_copy(SqueezeBackward0):           # noqa: N801
    """result = self.squeeze(), copied   ->   grad_self = grad unsqueezed at every squeezed dim"""


class SqueezeBackward1_copy(SqueezeBackward1):           # noqa: N801
    """result = self.squeeze(dim), copied   ->   grad_self = grad.unsqueeze(dim) if it was squeezed"""


class SqueezeBackward2_copy(SqueezeBackward2):           # noqa: N801
    """result = self.squeeze(dims), copied   ->   grad_self = grad unsqueezed at every squeezed dim"""


class AliasBackward0_copy(AliasBackward0):               # noqa: N801
    """result = self, copied   ->   grad_self = grad"""


class UnfoldBackward0_copy(UnfoldBackward0):             # noqa: N801
    """result = self.unfold(dimension, size, step), copied   ->
        grad_self = the windows' gradients added back where each window came from"""


class AsStridedBackward0_copy(AsStridedBackward0):       # noqa: N801
    """result = self.as_strided(size, stride, storage_offset), copied   ->
        grad_self = zeros, with grad added where the strided view sees self"""


class SplitBackward0_copy(SplitBackward0):               # noqa: N801
    """results = self.split(size, dim), copied   ->   grad_self = cat(grads of the pieces, dim)"""


class SplitWithSizesBackward0_copy(SplitWithSizesBackward0):   # noqa: N801
    """results = self.split(sizes, dim), copied   ->   grad_self = cat(grads of the pieces, dim)"""


class UnbindBackward0_copy(UnbindBackward0):             # noqa: N801
    """results = self.unbind(dim), copied   ->   grad_self = stack(grads of the slices, dim)"""


class UnsafeSplitBackward0(SplitBackward0):
    """results = self.unsafe_split(size, dim)   ->   grad_self = cat(grads of the pieces, dim)"""


class UnsafeSplitWithSizesBackward0(SplitWithSizesBackward0):
    """results = self.unsafe_split_with_sizes(sizes, dim)   ->
        grad_self = cat(grads of the pieces, dim)"""


_COPY_OF = {cls.__bases__[0]: cls for cls in (
    ViewBackward0_copy, ExpandBackward0_copy, PermuteBackward0_copy, TransposeBackward0_copy,
    TBackward0_copy, SelectBackward0_copy, SliceBackward0_copy, UnsqueezeBackward0_copy,
    SqueezeBackward0_copy, SqueezeBackward1_copy, SqueezeBackward2_copy, AliasBackward0_copy,
    UnfoldBackward0_copy, AsStridedBackward0_copy, SplitBackward0_copy, SplitWithSizesBackward0_copy,
    UnbindBackward0_copy)}
_COPY_OF[DiagonalBackward0_copy.__bases__[0]] = DiagonalBackward0_copy
# A copy's node shows the same saved settings as the view's (grad_fn._saved_dims, ...): PyTorch's
# names for them are looked up by the node's class name (autograd/graph.py)
for _view_node, _copy_node in (*_COPY_OF.items(), (SplitBackward0, UnsafeSplitBackward0),
                               (SplitWithSizesBackward0, UnsafeSplitWithSizesBackward0)):
    if _view_node.__name__ in _SETTINGS_KEPT_AS:
        _SETTINGS_KEPT_AS.setdefault(_copy_node.__name__, _SETTINGS_KEPT_AS[_view_node.__name__])
del _view_node, _copy_node


def _copied(views):
    """New contiguous tensors holding the values of ``views`` (all made by one view operation):
    the view's node becomes their node, renamed to PyTorch's ``*_copy`` node."""
    node = views[0]._grad_fn
    if node is not None and type(node) in _COPY_OF:
        node.__class__ = _COPY_OF[type(node)]
    copies = []
    for piece in views:
        out = plain_output(np.array(piece._array, order="C"), piece)
        if node is not None:
            out._grad_fn, out._output_nr = node, piece._output_nr
        if _DualLevel.open and _tangent_of(piece) is not None:
            _set_tangent(out, _tangent_of(piece).contiguous().clone())
        copies.append(out)
    return copies


def _copy_of(view_function, name):
    """``name`` (e.g. ``permute_copy``): ``view_function``'s result, copied."""
    def copy_function(input, *args, **kwargs):
        return kernel_writes(name, _copied([view_function(input, *args, **kwargs)])[0], input)
    copy_function.__name__ = copy_function.__qualname__ = name
    copy_function.__doc__ = (
        f"``torch.{name}``: what ``{view_function.__name__}`` gives, as a new contiguous tensor "
        f"(not a view).\n\n    Gradient: {view_function.__name__}'s, recorded as PyTorch's "
        f"``..._copy`` node.")
    return copy_function


def _pieces_copy(view_function, name):
    """``name`` (``split_copy``, ...): the pieces ``view_function`` gives, each copied."""
    def copy_function(input, *args, **kwargs):
        pieces = view_function(input, *args, **kwargs)
        if not pieces:                  # (no pieces, e.g. unbind of an empty dim)
            return ()
        return kernel_writes(name, tuple(_copied(pieces)), input)
    copy_function.__name__ = copy_function.__qualname__ = name
    copy_function.__doc__ = (
        f"``torch.{name}``: the pieces ``{view_function.__name__}`` gives, each a new contiguous "
        f"tensor (not a view).\n\n    Gradient: {view_function.__name__}'s, recorded as PyTorch's "
        f"``..._copy`` node.")
    return copy_function


def _view_as_dtype_or_shape(input, *shape):
    """``input.view(shape)`` (also where a view cannot show the elements so: view_copy reads them
    in order, as reshape would); ``view_copy(input, dtype)`` reads the same bytes as ``dtype``
    (not recorded: the values are not a function of the input's values)."""
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list, int, np.integer)):
        from .._dtype import to_numpy_dtype
        array = np.ascontiguousarray(input._array)
        if array.ndim == 0 and array.itemsize != np.dtype(to_numpy_dtype(shape[0])).itemsize:
            raise RuntimeError("self.dim() cannot be 0 to view " + str(input.dtype) + " as " +
                               str(shape[0]) + " (different element sizes)")
        return plain_output(array.view(to_numpy_dtype(shape[0])), input)
    from .shape import _infer_shape, _sizes, _reshaped_without_copy, ViewBackward0
    from .._memory_format import with_pytorch_steps
    from . import result
    array = with_pytorch_steps(input)
    if _reshaped_without_copy(array, _infer_shape(_sizes(shape), array.size)) is not None:
        return view(input, *shape)
    # no view can show these elements so (a transposed input): the copy reads them in order
    new_shape = _infer_shape(_sizes(shape), array.size)
    return result(np.reshape(np.ascontiguousarray(array), new_shape), ViewBackward0, (input,),
                  input_shape=array.shape)


def _slice_view(input, dim=0, start=None, end=None, step=1):
    """``input[start:end:step]`` along ``dim`` as PyTorch's slice op (always a SliceBackward0)."""
    if input.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    return _slice(input, dim, slice(start, end, step), dim_as_given)


def _alias(input):
    from .._tensor import _alias as alias
    return alias(input)


view_copy = _copy_of(_view_as_dtype_or_shape, "view_copy")
expand_copy = _copy_of(expand, "expand_copy")
permute_copy = _copy_of(permute, "permute_copy")
transpose_copy = _copy_of(transpose, "transpose_copy")
t_copy = _copy_of(t, "t_copy")
diagonal_copy = _copy_of(diagonal, "diagonal_copy")
select_copy = _copy_of(select, "select_copy")
slice_copy = _copy_of(_slice_view, "slice_copy")
unsqueeze_copy = _copy_of(unsqueeze, "unsqueeze_copy")
squeeze_copy = _copy_of(squeeze, "squeeze_copy")
alias_copy = _copy_of(_alias, "alias_copy")
unfold_copy = _copy_of(unfold, "unfold_copy")
as_strided_copy = _copy_of(as_strided, "as_strided_copy")
split_copy = _pieces_copy(split, "split_copy")
unbind_copy = _pieces_copy(unbind, "unbind_copy")


def split_with_sizes_copy(input, split_sizes, dim=0):
    """``torch.split_with_sizes_copy``: pieces of the listed sizes along ``dim``, each a new
    contiguous tensor (not a view).

    Gradient: the pieces' gradients joined back along ``dim`` (SplitWithSizesBackward0_copy)."""
    return kernel_writes("split_copy", tuple(_copied(split(input, list(split_sizes), dim))), input)


class _DetachCopyBackward(_NotImplementedBackward):
    """result = detach_copy(self)   ->
        grad_self = error: PyTorch records a node that refuses to run (no derivative)"""

    _operation = "detach_copy"


_DetachCopyBackward.__name__ = _DetachCopyBackward.__qualname__ = "NotImplemented"


def detach_copy(input):
    """``torch.detach_copy``: a copy of ``input``'s values. Unlike ``detach()``, PyTorch still
    records it for an input that requires grad, with a node whose backward refuses to run
    (``derivative for aten::detach_copy is not implemented``)."""
    from . import result
    return kernel_writes("detach_copy", result(np.array(input._array, order="C"), _DetachCopyBackward, (input,)), input)


# --- unsafe_split, unsafe_chunk: the pieces of split and chunk, not treated as views ---------------

def unsafe_split(input, split_size, dim=0):
    """Like ``split``, but the pieces are not tracked as views of ``input`` (they still share
    its memory): an in-place change of a piece is not checked against ``input``'s history.

    Gradient: the pieces' gradients joined back along ``dim`` (UnsafeSplitBackward0)."""
    return _unsafe(split(input, split_size, dim), input, UnsafeSplitBackward0)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """``unsafe_split`` with the sizes of the pieces listed.

    Gradient: the pieces' gradients joined back along ``dim`` (UnsafeSplitWithSizesBackward0)."""
    return _unsafe(split(input, list(split_sizes), dim), input, UnsafeSplitWithSizesBackward0)


def unsafe_chunk(input, chunks, dim=0):
    """Like ``chunk``, but the pieces are not tracked as views of ``input`` (see ``unsafe_split``).

    Gradient: the pieces' gradients joined back along ``dim`` (UnsafeSplitBackward0)."""
    from .shape import chunk
    pieces = chunk(input, chunks, dim)
    node_class = UnsafeSplitBackward0 if pieces and type(pieces[0]._grad_fn) is not \
        SplitWithSizesBackward0 else UnsafeSplitWithSizesBackward0
    return _unsafe(pieces, input, node_class)


def _unsafe(pieces, input, node_class):
    """``pieces`` (views made by split) as plain tensors sharing their memory, their node renamed."""
    node = pieces[0]._grad_fn if pieces else None
    if node is not None:
        node.__class__ = node_class
    out = []
    for piece in pieces:
        plain = plain_output(piece._array, input)
        plain._is_inference = piece._is_inference      # (pieces of an inference tensor are ones)
        plain._unsafe_piece = True      # (PyTorch's overlap checks look at its memory all the same)
        if node is not None:
            plain._grad_fn, plain._output_nr = node, piece._output_nr
        if _DualLevel.open and _tangent_of(piece) is not None:
            _set_tangent(plain, _tangent_of(piece))
        out.append(plain)
    return tuple(out)


COPY_FUNCTIONS = ("view_copy", "expand_copy", "permute_copy", "transpose_copy", "t_copy", "diagonal_copy",
                  "select_copy", "slice_copy", "unsqueeze_copy", "squeeze_copy", "alias_copy", "unfold_copy",
                  "as_strided_copy", "split_copy", "split_with_sizes_copy", "unbind_copy", "detach_copy")

__all__ = COPY_FUNCTIONS + ("unsafe_split", "unsafe_split_with_sizes", "unsafe_chunk")
