"""Non-reentrant checkpoint's rerun compared with PyTorch's, step by step.

Each program below runs under both libraries and writes a transcript: what the
checkpointed function did (and when), values, gradients, grad_fn names, errors
and warnings. The transcripts must be equal. What they pin down:

- early stop: the rerun in backward ends once every saved tensor is back, so
  lines after the function's last saving operation run once only, unless
  ``set_checkpoint_early_stop(False)`` or ``early_stop=False``;
- the rerun starts when backward first unpacks a saved tensor (not before);
- random numbers: ``preserve_rng_state`` and the random state after backward;
- nesting, checkpoint_sequential, context_fn, determinism_check, debug;
- PyTorch's CheckpointError texts when the rerun saves something else;
- use_reentrant=True, which always reruns the whole function.
"""
import copy
import logging
import warnings

import numpy as np
import pytest

import minigrad
import minigrad.utils.checkpoint  # noqa: F401  (the import path learners use)
from test_checkpoint import outcome, values       # (the same transcript helpers)


def both(program):
    """The transcripts of ``program`` under minigrad and PyTorch."""
    import torch
    return program(minigrad), program(torch)


def same(program):
    ours, theirs = both(program)
    assert ours == theirs
    return ours


def sin_exp_function(lib, log):
    """A function whose last saving operation (exp) is followed by more work."""
    def f(x):
        log.append("start")
        a = x.sin()                 # saves x
        log.append("after sin")
        b = a.exp()                 # saves its result: the last saved tensor
        log.append("after exp")
        c = b + 1                   # saves nothing
        log.append("after add")
        noise = lib.rand(2)         # a random draw after the last save
        log.append("end")
        return c * 2 + noise * 0
    return f


@pytest.mark.parametrize("early_stop", [None, True, False])
@pytest.mark.parametrize("how", ["context", "argument"])
def test_early_stop_leaves_the_end_of_the_function_out(early_stop, how):
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        log = []
        f = sin_exp_function(lib, log)
        x = lib.ones(2, requires_grad=True)
        if early_stop is None:
            y = checkpoint(f, x, use_reentrant=False)
        elif how == "context":
            with lib.utils.checkpoint.set_checkpoint_early_stop(early_stop):
                y = checkpoint(f, x, use_reentrant=False)
        else:
            y = checkpoint(f, x, use_reentrant=False, early_stop=early_stop)
        log.append("backward")
        y.sum().backward()
        log += [values(x.grad), y.grad_fn.name()]
        return log
    log = same(program)
    rerun = log[log.index("backward") + 1:-2]
    if early_stop is False:
        assert rerun == ["start", "after sin", "after exp", "after add", "end"]
    else:
        assert rerun == ["start", "after sin"]      # exp raised the stop: its line never came


def test_the_context_manager_wins_over_the_argument_and_only_matters_in_forward():
    def program(lib):
        cp = lib.utils.checkpoint
        log = []
        f = sin_exp_function(lib, log)
        x = lib.ones(2, requires_grad=True)
        with cp.set_checkpoint_early_stop(False):
            y = cp.checkpoint(f, x, use_reentrant=False, early_stop=True)
        with cp.set_checkpoint_early_stop(True):
            z = cp.checkpoint(f, x, use_reentrant=False, early_stop=False)
        log.append("backward y")
        y.sum().backward()
        log.append("backward z")
        with cp.set_checkpoint_early_stop(False):      # too late: z was made with True
            z.sum().backward()
        log.append(type(cp.set_checkpoint_early_stop(True)).__name__)

        @cp.set_checkpoint_early_stop(False)            # also a decorator, as contextlib's are
        def decorated():
            return cp.checkpoint(f, x, use_reentrant=False)
        w = decorated()
        log.append("backward w")
        w.sum().backward()
        return log
    same(program)


