"""PyTorch's own documentation examples, run unchanged under ``import minigrad as torch``.

The examples below are the ``Example::`` / ``>>>`` blocks of PyTorch 2.13's docstrings
(torch/autograd/*.py, torch/_tensor.py, torch/_tensor_docs.py, torch/utils/checkpoint.py,
torch/_functorch/*.py behind torch.func, torch/nn/utils/*.py) and the code of the notes
"Autograd mechanics" and "Extending PyTorch", kept as the docs have them. Where a doc uses a
name it never defines (``input``, ``x``, ``f``), one line defines it; random inputs come from
``torch.manual_seed(0)``, which both libraries follow with the same numbers.

Each example runs as a session at the interactive prompt would run it, once with ``torch``
bound to PyTorch and once bound to minigrad: every expression statement prints its repr, an
exception prints its class and message (and the session goes on), warnings print where they
happen, and at the end every tensor the session left in its namespace is printed with its
``grad`` and ``grad_fn``. The two transcripts must be the same text, with numbers allowed to
differ in their last printed digit (or by 2e-6: float32 sums whose terms cancel, printed in
scientific notation, show the last bits of a different order of summation).
"""
import ast
import contextlib
import io
import math
import os
import re
import sys
import textwrap
import warnings

import pytest

import minigrad

from conftest import import_torch  # noqa: F401  (tests/ is on sys.path under pytest)

EXAMPLES = {}


def example(name, text):
    """Register one documentation example (doctest text, ``>>>``/``...`` prompts) by name."""
    assert name not in EXAMPLES, name
    EXAMPLES[name] = text


# --- running one example as an interactive session -----------------------------------------------

def _source(text):
    """The Python code of a doctest text: prompts removed, output lines (none here) dropped."""
    lines = []
    for line in textwrap.dedent(text).strip("\n").split("\n"):
        stripped = line.strip()
        for prompt in (">>> ", "... "):
            if stripped.startswith(prompt):
                lines.append(line[line.index(prompt) + 4:])
                break
        else:
            if stripped in (">>>", "..."):
                lines.append("")
            elif stripped:
                raise ValueError(f"not a prompt line: {line!r}")
    return textwrap.dedent("\n".join(lines))


def _for_library(source, name):
    """Imports of torch name the library under test (``import torch`` -> ``import minigrad as
    torch``, ``from torch.func import grad`` -> ``from minigrad.func import grad``)."""
    if name == "torch":
        return source
    source = re.sub(r"^(\s*)import torch\s*$", r"\1import minigrad as torch", source, flags=re.M)
    source = re.sub(r"^(\s*)import torch\.([\w.]+) as", r"\1import minigrad.\2 as", source, flags=re.M)
    return re.sub(r"^(\s*)from torch\b", r"\1from minigrad", source, flags=re.M)


def _shown(value):
    """What the prompt prints for ``value``. Functions print as their name only (PyTorch's are
    builtins, minigrad's are Python functions), other objects without a repr of their own as
    their class name (their module paths and addresses differ)."""
    if type(value).__name__ in ("function", "builtin_function_or_method", "method"):
        return f"<function {value.__name__}>"
    text = repr(value)
    if re.fullmatch(r"<[\w.]+ object at 0x[0-9a-f]+>", text):
        return f"<{type(value).__name__} object>"
    return text


# Warnings both libraries give once per process: which example sees them depends on what ran
# before, so they are compared in a fresh process instead (test_layout_warning_once_per_sum).
_ONCE_PER_PROCESS = ("Using backward() with create_graph=True",
                     "grad and param do not obey the gradient layout contract")


def _message(error):
    """An exception's or warning's text without minigrad's hint lines; in anomaly mode's forward
    traceback, only the example's own frames (PyTorch's also shows its Function.apply)."""
    text = str(error).split(" (Triggered internally at")[0]
    kept, skip = [], False
    for line in text.split("\n"):
        if line.startswith("  File "):
            skip = "<doc example>" not in line
        elif not line.startswith("    "):
            skip = False
        if not skip and not line.startswith("minigrad hint:"):
            kept.append(line)
    return "\n".join(kept)


def _is_tensor(value):
    return hasattr(value, "grad_fn") and hasattr(value, "detach") and hasattr(value, "is_leaf")


def transcript(text, library):
    """Run the example with ``torch`` bound to ``library``; what the session printed."""
    source = _for_library(_source(text), library.__name__)
    namespace = {"__name__": "__doc_example__", "torch": library}
    library.manual_seed(0)
    out = io.StringIO()

    def display(value):
        if value is not None:
            print(_shown(value))

    def show_warning(message, category, *rest, **kw):
        if ("deprecated" not in str(message) and category is not DeprecationWarning
                and "GraphModule" not in str(message)       # torch.fx's own notes (linearize)
                and not str(message).startswith(_ONCE_PER_PROCESS)):
            print(f"{category.__name__}: {_message(message)}")

    old_display = sys.displayhook
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show_warning
        sys.displayhook = display
        try:
            for statement in ast.parse(source).body:
                code = compile(ast.Interactive(body=[statement]), "<doc example>", "single")
                try:
                    exec(code, namespace)
                except Exception as error:       # the session prints it and goes on
                    print(f"{type(error).__name__}: {_message(error)}")
        finally:
            sys.displayhook = old_display
        print("--- tensors left in the session ---")
        for key, value in namespace.items():
            if _is_tensor(value):
                node = value.grad_fn
                print(key, repr(value), "grad_fn:", None if node is None else node.name())
                if value.is_leaf and value.grad is not None:
                    print(f"{key}.grad", repr(value.grad))
    return out.getvalue()


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|inf|nan)")


def assert_same_transcript(ours, theirs):
    """The same text; numbers may differ by a unit of their last printed digit, or by 2e-6."""
    if ours == theirs:
        return
    our_parts, their_parts = _NUMBER.split(ours), _NUMBER.split(theirs)
    our_numbers, their_numbers = _NUMBER.findall(ours), _NUMBER.findall(theirs)
    same = our_parts == their_parts and len(our_numbers) == len(their_numbers)
    if same:
        for a, b in zip(our_numbers, their_numbers):
            x, y = float(a), float(b)
            digits = len(b.split(".")[1].split("e")[0].split("E")[0]) if "." in b else 0
            step = 10.0 ** -digits * (10.0 ** int(b.lower().split("e")[1]) if "e" in b.lower() else 1)
            if not (x == y or (math.isnan(x) and math.isnan(y))
                    or abs(x - y) <= max(1.01 * step, 2e-6) or math.isclose(x, y, rel_tol=1e-5)):
                same = False
                break
    assert same, "transcripts differ:\n--- minigrad ---\n" + ours + "\n--- torch ---\n" + theirs


# ================================================================================================
# torch/autograd/function.py
# ================================================================================================

example("function_save_for_backward", """
    >>> from torch.autograd import Function
    >>> from torch.autograd.function import once_differentiable
    >>> class Func(Function):
    >>>     @staticmethod
    >>>     def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
    >>>         w = x * z
    >>>         out = x * y + y * z + w * y
    >>>         ctx.save_for_backward(x, y, w, out)
    >>>         ctx.z = z  # z is not a tensor
    >>>         return out
    >>>
    >>>     @staticmethod
    >>>     @once_differentiable
    >>>     def backward(ctx, grad_out):
    >>>         x, y, w, out = ctx.saved_tensors
    >>>         z = ctx.z
    >>>         gx = grad_out * (y + y * z)
    >>>         gy = grad_out * (x + z + w)
    >>>         gz = None
    >>>         return gx, gy, gz
    >>>
    >>> a = torch.tensor(1., requires_grad=True, dtype=torch.double)
    >>> b = torch.tensor(2., requires_grad=True, dtype=torch.double)
    >>> c = 4
    >>> d = Func.apply(a, b, c)
    >>> d
    >>> d.backward()
""")

# extending.rst, step 3: "With this decorator, attempts to perform double backward through your
# function will produce an error." (the Func of save_for_backward's docstring)
example("function_once_differentiable_double_backward", """
    >>> from torch.autograd import Function
    >>> from torch.autograd.function import once_differentiable
    >>> class Func(Function):
    >>>     @staticmethod
    >>>     def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
    >>>         w = x * z
    >>>         out = x * y + y * z + w * y
    >>>         ctx.save_for_backward(x, y, w, out)
    >>>         ctx.z = z  # z is not a tensor
    >>>         return out
    >>>
    >>>     @staticmethod
    >>>     @once_differentiable
    >>>     def backward(ctx, grad_out):
    >>>         x, y, w, out = ctx.saved_tensors
    >>>         z = ctx.z
    >>>         gx = grad_out * (y + y * z)
    >>>         gy = grad_out * (x + z + w)
    >>>         gz = None
    >>>         return gx, gy, gz
    >>>
    >>> a = torch.tensor(1., requires_grad=True, dtype=torch.double)
    >>> b = torch.tensor(2., requires_grad=True, dtype=torch.double)
    >>> d = Func.apply(a, b, 4)
    >>> d.grad_fn.needs_input_grad, d.grad_fn.saved_tensors, d.grad_fn.z
    >>> ga, gb = torch.autograd.grad(d, (a, b), create_graph=True)
    >>> ga, gb
    >>> ga.backward()
    >>> torch.autograd.gradcheck(lambda x, y: Func.apply(x, y, 4), (a, b))
    >>> torch.autograd.gradgradcheck(lambda x, y: Func.apply(x, y, 4), (a, b), raise_exception=False)
""")

