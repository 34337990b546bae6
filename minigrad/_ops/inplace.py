"""Changing a tensor in place: add_, sub_, mul_, div_, zero_, fill_, x += y, copy_, ...

PyTorch's rules, which the lessons teach:

* a leaf that requires grad may not change in place while recording (that is
  why parameter updates happen inside ``no_grad``);
* every in-place change bumps the tensor's version counter, so that backward
  can refuse to use a saved tensor that changed after it was saved;
* a recorded in-place change gives the tensor a new ``grad_fn``: the tensor
  now stands for the result of the operation.

Without recording (the usual parameter update), numpy writes straight into
the tensor's memory, so no array as large as the parameter is allocated.
"""
import warnings
import weakref

import numpy as np
from numpy.lib.array_utils import byte_bounds

from .._type_names import type_name
from .._warnings import quietly
from .._tensor import _NEVER_CHANGED, Tensor, _wrap
from .._zero_tensor import refuse_change, zero_tensors_exist
from .._dtype import (scalar_type_name, from_numpy_dtype, result_type, cpp_type_name, check_python_int,
                      checked_scalar)
from ..autograd.forward_ad import _DualLevel, move_tangent, _with_tangent_of
from ..autograd.graph import InPlace, Node, SavedOutput, keep_settings, needs_grad, refuse_dtype
from ..autograd._saved_tensor_hooks import _Hooks, pack
from ..autograd.grad_mode import _State, _inference_tensors_exist, check_inplace_allowed, no_grad
from . import pointwise, result, shape
from .views import (_OVERLAP, check_view_inplace, check_history_kept, raise_no_grad_view_changed,
                    rebase_history, view_grad_fn)
from .. import random
from ..autograd.function import _FuncTransforms
from .._functorch import check_inplace_batching, check_inplace_randomness, warn_no_batching_rule

METHODS = ("add_", "sub_", "mul_", "div_", "pow_", "clamp_", "clip_", "copy_", "zero_", "fill_",
           "normal_", "uniform_", "bernoulli_", "exponential_")


def check_inplace(tensor, overlap_ok=False, others=(), copying=False, layout_only=False):
    """PyTorch's rules: a leaf that requires grad can't change in place while recording, nor
    can some views (views.check_view_inplace); a ZeroTensor can't change at all; memory seen
    twice (expand) can't be written.

    ``others``: the operation's other inputs (x.add_(y) is recorded when y requires grad);
    ``copying``: the change is copy_'s (PyTorch refuses a ZeroTensor in other words then);
    ``layout_only``: only the sizes and steps change (t_, squeeze_, ...), which a ZeroTensor allows."""
    # (an inference tensor outside inference mode is refused by bump_version, once the new
    # values are written, as in PyTorch, whose version counter refuses to count)
    # autograd's rules come first (PyTorch checks them before the operation runs) ...
    if tensor._base is not None:
        check_view_inplace(tensor, needs_grad((tensor,) + tuple(others)))
    elif _State.enabled and tensor._grad_fn is None and tensor._requires_grad:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation.\n"
            "minigrad hint: wrap the update in `with torch.no_grad():` (as optimisers do), or "
            "work on x.detach() / x.clone() instead."
        )
    # ... and it looks up the history of the other inputs (a lost one raises), all before the
    # kernel's own checks: the memory the others share with the tensor, their shapes, dtypes
    # (only while recording: under no_grad, as in an optimiser's step, nothing is looked up)
    if others and _State.enabled:
        check_history_kept(*others)
    # ... then the ZeroTensor's refusal (zeros without memory: see _zero_tensor.py) ...
    if zero_tensors_exist and not layout_only:
        refuse_change(tensor, copying)
    # ... then the operation's own: it can't write memory that it sees twice
    # (written out, not a call of refuse_memory_seen_twice: every in-place op passes here)
    if not overlap_ok and _sees_memory_twice(tensor):
        raise RuntimeError(_OVERLAP)


def refuse_memory_seen_twice(tensor):
    """The kernel's first check of the tensor it writes (check_inplace's last one, for an
    operation that checks autograd's rules before something else of its own)."""
    if _sees_memory_twice(tensor):
        raise RuntimeError(_OVERLAP)


def _sees_memory_twice(tensor):
    """A tensor check_inplace refuses to write: an expanded view (numpy's expand is read-only),
    or a piece of one that unsafe_split/unsafe_chunk cut (not a view, but the same memory)."""
    return not tensor._array.flags.writeable or (
        (tensor._base is not None or tensor._detached_from is not None or tensor._unsafe_piece)
        and _overlaps(tensor._array))


def arguments_before_overlap(tensor, trial, *others, always=False):
    """For kernels that check their arguments before the written tensor's own overlap
    (index_add_, put_, scatter_, cumsum_): where ``tensor`` sees memory twice (or ``always``),
    autograd's rules, then ``trial(copy, *others)`` on a copy of it (the arguments' errors),
    then (in the caller) the overlap's."""
    if always or _sees_memory_twice(tensor):
        check_inplace(tensor, overlap_ok=True, others=others)
        with no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")         # (warned again, if at all, by the real call)
            trial(_wrap(tensor._array.copy()), *(o.detach() if isinstance(o, Tensor) else o for o in others))


def refuse_reading_own_memory(self, source, arguments=None, index=None):
    """PyTorch refuses index_add_/scatter_/put_ from a dense ``source`` over self's memory (even
    the very same elements: they are read at other positions than they are written); put_
    refuses its ``index`` over self's memory too (it reads the positions while it writes).

    In PyTorch's order: autograd's rules, the kernel's checks of its arguments
    (``arguments()``: dim, dtypes, shapes), self's own overlap, then this one (the index's
    first)."""
    read = [other for other in (index, source) if isinstance(other, Tensor) and (
        other._version_counter is self._version_counter or _shares_memory_unversioned(self, other))]
    if not read:
        return
    others = (source,) if isinstance(source, Tensor) else ()
    check_inplace(self, overlap_ok=True, others=others)
    if arguments is not None:
        arguments()
    check_inplace(self, others=others)
    for other in read:
        _check_partial_overlap(self, other, full_ok=False)


def _overlaps(array):
    """True if two elements share memory (a dimension of size > 1 with stride 0, from expand);
    an empty tensor has no elements to share."""
    return array.size > 0 and any(stride == 0 and size > 1
                                  for stride, size in zip(array.strides, array.shape))


def overlaps_itself(array):
    """True if some memory location sits at several positions of ``array`` without a step of 0
    (the overlapping windows of ``unfold``, ``as_strided``): PyTorch cannot tell that cheaply,
    lets an in-place change through and works element by element, so a location seen twice
    is changed twice (``unfold(0, 3, 1).add_(1)`` adds 3 to the middle element)."""
    if array.flags.c_contiguous or array.size == 0:
        return False
    steps = sorted((abs(step), size) for step, size in zip(array.strides, array.shape) if size > 1)
    if any(step == 0 for step, _ in steps):
        return False               # (a step of 0 is refused: check_inplace)
    end = array.itemsize           # each step longer than all the smaller ones span: no overlap
    for step, size in steps:
        if step < end:
            break
        end += step * (size - 1)
    else:
        return False
    offsets = np.zeros((), np.int64)        # else: the byte offset of every element, compared
    for step, size in zip(array.strides, array.shape):
        offsets = np.add.outer(offsets, np.arange(size) * step)
    return np.unique(offsets).size < array.size