def test_rerun_starts_when_a_saved_tensor_is_first_unpacked():
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        log = []

        def f(x):
            log.append("f runs")
            return (x + 1) * 3, x.exp()       # the first output's nodes save nothing

        x = lib.ones(2, requires_grad=True)
        first, second = checkpoint(f, x, use_reentrant=False)
        first.register_hook(lambda g: log.append("hook on first"))
        second.register_hook(lambda g: log.append("hook on second"))
        log.append("backward of first")
        first.sum().backward()
        log.append("backward of second")
        second.sum().backward(retain_graph=True)
        log.append("again, retained")
        second.sum().backward()
        log.append(values(x.grad))
        log.append("both")
        a, b = checkpoint(f, x, use_reentrant=False)
        (a.sum() * b.sum()).backward()
        log.append(values(x.grad))
        return log
    same(program)


@pytest.mark.parametrize("preserve", [True, False])
@pytest.mark.parametrize("early_stop", [True, False])
def test_random_state_and_dropout(preserve, early_stop):
    def program(lib):
        cp = lib.utils.checkpoint
        lib.manual_seed(0)
        draws = []

        def f(x):
            mask = lib.nn.functional.dropout(x, 0.5)        # saves its mask
            y = (mask * x).exp()
            draws.append(values(lib.rand(3)))               # after the last saved tensor
            return y

        x = lib.from_numpy(np.linspace(0.1, 0.8, 8))
        x.requires_grad_(True)
        with cp.set_checkpoint_early_stop(early_stop):
            y = cp.checkpoint(f, x, use_reentrant=False, preserve_rng_state=preserve)
        after_forward = values(lib.rand(2))
        y.sum().backward()
        return [draws, after_forward, values(lib.rand(2)), values(x.grad), values(y)]
    same(program)


def test_nested_checkpoints():
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        log = []

        def inner(h):
            log.append("inner start")
            out = h.cos()
            log.append("inner end")
            return out

        def outer(x):
            log.append("outer start")
            h = checkpoint(inner, x.sin(), use_reentrant=False)
            log.append("outer middle")
            out = h.exp()
            log.append("outer end")
            return out

        x = lib.tensor([0.5, 1.5], requires_grad=True)
        y = checkpoint(outer, x, use_reentrant=False)
        log.append("backward")
        y.sum().backward()
        log += [values(x.grad), y.grad_fn.name()]
        return log
    same(program)


@pytest.mark.parametrize("use_reentrant", [False, True])
@pytest.mark.parametrize("early_stop", [True, False])
def test_checkpoint_sequential(use_reentrant, early_stop):
    def program(lib):
        cp = lib.utils.checkpoint
        log = []

        class Step(lib.nn.Module):
            def __init__(self, k):
                super().__init__()
                self.k = k

            def forward(self, h):
                log.append(f"step {self.k} start")
                h = (h * 0.9 + 0.1 * self.k).tanh()
                log.append(f"step {self.k} end")
                return h

        model = lib.nn.Sequential(*[Step(k) for k in range(6)])
        x = lib.tensor([0.1, -0.2], requires_grad=True)
        with cp.set_checkpoint_early_stop(early_stop):
            y = cp.checkpoint_sequential(model, 3, x, use_reentrant=use_reentrant)
        log.append("backward")
        y.sum().backward()
        log += [values(x.grad), y.grad_fn.name()]
        return log
    same(program)


def test_context_fn():
    def program(lib):
        cp = lib.utils.checkpoint
        log = []

        class Note:
            def __init__(self, name):
                self.name = name

            def __enter__(self):
                log.append(f"enter {self.name}")

            def __exit__(self, *exc):
                log.append(f"exit {self.name}")

        def contexts():
            log.append("context_fn called")
            return Note("forward"), Note("recompute")

        def f(x):
            log.append("f")
            return x.sin()

        x = lib.ones(2, requires_grad=True)
        y = cp.checkpoint(f, x, use_reentrant=False, context_fn=contexts)
        log.append("backward")
        y.sum().backward()
        with lib.no_grad():
            cp.checkpoint(f, x, use_reentrant=False, context_fn=contexts)

        class Swallow:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return True

        def failing(x):
            raise KeyError("inside")

        log.append(outcome(lambda: cp.checkpoint(failing, x, use_reentrant=False,
                                                 context_fn=lambda: (Swallow(), Swallow()))))
        log.append(outcome(lambda: cp.checkpoint(failing, x, use_reentrant=False)))
        return log
    same(program)


