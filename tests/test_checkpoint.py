"""torch.utils.checkpoint compared with PyTorch: same gradients, same graph, recomputation."""
import warnings

import pytest

import minigrad
import minigrad.utils.checkpoint  # noqa: F401  (the import path learners use)


def values(t):
    return None if t is None else [round(v, 4) for v in t.reshape(-1).tolist()]


def outcome(action):
    try:
        return action()
    except Exception as error:
        return (type(error).__name__, str(error))


def block_program(lib, use_reentrant):
    checkpoint = lib.utils.checkpoint.checkpoint
    calls = []
    W = lib.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)

    def block(h, scale=1.0):
        calls.append(1)
        return lib.tanh(h @ W).relu() * h * scale

    h0 = lib.tensor([[0.5, -1.0], [0.25, 0.1]], requires_grad=True)
    out = checkpoint(block, checkpoint(block, h0, use_reentrant=use_reentrant),
                     use_reentrant=use_reentrant)
    seen = [out.grad_fn.name(), len(calls)]
    out.sum().backward()
    seen += [values(W.grad), values(h0.grad), len(calls)]
    return seen


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_gradients_graph_and_recomputation(torch, use_reentrant):
    ours, theirs = block_program(minigrad, use_reentrant), block_program(torch, use_reentrant)
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1] == 2 and ours[4] == theirs[4] == 4    # each block ran twice
    for got, expected in zip(ours[2:4], theirs[2:4]):
        assert got == pytest.approx(expected, abs=1e-3)


def test_non_reentrant_behaviour(torch):
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        calls = []

        def f(t, scale=1.0):
            calls.append(1)
            return t.sin().exp() * scale

        x = lib.ones(2, requires_grad=True)
        y = checkpoint(f, x, use_reentrant=False, scale=2.0)
        seen = [y.grad_fn.name(), [n and n.name() for n, _ in y.grad_fn.next_functions]]
        seen.append(values(lib.autograd.grad(y.sum(), x, retain_graph=True)[0]))
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        seen += [values(x.grad), len(calls)]
        seen.append(outcome(lambda: y.sum().backward()))          # graph freed
        seen.append(outcome(lambda: checkpoint(f, x, use_reentrant=False, foo=1)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            z = checkpoint(f, lib.ones(2), use_reentrant=False)
        seen += [z.requires_grad, len(caught)]
        return seen
    assert program(minigrad) == program(torch)


def test_reentrant_behaviour(torch):
    def program(lib):
        checkpoint = lib.utils.checkpoint.checkpoint
        x = lib.ones(2, requires_grad=True)
        seen = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = checkpoint(lambda t: t.sin().exp(), x)                # use_reentrant missing
            checkpoint(lambda t: t.sin().exp(), lib.ones(2), use_reentrant=True)
        seen.append([(w.category.__name__, str(w.message)) for w in caught])
        seen.append(y.grad_fn.name())
        seen.append(outcome(lambda: lib.autograd.grad(y.sum(), x)))
        return seen
    assert program(minigrad) == program(torch)
