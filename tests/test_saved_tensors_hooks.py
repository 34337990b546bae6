"""Saved-tensor hooks compared with PyTorch: when pack and unpack run, in which order,
how often, what they see, and the errors (class and message) around them."""
import numpy as np
import pytest

import minigrad
import minigrad.autograd.graph  # noqa: F401  (the import path learners use)


def values(t):
    return None if t is None else [round(v, 4) for v in t.reshape(-1).tolist()]


def outcome(action):
    try:
        return action()
    except Exception as error:
        return (type(error).__name__, str(error))


def same(program, torch):
    """Run ``program(lib)`` with both libraries; the events they record must be equal."""
    assert program(minigrad) == program(torch)


def recording_hooks(lib, log, name="hooks"):
    """A pack/unpack pair that logs what it sees and keeps the tensor as it is."""
    def pack(t):
        log.append((name, "pack", tuple(t.shape), t.requires_grad,
                    t.grad_fn.name() if t.grad_fn is not None else None, lib.is_grad_enabled()))
        return t

    def unpack(t):
        log.append((name, "unpack", tuple(t.shape)))
        return t
    return lib.autograd.graph.saved_tensors_hooks(pack, unpack)


def inputs(lib):
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal((2, 3)).astype(np.float32), requires_grad=True)
    b = lib.tensor(rng.uniform(0.5, 2, 3).astype(np.float32), requires_grad=True)
    m = lib.tensor(rng.standard_normal((3, 4)).astype(np.float32), requires_grad=True)
    return a, b, m


OPERATIONS = {
    "mul": lambda lib, a, b, m: a * b,
    "square_by_mul": lambda lib, a, b, m: a * a,        # the same tensor packed twice
    "mul_by_number": lambda lib, a, b, m: a * 2.0,      # nothing saved
    "mul_constant": lambda lib, a, b, m: a * lib.ones(3),
    "div": lambda lib, a, b, m: a / b,
    "mm": lambda lib, a, b, m: a @ m,
    "pow_tensor": lambda lib, a, b, m: b ** b,
    "pow_number": lambda lib, a, b, m: a ** 2,
    "exp": lambda lib, a, b, m: a.exp(),                 # the result is packed
    "tanh": lambda lib, a, b, m: a.tanh(),
    "sigmoid": lambda lib, a, b, m: a.sigmoid(),
    "sin": lambda lib, a, b, m: a.sin(),
    "maximum": lambda lib, a, b, m: lib.maximum(a, b),
    "sum": lambda lib, a, b, m: a.sum(),
    "softmax": lambda lib, a, b, m: a.softmax(1),
    "mlp": lambda lib, a, b, m: ((a @ m).relu() * 2).tanh().sum(),
}


@pytest.mark.parametrize("name", OPERATIONS)
def test_pack_at_save_unpack_in_backward(torch, name):
    def program(lib):
        log = []
        a, b, m = inputs(lib)
        with recording_hooks(lib, log):
            out = OPERATIONS[name](lib, a, b, m)
        log.append("forward done")
        out.sum().backward()
        return log, values(a.grad), values(b.grad), values(m.grad)
    same(program, torch)


def test_hooks_that_change_the_saved_value_change_the_gradient(torch):
    def program(lib):
        a, b, _ = inputs(lib)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda t: t + 1):
            out = a * b
        out.sum().backward()
        return values(a.grad), values(b.grad)
    same(program, torch)


def test_nested_hooks_innermost_wins(torch):
    def program(lib):
        log = []
        a, b, m = inputs(lib)
        with recording_hooks(lib, log, "outer"):
            with recording_hooks(lib, log, "inner"):
                x = a * b
            y = x @ m
        y.sum().backward()
        return log
    same(program, torch)


def test_saved_attribute_access_unpacks_each_time(torch):
    def program(lib):
        log = []
        a, b, _ = inputs(lib)
        with recording_hooks(lib, log):
            out = a * b
            e = a.exp()
        first = values(out.grad_fn._saved_self)
        second = values(e.grad_fn._saved_result)
        out.grad_fn._saved_other
        return log, first, second
    same(program, torch)


def test_custom_function_packs_after_forward(torch):
    def program(lib):
        log = []

        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                log.append("forward")
                ctx.save_for_backward(x, y, None)
                log.append("saved")
                return x * y

            @staticmethod
            def backward(ctx, grad):
                x, y, nothing = ctx.saved_tensors
                log.append(("backward", nothing))
                return grad * y, (grad * x).sum(0)

        a, b, _ = inputs(lib)
        with recording_hooks(lib, log):
            out = Scale.apply(a, b)
        out.sum().backward()
        return log, values(a.grad), values(b.grad)
    same(program, torch)


def test_unpack_must_return_a_tensor(torch):
    def program(lib):
        a, b, _ = inputs(lib)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: 5, lambda p: p):
            out = a * b
        return outcome(lambda: out.grad_fn._saved_self), outcome(lambda: out.sum().backward())
    same(program, torch)


def test_no_inplace_check_for_hooked_tensors(torch):
    # PyTorch checks versions only for tensors it keeps itself
    def program(lib):
        a, b, _ = inputs(lib)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda p: p):
            w = a.clone()
            out = w * b
        w.add_(1)
        out.sum().backward()
        return values(b.grad)
    same(program, torch)


def test_freed_saved_tensor(torch):
    def program(lib):
        log = []
        a, b, _ = inputs(lib)
        with recording_hooks(lib, log):
            out = a * b
        out.sum().backward()
        return log, outcome(lambda: out.grad_fn._saved_self), outcome(lambda: out.sum().backward())
    same(program, torch)