def changing_function(lib, change):
    """A function that does something else the second time it runs."""
    runs = []

    def f(x):
        runs.append(1)
        second = len(runs) == 2
        if change == "shape":
            return x[:1 + second].sin()
        if change == "dtype":
            return (x.double() if second else x).sin()
        if change == "fewer":
            y = x.sin()
            return y if second else y.exp()
        if change == "more":
            y = x.sin()
            return y.exp() if second else y
        return x.sin()
    return f


@pytest.mark.parametrize("change", ["shape", "dtype", "fewer", "more"])
@pytest.mark.parametrize("determinism_check", ["default", "none"])
@pytest.mark.parametrize("early_stop", [True, False])
def test_a_rerun_that_differs(change, determinism_check, early_stop):
    def program(lib):
        cp = lib.utils.checkpoint
        x = lib.ones(3, requires_grad=True)
        with cp.set_checkpoint_early_stop(early_stop):
            y = cp.checkpoint(changing_function(lib, change), x, use_reentrant=False,
                              determinism_check=determinism_check)
        result = outcome(lambda: y.sum().backward())
        return [result, values(x.grad)]
    same(program)


def test_debug_mode():
    def program(lib):
        cp = lib.utils.checkpoint
        x = lib.ones(3, requires_grad=True)
        seen = []
        y = cp.checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False, debug=True)
        y.sum().backward()
        seen.append(values(x.grad))
        for debug_setting in ("argument", "context"):
            f = changing_function(lib, "shape")
            if debug_setting == "argument":
                y = cp.checkpoint(f, x, use_reentrant=False, debug=True)
            else:
                with cp.set_checkpoint_debug_enabled(True):
                    y = cp.checkpoint(f, x, use_reentrant=False)
            try:
                y.sum().backward()
            except cp.CheckpointError as error:
                seen.append([type(error).__name__, type(error.__cause__).__name__,
                             str(error.__cause__).splitlines()[0]])
        with cp.set_checkpoint_debug_enabled(False):      # wins over debug=True
            y = cp.checkpoint(changing_function(lib, "shape"), x, use_reentrant=False, debug=True)
        seen.append(outcome(lambda: y.sum().backward())[1].splitlines()[0])
        seen.append(outcome(lambda: cp.checkpoint(lambda t: t.sin(), x, use_reentrant=False,
                                                  debug=True, context_fn=cp.noop_context_fn)
                            .grad_fn.name()))
        seen.append(outcome(lambda: cp.checkpoint(lambda t: t, x, use_reentrant=False, debug=True,
                                                  context_fn=lambda: (None, None))))
        return seen
    same(program)


def debug_report(lib, function, **settings):
    """The report debug=True gives when ``function`` runs differently the second time, with the
    lines of its stack traces that are not this file's left out (PyTorch's hold its own C++
    and Python frames; both hold the learner's lines)."""
    import re
    cp = lib.utils.checkpoint
    x = lib.tensor([0.5, -1.0], requires_grad=True)
    # (pytest's log capture can be left on the logger PyTorch's debug mode writes to by an
    # earlier debug=True test; it cannot format that logger's records: take it off)
    logging.getLogger("LoggingTensor").handlers.clear()
    y = cp.checkpoint(function, x, use_reentrant=False, debug=True, **settings)
    try:
        y.sum().backward()
    except cp.CheckpointError as error:
        lines = str(error).split("\n")
        return "\n".join(line for line in lines
                         if not re.search(r":\d+:", line) or line.startswith(__file__)), \
            type(error.__cause__).__name__, str(error.__cause__).split("\n")[0]
    return "no error"


@pytest.mark.parametrize("change", ["another shape", "one operation fewer", "one more operation"])
def test_debug_report_lists_the_operators_each_run_ran(change):
    def program(lib):
        calls = []
        w = lib.ones(2, 2)

        def f(t):
            calls.append(1)
            y = t.sin() * 2
            rerun = len(calls) > 1
            if rerun and change == "another shape":
                y = y * w                           # saves w, of shape (2, 2)
            if rerun and change == "one operation fewer":
                return y.sum()
            if rerun and change == "one more operation":
                y = y * t                           # saves two more tensors
            return y.exp().sum()
        return debug_report(lib, f, early_stop=change != "one more operation")
    report, cause, first_line = same(program)
    assert "$1: f32[2] = torch._ops.aten.sin.default($0)   (1 of " in report
    assert f"{__file__}:" in report and ":f\n" in report     # the line in the function


