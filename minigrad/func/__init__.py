"""minigrad.func: function transforms, as in ``torch.func``.

A transform turns a function into another function:

* ``grad(f)``          - its gradient (f returns a scalar); ``grad_and_value`` also the value
* ``vjp(f, *x)``       - the value and a function v -> v^T J (reverse mode)
* ``jvp(f, x, v)``     - the value and J v (forward mode)
* ``jacrev(f)``, ``jacfwd(f)`` - the whole Jacobian, by rows (reverse) or columns (forward)
* ``hessian(f)``       - ``jacfwd(jacrev(f))``
* ``vmap(f)``          - f over a batch; ``vmap(grad(f))`` gives per-sample gradients
* ``linearize(f, *x)`` - the value and a function v -> J v
* ``functional_call(module, params, args)`` - a module as a function of its parameters
* ``stack_module_state(models)`` - several models' parameters stacked, for vmap over an ensemble

They compose: ``jacfwd(jacrev(f))``, ``vmap(grad(f))``, ``grad(grad(f))``.
(PyTorch: torch/func/__init__.py.)
"""
from ._transforms import (grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, linearize,  # noqa: F401
                          functionalize)
from ._vmap import vmap  # noqa: F401
from ._functional_call import (functional_call, stack_module_state,  # noqa: F401
                               replace_all_batch_norm_modules_)

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "linearize",
           "functional_call", "stack_module_state", "functionalize", "replace_all_batch_norm_modules_"]