example("function_save_for_forward", """
    >>> import torch.autograd.forward_ad as fwAD
    >>> class Func(torch.autograd.Function):
    >>>     @staticmethod
    >>>     def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
    >>>         ctx.save_for_backward(x, y)
    >>>         ctx.save_for_forward(x, y)
    >>>         ctx.z = z
    >>>         return x * y * z
    >>>
    >>>     @staticmethod
    >>>     def jvp(ctx, x_t, y_t, _):
    >>>         x, y = ctx.saved_tensors
    >>>         z = ctx.z
    >>>         return z * (y * x_t + x * y_t)
    >>>
    >>>     @staticmethod
    >>>     def vjp(ctx, grad_out):
    >>>         x, y = ctx.saved_tensors
    >>>         z = ctx.z
    >>>         return z * grad_out * y, z * grad_out * x, None
    >>>
    >>> a = torch.tensor(1., requires_grad=True, dtype=torch.double)
    >>> t = torch.tensor(1., dtype=torch.double)
    >>> b = torch.tensor(2., requires_grad=True, dtype=torch.double)
    >>> c = 4
    >>>
    >>> with fwAD.dual_level():
    >>>     a_dual = fwAD.make_dual(a, t)
    >>>     d = Func.apply(a_dual, b, c)
    >>>     print(fwAD.unpack_dual(d))
    >>> d.backward()
""")

example("function_mark_dirty", """
    >>> from torch.autograd import Function
    >>> from torch.autograd.function import once_differentiable
    >>> class Inplace(Function):
    >>>     @staticmethod
    >>>     def forward(ctx, x):
    >>>         x_npy = x.numpy() # x_npy shares storage with x
    >>>         x_npy += 1
    >>>         ctx.mark_dirty(x)
    >>>         return x
    >>>
    >>>     @staticmethod
    >>>     @once_differentiable
    >>>     def backward(ctx, grad_output):
    >>>         return grad_output
    >>>
    >>> a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
    >>> b = a * a
    >>> Inplace.apply(a)  # This would lead to wrong gradients!
    >>>                   # but the engine would not know unless we mark_dirty
    >>> b.backward() # RuntimeError: one of the variables needed for gradient
    >>>              # computation has been modified by an inplace operation
""")

example("function_mark_non_differentiable", """
    >>> from torch.autograd import Function
    >>> from torch.autograd.function import once_differentiable
    >>> class Func(Function):
    >>>     @staticmethod
    >>>     def forward(ctx, x):
    >>>         sorted, idx = x.sort()
    >>>         ctx.mark_non_differentiable(idx)
    >>>         ctx.save_for_backward(x, idx)
    >>>         return sorted, idx
    >>>
    >>>     @staticmethod
    >>>     @once_differentiable
    >>>     def backward(ctx, g1, g2):  # still need to accept g2
    >>>         x, idx = ctx.saved_tensors
    >>>         grad_input = torch.zeros_like(x)
    >>>         grad_input.index_add_(0, idx, g1)
    >>>         return grad_input
    >>> x = torch.randn(5, requires_grad=True)
    >>> sorted, idx = Func.apply(x)
    >>> sorted, idx
    >>> (sorted * torch.arange(5.)).sum().backward()
""")

example("function_set_materialize_grads", """
    >>> from torch.autograd import Function
    >>> from torch.autograd.function import once_differentiable
    >>> class SimpleFunc(Function):
    >>>     @staticmethod
    >>>     def forward(ctx, x):
    >>>         return x.clone(), x.clone()
    >>>
    >>>     @staticmethod
    >>>     @once_differentiable
    >>>     def backward(ctx, g1, g2):
    >>>         return g1 + g2  # No check for None necessary
    >>>
    >>> # We modify SimpleFunc to handle non-materialized grad outputs
    >>> class Func(Function):
    >>>     @staticmethod
    >>>     def forward(ctx, x):
    >>>         ctx.set_materialize_grads(False)
    >>>         ctx.save_for_backward(x)
    >>>         return x.clone(), x.clone()
    >>>
    >>>     @staticmethod
    >>>     @once_differentiable
    >>>     def backward(ctx, g1, g2):
    >>>         x, = ctx.saved_tensors
    >>>         grad_input = torch.zeros_like(x)
    >>>         if g1 is not None:  # We must check for None now
    >>>             grad_input += g1
    >>>         if g2 is not None:
    >>>             grad_input += g2
    >>>         return grad_input
    >>>
    >>> a = torch.tensor(1., requires_grad=True)
    >>> b, _ = Func.apply(a)  # induces g2 to be undefined
    >>> b.backward()
    >>> a.grad
    >>> s1, _ = SimpleFunc.apply(a)
    >>> s1.backward()
""")

example("function_exp", """
    >>> from torch.autograd import Function
    >>> class Exp(Function):
    >>>     @staticmethod
    >>>     def forward(ctx, i):
    >>>         result = i.exp()
    >>>         ctx.save_for_backward(result)
    >>>         return result
    >>>
    >>>     @staticmethod
    >>>     def backward(ctx, grad_output):
    >>>         result, = ctx.saved_tensors
    >>>         return grad_output * result
    >>>
    >>> # Use it by calling the apply method:
    >>> input = torch.randn(3, requires_grad=True)
    >>> output = Exp.apply(input)
    >>> output
    >>> output.sum().backward()
""")

# ================================================================================================
# torch/autograd/graph.py
# ================================================================================================

example("graph_node_name", """
    >>> import torch
    >>> a = torch.tensor([0., 0., 0.], requires_grad=True)
    >>> b = a.clone()
    >>> assert isinstance(b.grad_fn, torch.autograd.graph.Node)
    >>> print(b.grad_fn.name())
""")

example("graph_node_register_hook", """
    >>> import torch
    >>> a = torch.tensor([0., 0., 0.], requires_grad=True)
    >>> b = a.clone()
    >>> assert isinstance(b.grad_fn, torch.autograd.graph.Node)
    >>> handle = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 2,))
    >>> b.sum().backward(retain_graph=True)
    >>> print(a.grad)
    >>> handle.remove() # Removes the hook
    >>> a.grad = None
    >>> b.sum().backward(retain_graph=True)
    >>> print(a.grad)
""")

example("graph_node_register_prehook", """
    >>> a = torch.tensor([0., 0., 0.], requires_grad=True)
    >>> b = a.clone()
    >>> assert isinstance(b.grad_fn, torch.autograd.graph.Node)
    >>> handle = b.grad_fn.register_prehook(lambda gI: (gI[0] * 2,))
    >>> b.sum().backward(retain_graph=True)
    >>> print(a.grad)
    >>> handle.remove()
    >>> a.grad = None
    >>> b.sum().backward(retain_graph=True)
    >>> print(a.grad)
""")

example("graph_saved_tensors_hooks", """
    >>> def pack_hook(x):
    ...     print("Packing", x)
    ...     return x.detach()
    >>>
    >>> def unpack_hook(x):
    ...     print("Unpacking", x)
    ...     return x
    >>>
    >>> a = torch.ones(5, requires_grad=True)
    >>> b = torch.ones(5, requires_grad=True) * 2
    >>> with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    ...     y = a * b
    >>> y.sum().backward()
""")

# save_on_cpu's example needs CUDA tensors (device="cuda"): left out.

example("graph_disable_saved_tensors_hooks", """
    >>> message = "saved tensors default hooks are disabled"
    >>> with torch.autograd.graph.disable_saved_tensors_hooks(message):
    ...     # Raises RuntimeError: saved tensors default hooks are disabled
    ...     with torch.autograd.graph.save_on_cpu():
    ...         pass
""")

example("graph_register_multi_grad_hook", """
    >>> import torch
    >>>
    >>> a = torch.rand(2, 3, requires_grad=True)
    >>> b = torch.rand(2, 3, requires_grad=True)
    >>> c = a * b
    >>> d = a * b
    >>>
    >>> def fn(grads):
    ...     print([g is not None for g in grads])
    ...
    >>> torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
    >>>
    >>> c.sum().backward(retain_graph=True)
    >>> c.sum().backward(inputs=(a,), retain_graph=True)
    >>>
""")

example("graph_allow_mutation_on_saved_tensors", """
    >>> import torch
    >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
    ...     # forward
    ...     a = torch.ones(2, 3, requires_grad=True)
    ...     b = a.clone()
    ...     out = (b**2).sum()
    ...     b.sin_()
    ...     # backward
    ...     out.sum().backward()
    ...
""")

# ================================================================================================
# torch/autograd/grad_mode.py
# ================================================================================================

example("grad_mode_no_grad", """
    >>> x = torch.tensor([1.], requires_grad=True)
    >>> with torch.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    >>> @torch.no_grad()
    ... def doubler(x):
    ...     return x * 2
    >>> z = doubler(x)
    >>> z.requires_grad
    >>> @torch.no_grad()
    ... def tripler(x):
    ...     return x * 3
    >>> z = tripler(x)
    >>> z.requires_grad
    >>> # factory function exception
    >>> with torch.no_grad():
    ...     a = torch.nn.Parameter(torch.rand(10))
    >>> a.requires_grad
""")

example("grad_mode_enable_grad", """
    >>> x = torch.tensor([1.], requires_grad=True)
    >>> with torch.no_grad():
    ...     with torch.enable_grad():
    ...         y = x * 2
    >>> y.requires_grad
    >>> y.backward()
    >>> x.grad
    >>> @torch.enable_grad()
    ... def doubler(x):
    ...     return x * 2
    >>> with torch.no_grad():
    ...     z = doubler(x)
    >>> z.requires_grad
    >>> @torch.enable_grad()
    ... def tripler(x):
    ...     return x * 3
    >>> with torch.no_grad():
    ...     z = tripler(x)
    >>> z.requires_grad
""")

example("grad_mode_set_grad_enabled", """
    >>> x = torch.tensor([1.], requires_grad=True)
    >>> is_train = False
    >>> with torch.set_grad_enabled(is_train):
    ...     y = x * 2
    >>> y.requires_grad
    >>> _ = torch.set_grad_enabled(True)
    >>> y = x * 2
    >>> y.requires_grad
    >>> _ = torch.set_grad_enabled(False)
    >>> y = x * 2
    >>> y.requires_grad
    >>> _ = torch.set_grad_enabled(True)
""")

