"""minigrad.nn: layers and models (``Module``), ``Parameter``, losses, ``init`` and ``functional``.

    import minigrad as torch
    model = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

Where things live (the same places as in PyTorch's torch/nn/):

    parameter.py          Parameter: a tensor a Module registers as learnable
    modules/module.py     Module: registration, parameters(), state_dict(), printing
    modules/linear.py     Linear, Identity
    modules/activation.py ReLU, Tanh, Sigmoid, LeakyReLU, Softplus, Softmax, LogSoftmax,
                          ReLU6, Hardtanh, Threshold, ELU, LogSigmoid, SELU, CELU,
                          Hardsigmoid, Hardswish, Mish, GELU, GLU, Hardshrink, Softshrink,
                          Tanhshrink, Softsign, PReLU, RReLU, Softmin, Softmax2d, SiLU
    modules/container.py  Sequential
    modules/loss.py       MSELoss, L1Loss, CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss,
                          SmoothL1Loss, HuberLoss, KLDivLoss, SoftMarginLoss
    modules/dropout.py    Dropout
    modules/flatten.py    Flatten
    modules/distance.py   CosineSimilarity, PairwiseDistance
    init.py               how weights are initialised
    functional.py         the functions the layers call (F.linear, F.relu, F.cross_entropy, ...)
"""
from . import functional  # noqa: F401
from . import init  # noqa: F401
from .parameter import Parameter  # noqa: F401
from .modules import (  # noqa: F401
    Module, Linear, Identity, ReLU, Tanh, Sigmoid, LeakyReLU, Softplus, Softmax, LogSoftmax,
    ReLU6, Hardtanh, Threshold, ELU, LogSigmoid, SELU, CELU, Hardsigmoid, Hardswish, Mish, GELU, GLU,
    Sequential, Dropout, Flatten,
    MSELoss, L1Loss, CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss, SmoothL1Loss, HuberLoss, KLDivLoss,
    SoftMarginLoss, CosineSimilarity, PairwiseDistance,
)
from .modules import (  # noqa: F401
    Hardshrink, Softshrink, Tanhshrink, Softsign, PReLU, RReLU, Softmin, Softmax2d, SiLU)
