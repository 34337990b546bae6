"""Custom autograd.Function features compared with PyTorch.

mark_dirty, setup_context, once_differentiable, set_materialize_grads,
needs_input_grad, mark_non_differentiable, calling a Function instance,
Variable and ``autograd.grad(..., is_grads_batched=True)``.
"""
import warnings

import minigrad


def outcome(action):
    try:
        return action()
    except Exception as error:
        # PyTorch's text must come first, word for word; minigrad may add hint lines after it
        text = "\n".join(line for line in str(error).splitlines() if not line.startswith("minigrad hint:"))
        return (type(error).__name__, text)


def values(t):
    return None if t is None else [round(v, 4) for v in t.reshape(-1).tolist()]


def functions(lib):
    """The same custom Functions, written for ``lib``."""
    Function = lib.autograd.Function

    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    class AddOneInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    class Mul(Function):                       # setup_context style
        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)
            ctx.seen_needs = ctx.needs_input_grad

        @staticmethod
        def backward(ctx, grad):
            x, y = ctx.saved_tensors
            return grad * y, grad * x

    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @lib.autograd.function.once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            ctx.grad_mode_in_backward = lib.is_grad_enabled()
            return 3 * x ** 2 * grad

    class TwoOutputs(Function):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x * 1, x * 2

        @staticmethod
        def backward(ctx, g1, g2):
            ctx.received = (values(g1), values(g2))
            return (g2 * 2 if g1 is None else g1 + g2 * 2), None

    class SortWithIndices(Function):
        @staticmethod
        def forward(ctx, x):
            indices = x.argmax().reshape(1)      # integers: never differentiable
            scaled = x * 2
            ctx.mark_non_differentiable(indices)
            return scaled, indices

        @staticmethod
        def backward(ctx, grad, grad_indices):
            ctx.received = (str(grad_indices.dtype).replace("minigrad", "torch"), values(grad_indices))
            return grad * 2

    class Scale(Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.seen_needs = ctx.needs_input_grad
            return x * y * k

        @staticmethod
        def backward(ctx, grad):
            return grad, None, None

    return locals()


def test_calling_an_instance_is_refused(torch):
    def program(lib):
        Square = functions(lib)["Square"]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            instance = Square()
        x = lib.ones(2, requires_grad=True)
        return ([(w.category.__name__, str(w.message).replace(lib.__name__, "LIB")) for w in caught],
                outcome(lambda: instance(x)), values(Square.apply(x)))
    ours, theirs = program(minigrad), program(torch)
    assert ours[0][0][0] == "DeprecationWarning"
    assert ours == theirs


def test_mark_dirty(torch):
    def program(lib):
        AddOneInPlace = functions(lib)["AddOneInPlace"]
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = a.clone()
        version_before = b._version
        c = AddOneInPlace.apply(b)
        seen = [c is b, b.grad_fn.name(), b._version - version_before, values(b),
                [n.name() for n, _ in b.grad_fn.next_functions]]
        (c * c).sum().backward()
        seen.append(values(a.grad))
        seen.append(outcome(lambda: AddOneInPlace.apply(a)))
        return seen
    assert program(minigrad) == program(torch)


def test_setup_context_and_needs_input_grad(torch):
    def program(lib):
        fns = functions(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0])
        z = fns["Mul"].apply(x, y)
        z.sum().backward()
        w = fns["Scale"].apply(x, lib.ones(2), 2.0)
        return [z.grad_fn.name(), z.grad_fn.seen_needs, values(x.grad), w.grad_fn.seen_needs]
    assert program(minigrad) == program(torch)


def test_once_differentiable(torch):
    def program(lib):
        Cube = functions(lib)["Cube"]
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = Cube.apply(x)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        seen = [values(g), g.requires_grad, y.grad_fn.grad_mode_in_backward]
        v = lib.ones(2, requires_grad=True)
        (g,) = lib.autograd.grad(Cube.apply(x), x, v, create_graph=True)
        # PyTorch names its C++ nodes with their namespace: torch::autograd::Error
        seen += [g.requires_grad, g.grad_fn.name(), type(g.grad_fn).__name__, repr(g)]
        # its one edge leads to a stand-in leaf, not back to x
        (edge, nr), = g.grad_fn.next_functions
        seen += [edge.name(), nr, edge.variable is x, edge.variable.is_leaf]
        seen.append(outcome(lambda: g.sum().backward()))
        seen.append(outcome(lambda: lib.autograd.grad(g.sum(), x)))
        return seen
    assert program(minigrad) == program(torch)


def test_materialize_grads_and_non_differentiable_outputs(torch):
    def program(lib):
        fns = functions(lib)
        x = lib.tensor([3.0, 1.0, 2.0], requires_grad=True)
        seen = []
        for materialize in (True, False):
            first, second = fns["TwoOutputs"].apply(x, materialize)
            second.sum().backward()
            seen.append(second.grad_fn.received)
        sorted_values, indices = fns["SortWithIndices"].apply(x)
        seen += [indices.requires_grad, indices.grad_fn is None, sorted_values.grad_fn.name()]
        sorted_values.sum().backward()
        seen.append(sorted_values.grad_fn.received)
        return seen
    assert program(minigrad) == program(torch)


def test_variable(torch):
    def program(lib):
        Variable = lib.autograd.Variable
        t = lib.ones(2)
        v = Variable(t, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            Variable(t, volatile=True)
        return [v is t, v.requires_grad, v.is_leaf, Variable(t).requires_grad,
                isinstance(t, Variable), type(v).__name__,
                outcome(lambda: Variable([1.0, 2.0])),
                [str(w.message) for w in caught]]
    assert program(minigrad) == program(torch)


def test_is_grads_batched(torch):
    def program(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x ** 2
        (rows,) = lib.autograd.grad(y, x, lib.eye(3), is_grads_batched=True, retain_graph=True)
        z = (x * 2).sum()
        (scalar_rows,) = lib.autograd.grad(z, x, lib.tensor([1.0, -1.0]), is_grads_batched=True)
        return [rows.tolist(), scalar_rows.tolist(),
                outcome(lambda: lib.autograd.grad(y, x, lib.ones(3), is_grads_batched=True)[0].shape)]
    ours, theirs = program(minigrad), program(torch)
    assert ours[:2] == theirs[:2]
    # the message names the shapes with the library's own Size class
    assert ours[2][1] == theirs[2][1]
