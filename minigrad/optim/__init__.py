"""minigrad.optim: optimizers that update parameters from their ``.grad`` (as torch.optim).

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer.zero_grad()     # reset .grad (gradients accumulate, lesson 4)
    loss.backward()           # fill .grad
    optimizer.step()          # p -= lr * p.grad, in place, without recording

    optimizer.py   Optimizer: parameter groups, zero_grad, state_dict
    (each optimizer's step: a loop over the parameters; with foreach=True the multi-tensor
    version next to it, built on torch._foreach_*; with fused=True, _fused.py)
    sgd.py         SGD (momentum, dampening, nesterov, weight decay)
    adam.py        Adam
    adamw.py       AdamW (Adam with decoupled weight decay)
    rmsprop.py     RMSprop
    adagrad.py     Adagrad        adadelta.py  Adadelta      adamax.py  Adamax
    nadam.py       NAdam          radam.py     RAdam         rprop.py   Rprop
    asgd.py        ASGD (averaged SGD)
    lbfgs.py       LBFGS (quasi-Newton, with an optional strong-Wolfe line search)
    lr_scheduler.py  schedulers that change the learning rate as training goes on
    swa_utils.py     AveragedModel, SWALR, update_bn: averaging weights (SWA, EMA)
    _adafactor.py  Adafactor      _muon.py     Muon           sparse_adam.py  SparseAdam (refuses: no sparse tensors)
    _fused.py      PyTorch's fused CPU kernels of SGD, Adam/AdamW and Adagrad, number by number
"""
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adam import Adam  # noqa: F401
from .adamw import AdamW  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .radam import RAdam  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .asgd import ASGD  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from ._adafactor import Adafactor  # noqa: F401
from ._muon import Muon  # noqa: F401
from .sparse_adam import SparseAdam  # noqa: F401
from . import lr_scheduler  # noqa: F401
from . import swa_utils  # noqa: F401
