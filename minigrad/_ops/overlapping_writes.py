"""Writing in place into memory read at several positions, in the order PyTorch's loops write.

PyTorch cannot cheaply tell whether a view sees one memory location at several positions
(the overlapping windows of ``unfold`` or ``as_strided``), so its in-place kernels let such
a view through and write element after element: a location seen twice is written twice,
and what it finally holds depends on the order of the loop. Computing out of place and
writing every position back (``inplace.apply_inplace``) would leave another value, so the
functions here replay PyTorch's loops in numpy, in the tensor's own memory, and give the
values the tensor's positions read at the end (the memory is then put back as it was: the
caller writes those values again and records the change, as for any in-place operation).

The orders, found in PyTorch's kernels and checked against PyTorch by experiment:

* the positions of a TensorIterator loop (``loop_positions``): its operands' dimensions
  sorted by their steps (``inplace.memory_order``), the fastest innermost;
* scatter_, scatter_add_, scatter_reduce_ (``scattered``, ``scatter_reduced``): row after
  row of the index, along a row position by position or k by k (see there);
* index_copy_ and index_put_ (``index_copied``, ``index_put``): a TensorIterator loop over
  the slices' elements, whose output is self with step 0 along the indexed dimensions;
* index_reduce_ (``index_reduced``): slice after slice, each an elementwise loop;
* put_ (``put``): a TensorIterator loop over source and index;
* masked_scatter_ (``masked_scattered``): the positions in row-major order;
* cumsum_ and cumprod_ (``accumulated``): row after row, along each row in order.

Elementwise operations (addcmul_, lerp_, ...) replay their loop with
``inplace.elementwise_in_loop_order``.
"""
import numpy as np

from .._memory_format import empty_laid_out_like
from .inplace import memory_order


def _steps(array):
    """An array's steps in elements (PyTorch's strides)."""
    return [step // array.itemsize for step in array.strides]


def loop_positions(shape, operands):
    """Every position of ``shape`` in the order of a TensorIterator loop over operands with
    the given steps (output first): the fastest dimension innermost."""
    slowest_first = memory_order([list(steps) for steps in operands], shape)[::-1]
    for place in np.ndindex(*[shape[d] for d in slowest_first]):
        position = [0] * len(shape)
        for d, i in zip(slowest_first, place):
            position[d] = i
        yield tuple(position)


def written_in_place(target, write):
    """The values ``target``'s positions read after ``write()`` changed its memory in place
    (``target`` is then put back as it was: every position that shares a location held the
    same value before, so writing them all back restores it)."""
    before = target.copy()
    with np.errstate(all="ignore"):       # overflow, 0/0: inf and nan silently, as in PyTorch
        write()
    values = target.copy()
    target[...] = before
    return values


def scattered(target, dim, index, source, combine):
    """scatter_ and its reductions, in ``target``'s own memory in PyTorch's order:
    ``combine(old, new)`` gives what a location holds after ``new`` is scattered onto
    ``old`` (``None``: replaced). ``source`` may be a number broadcast over index.

    PyTorch walks the index's positions with dim left out, in memory order (``memory_order``),
    row by row; along a row (the fastest dimensions it can walk as one) it takes, for each
    position, every k along dim, or, for each k, every position of the row: the first when
    dim is self's last."""
    shape = list(index.shape)
    count, shape[dim] = shape[dim], 1
    operands = [_steps(array) for array in (target, source, index)]
    order = [d for d in memory_order(operands, shape) if shape[d] != 1]
    row, length = [], 1
    for d in order:          # the fastest dimensions that follow one another in every operand
        if row and any(steps[d] != steps[row[-1]] * shape[row[-1]] for steps in operands):
            break
        row.append(d)
        length *= shape[d]
    outer = [d for d in order if d not in row]

    def positions(dims):     # every position over ``dims``, the first one fastest
        for place in np.ndindex(*[shape[d] for d in reversed(dims)]):
            yield dict(zip(reversed(dims), place))

    def step(position, k):
        at = [position.get(d, 0) for d in range(len(shape))]
        at[dim] = k
        written = list(at)
        written[dim] = int(index[tuple(at)])
        at, written = tuple(at), tuple(written)
        target[written] = source[at] if combine is None else combine(target[written], source[at])

    def write():
        by_position = dim == target.ndim - 1
        for outside in positions(outer):
            row_positions = [{**outside, **inside} for inside in positions(row)]
            if by_position:
                for position in row_positions:
                    for k in range(count):
                        step(position, k)
            else:
                for k in range(count):
                    for position in row_positions:
                        step(position, k)
    return written_in_place(target, write)


def _maximum(old, new):
    """PyTorch's scatter amax: a NaN from src wins, else std::max (which keeps a NaN in self)."""
    return new if np.isnan(new) or old < new else old


def _minimum(old, new):
    return new if np.isnan(new) or new < old else old


# how scatter_reduce_ combines (mean adds up, then divides: see scatter_reduced)
SCATTER_REDUCTIONS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": _maximum,
                      "amin": _minimum, "add": np.add, "multiply": np.multiply}


