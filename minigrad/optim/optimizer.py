"""``Optimizer``: what every optimizer shares (PyTorch: torch/optim/optimizer.py).

An optimizer holds the parameters to update in ``param_groups``: a list of
dicts, each with its ``'params'`` and its own settings (``'lr'``, ...), so
different parts of a model can learn at different rates. ``state`` keeps what
an optimizer remembers between steps for each parameter (a momentum buffer,
Adam's running averages). Subclasses write ``step()``; this class does the
bookkeeping: checking the parameters, ``zero_grad()``, ``state_dict()``.
"""
import copy
import warnings
from collections import defaultdict

from .._dtype import float32
from .._creation import tensor
from .._foreach import _foreach_add, _foreach_add_, _foreach_mul_, _foreach_neg
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad


class _RequiredParameter:
    """Marks a setting that has no default and must be given."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _type_name(value):
    return value.type() if isinstance(value, Tensor) else type(value).__name__


class Optimizer:
    """Base class: ``Optimizer(params, defaults)``; ``params`` is an iterable of tensors
    or of dicts ``{'params': [...], 'lr': ...}`` (parameter groups)."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {_type_name(params)}")
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters, with settings that override the defaults."""
        params = param_group["params"]
        param_group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _type_name(param))
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        ids = [id(param) for param in param_group["params"]]
        if len(set(ids)) != len(ids):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        for group in self.param_groups:
            if set(ids) & {id(param) for param in group["params"]}:
                raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Reset every parameter's ``.grad`` before the next backward (gradients accumulate).

        ``set_to_none=True`` (the default) drops the gradient; ``False`` fills it with zeros.
        """
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is None:
                    continue
                if set_to_none:
                    param.grad = None
                else:
                    # as PyTorch: detach_() only a gradient with history (a view cannot be detached
                    # in place)
                    if param.grad.grad_fn is not None:
                        param.grad.detach_()
                    else:
                        param.grad.requires_grad_(False)
                    param.grad.zero_()

    @staticmethod
    def _evaluate(closure):
        """``closure()`` with recording on (it computes a loss and its gradients), or None."""
        if closure is None:
            return None
        with enable_grad():
            return closure()

    def step(self):
        """Update every parameter from its ``.grad`` (each optimizer writes its own)."""
        raise NotImplementedError

    def state_dict(self):
        """The settings and state, with each parameter replaced by its position (0, 1, ...)."""
        index = {}
        groups = []
        for group in self.param_groups:
            saved = {key: value for key, value in group.items() if key != "params"}
            saved["params"] = []
            for param in group["params"]:
                index.setdefault(id(param), len(index))
                saved["params"].append(index[id(param)])
            groups.append(saved)
        state = {index[id(param)]: value for param, value in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restore settings and state saved by ``state_dict()`` (for the same parameters)."""
        state_dict = copy.deepcopy(state_dict)
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for group, saved in zip(self.param_groups, saved_groups):
            if len(group["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match "
                                 "the size of optimizer's group")
        self.state = defaultdict(dict)
        for group, saved in zip(self.param_groups, saved_groups):
            for param, position in zip(group["params"], saved["params"]):
                if position in state_dict["state"]:
                    self.state[param] = {
                        key: _loaded(value, key, param, saved.get("fused"))
                        for key, value in state_dict["state"][position].items()}
            saved["params"] = group["params"]
        self.param_groups = saved_groups

    def __repr__(self):
        text = type(self).__name__ + " ("
        for number, group in enumerate(self.param_groups):
            text += f"\nParameter Group {number}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _loaded(value, key, param, fused):
    """A loaded state entry: buffers take the parameter's dtype; the step counter stays as it
    is, except that a fused kernel reads it as float32."""
    if not isinstance(value, Tensor):
        return value
    if key == "step":
        return value.to(float32) if fused else value
    return value.to(param.dtype)


def check_one_number_lr(lr):
    """Every optimizer takes a learning rate given as a tensor (to change it without a new
    optimizer), but only one of a single element; PyTorch checks this before anything else."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def check_learning_rate(lr):
    """The first two checks most optimizers make: one number, not negative."""
    check_one_number_lr(lr)
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_adam_settings(lr, eps, betas, weight_decay):
    """The checks every optimizer of Adam's family makes of its settings, in PyTorch's order and
    with its messages: none may be negative, and each beta must lie in [0, 1)."""
    check_learning_rate(lr)
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


# ----- choosing the implementation: for-loop (default), foreach (multi-tensor) or fused -----
#
# PyTorch's optimizers have up to three implementations of one step: the "single-tensor" one,
# a loop over the parameters; ``foreach=True``, the "multi-tensor" one, which runs each line of
# the update on the whole list at once with torch._foreach_* (one kernel on a GPU; on a CPU
# the same operations tensor by tensor, but in the multi-tensor version's own order, which can
# round differently); and ``fused=True`` (Adam, AdamW, SGD, Adagrad), one hand-written kernel
# doing the whole update per number. ``foreach=None`` picks foreach only when every parameter
# is on a GPU, so on a CPU it means the single-tensor loop.

FUSED_DEVICES = ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone']


def check_fused_settings(fused, foreach, differentiable):
    """What an optimizer with a fused kernel refuses when it is made (PyTorch's messages)."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def check_fused_param(param):
    """The fused kernels update floating-point parameters only."""
    if not param.is_floating_point():
        raise RuntimeError("`fused=True` requires all the params to be floating point Tensors of "
                           f"supported devices: {FUSED_DEVICES} but {param.dtype} and cpu")


def foreach_step(group):
    """True if this group's step takes the multi-tensor (torch._foreach_*) path."""
    if group.get("foreach") and group.get("differentiable"):
        raise AssertionError("_foreach ops don't support autograd")
    return bool(group.get("foreach"))


def foreach_gradients_and_steps(params, states, group):
    """What every multi-tensor step starts with: the parameters' gradients (negated, in a new
    list, for maximize) and the states' step counters, each one higher."""
    grads = [p.grad for p in params]
    if group["maximize"]:
        grads = _foreach_neg(grads)
    steps = [state["step"] for state in states]
    _foreach_add_(steps, tensor(1.0), alpha=1.0)
    return grads, steps


def foreach_weight_decay(params, grads, group):
    """The weight decay on whole lists (PyTorch's multi-tensor steps): decoupled (AdamW's),
    the parameters shrink by lr * weight_decay; otherwise weight_decay * param joins each
    gradient (in place when maximize already made the list of gradients a new one)."""
    weight_decay = group["weight_decay"]
    if weight_decay == 0:
        return grads
    if group.get("decoupled_weight_decay"):
        _foreach_mul_(params, 1 - group["lr"] * weight_decay)
    elif group["maximize"]:
        _foreach_add_(grads, params, alpha=weight_decay)
    else:
        grads = _foreach_add(grads, params, alpha=weight_decay)
    return grads
