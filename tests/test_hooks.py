"""Hooks compared with PyTorch: which fire, in which order, with which gradients.

Node pre-/post-hooks with ``autograd.grad`` and ``backward(inputs=...)``,
``Tensor.register_post_accumulate_grad_hook``,
``autograd.graph.register_multi_grad_hook`` and handles' ``remove()``.
"""
import pytest

import minigrad


def outcome(action):
    try:
        return action()
    except Exception as error:
        return (type(error).__name__, str(error))


def values(grad):
    return None if grad is None else [round(v, 4) for v in grad.tolist()]


def hooked_graph(lib, log, hook_nodes="cde"):
    """c = a*b; d = exp(c); e = sum(d + a), with pre- and post-hooks on the chosen nodes."""
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 0.5], requires_grad=True)
    c = a * b
    d = c.exp()
    e = (d + a).sum()
    tensors = {"a": a, "b": b, "c": c, "d": d, "e": e}
    for name in hook_nodes:
        node = tensors[name].grad_fn
        node.register_hook(lambda grad_inputs, grad_outputs, name=name:
                           log.append(("post", name, len(grad_inputs))))
        node.register_prehook(lambda grad_outputs, name=name: log.append(("pre", name)))
    return tensors


@pytest.mark.parametrize("hook_nodes", ["cde", "c", "d"])
@pytest.mark.parametrize("call", ["grad", "backward_inputs"])
@pytest.mark.parametrize("target", ["c", "d", "a"])
def test_node_hooks_with_grad_and_inputs(torch, hook_nodes, call, target):
    def program(lib):
        log = []
        t = hooked_graph(lib, log, hook_nodes)
        t[target].register_hook(lambda grad: log.append(("tensor hook", target)))
        if call == "grad":
            (grad,) = lib.autograd.grad(t["e"], [t[target]])
        else:
            t["e"].backward(inputs=[t[target]])
            grad = t[target].grad
        return log, values(grad)
    assert program(minigrad) == program(torch)


def test_post_accumulate_grad_hook(torch):
    def program(lib):
        log = []
        t = hooked_graph(lib, log, "")
        a, b, e = t["a"], t["b"], t["e"]
        handle_a = a.register_post_accumulate_grad_hook(
            lambda tensor: log.append(("a", values(tensor.grad))))
        b.register_post_accumulate_grad_hook(lambda tensor: log.append(("b", values(tensor.grad))))
        lib.autograd.grad(e, [a], retain_graph=True)       # nothing accumulates: no hook
        log.append("---")
        e.backward(inputs=[b], retain_graph=True)
        log.append("---")
        e.backward(retain_graph=True)
        handle_a.remove()
        handle_a.remove()                                  # removing twice is fine
        log.append("---")
        e.backward()
        log.append(outcome(lambda: t["c"].register_post_accumulate_grad_hook(lambda x: None)))
        log.append(outcome(lambda: lib.ones(2).register_post_accumulate_grad_hook(lambda x: None)))
        p = lib.ones(2, requires_grad=True)
        p.register_post_accumulate_grad_hook(lambda x: lib.zeros(2))
        log.append(outcome(lambda: (p * 3).sum().backward()))
        return log
    assert program(minigrad) == program(torch)


def test_post_accumulate_grad_hook_can_update_the_parameter(torch):
    def program(lib):
        w = lib.tensor([1.0, -2.0], requires_grad=True)

        def sgd_step(param):
            with lib.no_grad():
                param -= 0.5 * param.grad
            param.grad = None
        w.register_post_accumulate_grad_hook(sgd_step)
        for _ in range(3):
            (w ** 2).sum().backward()
        return values(w), w.grad
    assert program(minigrad) == program(torch)


@pytest.mark.parametrize("mode", ["all", "any"])
def test_multi_grad_hook(torch, mode):
    def program(lib):
        from_graph = lib.autograd.graph
        log = []
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        c = lib.tensor([5.0, 6.0], requires_grad=True)
        if mode == "all":
            def fn(grads):
                log.append([values(g) for g in grads])
                return [lib.zeros(2), None, None]           # ignored
        else:
            def fn(grad):
                log.append(values(grad))
                return lib.zeros(2)                         # ignored
        handle = from_graph.register_multi_grad_hook((a, b, c), fn, mode=mode)
        (a * b).sum().backward()                 # c is not reached: None
        (a * b * c).sum().backward()
        d = a * 2
        handle.remove()
        (a * b * c).sum().backward()             # removed: nothing
        log.append("---")
        from_graph.register_multi_grad_hook((b, d), fn, mode=mode)
        (d * b).sum().backward()
        log.append([values(a.grad), values(b.grad)])
        log.append(outcome(lambda: from_graph.register_multi_grad_hook((a, b), fn, mode="x")))
        return log
    assert program(minigrad) == program(torch)


def test_multi_grad_hook_with_grad_on_a_leaf_is_refused_like_torch(torch):
    def program(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        d = a * 2
        lib.autograd.graph.register_multi_grad_hook((a, d), lambda grads: None)
        return outcome(lambda: lib.autograd.grad((d * 3).sum(), [a]))
    assert program(minigrad) == program(torch)


def test_handles_remove_node_hooks(torch):
    def program(lib):
        log = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        pre = y.grad_fn.register_prehook(lambda go: log.append("pre"))
        post = y.grad_fn.register_hook(lambda gi, go: log.append("post"))
        y.sum().backward(retain_graph=True)
        pre.remove()
        y.sum().backward(retain_graph=True)
        post.remove()
        y.sum().backward()
        return log
    assert program(minigrad) == program(torch) == ["pre", "post", "post"]