example("grad_mode_inference_mode", """
    >>> import torch
    >>> x = torch.ones(1, 2, 3, requires_grad=True)
    >>> with torch.inference_mode():
    ...     y = x * x
    >>> y.requires_grad
    >>> y._version
    >>> @torch.inference_mode()
    ... def func(x):
    ...     return x * x
    >>> out = func(x)
    >>> out.requires_grad
    >>> @torch.inference_mode()
    ... def doubler(x):
    ...     return x * 2
    >>> out = doubler(x)
    >>> out.requires_grad
""")

example("grad_mode_enforce_grad_layout_policy", """
    >>> import torch
    >>> p = torch.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
    >>> with torch.autograd.enforce_grad_layout_policy(False):
    ...     (p * 2).sum().backward()
    ...     # p.grad may now have the same strides as the incoming
    ...     # gradient rather than being forced to match p's strides.
    >>> p.grad.stride()
    >>> del p  # (its values are torch.empty's: whatever the memory held)
""")

# ================================================================================================
# torch/autograd/anomaly_mode.py
# ================================================================================================

example("anomaly_detect_anomaly", """
    >>> import torch
    >>> from torch import autograd
    >>> class MyFunc(autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, inp):
    ...         return inp.clone()
    ...
    ...     @staticmethod
    ...     def backward(ctx, gO):
    ...         # Error during the backward pass
    ...         raise RuntimeError("Some error in backward")
    ...         return gO.clone()
    >>> def run_fn(a):
    ...     out = MyFunc.apply(a)
    ...     return out.sum()
    >>> inp = torch.rand(10, 10, requires_grad=True)
    >>> out = run_fn(inp)
    >>> out.backward()
    >>> with autograd.detect_anomaly():
    ...     inp = torch.rand(10, 10, requires_grad=True)
    ...     out = run_fn(inp)
    ...     out.backward()
""")

# ================================================================================================
# torch/autograd/forward_ad.py (make_dual, unpack_dual, dual_level; f and x defined here)
# ================================================================================================

example("forward_ad_make_dual_unpack_dual", """
    >>> from torch.autograd.forward_ad import dual_level, make_dual, unpack_dual
    >>> x = torch.randn(3)
    >>> v = torch.ones(3)
    >>> f = torch.sin
    >>> with dual_level():
    ...     inp = make_dual(x, v)
    ...     out = f(inp)
    ...     y, jvp = unpack_dual(out)
    >>> y, jvp
    >>> x_t = torch.randn(3)
    >>> with dual_level():
    ...     inp = make_dual(x, x_t)
    ...     out = f(inp)
    ...     y, jvp = unpack_dual(out)
    ...     jvp = unpack_dual(out).tangent
    >>> jvp
""")

example("forward_ad_dual_level", """
    >>> from torch.autograd.forward_ad import dual_level, make_dual, unpack_dual
    >>> x = torch.tensor([1])
    >>> x_t = torch.tensor([1])
    >>> your_fn = lambda t: t * 2
    >>> with dual_level():
    ...     inp = make_dual(x, x_t)
    ...     # Do computations with inp
    ...     out = your_fn(inp)
    ...     _, grad = unpack_dual(out)
    >>> grad is None
    >>> # After exiting the level, the grad is deleted
    >>> _, grad_after = unpack_dual(out)
    >>> grad is None
    >>> x = torch.tensor([1.])
    >>> x_t = torch.tensor([1.])
    >>> with dual_level():
    ...     inp = make_dual(x, x_t)
    ...     out = your_fn(inp)
    ...     _, grad = unpack_dual(out)
    >>> grad is None
    >>> _, grad_after = unpack_dual(out)
    >>> grad_after is None
""")

# ================================================================================================
# torch/autograd/functional.py
# ================================================================================================

example("functional_vjp", """
    >>> from torch.autograd.functional import vjp
    >>> def exp_reducer(x):
    ...     return x.exp().sum(dim=1)
    >>> inputs = torch.rand(4, 4)
    >>> v = torch.ones(4)
    >>> vjp(exp_reducer, inputs, v)
    >>> vjp(exp_reducer, inputs, v, create_graph=True)
    >>> def adder(x, y):
    ...     return 2 * x + 3 * y
    >>> inputs = (torch.rand(2), torch.rand(2))
    >>> v = torch.ones(2)
    >>> vjp(adder, inputs, v)
""")

example("functional_jvp", """
    >>> from torch.autograd.functional import jvp
    >>> def exp_reducer(x):
    ...     return x.exp().sum(dim=1)
    >>> inputs = torch.rand(4, 4)
    >>> v = torch.ones(4, 4)
    >>> jvp(exp_reducer, inputs, v)
    >>> jvp(exp_reducer, inputs, v, create_graph=True)
    >>> def adder(x, y):
    ...     return 2 * x + 3 * y
    >>> inputs = (torch.rand(2), torch.rand(2))
    >>> v = (torch.ones(2), torch.ones(2))
    >>> jvp(adder, inputs, v)
""")

example("functional_jacobian", """
    >>> from torch.autograd.functional import jacobian
    >>> def exp_reducer(x):
    ...     return x.exp().sum(dim=1)
    >>> inputs = torch.rand(2, 2)
    >>> jacobian(exp_reducer, inputs)
    >>> jacobian(exp_reducer, inputs, create_graph=True)
    >>> def exp_adder(x, y):
    ...     return 2 * x.exp() + 3 * y
    >>> inputs = (torch.rand(2), torch.rand(2))
    >>> jacobian(exp_adder, inputs)
    >>> def linear_model(x):
    ...     W = torch.tensor([[2.0, -1.0], [0.0, 1.0]])
    ...     b = torch.tensor([1.0, 0.5])
    ...     return x @ W.T + b
    >>> x = torch.randn(4, 2, requires_grad=True)
    >>> jac = jacobian(linear_model, x, vectorize=True)
    >>> jac.shape
""")

example("functional_hessian", """
    >>> from torch.autograd.functional import hessian
    >>> def pow_reducer(x):
    ...     return x.pow(3).sum()
    >>> inputs = torch.rand(2, 2)
    >>> hessian(pow_reducer, inputs)
    >>> hessian(pow_reducer, inputs, create_graph=True)
    >>> def pow_adder_reducer(x, y):
    ...     return (2 * x.pow(2) + 3 * y.pow(2)).sum()
    >>> inputs = (torch.rand(2), torch.rand(2))
    >>> hessian(pow_adder_reducer, inputs)
""")

example("functional_vhp", """
    >>> from torch.autograd.functional import vhp
    >>> def pow_reducer(x):
    ...     return x.pow(3).sum()
    >>> inputs = torch.rand(2, 2)
    >>> v = torch.ones(2, 2)
    >>> vhp(pow_reducer, inputs, v)
    >>> vhp(pow_reducer, inputs, v, create_graph=True)
    >>> def pow_adder_reducer(x, y):
    ...     return (2 * x.pow(2) + 3 * y.pow(2)).sum()
    >>> inputs = (torch.rand(2), torch.rand(2))
    >>> v = (torch.zeros(2), torch.ones(2))
    >>> vhp(pow_adder_reducer, inputs, v)
""")

example("functional_hvp", """
    >>> from torch.autograd.functional import hvp
    >>> def pow_reducer(x):
    ...     return x.pow(3).sum()
    >>> inputs = torch.rand(2, 2)
    >>> v = torch.ones(2, 2)
    >>> hvp(pow_reducer, inputs, v)
    >>> hvp(pow_reducer, inputs, v, create_graph=True)
    >>> def pow_adder_reducer(x, y):
    ...     return (2 * x.pow(2) + 3 * y.pow(2)).sum()
    >>> inputs = (torch.rand(2), torch.rand(2))
    >>> v = (torch.zeros(2), torch.ones(2))
    >>> hvp(pow_adder_reducer, inputs, v)
""")

# ================================================================================================
# torch/_tensor.py and torch/_tensor_docs.py
# ================================================================================================

example("tensor_register_hook", """
    >>> v = torch.tensor([0., 0., 0.], requires_grad=True)
    >>> h = v.register_hook(lambda grad: grad * 2)  # double the gradient
    >>> v.backward(torch.tensor([1., 2., 3.]))
    >>> v.grad
    >>> h.remove()  # removes the hook
""")

example("tensor_register_post_accumulate_grad_hook", """
    >>> v = torch.tensor([0., 0., 0.], requires_grad=True)
    >>> lr = 0.01
    >>> # simulate a simple SGD update
    >>> h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
    >>> v.backward(torch.tensor([1., 2., 3.]))
    >>> v
    >>> h.remove()  # removes the hook
""")

example("tensor_dim_order", """
    >>> torch.empty((2, 3, 5, 7)).dim_order()
    >>> torch.empty((2, 3, 5, 7)).transpose(1, 2).dim_order()
    >>> torch.empty((2, 3, 5, 7), memory_format=torch.channels_last).dim_order()
    >>> torch.empty((1, 2, 3, 4)).dim_order()
    >>> try:
    ...     torch.empty((1, 2, 3, 4)).dim_order(ambiguity_check=True)
    ... except RuntimeError as e:
    ...     print(e)
    >>> torch.empty((1, 2, 3, 4)).dim_order(
    ...     ambiguity_check=[torch.contiguous_format, torch.channels_last]
    ... )  # It can be mapped to contiguous format
    >>> try:
    ...     torch.empty((1, 2, 3, 4)).dim_order(ambiguity_check="ILLEGAL") # type: ignore[arg-type]
    ... except TypeError as e:
    ...     print(e)
""")

example("tensor_requires_grad_", """
    >>> # Let's say we want to preprocess some saved weights and use
    >>> # the result as new weights.
    >>> saved_weights = [0.1, 0.2, 0.3, 0.25]
    >>> loaded_weights = torch.tensor(saved_weights)
    >>> preprocess = lambda t: (t - t.mean()) / t.std()
    >>> weights = preprocess(loaded_weights)  # some function
    >>> weights
    >>> # Now, start to record operations done to weights
    >>> weights.requires_grad_()
    >>> out = weights.pow(2).sum()
    >>> out.backward()
    >>> weights.grad
""")

