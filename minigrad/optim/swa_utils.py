"""Averaging weights over training (PyTorch: torch/optim/swa_utils.py).

Stochastic Weight Averaging keeps a running average of the weights a model visits late in
training; an exponential moving average (EMA) weighs recent weights more. Both often
generalize better than the last weights.

    AveragedModel(model)          a copy of the model whose parameters are the average;
                                  ``update_parameters(model)`` adds the current weights
    get_swa_avg_fn / get_ema_avg_fn (and their _multi_ forms)   the two ways of averaging
    SWALR(optimizer, swa_lr)      anneal the learning rate to a constant ``swa_lr``
    update_bn(loader, model)      recompute BatchNorm's running statistics for the averaged
                                  weights (one pass over the data)
"""
import itertools
import math
import warnings
from copy import deepcopy

from .. import _creation, _dtype
from ..autograd.grad_mode import no_grad
from ..nn.modules.module import Module
from .lr_scheduler import LRScheduler, _one_per_group


def _is_float(tensor):
    return tensor.is_floating_point()


def get_ema_multi_avg_fn(decay=0.999):
    """An update of many averages at once: ema = ema + (1 - decay) (current - ema)."""
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] "
                         "range.")

    @no_grad()
    def ema_update(ema_param_list, current_param_list, _):
        if _is_float(ema_param_list[0]):
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                p_ema.lerp_(p_model, 1 - decay)
        else:
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """An update of many averages at once: avg = avg + (current - avg) / (n + 1)."""

    @no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        if _is_float(averaged_param_list[0]):
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                p_avg.lerp_(p_model, float(1 / (num_averaged + 1)))
        else:
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                difference = p_model - p_avg
                if hasattr(num_averaged, "shape"):
                    p_avg.addcdiv_(difference, num_averaged + 1)
                else:
                    p_avg.add_(difference, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """The EMA of one parameter: decay * ema + (1 - decay) * current."""
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] "
                         "range.")

    @no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """The running average of one parameter: avg + (current - avg) / (n + 1)."""

    @no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose weights are the average of the weights given to
    ``update_parameters`` (SWA by default; pass ``multi_avg_fn=get_ema_multi_avg_fn()`` for
    an EMA). Its buffers are copied from the model unless ``use_buffers=True`` (then they are
    averaged too). ``n_averaged`` counts the updates."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        self.register_buffer("n_averaged", _creation.tensor(0, dtype=_dtype.int64))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """The averaged model's output."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Fold ``model``'s current weights into the average (the first call copies them)."""
        if self.use_buffers:
            averaged = itertools.chain(self.module.parameters(), self.module.buffers())
            current = itertools.chain(model.parameters(), model.buffers())
        else:
            averaged, current = self.parameters(), model.parameters()
        averaged_detached, current_detached = [], []
        first = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(averaged, current):
            p_model_ = p_model.detach()
            averaged_detached.append(p_averaged.detach())
            current_detached.append(p_model_)
            if first:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                update = self.multi_avg_fn or get_swa_multi_avg_fn()
                for group in _by_dtype(averaged_detached, current_detached):
                    update(group[0], group[1], self.n_averaged)
            else:
                for p_averaged, p_model in zip(averaged_detached, current_detached):
                    p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model,
                                                          self.n_averaged))
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


def _by_dtype(averaged, current):
    """The (averaged, current) pairs in groups of one dtype (as PyTorch's foreach kernels take
    them), in the order each dtype first appears."""
    groups = {}
    for p_averaged, p_model in zip(averaged, current):
        pair = groups.setdefault(p_averaged.dtype, ([], []))
        pair[0].append(p_averaged)
        pair[1].append(p_model)
    return list(groups.values())


@no_grad()
def update_bn(loader, model, device=None):
    """Recompute the BatchNorm layers' running statistics with one pass over ``loader`` (the
    averaged weights never produced the statistics BatchNorm kept during training)."""
    from ..nn.modules.batchnorm import _BatchNorm
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None              # a plain average over all the batches
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        model(input)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr to ``swa_lr`` over ``anneal_epochs`` epochs (cosine or linear),
    then keep it there: the constant rate SWA averages under."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        swa_lrs = _one_per_group("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        """The next rates: each group's rate moved a step of the annealing towards swa_lr."""
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self):
        """Everything but the optimizer and the annealing function."""
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        """Resume from ``state_dict``."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
