"""How a view follows its base: shared memory, a shared version counter, shared history.

A view (``x[0]``, ``x.t()``, ``x.view(-1)``, ...) is a second tensor over the *same*
memory as its base. PyTorch keeps three promises about views, and so does minigrad:

1. A view shares its base's version counter: an in-place change of one is an
   in-place change of the other, and saved tensors notice it.
2. When the base changes in place after the view was made, the view's values
   changed too, so its history must change: its ``grad_fn`` is made again as an
   ``AsStridedBackward0`` that picks the view's elements out of the base's new
   history. Like PyTorch, minigrad does this lazily, only when the view's node is
   next asked for (``view_grad_fn``).
3. When the *view* changes in place, the base changed as well: the base's history
   is rewritten with a ``CopySlices`` node, which runs the in-place operation's
   backward on the view's part of the gradient and passes the rest of the
   gradient through unchanged (``rebase_history``).

Both nodes need to know which elements of the base a view sees. PyTorch describes
that with sizes, strides and a storage offset; minigrad reads the same facts off
the numpy memory layout (``element_positions``).

A view made under ``no_grad`` of a tensor that requires grad says
``requires_grad=True`` (it is the same memory) but is a leaf with no gradient
edge, and it may not be changed in place while recording. Its ``requires_grad``
is its base's, asked each time: after ``base.requires_grad_(False)`` it says False.
"""
import functools
import re

import numpy as np

from ..autograd.graph import FREED, FREED_MESSAGE, InPlace, Node, connect, gets_gradient_edge, keep_settings, _SETTINGS_KEPT_AS
from ..autograd.grad_mode import INFERENCE_SAVE_MESSAGE, _State
from .._tensor import _wrap
from .._zero_tensor import as_zero_tensor, zero_tensors_exist
from . import result


def register_view(out, base):
    """Make ``out`` a view of ``base``: the same version counter, the same root base."""
    if base._base is not None and _State.enabled:
        view_grad_fn(base)                   # (raises if the base's own history is lost)
    root = base._base if base._base is not None else base
    out._version_counter = root._version_counter
    out._base = root
    out._attr_version = out._version_counter[0]       # its node is up to date (see view_grad_fn)
    if not _State.enabled:
        # PyTorch remembers that a view was made under no_grad (it may not be changed in
        # place by a recorded operation later); of a tensor that requires grad, it still
        # says requires_grad=True (same memory: Tensor.requires_grad asks the base each
        # time), but there is no gradient edge behind it
        out._created_in_no_grad = True
        # (PyTorch's messages then name inference mode; a view of a view made in inference
        # mode keeps that mode's name, also when this one is made under no_grad)
        if _State.inference or base._made_in_inference_mode:
            out._made_in_inference_mode = True
    elif _State.enabled and (base._created_in_no_grad or base._view_of_no_grad_view):
        out._view_of_no_grad_view = True
        out._made_in_inference_mode = base._made_in_inference_mode
    elif base._multi_output_view:
        # PyTorch's rules for unbind/split pieces carry over (to a view of a piece without
        # history too: a recorded in-place change of it is refused as for the piece)
        out._multi_output_view = True
    if zero_tensors_exist and base._zero_tensor_memory is not None:
        as_zero_tensor(out)           # (a view of a ZeroTensor is one: see _zero_tensor.py)
    return out


