"""The layers, one file per family, as in torch/nn/modules/."""
from .module import Module  # noqa: F401
from .linear import Identity, Linear  # noqa: F401
from .activation import (  # noqa: F401
    ELU, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, ReLU, ReLU6, Sigmoid, Softmax, Softplus, Tanh, Threshold,
    SELU, CELU, Hardsigmoid, Hardswish, Mish, GELU, GLU)
from .activation import (  # noqa: F401
    Hardshrink, Softshrink, Tanhshrink, Softsign, PReLU, RReLU, Softmin, Softmax2d, SiLU)
from .container import Sequential  # noqa: F401
from .dropout import Dropout  # noqa: F401
from .flatten import Flatten  # noqa: F401
from .distance import CosineSimilarity, PairwiseDistance  # noqa: F401
from .loss import (  # noqa: F401
    BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss,
    SoftMarginLoss)