def test_argument_errors():
    def program(lib):
        cp = lib.utils.checkpoint
        x = lib.ones(2, requires_grad=True)
        f = lambda t: t.sin()       # noqa: E731
        return [
            outcome(lambda: cp.checkpoint(f, x, use_reentrant=False, determinism_check="shape")),
            outcome(lambda: cp.checkpoint(f, x, use_reentrant=True, context_fn=cp.noop_context_fn)
                    .grad_fn.name()),
            outcome(lambda: cp.checkpoint(f, x, use_reentrant=True, context_fn=lambda: None)),
            outcome(lambda: cp.checkpoint(f, x, use_reentrant=True, debug=True)),
            outcome(lambda: cp.checkpoint(f, x, use_reentrant=True, debug=True, bar=2)),
            outcome(lambda: cp.checkpoint(f, x, use_reentrant=True, preserve_rng_state=False)
                    .grad_fn.name()),
            issubclass(cp.CheckpointError, RuntimeError),
        ]
    same(program)


def test_inputs_kept_for_the_rerun():
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        seen = []

        def f(t):
            seen.append([t is leaf, t.requires_grad, t.grad_fn and t.grad_fn.name()])
            return t.sin()

        leaf = lib.ones(2, requires_grad=True)
        checkpoint(f, leaf, use_reentrant=False).sum().backward()
        checkpoint(f, leaf * 2, use_reentrant=False).sum().backward()
        h = leaf * 1
        y = checkpoint(f, h, use_reentrant=False)
        h.add_(1)                                   # changed before backward reruns f
        seen.append(outcome(lambda: y.sum().backward())[1].splitlines()[0])
        with lib.no_grad():
            z = checkpoint(f, leaf, use_reentrant=False)
        seen.append(z.requires_grad)
        return seen
    same(program)


