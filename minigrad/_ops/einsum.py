"""``einsum``: products and sums of tensors written as index equations, e.g. ``'ij,jk->ik'``.

Every letter names an axis. Letters shared by two operands are multiplied
together; letters missing from the output are summed over.

einsum has no backward formula of its own: like PyTorch, minigrad runs it as a
short program of ordinary operations, and autograd records *those*. So the
graph of ``einsum('ij,jk->ik', a, b)`` shows the same nodes as PyTorch's
(ViewBackward0, PermuteBackward0, BmmBackward0, UnsqueezeBackward0, ...), and
its gradient comes from their backward formulas. The program:

1. Line every operand up on one common list of axes: first the output's
   letters, then the letters that are summed away. A repeated letter (``'ii'``)
   becomes a diagonal; a letter the operand lacks becomes a size-1 axis
   (unsqueeze); then one permute puts the axes in the common order.
2. One operand: sum the summed-away axes. Done.
3. Several operands: contract them two at a time, left to right
   (``contract_pair``). An axis only one side still has is summed first; two
   operands without a shared summed axis are simply multiplied (broadcasting
   does the outer product); otherwise both are permuted and reshaped into
   3-D stacks of matrices, multiplied with ``bmm``, and the result is reshaped
   back. At the end a ``view`` drops the size-1 axes left by the sums.

PyTorch: torch.einsum (aten/src/ATen/native/Linear.cpp), which follows the
same steps (without the optional opt_einsum contraction order, which is off
when the opt_einsum package is not installed).
"""
import string

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap
from ..autograd.graph import Node
from .views import history_first
from . import result
from .shape import _make_view, _normalize_dim
from .._memory_format import with_pytorch_steps
from .linalg import _check_not_bool
from .. import _python_arg_parser

_ELLIPSIS = "..."


# --- diagonal: the view einsum takes for a repeated letter ('ii') -------------------------------