def pointwise_one_by_one(op):
    """An operation on tensors, as a function of single values (numpy scalars) for
    ``reading_its_own_writes``."""
    def elementwise(*values):
        return op(*(_wrap(np.asarray(value)) for value in values))._array[()]
    return elementwise


def _dense_bounds(array):
    """The bytes ``array`` covers, if its elements fill them exactly once (else None)."""
    start, end = byte_bounds(array)
    if end - start != array.size * array.itemsize:
        return None
    if any(stride <= 0 for stride, size in zip(array.strides, array.shape) if size > 1):
        return None
    return start, end


def _same_counter(tensor, other):
    """Do the two tensors share a version counter (one memory, seen by views or detach())?
    Read without making a counter: a tensor never changed nor viewed shares none yet."""
    versions = tensor._versions
    return other._versions is versions and versions is not _NEVER_CHANGED


def refuse_partial_overlap(tensor, other):
    """``tensor.op_(other)`` where ``other`` may be a view of tensor's memory: PyTorch's
    in-place binary operations refuse a partial overlap first, before shapes and dtypes."""
    if isinstance(other, Tensor) and (other._version_counter is tensor._version_counter
                                      or _shares_memory_unversioned(tensor, other)):
        _check_partial_overlap(tensor, other)


def _shares_memory_unversioned(tensor, other):
    """Memory shared without a shared version counter (the pieces of unsafe_split and
    unsafe_chunk): PyTorch's overlap check looks at the memory, so it applies to them too."""
    a, b = tensor._array, other._array
    if a.base is None and b.base is None and a is not b:
        return False        # each holds memory of its own (an update p -= lr * p.grad): no call
    versions = tensor._versions     # (read without making a counter: see Tensor._version_counter)
    return (other._versions is not versions or versions is _NEVER_CHANGED) and np.may_share_memory(a, b)


def _check_partial_overlap(tensor, other, full_ok=True):
    """x.mul_(x[::-1]): reading and writing overlapping memory in another order is refused.

    PyTorch's rule: only two dense tensors are compared; over the same bytes with the
    same strides is a full overlap, which is fine (not for index_add_, scatter_ and the
    like, which read ``other`` at other positions than they write: ``full_ok=False``); any
    other overlap is refused; anything not dense is let through (too hard to tell). The
    strides are compared as they are, those of size-1 dimensions too (x[0] = x with x of
    shape (1, 3) is refused)."""
    a, b = tensor._array, other._array
    if a.size == 0 or b.size == 0:
        return
    bounds_a, bounds_b = _dense_bounds(a), _dense_bounds(b)
    if bounds_a is None or bounds_b is None:
        return
    if bounds_a == bounds_b:
        if a.strides == b.strides and full_ok:        # (strides of different lengths differ)
            return
    elif not (bounds_a[0] < bounds_b[1] and bounds_b[0] < bounds_a[1]):
        return
    raise RuntimeError(
        "unsupported operation: some elements of the input tensor and the written-to tensor "
        "refer to a single memory location. Please clone() the tensor before performing the "
        "operation.")


def memory_order(operands, shape):
    """PyTorch's TensorIterator order of dimensions, fastest first (the order its loops run
    and a new result is laid out in), for operands given by their steps: sort by the steps
    (the first operand that tells two dimensions apart decides; a step of 0 tells nothing;
    equal steps put the shorter dimension first), by insertion from the last."""
    def should_swap(dim0, dim1):
        for steps in operands:
            step0, step1 = steps[dim0], steps[dim1]
            if step0 == 0 or step1 == 0:
                continue
            if step0 != step1:
                return 1 if step0 > step1 else -1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0
    return sort_dims_by_insertion(len(shape), should_swap)


def sort_dims_by_insertion(ndim, should_swap):
    """The dimensions ``ndim - 1, ..., 0`` sorted by insertion as PyTorch sorts them for a
    memory layout: ``should_swap(a, b)`` is 1 when ``a`` must move after ``b``, -1 when ``a``
    stays before ``b`` (which ends the walk back), 0 when it cannot tell (the walk goes on
    past ``b``). Not a plain ``sorted``: "cannot tell" is not "equal", and the result depends
    on this exact order of comparisons."""
    order = list(reversed(range(ndim)))
    for i in range(1, ndim):
        later = i
        for earlier in reversed(range(i)):
            comparison = should_swap(order[earlier], order[later])
            if comparison > 0:
                order[earlier], order[later] = order[later], order[earlier]
                later = earlier
            elif comparison < 0:
                break
    return order


def _reads_its_own_writes(tensor, other):
    """True if ``other`` (a tensor over the same memory, which PyTorch let through: see
    ``_check_partial_overlap``) reads memory that ``tensor`` writes, at other positions
    (not the same elements in the same order, where the order of the work doesn't matter)."""
    a, b = tensor._array, other._array
    if b.dtype != a.dtype or not np.shares_memory(a, b):
        return False
    try:
        if np.broadcast_shapes(b.shape, a.shape) != a.shape:
            return False           # (the operation's own error follows)
    except ValueError:
        return False
    b = np.broadcast_to(b, a.shape)
    return not (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
                and a.strides == b.strides)


def _values_in_loop_order(target, other, elementwise):
    """``elementwise(target, other)`` as PyTorch computes it in place when ``other`` (an array,
    or a tuple of them: clamp_'s two bounds) reads
    memory that ``target`` writes and PyTorch let it through (a view that isn't dense,
    so too hard to check): element after element, in the order of PyTorch's loops
    (``memory_order``), each reading ``other`` as it is at that moment, so a value
    already written is read again (``x -= x[0]`` of a transposed x leaves x[0] at 0
    first, then subtracts that 0 from the other rows). numpy would read the old values.

    Not reproduced: where PyTorch's innermost loop runs over consecutive elements in
    memory (every operand one element apart, or ``other`` repeating one value), it works
    in blocks of two vector registers, reading a whole block before it writes it back:
    16 float32 (8 float64) with AVX2, twice as many with AVX-512, half as many with ARM's
    NEON. The block depends on the processor PyTorch runs on, so minigrad works element
    by element everywhere; rows shorter than one block (the usual small example) agree.
    """
    shape = target.shape
    sources = [np.broadcast_to(array, shape) for array in (other if type(other) is tuple else (other,))]
    order = memory_order([list(target.strides), list(target.strides)]
                         + [list(source.strides) for source in sources], shape)
    slowest_first = order[::-1]
    written = target.transpose(slowest_first)
    read = [source.transpose(slowest_first) for source in sources]
    before = target.copy()
    with np.errstate(all="ignore"):       # overflow and 0/0 give inf and nan silently, as in PyTorch
        for position in np.ndindex(written.shape):
            written[position] = elementwise(written[position], *(source[position] for source in read))
    values = target.copy()
    target[...] = before                  # the caller writes the values (and records the change)
    return values


