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
  row (``loop_positions``), each position ``beta * self + alpha * vec1 * vec2`` (rounded as
  in blas.addr_values).
"""
import numpy as np

from .blas import addr_values
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


def _addbmm_in_place(target, batch1, batch2, beta, alpha):
    """One addbmm_ into ``target``: one addmm_ per batch (beta for the first, then 1)."""
    if not len(batch1):
        _scaled_in_loop_order(target, beta)
    for b in range(len(batch1)):
        _addmm_in_place(target, batch1[b], batch2[b], beta if b == 0 else 1, alpha)


def addbmm_written(self, batch1, batch2, *, beta=1, alpha=1):
    """The values ``self.addbmm_(batch1, batch2, ...)`` leaves: one addmm_ per batch."""
    target, batch1, batch2 = self._array, batch1._array, batch2._array
    return written_in_place(target, lambda: _addbmm_in_place(target, batch1, batch2, beta, alpha))


def _baddbmm_in_place(target, batch1, batch2, beta, alpha):
    """One baddbmm_ into ``target`` (a 3-d view of the memory), in PyTorch's order."""
    count, rows, inner = batch1.shape
    columns = batch2.shape[2]
    if not target.size:
        return
    if inner == 0:
        _scaled_in_loop_order(target, beta)
    elif inner * rows * columns < 400:
        dtype = np.dtype(np.float32) if target.dtype == np.float16 else target.dtype   # (opmath_t)
        beta_, alpha_ = _number(beta, dtype), _number(alpha, dtype)
        for b in range(count):
            for i in range(rows):
                for j in range(columns):
                    total = dtype.type(0)
                    for k in range(inner):
                        total = total + dtype.type(batch1[b, i, k]) * dtype.type(batch2[b, k, j])
                    if beta == 0:
                        target[b, i, j] = alpha_ * total
                    else:
                        target[b, i, j] = dtype.type(target[b, i, j]) * beta_ + alpha_ * total
    else:
        for b in range(count):
            _addmm_in_place(target[b], batch1[b], batch2[b], beta, alpha)


def baddbmm_written(self, batch1, batch2, *, beta=1, alpha=1):
    """The values ``self.baddbmm_(batch1, batch2, ...)`` leaves in PyTorch."""
    target, batch1, batch2 = self._array, batch1._array, batch2._array
    return written_in_place(target, lambda: _baddbmm_in_place(target, batch1, batch2, beta, alpha))


def _addr_in_place(target, input, vec1, vec2, beta, alpha):
    """addr into ``target`` from ``input`` (target itself for addr_): an elementwise loop."""
    dtype = target.dtype
    column = np.broadcast_to(vec1.reshape(-1, 1), target.shape)
    row = np.broadcast_to(vec2, target.shape)
    input = np.broadcast_to(input, target.shape)
    beta_, alpha_ = _number(beta, dtype), _number(alpha, dtype)
    operands = [_steps(a) for a in (target, input, column, row)]
    for at in loop_positions(target.shape, operands):
        if dtype.kind == "f":          # (rounded as PyTorch's loop rounds: blas.addr_values)
            target[at] = addr_values(input[at], column[at], row[at], beta, alpha)
        else:
            scaled = alpha_ * column[at] * row[at]
            target[at] = scaled if beta == 0 else beta_ * input[at] + scaled


def addr_written(self, vec1, vec2, *, beta=1, alpha=1):
    """The values ``self.addr_(vec1, vec2, ...)`` leaves: an elementwise loop."""
    target, vec1, vec2 = self._array, vec1._array, vec2._array
    return written_in_place(target, lambda: _addr_in_place(target, target, vec1, vec2, beta, alpha))


# --- out=: torch.addmm(input, mat1, mat2, out=windows) ------------------------------------------

def _copied_in_loop_order(target, source):
    """``target.copy_(source)`` position by position in the order of copy_'s loop."""
    source = np.broadcast_to(source, target.shape)
    for at in loop_positions(target.shape, (_steps(target), _steps(source))):
        target[at] = source[at]


def _as_in_place(write):
    """The out= form of an in-place writer: input is first copied into out (unless beta is 0,
    which ignores it), then out changes in place."""
    def into_out(target, input, first, second, beta, alpha):
        if beta != 0:
            _copied_in_loop_order(target, input)
        write(target, first, second, beta, alpha)
    return into_out


_INTO_OUT = {
    "addmm": _as_in_place(_addmm_in_place), "addbmm": _as_in_place(_addbmm_in_place),
    "baddbmm": _as_in_place(_baddbmm_in_place), "addr": _addr_in_place,
    # (mm and bmm write beta 0, alpha 1 products: out's old values are not read)
    "mm": lambda target, first, second: _addmm_in_place(target, first, second, 0, 1),
    "bmm": lambda target, first, second: _baddbmm_in_place(target, first, second, 0, 1),
}


def written_into_out(name, out, args, kwargs):
    """The values ``torch.<name>(*args, **kwargs, out=out)`` leaves in an ``out`` whose elements
    share memory, in PyTorch's order; None for functions or arguments not replayed here."""
    write = _INTO_OUT.get(name)
    target = out._array
    arrays = [getattr(a, "_array", None) for a in args]
    if (write is None or target.dtype.kind not in "fiu" or set(kwargs) - {"beta", "alpha"}
            or len(arrays) != (2 if name in ("mm", "bmm") else 3)
            or any(a is None or a.dtype != target.dtype for a in arrays)):
        return None
    if name in ("mm", "bmm"):
        return written_in_place(target, lambda: write(target, *arrays))
    beta, alpha = kwargs.get("beta", 1), kwargs.get("alpha", 1)
    return written_in_place(target, lambda: write(target, *arrays, beta, alpha))