def scatter_reduced(target, dim, index, source, reduce, include_self):
    """scatter_reduce_ in ``target``'s own memory, as PyTorch does it: without include_self,
    the receiving places first get the reduction's starting value (a scatter_ of one number);
    then the scatter with ``reduce``; for "mean", each position is then divided by how many
    values it got (one more with include_self), element by element in loop order."""
    dtype = target.dtype

    def write():
        if not include_self:
            from .scatter_reduce import starting_value      # (lazy: it imports this module's users)
            fill = np.broadcast_to(np.asarray(starting_value(reduce, dtype), dtype=dtype), index.shape)
            target[...] = scattered(target, dim, index, fill, None)
        target[...] = scattered(target, dim, index, source, SCATTER_REDUCTIONS[reduce])
        if reduce == "mean":
            counts = empty_laid_out_like(target, dtype)      # (PyTorch's ones_like: its layout
            counts[...] = 1 if include_self else 0           # sets the division's loop order)
            np.add.at(counts, _places(index, dim), 1)
            counts[counts == 0] = 1
            for position in loop_positions(target.shape, (_steps(target), _steps(target), _steps(counts))):
                if dtype.kind == "f":
                    target[position] = target[position] / counts[position]
                else:
                    target[position] = target[position] // counts[position]
    return written_in_place(target, write)


def _places(index, dim):
    """numpy's index of the places ``index`` points to along ``dim`` (its own position elsewhere)."""
    places = list(np.indices(index.shape, sparse=True))
    places[dim] = index
    return tuple(places)


def index_copied(target, dim, positions, source):
    """index_copy_ in ``target``'s own memory: slice positions[k] along dim gets source's slice
    k, element after element in the order of PyTorch's loop, whose operands are self with step
    0 along dim (the kernel adds positions[k] times dim's step), the index and the source."""
    shape = source.shape if source.ndim else (1,)
    written = target if target.ndim else target.reshape(1)
    read = source.reshape(shape)
    steps_written = _steps(written)
    steps_written[dim] = 0
    steps_index = [0] * len(shape)
    steps_index[dim] = 1
    steps_read = _steps(read)

    def write():
        for at in loop_positions(shape, (steps_written, steps_index, steps_read)):
            to = list(at)
            to[dim] = int(positions[at[dim]])
            written[tuple(to)] = read[at]
    return written_in_place(target, write)


def index_put(target, index, values, accumulate):
    """index_put_ (``target[index] = values``, or ``+=``) in ``target``'s own memory, element
    after element in PyTorch's order; ``index`` holds integer or bool arrays and full slices.
    None if the index has anything else (the caller then computes as usual).

    PyTorch's loop (a TensorIterator) runs over the indexing result's shape: its output is
    self with step 0 along the indexed dimensions (the kernel adds the indices times their
    steps), then come the values and each index (a bool mask becomes the columns of its
    nonzero(), steps of its number of dimensions)."""
    arrays, dims = [], []             # the integer indices and the dims of target they index
    d = 0
    for item in index:
        if isinstance(item, slice):
            if item != slice(None):
                return None
            d += 1
            continue
        item = np.asarray(item)
        if item.dtype == bool:
            columns = np.ascontiguousarray(np.stack(np.nonzero(item), axis=1)) if item.ndim else None
            if columns is None:
                return None
            arrays += [columns[:, j] for j in range(item.ndim)]
            dims += list(range(d, d + item.ndim))
            d += item.ndim
        elif item.dtype.kind in "iu":
            arrays.append(item)
            dims.append(d)
            d += 1
        else:
            return None
    if not arrays or d > target.ndim:
        return None
    block = np.broadcast_shapes(*[a.shape for a in arrays])
    rest = [d for d in range(target.ndim) if d not in dims]
    adjacent = dims == list(range(dims[0], dims[-1] + 1))
    before = [d for d in rest if d < dims[0]] if adjacent else []
    after = [d for d in rest if d not in before]
    shape = tuple(target.shape[d] for d in before) + block + tuple(target.shape[d] for d in after)
    steps = _steps(target)
    zeros = [0] * len(block)
    steps_written = [steps[d] for d in before] + zeros + [steps[d] for d in after]
    values = np.broadcast_to(values, shape)
    steps_index = [[0] * len(before) + _steps(np.broadcast_to(a, block)) + [0] * len(after)
                   for a in arrays]
    operands = [steps_written, _steps(values)] + steps_index
    lead = len(before)

    def write():
        for at in loop_positions(shape, operands):
            inside = at[lead:lead + len(block)]
            to = [0] * target.ndim
            for d, i in zip(before, at[:lead]):
                to[d] = i
            for d, i in zip(after, at[lead + len(block):]):
                to[d] = i
            for d, a in zip(dims, arrays):
                to[d] = int(np.broadcast_to(a, block)[inside]) % target.shape[d]
            to = tuple(to)
            target[to] = target[to] + values[at] if accumulate else values[at]
    return written_in_place(target, write)