# Tensor.is_leaf's example moves tensors to CUDA (.cuda(), device="cuda"): its CPU lines only.
example("tensor_is_leaf", """
    >>> a = torch.rand(10, requires_grad=True)
    >>> a.is_leaf
    >>> c = torch.rand(10, requires_grad=True) + 2
    >>> c.is_leaf
""")

example("tensor_item_tolist_new_tensor", """
    >>> x = torch.tensor([1.0])
    >>> x.item()
    >>> a = torch.randn(2, 2)
    >>> a.tolist()
    >>> a[0,0].tolist()
    >>> tensor = torch.ones((2,), dtype=torch.int8)
    >>> data = [[0, 1], [2, 3]]
    >>> tensor.new_tensor(data)
    >>> torch.tensor([[0.1, 1.2], [2.2, 3.1], [4.9, 5.2]])
    >>> torch.tensor([0, 1])  # Type inference on data
    >>> torch.tensor(3.14159)  # Create a zero-dimensional (scalar) tensor
    >>> torch.tensor([])  # Create an empty tensor (of size (0,))
""")

example("tensor_from_numpy_as_tensor", """
    >>> import numpy
    >>> a = numpy.array([1, 2, 3])
    >>> t = torch.as_tensor(a)
    >>> t
    >>> t[0] = -1
    >>> a
    >>> a = numpy.array([1, 2, 3])
    >>> t = torch.from_numpy(a)
    >>> t
    >>> t[0] = -1
    >>> a
""")

# ================================================================================================
# torch/utils/checkpoint.py
# ================================================================================================

example("checkpoint_sequential", """
    >>> from torch import nn
    >>> from torch.utils.checkpoint import checkpoint_sequential
    >>> model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
    >>> chunks = 2
    >>> input_var = torch.randn(3, 4, requires_grad=True)
    >>> input_var = checkpoint_sequential(model, chunks, input_var, use_reentrant=False)
    >>> input_var.sum().backward()
    >>> model[0].weight.grad
""")

example("checkpoint_set_checkpoint_early_stop", """
    >>> from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop
    >>> fn = lambda x: x.sin().exp()
    >>> inputs = torch.randn(3, requires_grad=True)
    >>> with set_checkpoint_early_stop(False):
    ...     # Any checkpoint under this context manager will respect this
    ...     # context manager, even if its backward is performed outside.
    ...     out = checkpoint(fn, inputs, use_reentrant=False)
    ...
    >>> out.sum().backward()
    >>> inputs.grad
""")

# ================================================================================================
# torch.func (torch/_functorch/apis.py, eager_transforms.py, functional_call.py)
# ================================================================================================

example("func_vmap_batched_dot", """
    >>> torch.dot  # [D], [D] -> []
    >>> batched_dot = torch.func.vmap(torch.dot)  # [N, D], [N, D] -> [N]
    >>> x, y = torch.randn(2, 5), torch.randn(2, 5)
    >>> batched_dot(x, y)
""")

example("func_vmap_model", """
    >>> batch_size, feature_size = 3, 5
    >>> weights = torch.randn(feature_size, requires_grad=True)
    >>>
    >>> def model(feature_vec):
    >>> # Very simple linear model with activation
    >>>     return feature_vec.dot(weights).relu()
    >>>
    >>> examples = torch.randn(batch_size, feature_size)
    >>> result = torch.vmap(model)(examples)
    >>> result
""")

example("func_vmap_jacobian_rows", """
    >>> # Setup
    >>> N = 5
    >>> f = lambda x: x**2
    >>> x = torch.randn(N, requires_grad=True)
    >>> y = f(x)
    >>> I_N = torch.eye(N)
    >>>
    >>> # Sequential approach
    >>> jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True)[0]
    >>>                  for v in I_N.unbind()]
    >>> jacobian = torch.stack(jacobian_rows)
    >>> jacobian
    >>>
    >>> # vectorized gradient computation
    >>> def get_vjp(v):
    >>>     return torch.autograd.grad(y, x, v)
    >>> jacobian = torch.vmap(get_vjp)(I_N)
    >>> jacobian
""")

example("func_vmap_nested_in_dims_out_dims_kwargs", """
    >>> torch.dot  # [D], [D] -> []
    >>> batched_dot = torch.vmap(
    ...     torch.vmap(torch.dot)
    ... )  # [N1, N0, D], [N1, N0, D] -> [N1, N0]
    >>> x, y = torch.randn(2, 3, 5), torch.randn(2, 3, 5)
    >>> batched_dot(x, y)  # tensor of size [2, 3]
    >>> torch.dot  # [N], [N] -> []
    >>> batched_dot = torch.vmap(torch.dot, in_dims=1)  # [N, D], [N, D] -> [D]
    >>> x, y = torch.randn(2, 5), torch.randn(2, 5)
    >>> batched_dot(
    ...     x, y
    ... )  # output is [5] instead of [2] if batched along the 0th dimension
    >>> torch.dot  # [D], [D] -> []
    >>> batched_dot = torch.vmap(torch.dot, in_dims=(0, None))  # [N, D], [D] -> [N]
    >>> x, y = torch.randn(2, 5), torch.randn(5)
    >>> batched_dot(
    ...     x, y
    ... )  # second arg doesn't have a batch dim because in_dim[1] was None
    >>> f = lambda dict: torch.dot(dict["x"], dict["y"])
    >>> x, y = torch.randn(2, 5), torch.randn(5)
    >>> input = {"x": x, "y": y}
    >>> batched_dot = torch.vmap(f, in_dims=({"x": 0, "y": None},))
    >>> batched_dot(input)
    >>> f = lambda x: x**2
    >>> x = torch.randn(2, 5)
    >>> batched_pow = torch.vmap(f, out_dims=1)
    >>> batched_pow(x)  # [5, 2]
    >>> x = torch.randn([2, 5])
    >>> def fn(x, scale=4.):
    >>>   return x * scale
    >>>
    >>> batched_pow = torch.vmap(fn)
    >>> assert torch.allclose(batched_pow(x), x * 4)
    >>> batched_pow(x, scale=x)  # scale is not batched, output has shape [2, 2, 5]
""")

example("func_grad", """
    >>> from torch.func import grad
    >>> x = torch.randn([])
    >>> cos_x = grad(lambda x: torch.sin(x))(x)
    >>> assert torch.allclose(cos_x, x.cos())
    >>>
    >>> # Second-order gradients
    >>> neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
    >>> assert torch.allclose(neg_sin_x, -x.sin())
    >>> cos_x, neg_sin_x
""")

# The per-example gradients of grad's docstring (vmap(grad(compute_loss), in_dims=(None, 0, 0)))
# are PyTorch's values, but minigrad differentiates below the batch (README, "Not the same as
# PyTorch yet"): their grad_fn is SqueezeBackward1 where PyTorch's is MulBackward0, and a zero
# prints as 0. where PyTorch's is -0.: left out.

example("func_grad_has_aux", """
    >>> from torch.func import grad
    >>> def my_loss_func(y, y_pred):
    >>>    loss_per_sample = (0.5 * y_pred - y) ** 2
    >>>    loss = loss_per_sample.mean()
    >>>    return loss, (y_pred, loss_per_sample)
    >>>
    >>> fn = grad(my_loss_func, argnums=(0, 1), has_aux=True)
    >>> y_true = torch.rand(4)
    >>> y_preds = torch.rand(4, requires_grad=True)
    >>> out = fn(y_true, y_preds)
    >>> # > output is ((grads w.r.t y_true, grads w.r.t y_preds), (y_pred, loss_per_sample))
    >>> out
""")

example("func_grad_under_no_grad", """
    >>> from torch.func import grad
    >>> x = torch.randn([])
    >>> def f(x):
    >>>     with torch.no_grad():
    >>>         c = x ** 2
    >>>     return x - c
    >>> grad(f)(x)
    >>> with torch.no_grad():
    >>>     grad(f)(x)
    >>> with torch.no_grad():
    >>>     print(grad(f)(x))
""")

example("func_vjp", """
    >>> x = torch.randn([5])
    >>> f = lambda x: x.sin().sum()
    >>> (_, vjpfunc) = torch.func.vjp(f, x)
    >>> grad = vjpfunc(torch.tensor(1.0))[0]
    >>> assert torch.allclose(grad, torch.func.grad(f)(x))
    >>> x = torch.randn([5])
    >>> f = lambda x: (x.sin(), x.cos())
    >>> (_, vjpfunc) = torch.func.vjp(f, x)
    >>> vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
    >>> assert torch.allclose(vjps[0], x.cos() + -x.sin())
    >>> x = torch.randn([5])
    >>> f = lambda x: {"first": x.sin(), "second": x.cos()}
    >>> (_, vjpfunc) = torch.func.vjp(f, x)
    >>> cotangents = {"first": torch.ones([5]), "second": torch.ones([5])}
    >>> vjps = vjpfunc(cotangents)
    >>> assert torch.allclose(vjps[0], x.cos() + -x.sin())
    >>> x, y = torch.randn([5, 4]), torch.randn([4, 5])
    >>> (_, vjpfunc) = torch.func.vjp(torch.matmul, x, y)
    >>> cotangents = torch.randn([5, 5])
    >>> vjps = vjpfunc(cotangents)
    >>> assert len(vjps) == 2
    >>> assert torch.allclose(vjps[0], torch.matmul(cotangents, y.transpose(0, 1)))
    >>> assert torch.allclose(vjps[1], torch.matmul(x.transpose(0, 1), cotangents))
    >>> x = torch.randn([5])
    >>> def f(x, scale=4.):
    >>>   return x * scale
    >>>
    >>> (_, vjpfunc) = torch.func.vjp(f, x)
    >>> vjps = vjpfunc(torch.ones_like(x))
    >>> assert torch.allclose(vjps[0], torch.full(x.shape, 4.0))
    >>> vjps
""")