def test_saved_tensors_outside_backward_and_twice_in_one_backward():
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        log = []

        def f(t):
            log.append("f")
            return t.exp()

        x = lib.tensor([0.0, 1.0], requires_grad=True)
        y = checkpoint(f, x, use_reentrant=False)
        log.append(values(y.grad_fn._saved_result))      # reruns f
        log.append(values(y.grad_fn._saved_result))      # and again
        log.append(y.grad_fn.name())

        class TwiceUnpacked(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                ctx.save_for_backward(t)
                return t * 2

            @staticmethod
            def backward(ctx, g):
                first, = ctx.saved_tensors
                second, = ctx.saved_tensors
                return g * first * second

        z = checkpoint(TwiceUnpacked.apply, x, use_reentrant=False)
        log.append(outcome(lambda: z.sum().backward()))
        w = checkpoint(f, x, use_reentrant=False)
        w.sum().backward()
        log.append(outcome(lambda: w.sum().backward()))   # freed, as without checkpoint
        return log
    same(program)


@pytest.mark.parametrize("early_stop", [True, False])
def test_backward_inside_the_checkpointed_function(early_stop):
    def program(lib):
        cp = lib.utils.checkpoint
        log = []

        def f(x):
            log.append("f start")
            y = x.sin()
            z = y.cos()
            gx, = lib.autograd.grad(z.sum(), x)
            log.append(["inner grad", values(gx)])
            out = x.cos() * gx
            log.append("f end")
            return out

        x = lib.tensor([0.3, 0.9], requires_grad=True)
        with cp.set_checkpoint_early_stop(early_stop):
            y = cp.checkpoint(f, x, use_reentrant=False)
        log.append("backward")
        y.sum().backward()
        log.append(values(x.grad))
        return log
    same(program)


def test_hooks_around_a_checkpoint_see_the_inputs_only():
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        log = []

        def pack(t):
            log.append(["pack", list(t.shape), t.grad_fn and t.grad_fn.name()])
            return t

        def unpack(t):
            log.append(["unpack", list(t.shape)])
            return t

        def f(a, b):
            log.append("f")
            return (a * b).sin()

        a = lib.ones(2, requires_grad=True)
        b = lib.full((2,), 2.0, requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = checkpoint(f, a * 3, b, use_reentrant=False)
        log.append("backward")
        y.sum().backward()
        log += [values(a.grad), values(b.grad)]
        return log
    same(program)


def test_reentrant_checkpoint_reruns_everything_with_the_forward_random_state():
    def program(lib):
        cp = lib.utils.checkpoint
        lib.manual_seed(3)
        log = []

        def f(x):
            log.append("start")
            y = lib.nn.functional.dropout(x, 0.5).exp()
            log.append("end")
            return y

        x = lib.from_numpy(np.linspace(0.1, 0.8, 8))
        x.requires_grad_(True)
        with cp.set_checkpoint_early_stop(True):        # has no effect on use_reentrant=True
            y = cp.checkpoint(f, x, use_reentrant=True)
        log.append("backward")
        y.sum().backward()
        log += [values(x.grad), values(lib.rand(2))]
        log.append(outcome(lambda: cp.checkpoint(lambda t: t.detach(), x, use_reentrant=True)
                           .sum().backward()))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cp.checkpoint(f, lib.ones(2), use_reentrant=True)
        log.append([str(w.message) for w in caught])
        return log
    same(program)


def test_more_uses():
    def program(lib):
        cp = lib.utils.checkpoint
        log = []

        def two_outputs(x):
            log.append("two_outputs")
            s = x.sin()
            return s * 2, s * 3

        x = lib.ones(2, requires_grad=True)
        a, b = cp.checkpoint(two_outputs, x, use_reentrant=False)
        a.sum().backward()                                  # frees SinBackward0 shared by b
        log.append(outcome(lambda: b.sum().backward())[1][:60])

        w = lib.full((2,), 3.0, requires_grad=True)

        def with_keyword(x, w):
            log.append("with_keyword")
            return (x * w).exp()

        cp.checkpoint(with_keyword, x, w=w, use_reentrant=False).sum().backward()
        log.append(values(w.grad))
        y = cp.checkpoint(lambda t: {"y": t.exp(), "n": 3}, x, use_reentrant=False)
        y["y"].sum().backward()
        log.append(y["n"])

        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Dropout(0.3),
                                  lib.nn.Linear(4, 2))
        cp.checkpoint(model, lib.ones(5, 3, requires_grad=True), use_reentrant=False).sum().backward()
        log += [values(model[0].weight.grad), values(lib.rand(2))]

        y = cp.checkpoint(lambda t: t.sin() * t, x, use_reentrant=False)
        gx, = lib.autograd.grad(y.sum(), x, create_graph=True)
        log.append([round(v, 5) for v in lib.autograd.grad(gx.sum(), x)[0].tolist()])
        y = cp.checkpoint(lambda t: (t * w).exp(), x, use_reentrant=False)
        y.sum().backward(inputs=[w])
        log.append(values(w.grad))
        with lib.inference_mode():
            log.append(cp.checkpoint(lambda t: t.exp(), x, use_reentrant=False).requires_grad)
        with lib.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
            log.append(outcome(lambda: cp.checkpoint(lambda t: t.exp(), x, use_reentrant=False)))
        runs = []

        def fails_the_second_time(t):
            runs.append(1)
            if len(runs) == 2:
                raise ValueError("second time")
            return t.exp()

        y = cp.checkpoint(fails_the_second_time, x, use_reentrant=False)
        log.append(outcome(lambda: y.sum().backward()))
        y = cp.checkpoint(lambda t: t, x, use_reentrant=False)
        log.append([y is x, y.grad_fn])
        x.grad = None
        cp.checkpoint(lambda t, k: t.pow(k), x, 3, use_reentrant=False).sum().backward()
        log.append(values(x.grad))
        return log
    same(program)


def test_custom_functions_in_place_changes_and_which_tensor_differs():
    def program(lib):
        cp = lib.utils.checkpoint
        log = []

        class SavesBoth(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.save_for_backward(a, b)
                return a * b

            @staticmethod
            def backward(ctx, g):
                a, b = ctx.saved_tensors
                return g * b, g * a

        def f(x, w):
            log.append("f")
            y = SavesBoth.apply(x, w)
            log.append("after SavesBoth")
            return y + 1

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        cp.checkpoint(f, x, w, use_reentrant=False).sum().backward()
        log.append(values(x.grad))

        def exp_then_changed(t):
            a = t.exp()                 # saves a: changed in place below
            a.add_(1)                   # (outside a checkpoint, backward would refuse)
            log.append("after add_")
            return a

        for early_stop in (True, False):
            # early stop: the rerun ends before add_, so exp's gradient uses exp(x);
            # without it, add_ changes the recomputed tensor too, as in PyTorch
            with cp.set_checkpoint_early_stop(early_stop):
                y = cp.checkpoint(exp_then_changed, x, use_reentrant=False)
            log.append(outcome(lambda: y.sum().backward()))
            log.append(values(x.grad))

        for order in ("x first", "w first"):
            runs = []

            def shape_changes(x, w):
                runs.append(1)
                part = x[:len(runs)]
                return (part * w if order == "x first" else w * part).sin()

            y = cp.checkpoint(shape_changes, lib.ones(3, requires_grad=True),
                              lib.tensor([2.0], requires_grad=True), use_reentrant=False)
            log.append(outcome(lambda: y.sum().backward())[1].splitlines()[:4])
        return log
    same(program)


def test_the_two_variants_nested_and_the_reentrant_inputs_as_saved_tensors():
    def program(lib):
        cp = lib.utils.checkpoint
        log = []

        def inner(h):
            log.append("inner")
            return h.cos()

        def ends_with_a_checkpoint(x):
            # its last saved tensor is the inner checkpoint's input: the outer rerun stops
            # before inner runs, and inner's own rerun follows
            log.append("outer")
            return cp.checkpoint(inner, x.sin(), use_reentrant=False)

        def outer(variant):
            def run(x):
                log.append(f"outer {variant}")
                out = cp.checkpoint(inner, x.sin(), use_reentrant=variant == "reentrant")
                log.append("outer end")
                return out.exp()
            return run

        x = lib.tensor([0.5, 1.5], requires_grad=True)
        y = cp.checkpoint(ends_with_a_checkpoint, x, use_reentrant=False)
        log.append("backward")
        y.sum().backward()
        log.append(values(x.grad))
        for inner_variant, outer_reentrant in (("reentrant", False), ("non-reentrant", True)):
            x.grad = None
            y = cp.checkpoint(outer(inner_variant), x, use_reentrant=outer_reentrant)
            log.append("backward")
            y.sum().backward()
            log.append(values(x.grad))
        h = x * 1
        y = cp.checkpoint(inner, h, use_reentrant=True)
        h.add_(1)               # a saved tensor of the reentrant node: backward refuses
        log.append(outcome(lambda: y.sum().backward())[1].splitlines()[0])

        def pack(t):
            log.append(["pack", list(t.shape)])
            return t

        with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            y = cp.checkpoint(lambda t, k, s: inner(t) * s, x * 2, None, 3.0, use_reentrant=True)
        y.sum().backward()
        log.append(values(x.grad))
        return log
    same(program)


# --- selective checkpointing: context_fn=create_selective_checkpoint_contexts(...) ----------

def selective(lib, policy_or_list, **settings):
    """A context_fn for selective checkpointing, as PyTorch's documentation writes it."""
    import functools
    return functools.partial(lib.utils.checkpoint.create_selective_checkpoint_contexts,
                             policy_or_list, **settings)


def test_selective_checkpointing_asks_the_policy_about_each_operation_in_forward_only():
    def program(lib):
        cp = lib.utils.checkpoint
        seen = []

        def policy(ctx, op, *args, **kwargs):
            seen.append([str(op), repr(op), ctx.is_recompute, type(ctx.op_output).__name__,
                         [type(a).__name__ for a in args], sorted(kwargs)])
            return (cp.CheckpointPolicy.MUST_SAVE if op == lib.ops.aten.mm.default
                    else cp.CheckpointPolicy.PREFER_RECOMPUTE)

        def fn(x, y):                   # the example of PyTorch's documentation
            seen.append("fn runs")
            return lib.sigmoid(lib.matmul(lib.matmul(x, y), y)) * y

        x = lib.tensor([[0.5, -1.0, 2.0], [0.25, 0.1, -0.3], [1.0, 0.0, 0.7]], requires_grad=True)
        y = lib.tensor([[1.0, 2.0, 0.5], [3.0, -4.0, 0.2], [-0.5, 0.1, 1.5]], requires_grad=True)
        out = cp.checkpoint(fn, x, y, use_reentrant=False, context_fn=selective(lib, policy))
        seen += [out.grad_fn.name(), values(out), "backward"]
        out.sum().backward()
        seen += [values(x.grad), values(y.grad)]
        return seen
    log = same(program)
    assert log.count("fn runs") == 2 and log[1][0] == "aten.mm.default"


def test_the_policy_gets_the_arguments_of_each_operator():
    def program(lib):
        cp = lib.utils.checkpoint
        seen = []

        def policy(ctx, op, *args, **kwargs):
            seen.append([str(op)] + ["tensor" if isinstance(a, lib.Tensor) else repr(a)
                                     for a in args] + sorted(kwargs))
            return cp.CheckpointPolicy.PREFER_RECOMPUTE

        def f(x):
            a = x * 2
            a.add_(1)
            parts = [a[0], a[:, 1:], a.t(), x.unsqueeze(0), x.transpose(0, 1)]
            sums = [(x ** 2).sum(0), x.mean(-1), x.sum(), x.softmax(-1), x.log_softmax(0)]
            other = [lib.nn.functional.gelu(x) / 3 - x, x.relu().exp(), x @ x]
            return sum(t.sum() for t in parts + sums + other)

        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = cp.checkpoint(f, x, use_reentrant=False, context_fn=selective(lib, policy))
        y.backward()
        return seen + [values(x.grad)]
    same(program)


@pytest.mark.parametrize("keep", ["list", "policy", "bool policy", "nothing"])
def test_selective_checkpointing_gives_the_gradients_of_plain_checkpointing(keep):
    def program(lib):
        cp = lib.utils.checkpoint
        policies = {
            "list": [lib.ops.aten.addmm.default, lib.ops.aten.mm.default],
            "policy": lambda ctx, op, *args, **kwargs: (
                cp.CheckpointPolicy.PREFER_SAVE if op in (lib.ops.aten.relu.default,
                                                          lib.ops.aten.tanh.default)
                else cp.CheckpointPolicy.MUST_RECOMPUTE),
            "bool policy": lambda ctx, op, *args, **kwargs: str(op).startswith("aten.t"),
            "nothing": [],
        }
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2),
                                  lib.nn.Tanh())
        x = lib.tensor([[0.5, -1.0, 2.0], [0.25, 0.1, -0.3]], requires_grad=True)
        out = cp.checkpoint(model, x, use_reentrant=False, context_fn=selective(lib, policies[keep]))
        (out * out).sum().backward()
        return [out.grad_fn.name(), values(out), values(x.grad),
                [values(p.grad) for p in model.parameters()]]
    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    for got, expected in zip(ours[2:3] + ours[3], theirs[2:3] + theirs[3]):
        assert got == pytest.approx(expected, abs=1e-4)


