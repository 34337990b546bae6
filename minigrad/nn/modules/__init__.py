"""The layers, one file per family, as in torch/nn/modules/."""
from .module import Module  # noqa: F401
from .linear import Identity, Linear  # noqa: F401
from .activation import (  # noqa: F401
    ELU, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, ReLU, ReLU6, Sigmoid, Softmax, Softplus, Tanh, Threshold,
    SELU, CELU, Hardsigmoid, Hardswish, Mish, GELU, GLU)
from .activation import (  # noqa: F401
    Hardshrink, Softshrink, Tanhshrink, Softsign, PReLU, RReLU, Softmax2d, SiLU)
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential  # noqa: F401
from .dropout import AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout  # noqa: F401
from .flatten import Flatten, Unflatten  # noqa: F401
from .distance import CosineSimilarity, PairwiseDistance  # noqa: F401
from .loss import (  # noqa: F401
    BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss,
    SoftMarginLoss)
from .loss import (  # noqa: F401
    BCELoss, PoissonNLLLoss, GaussianNLLLoss, MarginRankingLoss, HingeEmbeddingLoss,
    CosineEmbeddingLoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
    TripletMarginLoss, TripletMarginWithDistanceLoss)
from .upsampling import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d  # noqa: F401
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d  # noqa: F401
from .pooling import (  # noqa: F401
    MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d,
    AdaptiveMaxPool2d)
from .padding import (  # noqa: F401
    ZeroPad1d, ZeroPad2d, ConstantPad1d, ConstantPad2d, ReflectionPad1d, ReflectionPad2d, ReplicationPad1d,
    ReplicationPad2d, CircularPad1d, CircularPad2d)
from .fold import Fold, Unfold  # noqa: F401
from .normalization import GroupNorm, LayerNorm, RMSNorm  # noqa: F401
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d  # noqa: F401
from .sparse import Embedding  # noqa: F401
from .pooling import (  # noqa: F401  (3-d pooling, power-average pooling, unpooling)
    MaxPool3d, AvgPool3d, AdaptiveAvgPool3d, AdaptiveMaxPool3d, LPPool1d, LPPool2d, LPPool3d, MaxUnpool1d,
    MaxUnpool2d, MaxUnpool3d, FractionalMaxPool2d, FractionalMaxPool3d)
from .padding import ZeroPad3d, ConstantPad3d, ReflectionPad3d, ReplicationPad3d, CircularPad3d  # noqa: F401
from .sparse import EmbeddingBag  # noqa: F401
from .activation import Softmin  # noqa: F401
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d  # noqa: F401
from .rnn import GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase  # noqa: F401
from .activation import MultiheadAttention  # noqa: F401
from .transformer import (  # noqa: F401
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer)
from .pixelshuffle import PixelShuffle, PixelUnshuffle, ChannelShuffle  # noqa: F401
from .normalization import LocalResponseNorm  # noqa: F401
from .linear import Bilinear  # noqa: F401
from .lazy import LazyModuleMixin  # noqa: F401
from .linear import LazyLinear  # noqa: F401
from .conv import (  # noqa: F401
    LazyConv1d, LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d)
from .batchnorm import LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d  # noqa: F401
from .instancenorm import LazyInstanceNorm1d, LazyInstanceNorm2d, LazyInstanceNorm3d  # noqa: F401
from .loss import CTCLoss  # noqa: F401