example("func_vjp_under_no_grad", """
    >>> from torch.func import vjp
    >>> x = torch.randn([])
    >>> def f(x):
    >>>     with torch.no_grad():
    >>>         c = x ** 2
    >>>     return x - c
    >>> with torch.no_grad():
    >>>     vjp(f)(x)
    >>> with torch.no_grad():
    >>>     out, fn = vjp(f, x)
    >>> out, fn(torch.tensor(1.))
""")

example("func_jacrev", """
    >>> from torch.func import jacrev
    >>> x = torch.randn(5)
    >>> jacobian = jacrev(torch.sin)(x)
    >>> expected = torch.diag(torch.cos(x))
    >>> assert torch.allclose(jacobian, expected)
    >>> from torch.func import jacrev
    >>> x = torch.randn(5)
    >>>
    >>> def f(x):
    >>>   return x.sin()
    >>>
    >>> def g(x):
    >>>   result = f(x)
    >>>   return result, result
    >>>
    >>> jacobian_f, f_x = jacrev(g, has_aux=True)(x)
    >>> assert torch.allclose(f_x, f(x))
    >>> from torch.func import jacrev, vmap
    >>> x = torch.randn(64, 5)
    >>> jacobian = vmap(jacrev(torch.sin))(x)
    >>> assert jacobian.shape == (64, 5, 5)
    >>> from torch.func import jacrev
    >>> def f(x):
    >>>   return x.sin().sum()
    >>>
    >>> x = torch.randn(5)
    >>> hessian = jacrev(jacrev(f))(x)
    >>> assert torch.allclose(hessian, torch.diag(-x.sin()))
    >>> from torch.func import jacrev
    >>> def f(x, y):
    >>>   return x + y ** 2
    >>>
    >>> x, y = torch.randn(5), torch.randn(5)
    >>> jacobian = jacrev(f, argnums=1)(x, y)
    >>> expected = torch.diag(2 * y)
    >>> assert torch.allclose(jacobian, expected)
    >>> from torch.func import jacrev
    >>> def f(x, y):
    >>>   return x + y ** 2
    >>>
    >>> x, y = torch.randn(5), torch.randn(5)
    >>> jacobian = jacrev(f, argnums=(0, 1))(x, y)
    >>> expectedX = torch.diag(torch.ones_like(x))
    >>> expectedY = torch.diag(2 * y)
    >>> assert torch.allclose(jacobian[0], expectedX)
    >>> assert torch.allclose(jacobian[1], expectedY)
    >>> jacobian
""")

example("func_jacrev_under_no_grad", """
    >>> from torch.func import jacrev
    >>> x = torch.randn(3)
    >>> def f(x):
    >>>     with torch.no_grad():
    >>>         c = x ** 2
    >>>     return x - c
    >>> with torch.no_grad():
    >>>     jacrev(f)(x)
    >>> jacrev(f)(x)
""")

example("func_jvp", """
    >>> from torch.func import jvp
    >>> x = torch.randn([])
    >>> f = lambda x: x * torch.tensor([1.0, 2.0, 3])
    >>> value, grad = jvp(f, (x,), (torch.tensor(1.0),))
    >>> assert torch.allclose(value, f(x))
    >>> assert torch.allclose(grad, torch.tensor([1.0, 2, 3]))
    >>> from torch.func import jvp
    >>> x = torch.randn(5)
    >>> y = torch.randn(5)
    >>> f = lambda x, y: (x * y)
    >>> _, output = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
    >>> assert torch.allclose(output, x + y)
    >>> value, grad, output
""")

example("func_jacfwd", """
    >>> from torch.func import jacfwd
    >>> x = torch.randn(5)
    >>> jacobian = jacfwd(torch.sin)(x)
    >>> expected = torch.diag(torch.cos(x))
    >>> assert torch.allclose(jacobian, expected)
    >>> from torch.func import jacfwd, vmap
    >>> x = torch.randn(64, 5)
    >>> jacobian = vmap(jacfwd(torch.sin))(x)
    >>> assert jacobian.shape == (64, 5, 5)
    >>> from torch.func import jacfwd
    >>> x = torch.randn(5)
    >>>
    >>> def f(x):
    >>>   return x.sin()
    >>>
    >>> def g(x):
    >>>   result = f(x)
    >>>   return result, result
    >>>
    >>> jacobian_f, f_x = jacfwd(g, has_aux=True)(x)
    >>> assert torch.allclose(f_x, f(x))
    >>> from torch.func import jacfwd, jacrev
    >>> def f(x):
    >>>   return x.sin().sum()
    >>>
    >>> x = torch.randn(5)
    >>> hessian = jacfwd(jacrev(f))(x)
    >>> assert torch.allclose(hessian, torch.diag(-x.sin()))
    >>> from torch.func import jacfwd
    >>> def f(x, y):
    >>>   return x + y ** 2
    >>>
    >>> x, y = torch.randn(5), torch.randn(5)
    >>> jacobian = jacfwd(f, argnums=1)(x, y)
    >>> expected = torch.diag(2 * y)
    >>> assert torch.allclose(jacobian, expected)
    >>> from torch.func import jacfwd
    >>> def f(x, y):
    >>>   return x + y ** 2
    >>>
    >>> x, y = torch.randn(5), torch.randn(5)
    >>> jacobian = jacfwd(f, argnums=(0, 1))(x, y)
    >>> expectedX = torch.diag(torch.ones_like(x))
    >>> expectedY = torch.diag(2 * y)
    >>> assert torch.allclose(jacobian[0], expectedX)
    >>> assert torch.allclose(jacobian[1], expectedY)
    >>> jacobian
""")

example("func_hessian", """
    >>> from torch.func import hessian
    >>> def f(x):
    >>>   return x.sin().sum()
    >>>
    >>> x = torch.randn(5)
    >>> hess = hessian(f)(x)  # equivalent to jacfwd(jacrev(f))(x)
    >>> assert torch.allclose(hess, torch.diag(-x.sin()))
    >>> hess
""")

example("func_linearize", """
    >>> import torch
    >>> from torch.func import linearize
    >>> def fn(x):
    ...     return x.sin()
    ...
    >>> output, jvp_fn = linearize(fn, torch.zeros(3, 3))
    >>> jvp_fn(torch.ones(3, 3))
    >>>
""")

example("func_functional_call_foo", """
    >>> from torch.func import functional_call
    >>> class Foo(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.register_buffer("foo", torch.zeros(()))
    ...     def forward(self, x):
    ...         self.foo = self.foo + 1
    ...         return x + self.foo
    >>> a = {'foo': torch.zeros(())}
    >>> mod = Foo()  # does self.foo = self.foo + 1
    >>> print(mod.foo)  # tensor(0.)
    >>> functional_call(mod, a, torch.ones(()))
    >>> print(mod.foo)  # tensor(0.)
    >>> print(a['foo'])  # tensor(1.)
""")

example("func_functional_call_tied", """
    >>> from torch.func import functional_call
    >>> class Foo(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.foo = torch.nn.Parameter(torch.ones(()))
    ...         self.foo_tied = self.foo
    ...     def forward(self, x):
    ...         return x + self.foo + self.foo_tied
    >>> a = {'foo': torch.zeros(())}
    >>> mod = Foo()  # has both self.foo and self.foo_tied which are tied. Returns x + self.foo + self.foo_tied
    >>> print(mod.foo)  # tensor(1.)
    >>> mod(torch.zeros(()))  # tensor(2.)
    >>> functional_call(mod, a, torch.zeros(()))  # tensor(0.) since it will change self.foo_tied too
    >>> functional_call(mod, a, torch.zeros(()), tie_weights=False)  # tensor(1.)--self.foo_tied is not updated
    >>> new_a = {'foo': torch.zeros(()), 'foo_tied': torch.zeros(())}
    >>> functional_call(mod, new_a, torch.zeros()) # tensor(0.)
""")

example("func_functional_call_grad_weights", """
    >>> from torch.func import functional_call, grad
    >>> model = torch.nn.Linear(3, 2)
    >>> x = torch.randn(4, 3)
    >>> t = torch.randn(4, 2)
    >>> def compute_loss(params, x, t):
    ...     y = functional_call(model, params, x)
    ...     return torch.nn.functional.mse_loss(y, t)
    >>> detached_params = {k: v.detach() for k, v in model.named_parameters()}
    >>> grad_weights = grad(compute_loss)(detached_params, x, t)
    >>> grad_weights
    >>> grad_weights['weight'].grad_fn  # None--it's not tracking gradients outside of grad
""")

example("func_functional_call_grad_weights_tracked", """
    >>> from torch import nn
    >>> from torch.func import functional_call, grad
    >>> x = torch.randn(4, 3)
    >>> t = torch.randn(4, 3)
    >>> model = nn.Linear(3, 3)
    >>> def compute_loss(params, x, t):
    ...     y = functional_call(model, params, x)
    ...     return nn.functional.mse_loss(y, t)
    >>> grad_weights = grad(compute_loss)(dict(model.named_parameters()), x, t)
    >>> grad_weights
""")

example("func_stack_module_state", """
    >>> from torch.func import stack_module_state, vmap
    >>> num_models = 5
    >>> batch_size = 64
    >>> in_features, out_features = 3, 3
    >>> models = [torch.nn.Linear(in_features, out_features) for i in range(num_models)]
    >>> data = torch.randn(batch_size, 3)
    >>> def wrapper(params, buffers, data):
    ...     return torch.func.functional_call(models[0], (params, buffers), data)
    >>> params, buffers = stack_module_state(models)
    >>> output = vmap(wrapper, (0, 0, None))(params, buffers, data)
    >>> assert output.shape == (num_models, batch_size, out_features)
    >>> output[:, :2], params, buffers
""")

