"""Matrix products written in place into memory seen at several positions: addmm_, addbmm_,
baddbmm_, addr_ into overlapping windows (``unfold``, ``as_strided``).

As for the operations of overlapping_writes.py, a location seen at several positions is
written several times, and what it finally holds depends on the order PyTorch writes in.
The functions here replay that order in numpy, in the tensor's own memory, and give the
values the tensor's positions read at the end (overlapping_writes.written_in_place).

The orders, from PyTorch's CPU kernels (aten/src/ATen/native/LinearAlgebra.cpp), checked
against PyTorch by experiment:

* addmm_ (``addmm_written``): a result that BLAS cannot write directly (steps that overlap
  never fit BLAS's layout) is computed in a column-major copy (``beta * self + alpha * mat1 @
  mat2``, every value of self read first), then copied back: the copy's loop runs over the
  result's steps and the copy's, so column by column where the result's steps tie. An empty
  product (``mat1`` with 0 columns) multiplies self by beta in place, position by position
  (a location seen twice is multiplied twice), or zeroes it (beta 0).
* addbmm_ (``addbmm_written``): one addmm_ per batch, beta for the first, 1 for the others.
* baddbmm_ (``baddbmm_written``): for small products (contraction * rows * columns < 400) a
  loop over batch, row and column that adds up the products one by one and writes
  ``self * beta + alpha * sum`` (``alpha * sum`` for beta 0), reading self's location when it
  writes it; for larger ones one addmm_ per batch.
* addr_ (``addr_written``): a TensorIterator loop over self, vec1 as a column and vec2 as a
  row (``loop_positions``), each position ``beta * self + alpha * vec1 * vec2``.
"""
import numpy as np

from .overlapping_writes import _steps, loop_positions, written_in_place


def _scaled_in_loop_order(target, beta):
    """``target.mul_(beta)`` (or ``zero_()`` for beta 0) position by position in loop order."""
    for at in loop_positions(target.shape, (_steps(target), _steps(target))):
        target[at] = 0 if beta == 0 else target[at] * beta


def _number(value, dtype):
    """beta or alpha as the kernel's scalar_t (a float32 number for float32 tensors)."""
    return dtype.type(value)


def _addmm_in_place(target, mat1, mat2, beta, alpha):
    """One addmm_ into ``target`` (a 2-d view of the memory), in PyTorch's order."""
    if not target.size:
        return
    if mat1.shape[1] == 0:
        _scaled_in_loop_order(target, beta)
        return
    dtype = target.dtype
    with np.errstate(all="ignore"):
        product = np.asarray(np.matmul(mat1, mat2), dtype) * _number(alpha, dtype)
        values = product if beta == 0 else target * _number(beta, dtype) + product
    values = np.asfortranarray(values)            # (BLAS's result: column-major)
    for at in loop_positions(target.shape, (_steps(target), _steps(values))):
        target[at] = values[at]


def addmm_written(self, mat1, mat2, *, beta=1, alpha=1):
    """The values ``self.addmm_(mat1, mat2, beta=beta, alpha=alpha)`` leaves in PyTorch."""
    target, mat1, mat2 = self._array, mat1._array, mat2._array
    return written_in_place(target, lambda: _addmm_in_place(target, mat1, mat2, beta, alpha))


def addbmm_written(self, batch1, batch2, *, beta=1, alpha=1):
    """The values ``self.addbmm_(batch1, batch2, ...)`` leaves: one addmm_ per batch."""
    target, batch1, batch2 = self._array, batch1._array, batch2._array

    def write():
        if not len(batch1):
            _scaled_in_loop_order(target, beta)
        for b in range(len(batch1)):
            _addmm_in_place(target, batch1[b], batch2[b], beta if b == 0 else 1, alpha)
    return written_in_place(target, write)


def baddbmm_written(self, batch1, batch2, *, beta=1, alpha=1):
    """The values ``self.baddbmm_(batch1, batch2, ...)`` leaves in PyTorch."""
    target, batch1, batch2 = self._array, batch1._array, batch2._array
    count, rows, inner = batch1.shape
    columns = batch2.shape[2]
    dtype = target.dtype

    def small_products():
        beta_, alpha_ = _number(beta, dtype), _number(alpha, dtype)
        for b in range(count):
            for i in range(rows):
                for j in range(columns):
                    total = dtype.type(0)
                    for k in range(inner):
                        total = total + batch1[b, i, k] * batch2[b, k, j]
                    if beta == 0:
                        target[b, i, j] = alpha_ * total
                    else:
                        target[b, i, j] = target[b, i, j] * beta_ + alpha_ * total

    def write():
        if not target.size:
            return
        if inner == 0:
            _scaled_in_loop_order(target, beta)
        elif inner * rows * columns < 400:
            small_products()
        else:
            for b in range(count):
                _addmm_in_place(target[b], batch1[b], batch2[b], beta, alpha)
    return written_in_place(target, write)


def addr_written(self, vec1, vec2, *, beta=1, alpha=1):
    """The values ``self.addr_(vec1, vec2, ...)`` leaves: an elementwise loop."""
    target, vec1, vec2 = self._array, vec1._array, vec2._array
    dtype = target.dtype
    column = np.broadcast_to(vec1.reshape(-1, 1), target.shape)
    row = np.broadcast_to(vec2, target.shape)
    beta_, alpha_ = _number(beta, dtype), _number(alpha, dtype)

    def write():
        for at in loop_positions(target.shape, (_steps(target), _steps(target), _steps(column), _steps(row))):
            scaled = alpha_ * column[at] * row[at]
            target[at] = scaled if beta == 0 else beta_ * target[at] + scaled
    return written_in_place(target, write)