def put(target, positions, source, accumulate):
    """put_ in ``target``'s own memory: source's elements written (or added) at the flat
    positions in target's row-major order, in the order of a TensorIterator loop over the
    source and the index (viewed with source's shape)."""
    shape = source.shape
    index = positions.reshape(shape)

    def write():
        for at in loop_positions(shape, (_steps(source), _steps(index))):
            flat = int(index[at]) % max(target.size, 1)
            to = np.unravel_index(flat, target.shape) if target.ndim else ()
            target[to] = target[to] + source[at] if accumulate else source[at]
    return written_in_place(target, write)


def masked_scattered(target, where, source):
    """masked_scatter_ in ``target``'s own memory: the places where ``where`` (the mask,
    broadcast) is True take source's elements one after the other, in row-major order of the
    positions (PyTorch's kernel asks its loop for that order)."""
    flat = source.reshape(-1)

    def write():
        taken = 0
        for position in np.ndindex(*target.shape):
            if where[position]:
                target[position] = flat[taken]
                taken += 1
    return written_in_place(target, write)


def index_reduced(target, dim, positions, source, reduce, include_self):
    """index_reduce_ in ``target``'s own memory, as PyTorch does it: without include_self, the
    receiving slices first get the reduction's starting value; then slice after slice (slice
    positions[k] along dim with source's slice k), each element after element in loop order;
    for "mean", each position is then divided by how many values it got (see scatter_reduced)."""
    dtype = target.dtype
    if target.ndim <= 1:
        written, read, dim = target.reshape(-1), source.reshape(-1), 0
    else:
        written, read = target, source
    slices, source_slices = np.moveaxis(written, dim, 0), np.moveaxis(read, dim, 0)
    combine = {"prod": np.multiply, "mean": np.add, "amax": _maximum, "amin": _minimum}[reduce]

    def write():
        if not include_self:
            start = {"mean": 0, "prod": 1, "amax": -np.inf if dtype.kind == "f" else np.iinfo(dtype).min,
                     "amin": np.inf if dtype.kind == "f" else np.iinfo(dtype).max}[reduce]
            for position in positions:
                slices[position] = start
        for k, position in enumerate(positions):
            into, added = slices[position], source_slices[k]
            for at in loop_positions(into.shape, (_steps(into), _steps(into), _steps(added))):
                into[at] = combine(into[at], added[at])
        if reduce == "mean":
            counts = empty_laid_out_like(written, dtype)
            counts[...] = 1 if include_self else 0
            np.add.at(np.moveaxis(counts, dim, 0), positions, 1)
            counts[counts == 0] = 1
            for at in loop_positions(written.shape, (_steps(written), _steps(written), _steps(counts))):
                written[at] = written[at] / counts[at] if dtype.kind == "f" else written[at] // counts[at]
    return written_in_place(target, write)


def accumulated(target, dim, combine, start):
    """cumsum_ (``combine`` np.add, ``start`` 0) or cumprod_ (np.multiply, 1) in ``target``'s
    own memory: row after row along ``dim`` in the order of PyTorch's loop, each row read and
    written element after element, the running total kept as PyTorch keeps it (in float64 for
    float32, in int64 for integers) and stored after each step."""
    kind = target.dtype.kind
    running = np.float64 if target.dtype == np.float32 else np.int64 if kind in "iu" else target.dtype.type
    shape = list(target.shape)
    count, shape[dim] = shape[dim], 1
    steps = _steps(target)

    def write():
        for row in loop_positions(shape, (steps, steps)):
            total = running(start)
            at = list(row)
            for i in range(count):
                at[dim] = i
                total = combine(total, running(target[tuple(at)]))
                target[tuple(at)] = total
    return written_in_place(target, write)
