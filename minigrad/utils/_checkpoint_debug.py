"""checkpoint(..., debug=True): the report of what forward and the rerun ran.

A checkpointed function that runs differently the second time (a branch on a random number, a
counter, a global) makes the rerun save other tensors than forward did, and backward raises
CheckpointError. With ``debug=True`` the error is PyTorch's report instead, which lists every
operator each run ran, in order, with the lines of code that ran it:

    $1: f32[2] = torch._ops.aten.sin.default($0)   (1 of 4 in original)

``$n`` numbers the tensors as they first appear. Comparing the two lists shows where the runs
parted. The rerun's list also shows a ``detach`` for each tensor it saves (checkpoint's
saved-tensor hook detaches them), placed where PyTorch places it.

Each list is an operator mode (_python_dispatch.py) open around its run: it sees every
operation that records a backward node. (PyTorch: torch/utils/checkpoint.py.)
"""
import os
import traceback
import weakref

from .._tensor import Tensor
from ._python_dispatch import OperatorMode

# minigrad's own files: left out of the report's stack traces (the learner's lines stay)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class OperatorLog(OperatorMode):
    """Every operator run while it is open, as PyTorch's debug log writes it
    (``$1: f32[2] = torch._ops.aten.sin.default($0)``: ``$n`` numbers each tensor when first
    seen), with the lines of code that ran it, innermost first. Entering it starts a new log:
    the report shows the latest rerun."""

    def __init__(self):
        self.entries = []       # (operator's name, its arguments, output, output's type, lines)
        self.tokens = {}        # id(tensor) -> the token standing for it while it lives
        self.recording = False  # between an operation's before() and after()
        self.last_arguments, self.last_output = [], None

    def __enter__(self):
        self.entries = []
        return super().__enter__()

    def _token(self, tensor):
        """A stand-in for ``tensor`` (numbered when the log is written): the log keeps no tensor."""
        token = self.tokens.get(id(tensor))
        if token is None:
            token = self.tokens[id(tensor)] = object()
            weakref.finalize(tensor, self.tokens.pop, id(tensor), None)   # (ids are reused)
        return token

    def _shown(self, value):
        """An argument as the log keeps it: a token for a tensor, a list of them for a list."""
        if isinstance(value, Tensor):
            return self._token(value)
        if isinstance(value, list):
            return [self._shown(item) for item in value]
        return value

    def _log(self, name, arguments, output):
        dtype = _DTYPE_ABBREVIATIONS.get(str(output.dtype), output.dtype)
        described = f"{dtype}[{', '.join(map(str, output.shape))}]"
        lines = [f"{frame.filename}:{frame.lineno}:{frame.name}" for frame in
                 reversed(traceback.extract_stack()) if not frame.filename.startswith(_PACKAGE_DIR)]
        self.entries.append((name, [self._shown(a) for a in arguments], self._token(output),
                             described, lines))

    def before(self, op, out):
        self.recording = True
        return out

    def after(self, op, out, arguments):
        self.recording = False
        self._log(f"torch._ops.{op}", arguments, out)
        self.last_arguments, self.last_output = arguments, out

    def saving_input(self, tensor):
        """Is ``tensor``, saved now, an input of the operation logged last, saved after it ran
        (some operations save their inputs once recorded)?"""
        return not self.recording and any(tensor is a for a in self.last_arguments)

    def detached(self, tensor, detached):
        """The rerun's saved-tensor hook detached ``tensor``: PyTorch logs that ``aten.detach``
        too, an operation's inputs before the operation (they are saved before it runs), its
        result after it (the hook is shown the result as a tensor of its own, same memory)."""
        if self.saving_input(tensor):
            self._log("torch._ops.aten.detach.default", [tensor], detached)
            self.entries.insert(self._last_operation(), self.entries.pop())
            return
        if self.last_output is not None and tensor._array is self.last_output._array:
            tensor = self.last_output
        self._log("torch._ops.aten.detach.default", [tensor], detached)

    def _last_operation(self):
        """Where the operation logged last (not a detach) sits in the log."""
        return max(i for i, entry in enumerate(self.entries)
                   if entry[0] != "torch._ops.aten.detach.default")

    def drop_last_operation(self):
        """Forget the operation logged last: the rerun stopped while saving its inputs, which
        PyTorch does before running it."""
        del self.entries[self._last_operation()]

    def written(self):
        """(the log's lines, each entry's lines of code), tensors numbered in order of appearance."""
        numbers = {}

        def shown(value):
            if type(value) is object:           # a tensor's token
                return f"${numbers.setdefault(value, len(numbers))}"
            if isinstance(value, list):
                return "[" + ", ".join(shown(item) for item in value) + "]"
            return repr(value)
        logged = []
        for name, arguments, output, described, _ in self.entries:
            shown_arguments = ", ".join(shown(a) for a in arguments)      # (first, as PyTorch)
            logged.append(f"{shown(output)}: {described} = {name}({shown_arguments})")
        return logged, [lines for *_, lines in self.entries]


