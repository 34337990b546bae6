"""Operator modes: context managers that see each operation as it runs.

PyTorch lets Python code stand between its autograd layer and its kernels
(``TorchDispatchMode``, torch/utils/_python_dispatch.py): a mode sees every operator called,
with its arguments and its output, and may even hand back another output. Two features of
``torch.utils.checkpoint`` are built on that: selective checkpointing, which keeps chosen
outputs for the rerun (_selective_checkpoint.py), and ``debug=True``, which logs every
operator forward and the rerun ran (checkpoint.py).

minigrad has no dispatcher, but every operation that records a backward node passes through
one function, ``_ops.result``. While a mode is open, ``_ops.operation_observer`` points at
``_observe`` below, which records the operation itself, in two steps each mode sees:

* ``before(op, out)``: the operation ran and gave ``out``, not recorded yet; a mode may give
  back another output to record instead;
* ``after(op, out, arguments)``: it is recorded (its node made, the tensors it saves saved).

The operation is named by its node (``MmBackward0``: the operator ``aten.mm.default``,
_op_overloads.py), and its arguments are found in the order of the operator's schema: the
node's inputs for tensors, the node's saved settings (``grad_fn._saved_dim``) for the rest,
up to the first the node does not keep. Operations that record nothing (no input requires
grad, random draws, the inside of a custom Function's forward) are not seen.
"""
from .. import _ops
from .._op_overloads import NO_DEFAULT, operator_of_node, schema_arguments
from .._tensor import Tensor
from ..autograd.graph import InPlace

# the open modes, innermost last
_open_modes = []


def _observe(out, node_class, inputs, saved, attributes):
    """``_ops.result``'s observer: record the operation, showing it to each open mode
    (outermost first) before and after."""
    op = operator_of_node(node_class, in_place=InPlace.running)
    modes = list(_open_modes)
    if op is not None:
        for mode in modes:
            out = mode.before(op, out)
    out = _ops.record_node(out, node_class, inputs, saved, attributes)
    if op is not None:
        arguments = operation_arguments(op, out, inputs)
        for mode in modes:
            mode.after(op, out, arguments)
    return out


_MISSING = object()


# settings no node keeps but its output tells: softmax's half_to_float (a float16 input, a
# float32 result)
_TOLD_BY_THE_OUTPUT = {"half_to_float": lambda out, inputs: out.dtype != inputs[0].dtype}


def operation_arguments(op, out, inputs):
    """The arguments ``op`` was called with, as far as its node (``out.grad_fn``) tells them,
    in the order of its schema; arguments left at their defaults at the end are left out, as
    PyTorch's dispatcher leaves them out."""
    node = out._grad_fn
    schema = schema_arguments(op.__name__)
    if schema is None:
        return [value for value in inputs if value is not None]
    given = iter(inputs)
    arguments = []
    for name, kind, default in schema:
        if kind == "tensor":
            value = next(given, _MISSING)
        elif kind == "tensors":
            value = list(given)
        elif name in _TOLD_BY_THE_OUTPUT:
            value = _TOLD_BY_THE_OUTPUT[name](out, inputs)
        else:
            value = _saved_setting(node, name)
        if value is _MISSING:
            break
        arguments.append((value, default))
    while arguments and arguments[-1][1] is not NO_DEFAULT and _equal(*arguments[-1]):
        arguments.pop()
    return [value for value, _ in arguments]


def _saved_setting(node, name):
    """``node._saved_<name>`` as the operator was given it (a list for a tuple of dims, -1 for
    the unsigned number PyTorch's node shows for it), or _MISSING."""
    try:
        value = getattr(node, "_saved_" + name)
    except (AttributeError, RuntimeError):
        return _MISSING
    if isinstance(value, Tensor):
        return _MISSING
    if isinstance(value, tuple):
        return [_signed(item) for item in value]
    return _signed(value)


def _signed(value):
    """A dim PyTorch's node keeps as an unsigned 64-bit number (2**64 - 1 for -1), signed."""
    return value - 2 ** 64 if isinstance(value, int) and value >= 2 ** 63 else value


def _equal(value, default):
    """Is ``value`` its default? (Never for a tensor: it was given.)"""
    if isinstance(value, Tensor) or isinstance(value, bool) != isinstance(default, bool):
        return False
    return value == default


class OperatorMode:
    """A context manager that sees each recorded operation while it is open: subclasses define
    ``before(op, out)`` (returns the output to record, usually ``out``) and
    ``after(op, out, arguments)``."""

    def __enter__(self):
        _open_modes.append(self)
        _ops.operation_observer = _observe
        return self

    def __exit__(self, *exc_info):
        _open_modes.remove(self)
        if not _open_modes:
            _ops.operation_observer = None
        return False

    def before(self, op, out):
        """Operator ``op`` (an OpOverload) gave ``out``; return the output to record."""
        return out

    def after(self, op, out, arguments):
        """Operator ``op`` ran on ``arguments`` and gave ``out``, now recorded."""
