"""Operator modes: context managers that see each operation as it runs.

PyTorch lets Python code stand between its autograd layer and its kernels
(``TorchDispatchMode``, torch/utils/_python_dispatch.py): a mode sees every operator called,
with its arguments and its output, and may even hand back another output. Two features of
``torch.utils.checkpoint`` are built on that: selective checkpointing, which keeps chosen
outputs for the rerun (_selective_checkpoint.py), and ``debug=True``, which logs every
operator forward and the rerun ran (checkpoint.py).

minigrad has no dispatcher, but every operation that records a backward node passes through
one function, ``_ops.result``. While a mode is open, ``_ops.operation_observer`` points at
``_observe`` below, which names the operation by its node (``MmBackward0``: the operator
``aten.mm.default``, _op_overloads.py) and shows it to each open mode. Operations that
record nothing (no input requires grad, random draws, the inside of a custom Function's
forward) are not seen.
"""
from .. import _ops
from .._op_overloads import operator_of_node
from ..autograd.graph import InPlace

# the open modes, innermost last
_open_modes = []


def _observe(out, node_class, inputs):
    """``_ops.result``'s observer: show the operation to each open mode, outermost first; each
    may give back another output for the node to be attached to."""
    op = operator_of_node(node_class, in_place=InPlace.running)
    if op is None:
        return out
    arguments = [value for value in inputs if value is not None]
    for mode in list(_open_modes):
        out = mode.operation(op, out, arguments)
    return out


class OperatorMode:
    """A context manager that sees each recorded operation while it is open: subclasses define
    ``operation(op, out, arguments)``, which returns the output to keep (usually ``out``)."""

    def __enter__(self):
        _open_modes.append(self)
        _ops.operation_observer = _observe
        return self

    def __exit__(self, *exc_info):
        _open_modes.remove(self)
        if not _open_modes:
            _ops.operation_observer = None
        return False

    def operation(self, op, out, arguments):
        """See operator ``op`` (an OpOverload) run on ``arguments`` and give ``out``."""
        return out