# What PyTorch 2.13 raises when it cannot find the retain_grad() hook to move (its own bug:
# squeeze_/unsqueeze_ give the tensor a new node but leave the hook on the old one).
_RETAIN_GRAD_HOOK_LOST = ('out != nullptr INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/csrc/'
                          'autograd/variable.cpp":207, please report a bug to PyTorch. ')


def _retain_grad_hook_lost():
    return RuntimeError(_RETAIN_GRAD_HOOK_LOST + "\nminigrad hint: after squeeze_() or unsqueeze_() "
                        "of a tensor that called retain_grad(), PyTorch loses track of that request; "
                        "change a clone() in place instead.")


def _move_retain_grad(tensor, new_node, old_node=None, old_nr=0):
    """retain_grad() asks for the gradient of the tensor's *latest* value: follow the new node
    (``old_node``: where the tensor's history was, if not its grad_fn any more).

    Returns False if the old node had no retain_grad hook for the tensor (see above)."""
    if old_node is None:
        old_node, old_nr = tensor._grad_fn, tensor._output_nr
    old_hooks = old_node._retains_grad_hook
    if old_hooks is None or old_nr not in old_hooks:
        return False                # (the hook stays where it is)
    old_hooks.pop(old_nr)
    if new_node._retains_grad_hook is None:
        new_node._retains_grad_hook = {}
    new_node._retains_grad_hook[0] = weakref.ref(tensor)
    new_node._has_hooks = True
    return True


def bump_version(tensor):
    """Count an in-place change. Views of the same memory (they share the counter) see that
    their node is out of date when it is next asked for (views.view_grad_fn).

    An inference tensor counts no versions: outside inference mode PyTorch refuses the change
    here, after its kernel wrote the new values."""
    if _inference_tensors_exist:
        check_inplace_allowed(tensor)
        if tensor._counts_versions and _State.inference:
            return                        # (its counter counts changes outside inference mode only)
    counter = tensor._versions            # (once made, read without the property's call: an
    if counter is _NEVER_CHANGED:         # optimiser bumps every parameter and .grad each step)
        counter = tensor._version_counter
    counter[0] += 1


def _writeable(tensor):
    """expand() gives a read-only numpy view; writing one value to all of it (fill_) is
    allowed, as in PyTorch, so make the view writeable."""
    if not tensor._array.flags.writeable:
        tensor._array = np.lib.stride_tricks.as_strided(
            tensor._array, tensor._array.shape, tensor._array.strides, writeable=True)


def _can_cast(new, tensor):
    """PyTorch's rule for writing a result into a tensor of another dtype: floats not into
    integers, and nothing but bools into bools."""
    to_kind, from_kind = tensor._array.dtype.kind, new._array.dtype.kind
    if to_kind == "b":
        return from_kind == "b"
    if to_kind in "iu":
        return from_kind in "biu"
    return True