def test_save_on_cpu(torch):
    def program(lib):
        a, b, _ = inputs(lib)
        with lib.autograd.graph.save_on_cpu(pin_memory=True):
            e = (a * b).exp()
        result = values(e.grad_fn._saved_result)
        e.sum().backward()
        return result, values(a.grad), values(b.grad)
    same(program, torch)


def test_disable_saved_tensors_hooks(torch):
    def program(lib):
        graph = lib.autograd.graph
        log = []
        a, b, _ = inputs(lib)
        events = []
        with graph.disable_saved_tensors_hooks("no hooks here"):
            events.append(outcome(lambda: recording_hooks(lib, log).__enter__()))
            with graph.disable_saved_tensors_hooks("inner"):
                events.append(outcome(lambda: recording_hooks(lib, log).__enter__()))
            events.append(outcome(lambda: recording_hooks(lib, log).__enter__()))
            events.append(values(a * b))      # saving still works, without hooks
        with recording_hooks(lib, log):
            events.append(outcome(lambda: graph.disable_saved_tensors_hooks("inside").__enter__()))
        with recording_hooks(lib, log):       # usable again afterwards
            a * b
        return events, log
    same(program, torch)


def test_raw_saved_register_hooks(torch):
    def program(lib):
        log = []
        a, b, _ = inputs(lib)
        out = a * b
        raw = out.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: log.append("pack") or t * 10,
                           lambda t: log.append("unpack") or t)
        seen = values(out.grad_fn._saved_self)
        twice = outcome(lambda: raw.register_hooks(lambda t: t, lambda t: t))
        out.sum().backward()
        after_free = outcome(lambda: out.grad_fn._raw_saved_other.register_hooks(
            lambda t: t, lambda t: t))
        return log, seen, twice, values(a.grad), values(b.grad), after_free
    same(program, torch)


def test_raw_saved_errors(torch):
    def program(lib):
        a, b, _ = inputs(lib)
        events = []
        out = a * lib.ones(3)          # self is not saved: the other input needs no gradient
        events.append(out.grad_fn._saved_self)
        events.append(outcome(lambda: out.grad_fn._raw_saved_self.register_hooks(
            lambda t: t, lambda t: t)))
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            hooked = a * b
        events.append(outcome(lambda: hooked.grad_fn._raw_saved_self.register_hooks(
            lambda t: t, lambda t: t)))
        e = a.exp()
        events.append(type(e.grad_fn._raw_saved_result).__name__)
        events.append(outcome(lambda: (a ** 2).grad_fn._raw_saved_exponent))
        events.append(outcome(lambda: e.grad_fn._raw_saved_nothing))
        return events
    same(program, torch)


def test_counting_saved_bytes(torch):
    """The lesson's example: count what a small network saves."""
    def program(lib):
        sizes = []

        def pack(t):
            sizes.append(t.numel() * t.element_size())
            return t

        a, b, m = inputs(lib)
        with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            loss = ((a @ m).tanh() * 3).relu().sum()
        loss.backward()
        return sizes, values(a.grad)
    same(program, torch)


def test_create_graph_through_hooked_tensors(torch):
    """The tensors unpack gives back keep their history: second derivatives still work."""
    def program(lib):
        a, b, _ = inputs(lib)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
            out = (a * a * b).exp().sum()
            (grad_a,) = lib.autograd.grad(out, a, create_graph=True)
        grad_a.sum().backward()
        return values(grad_a), values(a.grad), values(b.grad)
    same(program, torch)


def test_unpacked_leaf_shows_requires_grad(torch):
    def program(lib):
        a, b, _ = inputs(lib)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.detach() * 2, lambda t: t):
            out = a * b
        saved = out.grad_fn._saved_self
        return saved.requires_grad, saved.is_leaf, values(saved)
    same(program, torch)


def test_checkpoint_packs_only_its_inputs(torch):
    """Inside a non-reentrant checkpoint the caller's hooks see only the block's inputs."""
    def program(lib):
        import importlib
        importlib.import_module(lib.__name__ + ".utils.checkpoint")
        log = []
        a, b, _ = inputs(lib)

        def block(h):
            return (h * b).sin().exp()

        with recording_hooks(lib, log):
            y = lib.utils.checkpoint.checkpoint(block, a, use_reentrant=False)
            loss = (y * y).sum()
        log.append("forward done")
        loss.backward()
        return log, values(a.grad), values(b.grad)
    same(program, torch)


def test_hooks_belong_to_one_thread(torch):
    import threading

    def program(lib):
        log = []
        a, b, _ = inputs(lib)

        def other_thread():
            log.append(("other thread saves", values(a * b)))

        with recording_hooks(lib, log):
            worker = threading.Thread(target=other_thread)
            worker.start()
            worker.join()
        return log
    same(program, torch)


def test_raw_saved_data_and_unpack_hook(torch):
    def program(lib):
        a, _, _ = inputs(lib)
        y = a.exp()
        raw = y.grad_fn._raw_saved_result
        before = values(raw.data), raw.unpack_hook
        unpack = lambda t: t + 1       # noqa: E731
        raw.register_hooks(lambda t: t * 2, unpack)
        after = values(raw.data), raw.unpack_hook is unpack
        return before, after, values(y.grad_fn._saved_result)
    same(program, torch)


def test_retain_graph_unpacks_at_every_backward(torch):
    def program(lib):
        log = []
        a, b, _ = inputs(lib)
        with recording_hooks(lib, log):
            loss = (a * b).tanh().sum()
        loss.backward(retain_graph=True)
        log.append("second")
        (grad_b,) = lib.autograd.grad(loss, b)
        log.append("third")
        log.append(outcome(lambda: loss.backward()))
        return log, values(a.grad), values(grad_b)
    same(program, torch)