example("func_stack_module_state_submodules", """
    >>> import torch.nn as nn
    >>> from torch.func import stack_module_state
    >>> class Foo(nn.Module):
    ...     def __init__(self, in_features, out_features):
    ...         super().__init__()
    ...         hidden = 4
    ...         self.l1 = nn.Linear(in_features, hidden)
    ...         self.l2 = nn.Linear(hidden, out_features)
    ...     def forward(self, x):
    ...         return self.l2(self.l1(x))
    >>> num_models = 5
    >>> in_features, out_features = 3, 3
    >>> models = [Foo(in_features, out_features) for i in range(num_models)]
    >>> params, buffers = stack_module_state(models)
    >>> print(list(params.keys()))  # "l1.weight", "l1.bias", "l2.weight", "l2.bias"
""")

# ================================================================================================
# docs/source/notes/extending.func.rst ("Extending torch.func with autograd.Function")
# ================================================================================================

_NUMPY_SORT = """
    >>> import torch
    >>> import numpy as np
    >>> def to_numpy(tensor):
    ...     return tensor.cpu().numpy()
    >>> class NumpySort(torch.autograd.Function):
    ...     # Note that forward does not take ctx
    ...     @staticmethod
    ...     def forward(x, dim):
    ...         device = x.device
    ...         x = to_numpy(x)
    ...         ind = np.argsort(x, axis=dim)
    ...         ind_inv = np.argsort(ind, axis=dim)
    ...         result = np.take_along_axis(x, ind, axis=dim)
    ...         # Any intermediates to be saved in backward must be returned as
    ...         # outputs.
    ...         return (
    ...             # The desired output
    ...             torch.tensor(result, device=device),
    ...             # intermediate to save for backward
    ...             torch.tensor(ind, device=device),
    ...             # intermediate to save for backward
    ...             torch.tensor(ind_inv, device=device),
    ...         )
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         x, dim = inputs
    ...         _, ind, ind_inv = output
    ...         ctx.mark_non_differentiable(ind, ind_inv)
    ...         ctx.save_for_backward(ind, ind_inv)
    ...         ctx.dim = dim
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output, _0, _1):
    ...         ind, ind_inv = ctx.saved_tensors
    ...         return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None
    >>> class NumpyTake(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(x, ind, ind_inv, dim):
    ...         device = x.device
    ...         x = to_numpy(x)
    ...         ind = to_numpy(ind)
    ...         return torch.tensor(np.take_along_axis(x, ind, dim), device=device)
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         x, ind, ind_inv, dim = inputs
    ...         ctx.save_for_backward(ind, ind_inv)
    ...         ctx.dim = dim
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         ind, ind_inv = ctx.saved_tensors
    ...         result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
    ...         return result, None, None, None
    >>> def numpy_sort(x, dim=-1):
    ...     result, _, _ = NumpySort.apply(x, dim)
    ...     return result
"""

example("extending_func_numpy_sort", _NUMPY_SORT + """
    >>> x = torch.randn(2, 3)
    >>> grad_x = torch.func.grad(lambda x: numpy_sort(x).sum())(x)
    >>> assert torch.allclose(grad_x, torch.ones_like(x))
    >>> grad_x
    >>> y = torch.randn(2, 3, requires_grad=True)
    >>> out = numpy_sort(y)
    >>> out
    >>> (out * torch.arange(3.)).sum().backward()
    >>> torch.vmap(numpy_sort)(x)
""")

example("extending_func_my_cube_grad_grad", """
    >>> class MyCube(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(x):
    ...         result = x ** 3
    ...         dx = 3 * x ** 2
    ...         return result, dx
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         x, = inputs
    ...         result, dx = output
    ...         ctx.save_for_backward(x, dx)
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output, grad_dx):
    ...         x, dx = ctx.saved_tensors
    ...         result = grad_output * dx + grad_dx * 6 * x
    ...         return result
    >>> def my_cube(x):
    ...     result, _ = MyCube.apply(x)
    ...     return result
    >>> x = torch.randn([])
    >>> ggx = torch.func.grad(torch.func.grad(my_cube))(x)
    >>> assert torch.allclose(ggx, 6 * x)
    >>> ggx
""")

example("extending_func_generate_vmap_rule", """
    >>> class MyCube(torch.autograd.Function):
    ...     # Set generate_vmap_rule to True to ask PyTorch to automatically generate
    ...     # a vmap rule.
    ...     generate_vmap_rule = True
    ...
    ...     @staticmethod
    ...     def forward(x):
    ...         result = x ** 3
    ...         dx = 3 * x ** 2
    ...         return result, dx
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         x, = inputs
    ...         result, dx = output
    ...         ctx.save_for_backward(x, dx)
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output, grad_dx):
    ...         x, dx = ctx.saved_tensors
    ...         result = grad_output * dx + grad_dx * 6 * x
    ...         return result
    >>> def my_cube(x):
    ...     result, dx = MyCube.apply(x)
    ...     return result
    >>> x = torch.randn(3)
    >>> result = torch.vmap(my_cube)(x)
    >>> assert torch.allclose(result, x ** 3)
    >>> result
    >>> torch.vmap(torch.func.grad(my_cube))(x)
""")

example("extending_func_vmap_staticmethod", """
    >>> import numpy as np
    >>> def to_numpy(tensor):
    ...     return tensor.cpu().numpy()
    >>> class NumpySort(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(x, dim):
    ...         device = x.device
    ...         x = to_numpy(x)
    ...         ind = np.argsort(x, axis=dim)
    ...         ind_inv = np.argsort(ind, axis=dim)
    ...         result = np.take_along_axis(x, ind, axis=dim)
    ...         return (
    ...             torch.tensor(result, device=device),
    ...             torch.tensor(ind, device=device),
    ...             torch.tensor(ind_inv, device=device),
    ...         )
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         x, dim = inputs
    ...         _, ind, ind_inv = output
    ...         ctx.mark_non_differentiable(ind, ind_inv)
    ...         ctx.save_for_backward(ind, ind_inv)
    ...         ctx.dim = dim
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output, _0, _1):
    ...         return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None
    ...
    ...     # The signature of the vmap staticmethod is:
    ...     # vmap(info, in_dims: Tuple[Optional[int]], *args)
    ...     # where *args is the same as the arguments to `forward`.
    ...     @staticmethod
    ...     def vmap(info, in_dims, x, dim):
    ...         x_bdim, _ = in_dims
    ...         x = x.movedim(x_bdim, 0)
    ...         # Handle negative dims correctly
    ...         dim = dim if dim >= 0 else dim + x.dim() - 1
    ...         result = NumpySort.apply(x, dim + 1)
    ...         return NumpySort.apply(x, dim + 1), (0, 0, 0)
    >>> class NumpyTake(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(x, ind, ind_inv, dim):
    ...         device = x.device
    ...         x = to_numpy(x)
    ...         ind = to_numpy(ind)
    ...         return torch.tensor(np.take_along_axis(x, ind, dim), device=device)
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         x, ind, ind_inv, dim = inputs
    ...         ctx.save_for_backward(ind, ind_inv)
    ...         ctx.dim = dim
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         ind, ind_inv = ctx.saved_tensors
    ...         result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
    ...         return result, None, None, None
    ...
    ...     @staticmethod
    ...     def vmap(info, in_dims, x, ind, ind_inv, dim):
    ...         x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
    ...         logical_dim = x.dim() if x_bdim is None else x_bdim - 1
    ...         dim = dim if dim >= 0 else dim + logical_dim
    ...
    ...         def maybe_expand_bdim_at_front(x, x_bdim):
    ...             if x_bdim is None:
    ...                 return x.expand(info.batch_size, *x.shape)
    ...             return x.movedim(x_bdim, 0)
    ...
    ...         x = maybe_expand_bdim_at_front(x, x_bdim)
    ...         ind = maybe_expand_bdim_at_front(ind, ind_bdim)
    ...         ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
    ...         return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0
    >>> def numpy_sort(x, dim=-1):
    ...     result, _, _ = NumpySort.apply(x, dim)
    ...     return result
    >>> x = torch.randn(2, 3)
    >>> result = torch.vmap(numpy_sort)(x)
    >>> assert torch.allclose(result, numpy_sort(result, 1))
    >>> result
""")

# ================================================================================================
# torch/nn/utils (parametrize, parametrizations, stateless, init)
# ================================================================================================

example("nn_utils_parametrize_symmetric", """
    >>> import torch
    >>> import torch.nn as nn
    >>> import torch.nn.utils.parametrize as P
    >>>
    >>> class Symmetric(nn.Module):
    >>>     def forward(self, X):
    >>>         return X.triu() + X.triu(1).T  # Return a symmetric matrix
    >>>
    >>>     def right_inverse(self, A):
    >>>         return A.triu()
    >>>
    >>> m = nn.Linear(5, 5)
    >>> P.register_parametrization(m, "weight", Symmetric())
    >>> print(torch.allclose(m.weight, m.weight.T))  # m.weight is now symmetric
    >>> A = torch.rand(5, 5)
    >>> A = A + A.T  # A is now symmetric
    >>> m.weight = A  # Initialize the weight to be the symmetric matrix A
    >>> print(torch.allclose(m.weight, A))
    >>> m.weight
""")

example("nn_utils_parametrize_cached", """
    >>> import torch.nn as nn
    >>> import torch.nn.utils.parametrize as P
    >>> class Symmetric(nn.Module):
    ...     def forward(self, X):
    ...         return X.triu() + X.triu(1).T
    >>> model = nn.Linear(5, 5)
    >>> P.register_parametrization(model, "weight", Symmetric())
    >>> inputs = torch.randn(2, 5)
    >>> with P.cached():
    ...     output = model(inputs)
    ...     print(model.weight is model.weight)
    >>> output
    >>> output.sum().backward()
    >>> model.parametrizations.weight.original.grad
    >>> rnn_cell = nn.RNNCell(3, 3)
    >>> P.register_parametrization(rnn_cell, "weight_hh", Symmetric())
    >>> xs = torch.randn(4, 2, 3)
    >>> out_rnn = torch.zeros(2, 3)
    >>> with P.cached():
    ...     for x in xs:
    ...         out_rnn = rnn_cell(x, out_rnn)
    >>> out_rnn
    >>> out_rnn.sum().backward()
    >>> rnn_cell.parametrizations.weight_hh.original.grad
""")