def check_result_fits(tensor, shape, dtype):
    """PyTorch's rule for the result (of shape ``shape``, numpy ``dtype``) of an in-place change
    of ``tensor``: its shape must be the tensor's, and is checked before its dtype, which must
    cast into the tensor's (x.pow_(0.5) of an int64 x: no floats cut down into integers, as
    numpy would; nothing but bools into bools).

    Called after computing (``_write``, for every in-place operation) and, where PyTorch's loop
    checks before its kernel runs, before computing (``_with_others_inplace``,
    ``bitwise.check_castable``); heaviside_ and lerp_ check their dtypes first
    (inplace_unary._CHECKED_BEFORE_SHAPES)."""
    if tuple(shape) != tensor._array.shape:
        raise RuntimeError(f"output with shape {list(tensor._array.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    into, kind = tensor._array.dtype.kind, np.dtype(dtype).kind
    if (kind in "fc" and into in "iub") or (kind in "iu" and into == "b"):
        raise RuntimeError(f"result type {scalar_type_name(from_numpy_dtype(np.dtype(dtype)))} can't be cast "
                           f"to the desired output type {scalar_type_name(tensor.dtype)}")


def _write(tensor, new):
    """Put ``new`` into ``tensor``: same memory, new values, and ``new``'s history."""
    check_result_fits(tensor, new._array.shape, new._array.dtype)
    _writeable(tensor)
    if overlaps_itself(tensor._array):
        _copy_in_loop_order(tensor._array, new._array)
    else:
        tensor._array[...] = new._array
    if _inference_tensors_exist:         # (written, but not counted nor recorded: see bump_version)
        check_inplace_allowed(tensor)
    hook_found = True
    if new._grad_fn is not None:
        if tensor._base is not None:
            root = tensor._base
            old_node, old_nr = root._grad_fn, root._output_nr
            rebase_history(tensor, new)     # the base's history now includes the change
            if root._retains_grad:          # the base's retained .grad follows its new history
                hook_found = _move_retain_grad(root, root._grad_fn, old_node, old_nr)
        else:
            if tensor._retains_grad:
                hook_found = _move_retain_grad(tensor, new._grad_fn)
            tensor._grad_fn = new._grad_fn
            tensor._output_nr = 0
            tensor._grad_fn._output_shape = tensor._array.shape
    bump_version(tensor)
    if new._grad_fn is not None and tensor._base is not None:
        view_grad_fn(tensor)    # the view itself gets its new node now (AsStridedBackward0 of
                                # the CopySlices), as PyTorch's rebase_history asks for it
    if not hook_found:                      # (PyTorch fails once the change is made)
        raise _retain_grad_hook_lost()
    if new._grad_fn is not None and new._grad_fn._saves_output:
        _saved_output_is_the_tensor(new, tensor)
    return tensor


def _copy_in_loop_order(target, values):
    """``target[...] = values`` where target sees a memory location at several positions
    (overlapping windows): the position PyTorch's copy_ writes last leaves its value there
    (``x.copy_(y)``, CopySlices writing a gradient back into such a view, and a result that
    PyTorch computes out of place, then copies back)."""
    values = np.broadcast_to(values, target.shape)
    steps = [[step // array.itemsize for step in array.strides] for array in (target, values)]
    slowest_first = memory_order(steps, target.shape)[::-1]
    written = target.transpose(slowest_first)
    read = values.transpose(slowest_first)
    for position in np.ndindex(written.shape):
        written[position] = read[position]


def _saved_output_is_the_tensor(new, tensor):
    """x.exp_() saves its result, which is x itself from now on: a later in-place change
    of x must make backward refuse it, as in PyTorch, and the values are x's memory (the
    result computed out of place can go: as in PyTorch, saving it costs no memory)."""
    for saved in new._grad_fn._saved or ():
        if type(saved) is SavedOutput and saved.version_counter is new._version_counter:
            saved.array = tensor._array
            saved.version_counter = tensor._version_counter
            saved.version = tensor._version_counter[0]
            if tensor._base is not None and tensor._grad_fn is not None:
                saved.view_grad_fn = weakref.ref(tensor._grad_fn)


def apply_inplace(tensor, op, *args, overlap_ok=False):
    """The recipe of every in-place operation: compute out of place, then write back.

    ``args`` are the operation's other inputs: if one of them requires grad, the change is
    recorded (and a view made under no_grad may not take it)."""
    running, InPlace.running = InPlace.running, True   # (the result becomes the tensor: any dtype
    try:                                               # may take history, as in PyTorch)
        return _computed_and_written(tensor, op, args, overlap_ok)
    finally:
        InPlace.running = running


def _computed_and_written(tensor, op, args, overlap_ok):
    """apply_inplace's steps."""
    check_inplace(tensor, overlap_ok, others=args)
    if not needs_grad((tensor,) + args):
        new = op(_with_tangent_of(tensor, _wrap(tensor._array)), *args)
        return move_tangent(new, _write(tensor, new))       # forward mode: the tangent changes too
    if tensor._created_in_no_grad or tensor._view_of_no_grad_view or (
            tensor._multi_output_view and tensor._grad_fn is None):
        raise_no_grad_view_changed(tensor)      # e.g. a no_grad view of a plain tensor += leaf
    # Recording: the operation computes its result in new memory, so it can read the old
    # values where they are; ``old`` stands for them at the tensor's place in the graph.
    old = _wrap(tensor._array)
    old._grad_fn = tensor._graph_grad_fn   # (a view's node is made again first, if it is out of date)
    old._output_nr = tensor._output_nr
    old._requires_grad = tensor._requires_grad
    hooks = _Hooks.stack
    if hooks:                   # saved-tensor hooks must see what is finally saved (below)
        _Hooks.stack = ()
    try:
        new = op(_with_tangent_of(tensor, old), *args)
    except (RuntimeError, NotImplementedError):
        _refuse_if_old_values_needed(old, op, args)    # (PyTorch's error comes first, see there)
        raise
    finally:
        if hooks:
            _Hooks.stack = hooks
    node = new._grad_fn
    if node is None or node._saved is None:
        return move_tangent(new, _write(tensor, new))
    _save_a_copy_of_the_old_values(node, old)
    if hooks:                   # as in PyTorch: the inputs are packed before the change ...
        _pack_saved(node, outputs=False)
    tensor = _write(tensor, new)
    if hooks:                   # ... the result after it (it is the tensor, at its new version)
        _pack_saved(node, outputs=True)
    return move_tangent(new, tensor)


def _pack_saved(node, outputs):
    """Run the saved-tensor hooks' ``pack`` on the inputs ``node`` saved, or on its result."""
    pack_hook, unpack_hook = _Hooks.stack[-1]
    saved, versions = list(node._saved), list(node._saved_versions)
    for i in node._pack_order or range(len(saved)):
        value = saved[i]
        if (type(value) is SavedOutput if outputs else isinstance(value, Tensor)):
            saved[i] = pack(value, node, pack_hook, unpack_hook)
            versions[i] = None     # (no in-place check for a hooked tensor)
            node._saves_output = True   # (entries to unpack on access)
    node._saved, node._saved_versions = tuple(saved), tuple(versions)


def _save_a_copy_of_the_old_values(node, old):
    """Where the node of an in-place operation saved its input (``old``), save a copy instead.

    Why PyTorch copies: the operation is about to overwrite the input's memory, and
    backward needs the values from before (``y.mul_(t)``: t's gradient is grad * the old
    y). So when the derivative needs the input, PyTorch's autograd clones it first and
    saves the clone: ``grad_fn._saved_self`` is that copy, a ``CloneBackward0`` of the
    input's history (if it requires grad), at version 0, and changing y in place later
    breaks nothing. Only then does it cost memory: ``y.exp_()`` saves its result, ``y.add_(t)``
    and ``y.mul_(2)`` save nothing (so no copy), and ``y.mul_(t)`` copies y only when t
    requires grad. The copy's CloneBackward0 is not on the way backward walks from y (the
    node's edges go to y's old history); a second-order graph goes through it.
    """
    saved = node._saved
    if any(value is old for value in saved):
        # the clone is an ordinary recorded operation: of an integer or bool tensor with
        # history (x.ge_(y) gave it one) it is refused ('Autograd not support dtype'), before
        # anything is written, so x.abs_() fails where x.neg_() (which saves nothing) works
        running, InPlace.running = InPlace.running, False
        try:
            copy = shape.clone(old)    # (its version is 0, as old's was: the versions stay)
        finally:
            InPlace.running = running
        node._saved = tuple(copy if value is old else value for value in saved)


def refuse_if_old_values_needed(tensor, op, others):
    """Before the checks of an in-place kernel: see _refuse_if_old_values_needed."""
    if _State.enabled and tensor._array.dtype.kind not in "fc" and needs_grad((tensor,) + tuple(others)):
        _refuse_if_old_values_needed(tensor, op, others)


def refuse_integer_history(tensor):
    """For in-place operations whose node saves x's old values whatever the arguments (clamp_,
    cumprod_, mvlgamma_, polygamma_, renorm_): autograd's copy of an integer x with history is
    refused (see below) before the operation checks its arguments (x.clamp_() without bounds)."""
    if _State.enabled and tensor._array.dtype.kind not in "fc" and tensor.requires_grad:
        check_inplace(tensor, overlap_ok=True)       # (autograd's rules come first)
        refuse_dtype(tensor._array.dtype)


def _refuse_if_old_values_needed(old, op, args):
    """The operation failed on an integer or bool tensor with history: PyTorch clones the
    old values it saves (see above) before its kernel runs, so if the operation saves them,
    the clone's refusal comes first (x.silu_() of such an x says 'Autograd not support
    dtype', not 'silu not implemented for Long'). Which operations save their input is
    learnt from running the same operation on the values as float64; where the other inputs
    don't fit that, again with them as float64 too (x.nextafter_(y) of a float32 y: first the
    floating ones; x.lerp_(end, w) of an integer end: then the integer ones as well), and last
    with zeros of x's shape in their place (the inputs' shapes are checked after the copy too:
    x.pow_(y) of a y that does not fit)."""
    if old._array.dtype.kind in "fc" or not old.requires_grad:
        return
    probe = _as_float64_probe(old)
    for kinds in ("", "f", "fiu", "shaped"):
        try:
            probe_args = tuple(_as_float64_probe(a, old if kinds == "shaped" else None)
                               if isinstance(a, Tensor) and (kinds == "shaped" or a._array.dtype.kind in kinds)
                               else a for a in args)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                node = op(probe, *probe_args)._grad_fn
        except Exception:          # noqa: BLE001 - then the next probe, or the operation's own error
            continue
        if node is not None and any(value is probe for value in node._saved or ()):
            refuse_dtype(old._array.dtype)              # (the clone's error)
        return


def _as_float64_probe(tensor, shaped_like=None):
    """``tensor``'s values as float64 (or zeros of ``shaped_like``'s shape), standing at its
    place in the graph (for the probes above)."""
    probe = _wrap(tensor._array.astype(np.float64) if shaped_like is None else
                  np.zeros(shaped_like._array.shape))
    probe._grad_fn, probe._output_nr = tensor._grad_fn, tensor._output_nr
    probe._requires_grad = tensor._requires_grad
    return probe


def _arithmetic(tensor, ufunc, op, other, alpha=1):
    """add_, sub_, mul_, div_: numpy works in place when nothing is recorded."""
    if isinstance(other, np.generic):       # a numpy number is a Python number to PyTorch (numpy
        other = other.item()                # would compute a float16 tensor + np.float64 in float64)
    if type(other) is int and (tensor._array.dtype.kind != "f" or not -2**63 <= other < 2**63):
        # PyTorch's errors for an int past 64 bits or one from 2**63 up with bools; an integer
        # tensor takes the number's low bits (int32 += 2**32 adds 0), where numpy would raise
        dtype = result_type(tensor, other)
        if dtype.kind in "iu":
            other = pointwise.wrapped_to(other, dtype)
    if _FuncTransforms.vmaps:     # inside vmap, a tensor not batched can't take a batched result
        check_inplace_batching(_ARITHMETIC_NAMES[ufunc], tensor, (other,))
    check_inplace(tensor, others=(other,))      # (other's history too: check_history_kept)
    # (the same counter, read without making one for a tensor never changed: _same_counter;
    # two arrays that own their memory share none, as in an update p -= lr * p.grad)
    if type(other) is Tensor and (tensor._array.base is not None or other._array.base is not None
                                  or tensor._array is other._array) and (
            _same_counter(tensor, other) or _shares_memory_unversioned(tensor, other)):
        _check_partial_overlap(tensor, other)
        if _reads_its_own_writes(tensor, other):
            return reading_its_own_writes(
                tensor, other, lambda a, b: ufunc(a, b * alpha if alpha != 1 else b),
                lambda a, b: op(a, b, alpha=alpha) if alpha != 1 else op(a, b))
    if overlaps_itself(tensor._array):      # (unfold's windows): element by element
        scaled = other if alpha == 1 else other * alpha
        with_alpha = op if alpha == 1 else lambda a, b: op(a, b, alpha=alpha)
        if isinstance(other, Tensor) and result_type(tensor, other) != tensor._array.dtype:
            # computed in another dtype (x.add_(y.double())): PyTorch works on a converted
            # copy of the tensor, so every element is read before any is written back
            return apply_inplace(tensor, with_alpha, other)
        if isinstance(other, Tensor):
            try:                                # shapes that do not fit: PyTorch's message first
                np.broadcast_shapes(tensor._array.shape, other._array.shape)
            except ValueError:
                raise pointwise._broadcast_error(tensor, other) from None
            return reading_its_own_writes(tensor, other, lambda a, b: ufunc(a, b * alpha if alpha != 1 else b),
                                          with_alpha)
        return reading_its_own_writes(tensor, (), lambda a: ufunc(a, scaled), lambda a: with_alpha(a, other))
    if _State.enabled and needs_grad((tensor, other)):      # (no call under no_grad: an optimiser)
        if alpha != 1:
            return apply_inplace(tensor, lambda a, b: op(a, b, alpha=alpha), other)
        return apply_inplace(tensor, op, other)
    if _DualLevel.open:        # forward mode: the out-of-place path also computes the tangent
        return apply_inplace(tensor, lambda a, b: op(a, b, alpha=alpha) if alpha != 1 else op(a, b), other)
    other_array = other._array if isinstance(other, Tensor) else other
    if alpha != 1:
        # a float result: one fused multiply-add per number, as out-of-place add and sub
        fused = pointwise._fused_with_alpha(tensor, other, alpha, subtract=ufunc is np.subtract)
        if fused is not None and fused.shape == tensor.shape and fused.dtype == tensor._array.dtype:
            tensor._array[...] = fused
            bump_version(tensor)
            return tensor
        with np.errstate(over="ignore"):      # (integers keep their low bits, as in PyTorch)
            other_array = other_array * alpha
    elif tensor._array.dtype is pointwise._FLOAT16 and (ufunc is np.multiply or ufunc is np.true_divide):
        number = pointwise.opmath_number(tensor, other)      # (PyTorch: in float32, rounded once)
        other_array = other_array if number is None else number
    target = tensor._array
    try:           # (0 * inf is nan, silently, as in PyTorch)
        quietly(ufunc, target, other_array, target)       # (casting="same_kind", numpy's default)
    except (ValueError, TypeError) as error:
        # PyTorch checks the shapes first, then the dtypes (numpy the other way round)
        try:
            shape = np.broadcast_shapes(target.shape, np.shape(other_array))
        except ValueError:
            raise pointwise._broadcast_error(tensor, other) from None
        if isinstance(error, ValueError) or shape != target.shape:
            raise RuntimeError(
                f"output with shape {list(target.shape)} doesn't match the broadcast shape "
                f"{list(shape)}") from None
        # e.g. int tensor += float: PyTorch refuses too
        if type(other) is complex:      # (a complex result: the complex dtype of the float one)
            found = {"float16": "ComplexHalf", "float64": "ComplexDouble"}.get(target.dtype.name,
                                                                               "ComplexFloat")
        else:
            found = scalar_type_name(from_numpy_dtype(result_type(tensor, other)))
        raise RuntimeError(
            f"result type {found} can't be cast to the desired output type "
            f"{tensor.dtype.tensor_type_name[:-6]}") from None
    bump_version(tensor)
    return tensor


def apply_pointwise_inplace(tensor, op):
    """``apply_inplace`` for an operation on each element alone (an in-place activation): where
    the tensor sees a memory location at several positions (overlapping as_strided or unfold
    windows), PyTorch changes it once per position, each time reading what the last write left."""
    if overlaps_itself(tensor._array):
        return reading_its_own_writes(tensor, (), pointwise_one_by_one(op), op)
    return apply_inplace(tensor, op)


def reading_its_own_writes(tensor, other, elementwise, op, overlap_ok=False):
    """``tensor = op(tensor, other)`` in place, where ``other`` reads memory that the change
    writes (``x -= x[0]`` of a transposed x), or the tensor itself sees a memory location
    at several positions (``overlap_ok``: an expanded tensor, which few operations accept):
    recorded as usual, with the values PyTorch computes element by element
    (``_values_in_loop_order``, ``elementwise`` for one element)."""
    others = other if type(other) is tuple else (other,)     # (clamp_ has two bounds)
    if overlap_ok:
        _writeable(tensor)           # (the loop writes through the expanded view)
    values = _values_in_loop_order(tensor._array, tuple(o._array for o in others), elementwise)

    def with_those_values(a, *b):
        new = op(a, *b)
        new._array[...] = values
        return new
    return apply_inplace(tensor, with_those_values, *others, overlap_ok=overlap_ok)


def elementwise_in_loop_order(tensor, op, others=()):
    """``op(tensor, *others)`` (an elementwise operation: addcmul_, lerp_, atan2_, ...) written
    into a tensor that sees a memory location at several positions (overlapping unfold
    windows): PyTorch's loop changes the location once per position, each time reading what
    the last write left (``_values_in_loop_order``). The other inputs are read in the dtype
    of the computation, as PyTorch converts them; a result of another dtype is computed out
    of place first, as PyTorch does (every element read before any is written)."""
    check_inplace(tensor, others=others)                  # autograd's rules first
    trial = op(_wrap(tensor._array), *(other.detach() for other in others))   # then PyTorch's errors
    if trial._array.dtype != tensor._array.dtype or trial._array.shape != tensor._array.shape:
        return apply_inplace(tensor, op, *others)
    dtype = np.dtype(result_type(tensor, *others))      # (the dtype the loop computes in)

    def elementwise(value, *other_values):
        return op(_wrap(np.asarray(value)), *(_wrap(np.asarray(v, dtype=dtype)) for v in other_values))._array[()]
    return reading_its_own_writes(tensor, tuple(others), elementwise, op)


_ARITHMETIC_NAMES = {np.add: "add_", np.subtract: "sub_", np.multiply: "mul_", np.true_divide: "div_"}


def add_(self, other, alpha=1):
    """self += alpha * other

    Gradient: as for add (self's old value gets grad, other gets alpha * grad).
    """
    if type(alpha) is not int or alpha != 1:
        alpha = _checked_alpha("add_", self, other, alpha)
    return _arithmetic(self, np.add, pointwise.add, other, alpha)


def sub_(self, other, alpha=1):
    """self -= alpha * other

    Gradient: as for sub (self's old value gets grad, other gets -alpha * grad).
    """
    if type(alpha) is not int or alpha != 1:
        alpha = pointwise.subtracted_alpha(pointwise.alpha_number("sub_", alpha))   # (a wrong alpha first)
    if self._array.dtype.kind == "b" or pointwise.is_bool(other):
        check_inplace(self, overlap_ok=True, others=(other,))    # (autograd's rules come first)
        raise pointwise.bool_subtraction_error(self, other)
    if type(alpha) is not int or alpha != 1:
        alpha = _checked_alpha("sub_", self, other, alpha)
    return _arithmetic(self, np.subtract, pointwise.sub, other, alpha)


def _checked_alpha(name, tensor, other, alpha):
    """add_'s and sub_'s alpha, checked as PyTorch does: after the result type was found to fit
    into ``tensor`` (else _arithmetic's cast error comes first). For integer and bool results it
    is returned as a number of that dtype, so that alpha * other is computed in it (bool: 2 is
    True)."""
    alpha = pointwise.alpha_number(name, alpha)
    check_inplace(tensor, others=(other,))     # (autograd's rules, other's lost history and
                                              # overlaps come first, as in _arithmetic)
    if isinstance(other, Tensor):             # (then the loop's own checks: overlap, shapes)
        refuse_partial_overlap(tensor, other)
        try:
            shape = np.broadcast_shapes(tensor._array.shape, other._array.shape)
        except ValueError:
            raise pointwise._broadcast_error(tensor, other) from None
        if shape != tensor._array.shape:
            raise RuntimeError(f"output with shape {list(tensor._array.shape)} doesn't match the "
                               f"broadcast shape {list(shape)}")
    dtype = result_type(tensor, other)
    into = tensor._array.dtype.kind
    if (dtype.kind == "f" and into in "iub") or (dtype.kind in "iu" and into == "b"):
        return alpha
    pointwise.check_alpha(dtype, alpha, subtract=name.startswith("sub"))
    if dtype.kind in "biu":              # (-1 is 255 in uint8: numpy would refuse to convert it)
        return np.asarray(alpha).astype(dtype)[()]
    return alpha


def mul_(self, other):
    """self *= other

    Gradient: as for mul, with self's old value (saved before the write).
    """
    return _arithmetic(self, np.multiply, pointwise.mul, other)


def div_(self, other, *, rounding_mode=pointwise._TRUE_DIVISION):
    """self /= other

    Gradient: as for div, with self's old value (saved before the write).
    """
    if rounding_mode is not pointwise._TRUE_DIVISION:     # x.div_(y, rounding_mode='floor')
        from .rounding import binary_in_place, _ROUNDED_ELEMENTWISE
        return binary_in_place(self, other, lambda a, b: pointwise.div(a, b, rounding_mode=rounding_mode),
                               _ROUNDED_ELEMENTWISE.get(rounding_mode, np.true_divide))
    if self._array.dtype.kind != "f" and type(other) is not complex:
        if _FuncTransforms.vmaps:
            check_inplace_batching("div_", self, (other,))
        return apply_inplace(self, pointwise.div, other)      # raises the dtype error
    return _arithmetic(self, np.true_divide, pointwise.div, other)


def pow_(self, exponent):
    """In place: self = self ** exponent. Gradient: grad * exponent * old**(exponent - 1)."""
    if _FuncTransforms.vmaps:
        if isinstance(exponent, Tensor):
            warn_no_batching_rule("pow_.Tensor", (self, exponent), "pow_.Tensor")
        check_inplace_batching("pow_", self, (exponent,))
    if type(exponent) is Tensor and exponent._version_counter is self._version_counter:
        check_inplace(self, others=(exponent,))
        _check_partial_overlap(self, exponent)
        if _reads_its_own_writes(self, exponent):
            return reading_its_own_writes(self, exponent, np.power, pointwise.pow)
    if overlaps_itself(self._array):        # (unfold's windows): element by element
        check_inplace(self, others=(exponent,))
        if isinstance(exponent, Tensor):
            return reading_its_own_writes(self, exponent, pointwise_one_by_one(pointwise.pow), pointwise.pow)
        power = lambda a: pointwise.pow(a, exponent)       # noqa: E731
        return reading_its_own_writes(self, (), pointwise_one_by_one(power), power)
    return apply_inplace(self, pointwise.pow, exponent)


def clamp_(self, min=None, max=None):
    """In place: limit every element to [min, max]. Gradient: grad where the value was inside, 0 where clamped."""
    if _FuncTransforms.vmaps:
        name = "clamp_.Tensor" if isinstance(min, Tensor) or isinstance(max, Tensor) else "clamp_"
        warn_no_batching_rule(name, (self, min, max), name)
        check_inplace_batching("clamp_", self, (min, max))
    return _clamp_in_place(self, min, max)


def _clamp_in_place(self, min, max):
    """clamp_ and clip_ after their vmap checks: bounds that share self's memory are read in PyTorch's loop order."""
    refuse_integer_history(self)
    bounds = {name: bound for name, bound in (("min", min), ("max", max)) if type(bound) is Tensor}
    reads_its_own_writes = False
    for bound in bounds.values():
        if bound._version_counter is self._version_counter or _shares_memory_unversioned(self, bound):
            check_inplace(self, others=(bound,))
            _check_partial_overlap(self, bound)
            reads_its_own_writes = reads_its_own_writes or _reads_its_own_writes(self, bound)
    if reads_its_own_writes and len(bounds) == (min is not None) + (max is not None):
        # x.clamp_(min=x.t()): a bound read after the loop changed it gives the new value
        def clamp_one(value, *limits):
            limit = dict(zip(bounds, limits))
            if "min" in limit:
                value = np.maximum(value, limit["min"])
            return np.minimum(value, limit["max"]) if "max" in limit else value
        return reading_its_own_writes(self, tuple(bounds.values()), clamp_one,
                                      lambda a, *limits: pointwise.clamp(a, **dict(zip(bounds, limits))))
    if not bounds:
        # (PyTorch's kernel for numbers refuses a result self's dtype cannot hold before the
        # refusal to write into memory self sees twice, an expanded self: clamp_min_ does not)
        arguments_before_overlap(self, lambda t: _clamp_by_numbers(t)(t, min, max))
        return apply_inplace(self, _clamp_by_numbers(self), min, max)
    # the bounds go in as inputs: x.clamp_(min=m) is recorded when m requires grad
    return apply_inplace(self, pointwise.clamp, min, max)


def _clamp_by_numbers(self):
    """clamp for x.clamp_(number, number): a result x's dtype cannot hold (a float bound of an
    int x) is refused in the words of PyTorch's kernel for numbers, which names x's C++ type
    ('bool', 'long int')."""
    def clamp(tensor, min, max):
        # (the result's dtype is checked before the bounds are converted to it)
        dtype = result_type(tensor, *(bound for bound in (min, max) if bound is not None))
        new = _wrap(np.empty((0,), dtype))
        if dtype != tensor._array.dtype and not _can_cast(new, tensor):
            raise RuntimeError(f"result type {scalar_type_name(new.dtype)} can't be cast to the "
                               f"desired output type {cpp_type_name(tensor.dtype)}")
        return pointwise.clamp(tensor, min, max)
    return clamp


def clip_(self, min=None, max=None):
    """``clamp_`` under another name."""
    if _FuncTransforms.vmaps:        # (inside grad, jvp, ... PyTorch runs it as clamp_)
        tensor_bound = isinstance(min, Tensor) or isinstance(max, Tensor)
        warn_no_batching_rule("clip_.Tensor" if tensor_bound else "clip_", (self, min, max),
                              "clamp_.Tensor" if tensor_bound else "clamp_")
        check_inplace_batching("clip_", self, (min, max))
    return _clamp_in_place(self, min, max)


def copy_(self, source):
    """Copy ``source``'s values into self (broadcast to self's shape and dtype).

    Gradient: grad goes to ``source`` (summed to its shape); self's old value gets 0.
    """
    source = source if isinstance(source, Tensor) else _number_as_source(source, self._array.dtype)
    if self._array.dtype.kind not in "fc" and _State.enabled and needs_grad((self, source)):
        # integers and bools have no gradient: PyTorch's copy_ leaves autograd out (none of its
        # in-place rules, nothing recorded: self keeps its history)
        with no_grad():
            return copy_(self, source.detach())
    if _FuncTransforms.vmaps:
        check_inplace_batching("copy_", self, (source,))
    # x.copy_(x), or a copy from a tensor over exactly the same elements, copies nothing
    # (so it may even write into expanded memory)
    same_data = source is self or _same_elements(self, source)
    check_inplace(self, overlap_ok=same_data, others=(source,), copying=True)
    check_history_kept(source)
    if same_data and not needs_grad((self, source)):
        bump_version(self)
        return self
    if (source._version_counter is self._version_counter or _shares_memory_unversioned(self, source)) \
            and not same_data:        # (unsafe_split's pieces share memory, not the counter)
        _check_partial_overlap(self, source)
        if _reads_its_own_writes(self, source):
            return reading_its_own_writes(self, source, lambda old, value: value, shape.copy_into)
    # (into windows that overlap, _write copies in PyTorch's order: so too when CopySlices
    # writes a gradient back into such a view)
    return apply_inplace(self, shape.copy_into, source, overlap_ok=same_data)


def _number_as_source(number, dtype):
    """A Python number given to copy_, as PyTorch's parser makes it a tensor: an int past a C++
    long long is read as an unsigned one (then cast as C casts it: 2**63 is -2**63 in int64),
    and one past that too is refused with Python's OverflowError."""
    if isinstance(number, int) and not isinstance(number, bool) and not -2**63 <= number < 2**63:
        if number < 0:
            raise OverflowError("can't convert negative int to unsigned")
        if number >= 2**64:
            raise OverflowError("int too big to convert")
        return _wrap(np.asarray(number, dtype=np.uint64).astype(dtype))
    return _wrap(np.asarray(number))


def _same_elements(tensor, other):
    """Two tensors over the same memory with the same layout and dtype (x.t().t() and x)."""
    a, b = tensor._array, other._array
    return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and a.shape == b.shape and a.strides == b.strides and a.dtype == b.dtype)


# --- filling with values that do not depend on the old ones -----------------------------------

class _FillBackward(Node):
    """result = values that do not depend on self   ->   grad_self = 0"""

    def backward(self, grad):
        return (_zeros_like(grad),)


def _zeros_like(grad):
    """Zeros that depend on nothing (PyTorch's zeros_like(grad)): no second-order graph."""
    return _wrap(np.zeros_like(grad._array))


class ZeroBackward0(_FillBackward):
    """result = self.zero_()   ->   grad_self = 0"""


class FillBackward2(_FillBackward):
    """result = self.fill_(value), value a number   ->   grad_self = 0"""


class NormalBackward0(_FillBackward):
    """result = self.normal_(mean, std)   ->   grad_self = 0"""


class UniformBackward0(_FillBackward):
    """result = self.uniform_(a, b)   ->   grad_self = 0"""


class ExponentialBackward0(_FillBackward):
    """result = self.exponential_(lambd)   ->   grad_self = 0"""


class BernoulliBackward0(_FillBackward):
    """result = bernoulli(self), random 0/1 draws with probabilities self   ->   grad_self = 0"""


class BernoulliBackward2(_FillBackward):
    """result = self.bernoulli_(p), p a number   ->   grad_self = 0"""


class BernoulliBackward1(Node):
    """result = self.bernoulli_(p), p a tensor   ->   grad_self = 0; grad_p = 0"""

    def backward(self, grad):
        p_grad = _wrap(np.zeros(self.p_shape, grad._array.dtype)) if self.should_compute_output(1) else None
        return _zeros_like(grad), p_grad


class FillBackward3(Node):
    """result = self.fill_(value), value a 0-d tensor (x[i] = number does this)   ->
        grad_self = 0; grad_value = grad.sum()"""

    def backward(self, grad):
        return _zeros_like(grad), (grad.sum() if self.should_compute_output(1) else None)


def _fill(tensor, values, node_class, value_tensor=None):
    check_inplace(tensor, overlap_ok=True)
    if _DualLevel.open or (_State.enabled and (tensor._graph_requires_grad or (
            value_tensor is not None and value_tensor._graph_requires_grad))):
        # still part of the graph, but the gradient stops here (as in PyTorch); in forward
        # mode the node's rule also gives the tangent: zeros, or the value tensor's tangent
        def constant(old):
            array = np.broadcast_to(np.asarray(values, dtype=old._array.dtype), old._array.shape)
            inputs = (old,) if value_tensor is None else (old, value_tensor)
            return result(array.copy(), node_class, inputs)
        return apply_inplace(tensor, constant, overlap_ok=True)
    _writeable(tensor)
    if node_class is ZeroBackward0:
        tensor._array.fill(0)       # (zero_: numpy writes zeros three times faster this way)
    else:
        tensor._array[...] = values
    bump_version(tensor)
    return tensor


def zero_(self):
    """Set every element to 0 in place (used as ``x.grad.zero_()``).

    Gradient: 0 for the old values.
    """
    return _fill(self, 0, ZeroBackward0)


def fill_(self, value):
    """In place: set every element to ``value``. Gradient: 0 for the old values."""
    if _FuncTransforms.vmaps:
        check_inplace_batching("fill_", self, (value,))
    if isinstance(value, Tensor):
        check_inplace(self, overlap_ok=True, others=(value,))     # autograd's rules come first
        if value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.ndim} dimensions.")
        check_inplace(self, others=(value,))   # from a tensor (not a number) it is a copy: it
        return _fill(self, value.item(), FillBackward3, value)    # refuses memory seen twice
    check_python_int(value)                     # (x.fill_(2**64): PyTorch's OverflowError)
    value = checked_scalar(value, self._array.dtype)    # (PyTorch's checked conversion)
    return _fill(self, value, FillBackward2)


def normal_(self, mean=0.0, std=1.0, generator=None):
    """In place: fill with samples from N(mean, std**2). Gradient: 0 for the old values."""
    check_inplace(self, overlap_ok=True)     # (autograd's rules, then the arguments, as PyTorch)
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    if self._array.dtype.kind != "f":        # (integers have no normal distribution)
        raise pointwise.kernel_not_implemented("normal_kernel_cpu", self)
    check_inplace(self)                      # (then memory seen twice: an expanded tensor)
    if _FuncTransforms.vmaps:
        check_inplace_randomness(self)
    array = self._array
    if array.flags.c_contiguous:
        values = random.normal(array.shape, mean, std, dtype=array.dtype, generator=generator)
    else:      # (PyTorch's loop fills other layouts one draw at a time, in the order of memory)
        values = random.in_memory_order(random.normal((array.size,), mean, std, dtype=array.dtype,
                                                      generator=generator, one_by_one=True),
                                        array.shape, array.strides)
    return _fill(self, values, NormalBackward0)


def uniform_(self, a=0.0, b=1.0, generator=None):
    """In place: fill with samples drawn uniformly from [a, b). Gradient: 0 for the old values."""
    check_inplace(self, overlap_ok=True)     # (autograd's rules, then the arguments, as PyTorch)
    if self._array.dtype.kind != "f":        # (PyTorch checks the bounds in the dtype first)
        raise pointwise.kernel_not_implemented("check_uniform_bounds", self)
    largest = float(np.finfo(self._array.dtype).max)      # (PyTorch's check_uniform_bounds)
    for value, name in ((a, "from"), (b, "to")):
        if not -largest <= value <= largest:
            raise RuntimeError(f"{name} is out of bounds for {cpp_type_name(self.dtype)}")
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={float(a):g} > to={float(b):g}")
    if b - a > largest:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{scalar_type_name(self.dtype)}>"
                           f"::max(), but found to={float(b):g} and from={float(a):g} which result in "
                           "to-from to exceed the limit")
    check_inplace(self)                      # (then memory seen twice: an expanded tensor)
    if _FuncTransforms.vmaps:
        check_inplace_randomness(self)
    array = self._array
    values = random.uniform((array.size,), a, b, dtype=array.dtype, generator=generator)
    return _fill(self, random.in_memory_order(values, array.shape, array.strides), UniformBackward0)