def test_a_kept_output_is_handed_back_once_and_must_not_change_in_place():
    def program(lib):
        cp = lib.utils.checkpoint
        x = lib.tensor([[0.5, -1.0], [0.25, 0.1]], requires_grad=True)
        seen = []

        def changes_its_product(t):
            a = t.exp()
            b = lib.mm(a, a)
            b.mul_(2)                   # the kept output of mm changes in place
            return b.sin()

        for settings in ({}, {"allow_cache_entry_mutation": True}):
            x.grad = None
            out = cp.checkpoint(changes_its_product, x, use_reentrant=False,
                                context_fn=selective(lib, [lib.ops.aten.mm.default], **settings))
            seen += [outcome(lambda: out.sum().backward()), values(x.grad)]
        for kept in ([lib.ops.aten.mm.default], []):        # a second backward of the region
            x.grad = None
            out = cp.checkpoint(lambda t: lib.mm(t, t).exp(), x, use_reentrant=False,
                                context_fn=selective(lib, kept))
            out.sum().backward(retain_graph=True)
            seen += [outcome(lambda: out.sum().backward()), values(x.grad)]
        return seen
    same(program)


def test_selective_checkpoint_contexts_refuse_what_is_no_operator():
    def program(lib):
        create = lib.utils.checkpoint.create_selective_checkpoint_contexts
        modes = create([lib.ops.aten.mm.default])
        return [outcome(lambda: create(3)), outcome(lambda: create(["mm"])),
                outcome(lambda: create([lib.ops.aten.mm])),
                outcome(lambda: create((lib.ops.aten.mm.default,))),
                type(modes).__name__, len(modes), [type(m).__name__ for m in modes],
                [repr(p) for p in lib.utils.checkpoint.CheckpointPolicy],
                vars(lib.utils.checkpoint.SelectiveCheckpointContext(is_recompute=False)),
                outcome(lambda: lib.utils.checkpoint.checkpoint(
                    lambda t: t.sin(), lib.ones(2, requires_grad=True), use_reentrant=False,
                    debug=True, context_fn=selective(lib, [])))]
    same(program)