example("nn_utils_parametrize_rank_one", """
    >>> import torch
    >>> import torch.nn as nn
    >>> import torch.nn.utils.parametrize as P
    >>> class RankOne(nn.Module):
    >>>     def forward(self, x, y):
    >>> # Form a rank 1 matrix multiplying two vectors
    >>>         return x.unsqueeze(-1) @ y.unsqueeze(-2)
    >>>
    >>>     def right_inverse(self, Z):
    >>> # Project Z onto the rank 1 matrices
    >>>         U, S, Vh = torch.linalg.svd(Z, full_matrices=False)
    >>> # Return rescaled singular vectors
    >>>         s0_sqrt = S[0].sqrt().unsqueeze(-1)
    >>>         return U[..., :, 0] * s0_sqrt, Vh[..., 0, :] * s0_sqrt
    >>>
    >>> linear_rank_one = P.register_parametrization(
    ...     nn.Linear(4, 4), "weight", RankOne()
    ... )
    >>> print(torch.linalg.matrix_rank(linear_rank_one.weight).item())
""")

example("nn_utils_orthogonal", """
    >>> from torch import nn
    >>> from torch.nn.utils.parametrizations import orthogonal
    >>> orth_linear = orthogonal(nn.Linear(20, 40))
    >>> orth_linear
    >>> Q = orth_linear.weight
    >>> torch.dist(Q.T @ Q, torch.eye(20)) < 1e-5
""")

example("nn_utils_weight_norm", """
    >>> from torch import nn
    >>> from torch.nn.utils.parametrizations import weight_norm
    >>> m = weight_norm(nn.Linear(20, 40), name='weight')
    >>> m
    >>> m.parametrizations.weight.original0.size()
    >>> m.parametrizations.weight.original1.size()
""")

example("nn_utils_spectral_norm", """
    >>> from torch import nn
    >>> from torch.nn.utils.parametrizations import spectral_norm
    >>> snm = spectral_norm(nn.Linear(20, 40))
    >>> snm
    >>> torch.linalg.matrix_norm(snm.weight, 2)
""")

example("nn_utils_skip_init", """
    >>> import torch
    >>> m = torch.nn.utils.skip_init(torch.nn.Linear, 5, 1)
    >>> m.weight.shape, m.weight.requires_grad
    >>> m2 = torch.nn.utils.skip_init(torch.nn.Linear, in_features=6, out_features=1)
    >>> m2.weight.shape, m2.weight.requires_grad
""")

example("nn_utils_stateless_functional_call", """
    >>> from torch.nn.utils.stateless import functional_call
    >>> class Foo(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.register_buffer("foo", torch.zeros(()))
    ...     def forward(self, x):
    ...         self.foo = self.foo + 1
    ...         return x + self.foo
    >>> a = {'foo': torch.zeros(())}
    >>> mod = Foo()  # does self.foo = self.foo + 1
    >>> print(mod.foo)  # tensor(0.)
    >>> functional_call(mod, a, torch.ones(()))
    >>> print(mod.foo)  # tensor(0.)
    >>> print(a['foo'])  # tensor(1.)
""")

# ================================================================================================
# docs/source/notes/autograd.rst ("Autograd mechanics"), code blocks in prompt form
# ================================================================================================

example("notes_saved_tensors", """
    >>> x = torch.randn(5, requires_grad=True)
    >>> y = x.pow(2)
    >>> print(x.equal(y.grad_fn._saved_self))  # True
    >>> print(x is y.grad_fn._saved_self)  # True
    >>> x = torch.randn(5, requires_grad=True)
    >>> y = x.exp()
    >>> print(y.equal(y.grad_fn._saved_result))  # True
    >>> print(y is y.grad_fn._saved_result)  # False
""")

example("notes_division_by_zero", """
    >>> x = torch.tensor([1., 1.], requires_grad=True)
    >>> div = torch.tensor([0., 1.])
    >>>
    >>> y = x / div          # Results in [inf, 1]
    >>> mask = div != 0      # [False, True]
    >>> loss = y[mask].sum()
    >>> loss.backward()
    >>> print(x.grad)        # [nan, 1], not [0, 1]
    >>> x = torch.tensor([1., 1.], requires_grad=True)
    >>> div = torch.tensor([0., 1.])
    >>>
    >>> mask = div != 0
    >>> safe = torch.zeros_like(x)
    >>> safe[mask] = x[mask] / div[mask]
    >>> loss = safe.sum()
    >>> loss.backward()      # Produces safe gradients [0, 1]
    >>> safe.grad_fn
""")

example("notes_requires_grad", """
    >>> x = torch.randn(5, 5)  # requires_grad=False by default
    >>> y = torch.randn(5, 5)  # requires_grad=False by default
    >>> z = torch.randn((5, 5), requires_grad=True)
    >>> a = x + y
    >>> a.requires_grad
    >>> b = a + z
    >>> b.requires_grad
""")

example("notes_multithreaded_train_fn", """
    >>> import threading
    >>> # Define a train function to be used in different threads
    >>> def train_fn():
    ...     x = torch.ones(5, 5, requires_grad=True)
    ...     # forward
    ...     y = (x + 3) * (x + 4) * 0.5
    ...     # backward
    ...     y.sum().backward()
    ...     # potential optimizer update
    ...     print(x.grad[0, 0])
    >>> # User write their own threading code to drive the train_fn
    >>> threads = []
    >>> for _ in range(10):
    ...     p = threading.Thread(target=train_fn, args=())
    ...     p.start()
    ...     threads.append(p)
    >>> for p in threads:
    ...     p.join()
""")

example("notes_saved_tensor_register_hooks", """
    >>> def pack_hook(tensor):
    ...     print("pack", tensor.shape)
    ...     return tensor.detach() * 1
    >>> def unpack_hook(packed):
    ...     print("unpack", packed.shape)
    ...     return packed
    >>> x = torch.randn(5, requires_grad=True)
    >>> y = x.pow(2)
    >>> y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
    >>> y.grad_fn._saved_self
    >>> y.sum().backward()
    >>> y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
""")

example("notes_saved_tensors_hooks_threshold", """
    >>> from torch import nn
    >>> # Only save on disk tensors that have size >= 1000
    >>> SAVE_ON_DISK_THRESHOLD = 1000
    >>> def pack_hook(x):
    ...     if x.numel() < SAVE_ON_DISK_THRESHOLD:
    ...         return x.detach()
    ...     return ("big", x.detach().clone())
    >>> def unpack_hook(tensor_or_sctf):
    ...     if isinstance(tensor_or_sctf, torch.Tensor):
    ...         return tensor_or_sctf
    ...     return tensor_or_sctf[1]
    >>> class Model(nn.Module):
    ...     def forward(self, x):
    ...         with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    ...             # ... compute output
    ...             output = (x * x).sum() + (x.repeat(10, 1) ** 2).sum()
    ...         return output
    >>> model = Model()
    >>> x = torch.randn(20, 20, requires_grad=True)
    >>> model(x).backward()
    >>> x.grad.sum()
""")

example("notes_saved_tensors_hooks_identity", """
    >>> with torch.autograd.graph.saved_tensors_hooks(lambda x: x.detach(), lambda x: x):
    ...     x = torch.randn(5, requires_grad=True)
    ...     y = x * x
    >>> y.grad_fn._saved_self is x, y.grad_fn._saved_other is x
    >>> y.grad_fn._saved_self.equal(x)
    >>> with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    ...     y = x * x
""")

example("notes_hook_after_in_place", """
    >>> fn = lambda grad: print("hook sees", grad)
    >>> t = torch.tensor(1., requires_grad=True).sin()
    >>> t.cos_()
    >>> t.register_hook(fn)
    >>> t.backward()
""")

# ================================================================================================
# docs/source/autograd.md (the torch.autograd reference page)
# ================================================================================================

# (its `print(dir(b.grad_fn))` is left out: minigrad's nodes list their own Python methods too,
# backward, saved_tensors, ..., which learners read; PyTorch's C++ nodes list fewer names)
example("autograd_page_saved_result", """
    >>> a = torch.tensor([0., 0., 0.], requires_grad=True)
    >>> b = a.exp()
    >>> print(isinstance(b.grad_fn, torch.autograd.graph.Node))
    >>> print(torch.allclose(b.grad_fn._saved_result, b))
""")

example("autograd_page_grad_layouts", """
    >>> from torch import nn
    >>> model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    >>> x = torch.randn(5, 3)
    >>> for iteration in range(2):
    ...     for param in model.parameters():
    ...         param.grad = None
    ...     loss = model(x).pow(2).sum()
    ...     loss.backward()
    >>> [p.grad.stride() for p in model.parameters()]
    >>> model[0].weight.grad
    >>> # Manual gradient layouts: a zeroed .grad with the desired strides, never reset to None
    >>> w = torch.randn(3, 4, requires_grad=True)
    >>> w.grad = torch.zeros(4, 3).t()
    >>> (w * 2).sum().backward()
    >>> w.grad.stride(), w.grad
    >>> (w * 3).sum().backward(create_graph=True)
    >>> w.grad.stride(), w.grad
""")

example("autograd_page_variable", """
    >>> from torch.autograd import Variable
    >>> tensor = torch.randn(2, 3)
    >>> Variable(tensor)
    >>> v = Variable(tensor, requires_grad=True)
    >>> v, type(v) is torch.Tensor
    >>> v.data is tensor, v.data.equal(tensor)
    >>> autograd_tensor = torch.randn((2, 3, 4), requires_grad=True)
    >>> autograd_tensor.is_leaf, autograd_tensor.requires_grad
""")

# ================================================================================================
# docs/source/notes/extending.rst ("Extending PyTorch"), code blocks in prompt form
# ================================================================================================