def exponential_(self, lambd=1.0, *, generator=None):
    """In place: fill with samples of the exponential distribution of rate ``lambd``
    (density ``lambd * exp(-lambd * x)``, mean ``1 / lambd``). Gradient: 0 for the old values.

    One float64 uniform u per element whatever the dtype, then ``-log1p(-u) / lambd``
    (see minigrad/random.py), so the numbers are PyTorch's for the same seed.
    """
    if isinstance(lambd, Tensor) and lambd.ndim == 0 and not lambd.requires_grad:
        lambd = lambd.item()              # (PyTorch's parser takes a 0-d tensor for a float)
    if not isinstance(lambd, (int, float, np.integer, np.floating)):
        raise TypeError(f"exponential_(): argument 'lambd' (position 1) must be float, not "
                        f"{type_name(lambd)}")
    check_inplace(self, overlap_ok=True)      # (autograd's rules, then the arguments, as PyTorch)
    if not lambd > 0:                         # (NaN fails too)
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={float(lambd):g}")
    check_inplace(self)                       # (memory seen twice, before the dtype)
    if self._array.dtype.kind != "f":
        raise RuntimeError("Exponential distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {scalar_type_name(self.dtype)}")
    if _FuncTransforms.vmaps:
        check_inplace_randomness(self)
    values = random.exponential(self._array.shape, float(lambd), dtype=self._array.dtype,
                                generator=generator, strides=self._array.strides)
    return _fill(self, values, ExponentialBackward0)


