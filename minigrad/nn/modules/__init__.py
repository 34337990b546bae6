"""The layers, one file per family, as in torch/nn/modules/."""
from .module import Module  # noqa: F401
from .linear import Identity, Linear  # noqa: F401
from .activation import LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Softplus, Tanh  # noqa: F401
from .container import Sequential  # noqa: F401
from .dropout import Dropout  # noqa: F401
from .flatten import Flatten  # noqa: F401
from .loss import BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss  # noqa: F401