def test_operators_are_named_as_in_torch_ops():
    def program(lib):
        aten = lib.ops.aten
        mm, mul = aten.mm.default, aten.mul.Tensor
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        return [repr(mm), str(mm), mm.name(), mm.__name__, mm._overloadname, repr(mm.overloadpacket),
                str(aten.mm), aten.mm.__name__, mul.name(), repr(mul), str(type(mm)),
                str(type(aten.mm)), mm is aten.mm.default, mm == aten.mm.default,
                mul.overloadpacket is aten.mul, repr(aten), values(mm(a, a)),
                copy.deepcopy([mm])[0] is mm, copy.deepcopy(aten.mm) is aten.mm,
                values(aten.mul(a, 3)), values(aten.sum.dim_IntList(a, [0])),
                outcome(lambda: aten.no_such_operator), outcome(lambda: aten.mm.no_such_overload)]
    same(program)


def test_graph_exec_group_shares_one_rerun_between_backward_calls():
    def program(lib):
        cp = lib.utils.checkpoint
        W1 = lib.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)
        W2 = lib.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
        x = lib.tensor([[0.5, -1.0], [0.25, 0.1]], requires_grad=True)
        calls, seen = [], []

        def f(h):
            calls.append("f")
            return ((h @ W1).tanh() @ W2).sin()

        for grouped in (False, True):
            calls.clear()
            loss = cp.checkpoint(f, x, use_reentrant=False).sum()
            with cp.GraphExecGroup() if grouped else warnings.catch_warnings():
                seen.append(values(lib.autograd.grad(loss, W2, retain_graph=True)[0]))
                # overlapping calls (both need W2's saved input) share the one rerun: refused
                seen.append(outcome(lambda: values(lib.autograd.grad(loss, x)[0])))
            seen.append(len(calls))

        def first(h):
            calls.append("first")
            return (h @ W1).tanh()

        def second(a):
            calls.append("second")
            return (a @ W2).sin()
        calls.clear()
        a = cp.checkpoint(first, x, use_reentrant=False)
        y = cp.checkpoint(second, a, use_reentrant=False)
        with cp.GraphExecGroup() as group:      # backward split in two parts
            grad_a, = lib.autograd.grad(y.sum(), a, retain_graph=True)
            a.backward(grad_a)
            seen += [list(calls), values(x.grad), cp.GraphExecGroup._get_current_group() is group]
            try:
                with cp.GraphExecGroup():
                    pass
            except RuntimeError as error:
                seen.append(str(error).split(" Already")[0])
        seen.append(cp.GraphExecGroup._get_current_group())
        return seen
    same(program)