_LINEAR_FUNCTION = """
    >>> from torch.autograd import Function
    >>> # Inherit from Function
    >>> class LinearFunction(Function):
    ...
    ...     # Note that forward, setup_context, and backward are @staticmethods
    ...     @staticmethod
    ...     def forward(input, weight, bias):
    ...         output = input.mm(weight.t())
    ...         if bias is not None:
    ...             output += bias.unsqueeze(0).expand_as(output)
    ...         return output
    ...
    ...     @staticmethod
    ...     # inputs is a Tuple of all of the inputs passed to forward.
    ...     # output is the output of the forward().
    ...     def setup_context(ctx, inputs, output):
    ...         input, weight, bias = inputs
    ...         ctx.save_for_backward(input, weight, bias)
    ...
    ...     # This function has only a single output, so it gets only one gradient
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         input, weight, bias = ctx.saved_tensors
    ...         grad_input = grad_weight = grad_bias = None
    ...         if ctx.needs_input_grad[0]:
    ...             grad_input = grad_output.mm(weight)
    ...         if ctx.needs_input_grad[1]:
    ...             grad_weight = grad_output.t().mm(input)
    ...         if bias is not None and ctx.needs_input_grad[2]:
    ...             grad_bias = grad_output.sum(0)
    ...
    ...         return grad_input, grad_weight, grad_bias
    >>> # Option 2: wrap in a function, to support default args and keyword args.
    >>> def linear(input, weight, bias=None):
    ...     return LinearFunction.apply(input, weight, bias)
"""

example("extending_linear_function_gradcheck", _LINEAR_FUNCTION + """
    >>> from torch.autograd import gradcheck
    >>>
    >>> # gradcheck takes a tuple of tensors as input, check if your gradient
    >>> # evaluated with these tensors are close enough to numerical
    >>> # approximations and returns True if they all verify this condition.
    >>> input = (torch.randn(20,20,dtype=torch.double,requires_grad=True), torch.randn(30,20,dtype=torch.double,requires_grad=True))
    >>> test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
    >>> print(test)
    >>> out = linear(*input)
    >>> out.grad_fn
    >>> out.sum().backward()
    >>> input[1].grad.sum()
""")

example("extending_linear_module", _LINEAR_FUNCTION + """
    >>> from torch import nn
    >>> class Linear(nn.Module):
    ...     def __init__(self, input_features, output_features, bias=True):
    ...         super().__init__()
    ...         self.input_features = input_features
    ...         self.output_features = output_features
    ...         self.weight = nn.Parameter(torch.empty(output_features, input_features))
    ...         if bias:
    ...             self.bias = nn.Parameter(torch.empty(output_features))
    ...         else:
    ...             # You should always register all possible parameters, but the
    ...             # optional ones can be None if you want.
    ...             self.register_parameter('bias', None)
    ...
    ...         # Not a very smart way to initialize weights
    ...         nn.init.uniform_(self.weight, -0.1, 0.1)
    ...         if self.bias is not None:
    ...             nn.init.uniform_(self.bias, -0.1, 0.1)
    ...
    ...     def forward(self, input):
    ...         # See the autograd section for explanation of what happens here.
    ...         return LinearFunction.apply(input, self.weight, self.bias)
    ...
    ...     def extra_repr(self):
    ...         # (Optional)Set the extra information about this module. You can test
    ...         # it by printing an object of this class.
    ...         return 'input_features={}, output_features={}, bias={}'.format(
    ...             self.input_features, self.output_features, self.bias is not None
    ...         )
    >>> layer = Linear(3, 2)
    >>> layer
    >>> out = layer(torch.randn(4, 3))
    >>> out
    >>> out.sum().backward()
    >>> layer.weight.grad, layer.bias.grad
    >>> Linear(3, 2, bias=False)(torch.randn(1, 3))
""")

example("extending_combined_forward", """
    >>> from torch.autograd import Function
    >>> class LinearFunction(Function):
    ...     @staticmethod
    ...     # ctx is the first argument to forward
    ...     def forward(ctx, input, weight, bias=None):
    ...         # The forward pass can use ctx.
    ...         ctx.save_for_backward(input, weight, bias)
    ...         output = input.mm(weight.t())
    ...         if bias is not None:
    ...             output += bias.unsqueeze(0).expand_as(output)
    ...         return output
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         input, weight, bias = ctx.saved_tensors
    ...         grad_input = grad_weight = grad_bias = None
    ...
    ...         if ctx.needs_input_grad[0]:
    ...             grad_input = grad_output.mm(weight)
    ...         if ctx.needs_input_grad[1]:
    ...             grad_weight = grad_output.t().mm(input)
    ...         if bias is not None and ctx.needs_input_grad[2]:
    ...             grad_bias = grad_output.sum(0)
    ...
    ...         return grad_input, grad_weight, grad_bias
    >>> x = torch.randn(4, 3, requires_grad=True)
    >>> w = torch.randn(2, 3, requires_grad=True)
    >>> b = torch.randn(2, requires_grad=True)
    >>> out = LinearFunction.apply(x, w, b)
    >>> out
    >>> out.sum().backward()
    >>> out2 = LinearFunction.apply(x, w)
    >>> out2.sum().backward()
""")

example("extending_mul_constant", """
    >>> from torch.autograd import Function
    >>> class MulConstant(Function):
    ...     @staticmethod
    ...     def forward(tensor, constant):
    ...         return tensor * constant
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         # ctx is a context object that can be used to stash information
    ...         # for backward computation
    ...         tensor, constant = inputs
    ...         ctx.constant = constant
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         # We return as many input gradients as there were arguments.
    ...         # Gradients of non-Tensor arguments to forward must be None.
    ...         return grad_output * ctx.constant, None
    >>> x = torch.randn(3, requires_grad=True)
    >>> y = MulConstant.apply(x, 5.0)
    >>> y
    >>> y.sum().backward()
    >>> class MulConstant(Function):
    ...     @staticmethod
    ...     def forward(tensor, constant):
    ...         return tensor * constant
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         tensor, constant = inputs
    ...         ctx.set_materialize_grads(False)
    ...         ctx.constant = constant
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         # Here we must handle None grad_output tensor. In this case we
    ...         # can skip unnecessary computations and just return None.
    ...         if grad_output is None:
    ...             return None, None
    ...
    ...         # We return as many input gradients as there were arguments.
    ...         # Gradients of non-Tensor arguments to forward must be None.
    ...         return grad_output * ctx.constant, None
    >>> z = MulConstant.apply(x, 2.0)
    >>> z.sum().backward()
    >>> torch.func.grad(lambda t: MulConstant.apply(t, 3.0).sum())(x)
""")

example("extending_my_cube", """
    >>> class MyCube(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(x):
    ...         # We wish to save dx for backward. In order to do so, it must
    ...         # be returned as an output.
    ...         dx = 3 * x ** 2
    ...         result = x ** 3
    ...         return result, dx
    ...
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         x, = inputs
    ...         result, dx = output
    ...         ctx.save_for_backward(x, dx)
    ...
    ...     @staticmethod
    ...     def backward(ctx, grad_output, grad_dx):
    ...         x, dx = ctx.saved_tensors
    ...         # In order for the autograd.Function to work with higher-order
    ...         # gradients, we must add the gradient contribution of `dx`,
    ...         # which is grad_dx * 6 * x.
    ...         result = grad_output * dx + grad_dx * 6 * x
    ...         return result
    >>> # Wrap MyCube in a function so that it is clearer what the output is
    >>> def my_cube(x):
    ...     result, dx = MyCube.apply(x)
    ...     return result
    >>> x = torch.randn(3, dtype=torch.double, requires_grad=True)
    >>> y = my_cube(x)
    >>> y
    >>> g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    >>> g
    >>> gg, = torch.autograd.grad(g.sum(), x)
    >>> gg
    >>> torch.autograd.gradcheck(my_cube, x), torch.autograd.gradgradcheck(my_cube, x)
""")

# The rest of "Extending PyTorch" (__torch_function__, __torch_dispatch__, torch.library, C++
# extensions) is about PyTorch's dispatcher, which minigrad does not have: left out.


# ================================================================================================

@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_doc_example_prints_as_in_pytorch(name):
    torch = import_torch()
    theirs = transcript(EXAMPLES[name], torch)
    ours = transcript(EXAMPLES[name], minigrad)
    assert_same_transcript(ours, theirs)


LAYOUT_WARNING = textwrap.dedent("""
    import warnings
    import {library} as torch
    def caught(f):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            f()
        return [str(w.message).split(" (Triggered")[0] for w in seen if "layout" in str(w.message)]
    w = torch.randn(3, 4, requires_grad=True)
    w.grad = torch.zeros(4, 3).t()
    with torch.autograd.enforce_grad_layout_policy(False):
        print(caught(lambda: (w * 2).sum().backward()))
    print(caught(lambda: (w * 2).sum().backward()))
    print(caught(lambda: (w * 2).sum().backward()))
    u = torch.randn(3, 1, requires_grad=True)
    u.grad = torch.zeros(1, 3).t()
    print(caught(lambda: (u * 2).sum().backward()))
    print(caught(lambda: (w * 3).sum().backward(create_graph=True)))
    print(caught(lambda: (w * 3).sum().backward(create_graph=True)))
""")


def test_layout_warning_once_per_sum():
    """autograd.md's "Manual gradient layouts": adding a gradient into a .grad laid out unlike
    its leaf warns, once per process for the sum in place and once for the recorded sum
    (create_graph), not under enforce_grad_layout_policy(False), as PyTorch does."""
    import subprocess
    import_torch()
    root = os.path.dirname(os.path.dirname(os.path.abspath(minigrad.__file__)))
    outputs = [subprocess.run([sys.executable, "-c", LAYOUT_WARNING.format(library=name)],
                              capture_output=True, text=True, check=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=root)).stdout
               for name in ("torch", "minigrad")]
    assert outputs[1] == outputs[0]
    assert outputs[0].count("grad and param do not obey") == 2