def bernoulli_(self, p=0.5, *, generator=None):
    """Fill with 0 or 1 at random: 1 with probability ``p`` (a number, or a tensor of them).

    The two kinds of p draw differently, as in PyTorch: a number p takes one
    float64 uniform per element, a tensor p one float32 uniform (float64 if p is
    float64), see minigrad/random.py.
    """
    check_inplace(self, overlap_ok=True)     # (autograd's rules first, as PyTorch)
    if not isinstance(p, Tensor) and not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={float(p):g}")
    check_inplace(self)                      # (then memory seen twice: an expanded tensor)
    if _FuncTransforms.vmaps:
        check_inplace_randomness(self)
    if isinstance(p, Tensor):
        # PyTorch expands p to self's shape first (its error if p doesn't fit), then its kernel,
        # which is for floating p only, looks at p's dtype
        probabilities = p.detach().expand(self.shape)._array
        if p._array.dtype.kind != "f":
            raise pointwise.kernel_not_implemented("bernoulli_tensor_cpu_p_", p)
        if not ((probabilities >= 0) & (probabilities <= 1)).all():       # NaN fails too
            raise RuntimeError(
                "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                "be improved?  If so, please report an enhancement request to PyTorch.)")
        values = random.bernoulli(probabilities, generator=generator, strides=self._array.strides)
        out = _fill(self, values.astype(self._array.dtype), BernoulliBackward1, p)
        if isinstance(out._grad_fn, BernoulliBackward1):
            keep_settings(out._grad_fn, {"p_shape": p.shape})     # p's gradient (zeros) has p's own shape
        return out
    values = random.bernoulli_scalar(self._array.shape, p, generator=generator, strides=self._array.strides)
    return _fill(self, values.astype(self._array.dtype), BernoulliBackward2)