class DiagonalBackward0(Node):
    """result = self.diagonal(offset, dim1, dim2) (a view)   ->   grad_self = zeros of self's shape with grad written on that diagonal"""

    def backward(self, grad):
        full = np.zeros(self.input_shape, dtype=grad._array.dtype)
        diagonal(_wrap(full), self.offset, self.dim1, self.dim2)._array[...] = grad._array
        # recorded as PyTorch's diagonal_backward (a new tensor, not zeros changed in place:
        # version 0), so that create_graph=True can differentiate it
        return (result(full, DiagonalBackwardBackward0, (grad,), offset=self.offset,
                       dim1=self.dim1, dim2=self.dim2),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.diagonal(offset, dim1, dim2)"""
        return diagonal(tangents[0], self.offset, self.dim1, self.dim2)


class DiagonalBackwardBackward0(Node):
    """result = zeros with g written on a diagonal (diagonal's backward, recorded)   ->
        grad_g = grad.diagonal(offset, dim1, dim2)"""

    def backward(self, grad):
        return (diagonal(grad, self.offset, self.dim1, self.dim2),)


@history_first
def diagonal(input, offset=0, dim1=0, dim2=1):
    """A view of the diagonal of ``input`` over dims ``dim1`` and ``dim2``, as the last dim.

    ``offset`` > 0 takes a diagonal above the main one, < 0 below it.
    """
    ndim = input.ndim
    dims_as_given = (dim1, dim2)          # (grad_fn._saved_dim1 / _saved_dim2 show them)
    dim1, dim2 = _normalize_dim(dim1, ndim), _normalize_dim(dim2, ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    array = with_pytorch_steps(input)
    rows, cols = array.shape[dim1], array.shape[dim2]
    start = [0] * ndim
    if offset >= 0:
        length = max(0, min(rows, cols - offset))
        start[dim2] = min(offset, cols)
    else:
        length = max(0, min(rows + offset, cols))
        start[dim1] = min(-offset, rows)
    # one step along the diagonal moves one row *and* one column: the two strides added
    others = [d for d in range(ndim) if d not in (dim1, dim2)]
    shape = [array.shape[d] for d in others] + [length]
    strides = [array.strides[d] for d in others] + [array.strides[dim1] + array.strides[dim2]]
    corner = array[tuple(slice(s, None) for s in start)] if length else array
    out_array = np.lib.stride_tricks.as_strided(corner, shape, strides,
                                                writeable=array.flags.writeable)
    out = result(out_array, DiagonalBackward0, (input,), input_shape=array.shape,
                 offset=offset, dim1=dim1, dim2=dim2, dims_as_given=dims_as_given)
    return _make_view(out, input)


# --- reading the equation ----------------------------------------------------------------------

def _label_order(letter):
    """PyTorch numbers the letters A..Z, then a..z: summed letters are lined up in that order."""
    return (letter.islower(), letter)


def _parse(equation, operands):
    """Each operand's letters (with '...' kept as one item), the output's, and the ellipsis size.

    The equation is read one character at a time, as PyTorch reads it, so that
    a mistake gets PyTorch's message (and the position PyTorch reports).
    """
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at "
                         "least one operand and its subscripts list")
    arrow = equation.find("->")
    lhs = equation if arrow == -1 else equation[:arrow]
    labels = _read_letters(lhs, 0, operands)
    if len(labels) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    ellipsis_ndim = 0
    for k, (items, operand) in enumerate(zip(labels, operands)):
        letters = len(items) - (1 if _ELLIPSIS in items else 0)
        if _ELLIPSIS in items:
            ellipsis_ndim = max(ellipsis_ndim, operand.ndim - letters)
        if (letters != operand.ndim if _ELLIPSIS not in items else letters > operand.ndim):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({letters}) does not match "
                f"the number of dimensions ({operand.ndim}) for operand {k}"
                + ("" if _ELLIPSIS in items else " and no ellipsis was given"))
    if arrow != -1:
        (out_labels,) = _read_letters(equation[arrow + 2:], arrow + 2, None)
        for k, c in enumerate(out_labels):
            if c == _ELLIPSIS:
                continue
            if c in out_labels[:k]:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            if not any(c in items for items in labels):
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                                   "equation for any input operand")
    else:       # implicit output: the ellipsis, then the letters used exactly once
        used = [c for items in labels for c in items if c != _ELLIPSIS]
        out_labels = [_ELLIPSIS] + sorted((c for c in set(used) if used.count(c) == 1),
                                          key=_label_order)
    return labels, out_labels, ellipsis_ndim


def _read_letters(text, start, operands):
    """'ij,j...' -> [['i', 'j'], ['j', '...']]: one list per operand; operands=None reads the output."""
    groups, i = [[]], 0
    while i < len(text):
        c = text[i]
        whose = "output" if operands is None else f"operand {len(groups) - 1}"
        if c == " ":
            pass
        elif c == ".":
            if _ELLIPSIS in groups[-1]:
                raise RuntimeError(f"einsum(): found '.' for {whose} "
                                   + ("but an ellipsis (...) was already found" if operands is None
                                      else "for which an ellipsis was already found"))
            if not text.startswith(_ELLIPSIS, i):
                raise RuntimeError(f"einsum(): found '.' for {whose} that is not part of any ellipsis"
                                   + (" (...)" if operands is None else ""))
            groups[-1].append(_ELLIPSIS)
            i += 2
        elif c == "," and operands is not None:
            if len(groups) == len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            groups.append([])
        elif c in string.ascii_letters:
            groups[-1].append(c)
        else:
            raise RuntimeError(f"einsum(): invalid subscript given at index {start + i} in the "
                               "equation string, subscripts must be in [a-zA-Z]")
        i += 1
    return groups


def _check_sizes(labels, operands, ellipsis_ndim):
    """Letters (and ellipsis dims) must have one size, or size 1, in every operand (PyTorch's messages)."""
    sizes, ellipsis_sizes = {}, [1] * ellipsis_ndim
    for k, (items, operand) in enumerate(zip(labels, operands)):
        own, j = {}, 0
        for c in items:
            if c == _ELLIPSIS:
                covered = operand.ndim - (len(items) - 1)
                for e in range(covered):
                    position = ellipsis_ndim - covered + e
                    n, seen = operand.shape[j + e], ellipsis_sizes[position]
                    if n != seen and n != 1 and seen != 1:
                        raise RuntimeError(
                            f"einsum(): dimension {position} covered by ellipsis in operand {k}"
                            f"has size {n} which does not broadcast with previously seen ellipsis "
                            "with size "f"{seen} for the respective dimension")
                    ellipsis_sizes[position] = max(n, seen) if seen == 1 else seen
                j += covered
                continue
            n = operand.shape[j]
            if c in own and own[c] != n:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {k} but the "
                                   f"sizes don't match, {n} != {own[c]}")
            own[c] = n
            if c in sizes and sizes[c] != n and n != 1 and sizes[c] != 1:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {n} for operand {k} which does not "
                    f"broadcast with previously seen size {sizes[c]}")
            sizes[c] = n if c not in sizes or sizes[c] == 1 else sizes[c]
            j += 1


# --- step 1: every operand on the common list of axes ------------------------------------------

def _axis_positions(labels, out_labels, ellipsis_ndim):
    """Where each letter (and each ellipsis dim) sits in the common order; the output's count."""
    position, next_free = {}, 0
    for c in out_labels:
        if c == _ELLIPSIS:
            position.update({("...", e): next_free + e for e in range(ellipsis_ndim)})
            next_free += ellipsis_ndim
        else:
            position[c] = next_free
            next_free += 1
    out_ndim = next_free
    if _ELLIPSIS not in out_labels:         # ellipsis dims missing from the output are summed
        position.update({("...", e): next_free + e for e in range(ellipsis_ndim)})
        next_free += ellipsis_ndim
    summed = sorted({c for items in labels for c in items if c != _ELLIPSIS} - set(position),
                    key=_label_order)
    for c in summed:
        position[c] = next_free
        next_free += 1
    return position, out_ndim, next_free


def _line_up(operand, items, position, ellipsis_ndim, total_ndim):
    """Diagonals for repeated letters, size-1 axes for missing ones, then one permute."""
    source_dim = [-1] * total_ndim      # which dim of the operand goes to each common axis
    first_seen, j, original_ndim = {}, 0, operand.ndim
    for c in items:
        if c == _ELLIPSIS:
            # fewer ellipsis dims: they are the last ones (broadcast from the left); the missing
            # first ones are added at the end with the missing letters, as PyTorch adds them
            covered = original_ndim - (len(items) - 1)
            for e in range(ellipsis_ndim - covered, ellipsis_ndim):
                source_dim[position[("...", e)]] = j
                j += 1
        elif c in first_seen:
            # 'ii': keep the diagonal, moved back to where the first i was
            dim = first_seen[c]
            operand = operand.diagonal(0, dim, j)     # (a method: vmap batches it)
            order = list(range(operand.ndim - 1))
            order.insert(dim, operand.ndim - 1)
            operand = operand.permute(order)
        else:
            first_seen[c] = j
            source_dim[position[c]] = j
            j += 1
    for axis, dim in enumerate(source_dim):
        if dim == -1:                        # a letter this operand does not have
            operand = operand.unsqueeze(j)   # (j == operand.ndim: the node shows this dim, as PyTorch's)
            source_dim[axis] = j
            j += 1
    return operand.permute(source_dim)


# --- step 3: two operands at a time ------------------------------------------------------------

def contract_pair(left, right, summed_dims):
    """sum over ``summed_dims`` of left * right, both lined up; the summed dims are kept as size 1.

    Multiplying and summing is a batched matrix product once the dims are sorted
    into four groups: in both and kept (the batch), only in left (rows), summed
    (the inner dim), only in right (columns).
    """
    if not summed_dims:
        return left * right
    if left.dtype.name == "bool":           # (PyTorch's batched product has no bool version)
        _check_not_bool(left, "bmm")
    both, left_only, right_only = [], [], []
    batch = rows = inner = cols = 1
    for d in range(left.ndim):
        in_left, in_right = left.shape[d] != 1, right.shape[d] != 1
        if d in summed_dims:
            if in_left and in_right:
                inner *= left.shape[d]
            elif in_left:
                left = left.sum(d, keepdim=True)
            elif in_right:
                right = right.sum(d, keepdim=True)
        elif in_left and in_right:
            both.append(d)
            batch *= left.shape[d]
        elif in_left:
            left_only.append(d)
            rows *= left.shape[d]
        else:
            right_only.append(d)
            cols *= right.shape[d]
    summed_dims = list(summed_dims)
    grouped = both + left_only + summed_dims + right_only
    out_shape = ([left.shape[d] for d in both + left_only] + [1] * len(summed_dims)
                 + [right.shape[d] for d in right_only])
    left = left.permute(grouped).reshape(batch, rows, inner)
    right = right.permute(both + summed_dims + right_only + left_only).reshape(batch, inner, cols)
    product = left.bmm(right)
    # the product's dims come in the order both, left_only, summed (size 1), right_only: undo that
    back = [grouped.index(d) for d in range(len(grouped))]
    return product.view(out_shape).permute(back)


# --- the whole program -------------------------------------------------------------------------

def einsum(equation, *operands):
    """Sum of products over the letters of ``equation``, e.g. ``einsum('ij,jk->ik', a, b)`` = a @ b.

    Gradient for each operand: an einsum of grad with the other operands, back to that
    operand's letters.
    """
    if _python_arg_parser.refuse_uninitialized is not None:     # (a lazy module's parameter exists)
        _python_arg_parser.refuse_uninitialized(f"<function einsum at {hex(id(einsum))}>", operands, {})
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not "
                        f"{type_name(equation)}")
    for k, operand in enumerate(operands):
        if not isinstance(operand, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument 1, but got "
                            f"{type_name(operand)}")
    labels, out_labels, ellipsis_ndim = _parse(equation, operands)
    _check_sizes(labels, operands, ellipsis_ndim)
    position, out_ndim, total_ndim = _axis_positions(labels, out_labels, ellipsis_ndim)
    lined_up = [_line_up(operand, items, position, ellipsis_ndim, total_ndim)
                for operand, items in zip(operands, labels)]
    summed_axes = range(out_ndim, total_ndim)
    if len(lined_up) == 1:
        only = lined_up[0]
        return only.sum(tuple(summed_axes)) if summed_axes else only
    # how many operands still have each summed axis (size > 1): when only the two being
    # contracted have it, it can be summed now; when only one has it, that one sums it first
    holders = {d: sum(op.shape[d] != 1 for op in lined_up) for d in summed_axes}
    out = lined_up[0]
    for other in lined_up[1:]:
        now, out_alone, other_alone = [], [], []
        for d in summed_axes:
            if out.shape[d] != 1 and other.shape[d] != 1:
                holders[d] -= 1
                if holders[d] == 1:
                    now.append(d)
                    holders[d] = 0
            elif holders[d] == 1:
                if out.shape[d] != 1:
                    out_alone.append(d)
                    holders[d] = 0
                elif other.shape[d] != 1:
                    other_alone.append(d)
                    holders[d] = 0
        if out_alone:
            out = out.sum(out_alone, keepdim=True)
        if other_alone:
            other = other.sum(other_alone, keepdim=True)
        out = contract_pair(out, other, now)
    if summed_axes:             # the summed axes are size 1 now: drop them
        out = out.view(tuple(out.shape[:out_ndim]))
    return out