def _element_offsets(array, start):
    """For every element of ``array``: how many elements past address ``start`` it sits."""
    itemsize = array.itemsize
    first = (array.__array_interface__["data"][0] - start) // itemsize
    offset = np.full(array.shape, first, dtype=np.int64)
    for dim, (size, stride) in enumerate(zip(array.shape, array.strides)):
        shape = [1] * array.ndim
        shape[dim] = size
        offset = offset + (np.arange(size, dtype=np.int64) * (stride // itemsize)).reshape(shape)
    return offset


def element_positions(base_array, view_array):
    """For every element of ``view_array``: its flat (C-order) position in ``base_array``.

    Both arrays share memory; an element's address is the start address plus
    index * stride in every dimension, so comparing addresses finds each element.
    """
    base_start = base_array.__array_interface__["data"][0]
    base_offsets = _element_offsets(base_array, base_start)
    lowest = base_offsets.min() if base_offsets.size else 0
    flat_position = np.zeros(base_offsets.max() - lowest + 1 if base_offsets.size else 0, np.int64)
    flat_position[(base_offsets - lowest).ravel()] = np.arange(base_array.size)
    return flat_position[_element_offsets(view_array, base_start) - lowest]


_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def _check_no_overlap(view_array):
    """An expanded view changed in place: PyTorch can't write its part of the gradient back."""
    if any(stride == 0 and size > 1 for stride, size in zip(view_array.strides, view_array.shape)):
        raise RuntimeError(_OVERLAP)


def _scatter(grad, positions, base_shape, base=None):
    """A tensor of ``base_shape``: ``base`` (zeros if None) with ``grad`` added at ``positions``.

    Written with recorded operations, so that with create_graph=True it can be
    differentiated again.
    """
    from .indexing import index_put      # lazy: indexing -> shape -> this module (views)
    flat = _wrap(np.zeros(int(np.prod(base_shape)), dtype=grad._array.dtype)) if base is None else base
    out = index_put(flat, (positions.ravel(),), grad.reshape(-1), accumulate=base is None)
    return out.reshape(base_shape)


class AsStridedBackward0(Node):
    """result = some elements of base (a view whose base changed in place)   ->
        grad_base = zeros, with grad added where the view sees the base"""

    def backward(self, grad):
        return (_as_strided_backward(grad, self.base_array, self.view_array),)


def _as_strided_backward(grad, base_array, view_array):
    """PyTorch's way, step by step (so that with create_graph=True the gradient's history is
    PyTorch's: an AsStridedBackward0 of a CopySlices, or of an IndexAddBackward0):
    zeros as long as the memory the base spans; grad copied in where the view sees it (added,
    where the view sees an element twice, as expand does); the result seen with the base's
    layout."""
    from .shape import _make_view          # lazy: shape imports this module
    if base_array.size == 0 or view_array.size == 0:
        return _wrap(np.zeros(base_array.shape, dtype=grad._array.dtype))
    # the view's dims of size 1 go (squeeze), and so do those it repeats (expand), whose
    # gradients add up (sum): each element of the view is then a different one in memory
    kept = [slice(None)] * view_array.ndim
    for dim in reversed(range(view_array.ndim)):
        if view_array.shape[dim] == 1:
            grad, kept[dim] = grad.squeeze(dim), 0
        elif view_array.strides[dim] == 0:
            grad, kept[dim] = grad.sum(dim), 0
    view_array = view_array[tuple(kept) + (Ellipsis,)]      # (an array even with no dims left)
    start = base_array.__array_interface__["data"][0]
    base_offsets = _element_offsets(base_array, start)
    view_offsets = _element_offsets(view_array, start)
    lowest = int(min(base_offsets.min(), view_offsets.min() if view_offsets.size else 0))
    span = int(max(base_offsets.max(), view_offsets.max() if view_offsets.size else 0)) - lowest + 1
    memory = _wrap(np.zeros(span, dtype=grad._array.dtype))

    def seen_as(like, offsets):
        """A view of ``memory`` laid out as ``like`` (PyTorch's as_strided)."""
        first = int(offsets.min()) - lowest if offsets.size else 0
        array = np.lib.stride_tricks.as_strided(
            memory._array[first:], like.shape,
            tuple(step // like.itemsize * memory._array.itemsize for step in like.strides))
        return _make_view(result(array, AsStridedBackward0, (memory,), base_array=memory._array,
                                 view_array=array), memory)

    if np.unique(view_offsets).size < view_offsets.size:       # the view sees an element twice
        memory.index_add_(0, _wrap((view_offsets - lowest).reshape(-1)), grad.reshape(-1))
    else:
        seen_as(view_array, view_offsets).copy_(grad)
    if _may_overlap(base_array):
        # the base sees some element several times (it is itself an overlapping view): the
        # element's gradient is shared out among them, divided by how often the base sees it
        count = _wrap(np.zeros(span, dtype=grad._array.dtype))
        positions = _wrap((base_offsets - lowest).reshape(-1))
        count.index_add_(0, positions, _wrap(np.ones(1, dtype=grad._array.dtype)).expand(positions.shape[0]))
        with np.errstate(divide="ignore", invalid="ignore"):     # (0 / 0 where the base sees nothing)
            memory.div_(count)
    return seen_as(base_array, base_offsets)


def _may_overlap(array):
    """PyTorch's quick test whether a layout may see an element twice (its dims of size 1
    left out): taken by increasing step, each step must pass all that the smaller ones reach."""
    reach = 0
    for step, size in sorted((abs(step) // array.itemsize, size) for size, step in zip(array.shape, array.strides)
                             if size != 1):
        if step <= reach:
            return True
        reach += step * (size - 1)
    return False


class CopySlices(Node):
    """result = base with fn applied in place to one of its views   ->
        grad_base = grad, with the view's part replaced by fn.backward(that part);
        grad_others = fn's gradients for its other inputs

    The node a base gets when one of its views is changed in place (``fn`` is the in-place
    operation's node, e.g. for ``x[0].mul_(2)``): the view's part of the gradient goes
    through ``fn.backward``, the rest of the base's gradient passes through unchanged.
    """

    def name(self):
        """``'torch::autograd::CopySlices'``: PyTorch spells out this C++ node's namespace."""
        return "torch::autograd::CopySlices"

    # The engine frees what a node saved by setting ``_saved`` to FREED. This node also lets
    # go of ``fn`` then (PyTorch does the same), and with it the nodes only ``fn`` reached.
    @property
    def _saved(self):
        return self.__dict__.get("_values_for_backward")

    @_saved.setter
    def _saved(self, value):
        self.__dict__["_values_for_backward"] = value
        if value is FREED:
            self.fn = None

    def backward(self, grad):
        if self._saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        from .shape import _make_view          # lazy: shape imports this module
        from .._memory_format import contiguous_format
        # as PyTorch, step by step (so that with create_graph=True the history is PyTorch's):
        # grad copied into a tensor laid out as the base; the view's part of it taken out
        # (a copy) and sent through fn's backward; what comes back written over that part
        base, view = self.base_array, self.view_array
        memory = np.empty_like(base, dtype=grad._array.dtype, order="K")
        if memory.strides != base.strides or view.dtype != base.dtype:
            return self._backward_by_positions(grad)      # (a base with gaps in its memory)
        out = _wrap(memory)
        out.copy_(grad)
        flat = np.lib.stride_tricks.as_strided(memory, (memory.size,), (memory.itemsize,))
        first = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // base.itemsize
        part = np.lib.stride_tricks.as_strided(flat[first:], view.shape, view.strides)
        part = _make_view(result(part, AsStridedBackward0, (out,), base_array=memory, view_array=part),
                          out)
        grads = self.fn.backward(part.clone(memory_format=contiguous_format))
        if type(grads) is not tuple:
            grads = (grads,)
        if not self.should_compute_output(0):
            return (None,) + tuple(grads[1:])   # the base needs no gradient: nothing to write back
        _check_no_overlap(self.view_array)
        if grads[0] is None:           # no gradient for the old values: zeros there
            part.copy_(_wrap(np.zeros(part._array.shape, dtype=part._array.dtype)))
        else:
            part.copy_(grads[0])
        return (out,) + tuple(grads[1:])

    def _backward_by_positions(self, grad):
        positions = element_positions(self.base_array, self.view_array)
        flat = grad.reshape(-1)
        view_grad = flat[_wrap(positions)]
        grads = self.fn.backward(view_grad)
        if type(grads) is not tuple:
            grads = (grads,)
        if not self.should_compute_output(0):
            return (None,) + tuple(grads[1:])   # the base needs no gradient: nothing to write back
        _check_no_overlap(self.view_array)
        first = grads[0]
        if first is None:
            first = view_grad * 0
        elif first.shape != view_grad.shape:
            first = first.expand(view_grad.shape) if first.ndim <= view_grad.ndim else first
        base_grad = _scatter(first, positions, self.base_array.shape, base=flat)
        return (base_grad,) + tuple(grads[1:])


# PyTorch's CopySlices shows no saved values (its fn and the two layouts are not "saved")
_SETTINGS_KEPT_AS["CopySlices"] = {}


def rebase_history(view, new):
    """``view`` was changed in place by the operation that made ``new``: rewrite its base's history."""
    root = view._base
    fn = new._grad_fn
    node = CopySlices()
    connect(root, node, (root,))               # an edge to the base's old history ...
    node.next_functions = node.next_functions + fn.next_functions[1:]   # ... and fn's other inputs
    node._saved = ()                           # so that backward marks the node as freed
    keep_settings(node, {"fn": fn, "base_array": root._array, "view_array": view._array})
    root._output_nr = 0


def view_grad_fn(view):
    """``view.grad_fn``: the view's node, made again first if the memory changed in place
    since that node was made.

    This is the one place that decides it. PyTorch does it lazily: an in-place change
    of the base (or of another view of it) only bumps the shared version counter, which
    is cheap however many views the base has; each view remembers the version its node
    was made at (``_attr_version``), and only when its node is asked for (``v.grad_fn``,
    using ``v`` in a recorded operation, ``v`` as a root or input of backward, retain_grad,
    hooks) and that version is old does it get a new ``AsStridedBackward0`` on top of the
    base's history *at that moment*. Until then the old node stays the view's own, which
    learners can see: a saved result that names the view's node while that node lives
    (see graph.SavedOutput), or a failure that comes only when the node is asked for.
    """
    if not _out_of_date(view):
        return view._grad_fn
    lost = _history_lost(view)
    if lost:
        # PyTorch can't tell what the history should be now, and says so at every ask
        raise RuntimeError(lost)
    old_node, old_nr = view._grad_fn, view._output_nr
    root = view._base
    node = AsStridedBackward0()
    # (PyTorch sets the new node as the view's history directly, without the check that refuses
    # history to integers: a view of an integer base that x.lt_(y) gave history gets its node)
    running, InPlace.running = InPlace.running, True
    try:
        connect(view, node, (root,))
    finally:
        InPlace.running = running
    keep_settings(node, {"base_array": root._array, "view_array": view._array})
    view._output_nr = 0
    view._attr_version = view._version_counter[0]
    if view._retains_grad and old_node is not None:
        # retain_grad() follows the view to its new node, as in PyTorch
        from .inplace import _move_retain_grad, _retain_grad_hook_lost    # lazy: inplace imports this module
        if not _move_retain_grad(view, node, old_node, old_nr):
            # PyTorch's own bug: after squeeze_()/unsqueeze_() the hook was not on the old
            # node. It fails after the new node is in place, so asking again works
            raise _retain_grad_hook_lost()
    return node


def _out_of_date(view):
    """True if the view's node must be made again when it is asked for."""
    if view._attr_version == view._version_counter[0]:
        return False                         # (the usual case: nothing changed in place)
    root = view._base
    # a view without a node, of a base that doesn't require grad, gets none yet: PyTorch
    # waits until the base requires grad (the version stays old, so a later requires_grad_()
    # of the base gives the view its node)
    return view._grad_fn is not None or root._grad_fn is not None or root._requires_grad


def node_is_current(view):
    """``view`` was just given its node by an operation of its own (``squeeze_`` or
    ``unsqueeze_`` of a view): that node is up to date."""
    view._attr_version = view._version_counter[0]


def history_lost(view):
    """Why asking ``view`` for its node would fail now, or '' (never raises)."""
    return _history_lost(view) if _out_of_date(view) else ""


def _made_under(view, changed):
    """PyTorch's words for a view made under no_grad (or inference mode) that ``changed``
    ("is being" or _BASE_CHANGED) in place while recording, up to the end of its message."""
    if view._made_in_inference_mode:
        mode, now, block = "inference mode", "in normal mode", "inference_mode"
    else:
        mode, now, block = "no_grad mode", "with grad mode enabled", "no_grad"
    return (f"created in {mode} and {changed} modified inplace {now}. Given that this use case "
            "is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
            f"both the view and the inplace either both inside the {block} block (if you don't "
            "want the inplace to be tracked) or both outside (if you want the inplace to be "
            "tracked).")


_BASE_CHANGED = "its base or another view of its base has been"
_MULTIPLE_VIEWS = (
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one.")


def _operation(node):
    # PyTorch names the operation, not its node: "Output 1 of Unbind" (UnbindBackward0),
    # "Output 0 of SplitWithSizes", but "Max1" for MaxBackward1
    return re.sub(r"Backward(\d*)$", lambda m: "" if m.group(1) == "0" else m.group(1), node.name())


def _history_lost(view):
    """PyTorch's message when a view's history can't be regenerated after its base changed."""
    if view._created_in_no_grad:
        return "A view was " + _made_under(view, _BASE_CHANGED)
    if view._grad_fn is None:
        if view._multi_output_view:
            return (f"A view was created in no_grad mode and {_BASE_CHANGED} modified inplace with "
                    "grad mode enabled. " + _MULTIPLE_VIEWS)
        return ""
    where = f"Output {view._output_nr} of {_operation(view._grad_fn)}"
    if view._view_of_no_grad_view:
        return f"{where} is a view of a view which was " + _made_under(view, _BASE_CHANGED)
    if view._multi_output_view:
        return f"{where} is a view and {_BASE_CHANGED} modified inplace. " + _MULTIPLE_VIEWS
    return ""


def check_history_kept(*tensors, saves=None):
    """PyTorch looks up the history of every input before it runs a recorded operation: an
    input whose history was lost (a view whose base changed in place) raises before the
    operation's own checks (a shape mismatch, say).

    It then saves what the backward needs, also before the kernel runs: an inference tensor it
    would save raises next. ``saves[i]`` are the positions of the inputs saved when input i
    gets a gradient edge (mul: ((1,), (0,)), each factor for the other's gradient)."""
    if not _State.enabled:
        return
    lost = _lost_history(tensors)
    if lost:
        raise RuntimeError(lost) from None      # (alone, also when an operation's error led here)
    if saves is not None:
        # an input that every gradient needs is saved whenever the operation is recorded (some
        # input requires grad: a view made under no_grad, without an edge, too); one that only
        # some gradients need, when those inputs get an edge (PyTorch's should_compute_output)
        needed_by_all = set(saves[0]).intersection(*saves[1:])
        recorded = needed_by_all and any(getattr(t, "requires_grad", False) for t in tensors)
        for needed, positions in zip(tensors, saves):
            gets_edge = gets_gradient_edge(needed)
            if any(getattr(tensors[i], "_is_inference", False) and (gets_edge or (recorded and i in needed_by_all))
                   for i in positions):
                raise RuntimeError(INFERENCE_SAVE_MESSAGE) from None


# what binary operations save (see check_history_kept): each input for the other's gradient,
# or both inputs for either gradient
SAVES_OTHER = ((1,), (0,))
SAVES_BOTH = ((0, 1), (0, 1))


def _lost_history(values):
    """Why the history of one of ``values`` (tensors, or lists of them) was lost, or ''."""
    for value in values:
        for tensor in value if isinstance(value, (list, tuple)) else (value,):
            lost = getattr(tensor, "_base", None) is not None and history_lost(tensor)
            if lost:
                return lost
    return ""


def history_first(operation):
    """Make ``operation`` report a lost history before its own argument checks, as PyTorch does.

    PyTorch's autograd layer runs before an operation's kernel: it first collects the
    history (grad_fn) of every input the result will depend on, and only then the kernel
    checks its arguments (a dim out of range, an index out of bounds, sizes that don't
    fit). Asking a view whose history was lost for its grad_fn raises, so that error comes
    first. minigrad checks arguments while it computes and records at the end
    (``result``); instead of checking every input up front, which every call would pay
    for, the check is made only when the operation fails: if an input's history was
    lost, that is the error PyTorch would have raised. (Python argument errors, the
    TypeErrors, come before the autograd layer in PyTorch as well, and are left alone.)
    Operations PyTorch writes in terms of others (``narrow``, ``x[i]`` with an integer)
    check their arguments first and are not wrapped.
    """
    @functools.wraps(operation)
    def history_looked_up_first(*args, **kwargs):
        try:
            return operation(*args, **kwargs)
        except (RuntimeError, IndexError, ValueError):
            check_history_kept(*args, *kwargs.values())     # (raises the lost-history error)
            raise
    return history_looked_up_first


def raise_no_grad_view_changed(tensor):
    """A view made under no_grad (or a view of one) may not be changed in place by a
    recorded operation."""
    if tensor._multi_output_view:          # a piece of unbind/split made without history
        raise RuntimeError("A view was created in no_grad mode and is being modified inplace with "
                           "grad mode enabled. " + _MULTIPLE_VIEWS)
    if tensor._view_of_no_grad_view and tensor._grad_fn is not None:
        raise RuntimeError(f"Output {tensor._output_nr} of {_operation(tensor._grad_fn)} is a view "
                           "of a view which was " + _made_under(tensor, "is being"))
    raise RuntimeError("A view was " + _made_under(tensor, "is being"))


def check_view_inplace(tensor, recording=True):
    """PyTorch's rules for changing a view in place while recording (``recording``: some
    input of the operation requires grad).

    The rules about how the view was made (under no_grad, by unbind/split) come first,
    then the rule about views of leaves, as in PyTorch."""
    if not _State.enabled or not (recording or tensor._graph_requires_grad):
        return
    if tensor._created_in_no_grad or tensor._view_of_no_grad_view or (
            tensor._multi_output_view and tensor._grad_fn is None):
        raise_no_grad_view_changed(tensor)
    if tensor._multi_output_view:
        raise RuntimeError(
            f"Output {tensor._output_nr} of {_operation(tensor._grad_fn)} is a view and is being "
            "modified inplace. " + _MULTIPLE_VIEWS)
    if tensor._custom_function_view and tensor._grad_fn is not None:
        raise RuntimeError(
            f"Output {tensor._output_nr} of {tensor._grad_fn._forward_cls.__name__} is a view and "
            "is being modified inplace. This view was created inside a custom Function (or "
            "because an input was returned as-is) and the autograd logic to handle view+inplace "
            "would override the custom backward associated with the custom Function, leading to "
            "incorrect gradients. This behavior is forbidden. You can fix this by cloning the "
            "output of the custom Function.")
    # the view requires grad (through its base, or by requires_grad_() on the view itself)
    if tensor._graph_requires_grad and tensor._base._grad_fn is None:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
            "\nminigrad hint: change the leaf itself inside `with minigrad.no_grad():`, or work "
            "on a .clone() of the view.")