_DTYPE_ABBREVIATIONS = {"torch.float32": "f32", "torch.float64": "f64", "torch.float16": "f16",
                        "torch.bfloat16": "bf16", "torch.int64": "i64", "torch.int32": "i32",
                        "torch.int16": "i16", "torch.int8": "i8", "torch.uint8": "u8",
                        "torch.bool": "b8", "torch.complex64": "c64", "torch.complex128": "c128"}


def debug_report(forward_log, rerun_log):
    """debug=True's CheckpointError: PyTorch's report of the operators each run ran."""
    def traces(log, label):
        logged, lines = log.written()
        return "".join(f"{entry}   ({i + 1} of {len(logged)} in {label})\n\n"
                       + "".join(line + "\n" for line in where) + "\n\n"
                       for i, (entry, where) in enumerate(zip(logged, lines)))
    return DEBUG_REPORT.format(forward_traces=traces(forward_log, "original"),
                               recompute_traces=traces(rerun_log, "recompute"),
                               forward_ops="\n".join(forward_log.written()[0]),
                               recompute_ops="\n".join(rerun_log.written()[0]))


# PyTorch's report (the stack traces of minigrad's operators hold the lines of Python code
# outside minigrad; PyTorch's hold its own C++ and Python frames too)
DEBUG_REPORT = """ \
An error happened while unpacking tensors; dumping logs of latest computation
because you passed `debug=True` to `torch.utils.checkpoint.checkpoint()`.
Scroll all the way down for guidance on how to navigate these logs.

+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        1. Stack traces of the operators that ran in the original forward     |
+------------------------------------------------------------------------------+

{forward_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        2. Stack traces of the operators that ran during recomputation        |
+------------------------------------------------------------------------------+

{recompute_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|       3. Log of operators in the original forward and recomputation          |
+------------------------------------------------------------------------------+
(Scroll up to correlate stack traces with each operation listed below. This
 helps identify their source in the code.)

IMPORTANT: Differences in "detach" calls between the original forward and the
           recomputation are expected. They are introduced by the checkpointing
           mechanism and can be ignored.

Operations executed during the original forward:

{forward_ops}

Operations executed during recomputation:

{recompute_ops}

+------------------------------------------------------------------------------+
 ERROR: Detected non-determinism while running activation checkpointing

 You are seeing this error because you passed `debug=True` to checkpoint and
 tensors to be saved during the original forward and differ between those saved
 during recomputation. This can happen if different operators were ran in the
 original forward and in the recomputation.

 To identify where the mismatch may be coming from, you can do the following:

 1) Compare the operators ran during original forward and recomputation to
    see where they differ. These operators are printed above in the order they
    were executed.

 2) Review the stack trace for each operator to locate its invocation source.
    Each operator's stack trace is printed in their execution order.

 Note that the logs can be quite long. Here's how they are structured:
 (Tip: you can Ctrl-f for these headers)

 1. Stack traces of the operators that ran in the original forward
 2. Stack traces of the operators that ran during recomputation
 3. Log of operators in the original forward and recomputation
 4. Error message                                             <--- You are here
--------------------------------------------------------------------------------
"""
