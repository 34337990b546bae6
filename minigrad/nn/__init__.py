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
    modules/container.py  Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
    modules/loss.py       MSELoss, L1Loss, CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss,
                          SmoothL1Loss, HuberLoss, KLDivLoss, SoftMarginLoss, BCELoss,
                          PoissonNLLLoss, GaussianNLLLoss, MarginRankingLoss,
                          HingeEmbeddingLoss, CosineEmbeddingLoss, MultiMarginLoss,
                          MultiLabelMarginLoss, MultiLabelSoftMarginLoss, TripletMarginLoss,
                          TripletMarginWithDistanceLoss
    modules/dropout.py    Dropout, Dropout1d/2d/3d, AlphaDropout, FeatureAlphaDropout
    modules/flatten.py    Flatten, Unflatten
    modules/distance.py   CosineSimilarity, PairwiseDistance
    modules/conv.py       Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
    modules/pooling.py    MaxPool, AvgPool, AdaptiveAvgPool, AdaptiveMaxPool, LPPool, MaxUnpool (1d, 2d, 3d),
                          FractionalMaxPool2d/3d
    modules/padding.py    ZeroPad, ConstantPad, ReflectionPad, ReplicationPad, CircularPad (1d, 2d, 3d)
    modules/fold.py       Unfold, Fold (im2col and col2im as layers)
    modules/normalization.py  LayerNorm, GroupNorm, RMSNorm
    modules/batchnorm.py  BatchNorm1d, BatchNorm2d, BatchNorm3d
    modules/instancenorm.py  InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
    modules/sparse.py     Embedding, EmbeddingBag
    init.py               how weights are initialised
    utils/                clip_grad_norm_, clip_grad_value_, parameters_to_vector, ...
    functional.py         the functions the layers call (F.linear, F.relu, F.cross_entropy, ...)
    _convolution.py       F.conv1d/2d/3d, F.conv_transpose1d/2d/3d (im2col), ConvolutionBackward0
    _fold.py              F.unfold, F.fold: im2col and col2im as operations
    _pooling.py           F.max_pool2d, F.avg_pool2d, F.adaptive_avg_pool2d, F.lp_pool2d, ... (1-d, 2-d, 3-d)
    _max_unpool.py        F.max_unpool1d/2d/3d
    _fractional_max_pool.py  F.fractional_max_pool2d/3d: max pooling over pseudo-random windows
    _embedding_bag.py     F.embedding_bag: embedding then sum, mean or max per bag
    _padding.py           F.pad: constant, reflect, replicate, circular
    _margin_losses.py     F.margin_ranking_loss, hinge/cosine embedding, triplet losses, ...
    _multi_margin_losses.py  F.multi_margin_loss, F.multilabel_margin_loss (one node each)
    _likelihood_losses.py F.poisson_nll_loss, F.gaussian_nll_loss
    _upsampling.py        F.interpolate: nearest, linear, bilinear, bicubic, trilinear, area
    _upsampling_aa.py     F.interpolate(..., antialias=True): bilinear, bicubic, lanczos
    modules/upsampling.py Upsample, UpsamplingNearest2d, UpsamplingBilinear2d
    modules/pixelshuffle.py  PixelShuffle, PixelUnshuffle, ChannelShuffle (_pixel_shuffle.py)
"""
from . import functional  # noqa: F401
from . import init  # noqa: F401
from . import utils  # noqa: F401
from .parameter import Parameter, Buffer  # noqa: F401
from .modules import (  # noqa: F401
    Module, Linear, Identity, ReLU, Tanh, Sigmoid, LeakyReLU, Softplus, Softmax, LogSoftmax,
    ReLU6, Hardtanh, Threshold, ELU, LogSigmoid, SELU, CELU, Hardsigmoid, Hardswish, Mish, GELU, GLU,
    Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict, Dropout, Flatten,
    MSELoss, L1Loss, CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss, SmoothL1Loss, HuberLoss, KLDivLoss,
    SoftMarginLoss, CosineSimilarity, PairwiseDistance,
)
from .modules import (  # noqa: F401,E402  (convolution, pooling and padding layers)
    Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d,
    MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    ZeroPad1d, ZeroPad2d, ConstantPad1d, ConstantPad2d, ReflectionPad1d, ReflectionPad2d, ReplicationPad1d,
    ReplicationPad2d, CircularPad1d, CircularPad2d, Fold, Unfold,
)
from .modules import (  # noqa: F401
    LayerNorm, GroupNorm, RMSNorm, BatchNorm1d, BatchNorm2d, BatchNorm3d, Embedding,
    Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout, Unflatten, Softmin,
    InstanceNorm1d, InstanceNorm2d, InstanceNorm3d,
)
from .modules import (  # noqa: F401
    Hardshrink, Softshrink, Tanhshrink, Softsign, PReLU, RReLU, Softmax2d, SiLU)
from .modules import (  # noqa: F401  (recurrent layers)
    RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell)
from .modules import (  # noqa: F401  (attention: modules/_multihead_attention.py, modules/transformer.py)
    MultiheadAttention, Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
    TransformerEncoderLayer)
from .modules import (  # noqa: F401  (3-d pooling and padding, power-average pooling, unpooling)
    MaxPool3d, AvgPool3d, AdaptiveAvgPool3d, AdaptiveMaxPool3d, LPPool1d, LPPool2d, LPPool3d, MaxUnpool1d,
    MaxUnpool2d, MaxUnpool3d, ZeroPad3d, ConstantPad3d, ReflectionPad3d, ReplicationPad3d, CircularPad3d,
    EmbeddingBag, FractionalMaxPool2d, FractionalMaxPool3d)
from .modules import (  # noqa: F401
    BCELoss, PoissonNLLLoss, GaussianNLLLoss, MarginRankingLoss, HingeEmbeddingLoss,
    CosineEmbeddingLoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
    TripletMarginLoss, TripletMarginWithDistanceLoss)
from .modules import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d  # noqa: F401
from .modules import PixelShuffle, PixelUnshuffle, ChannelShuffle  # noqa: F401
from .modules import LocalResponseNorm  # noqa: F401
from .modules import Bilinear  # noqa: F401
from .parameter import UninitializedParameter, UninitializedBuffer  # noqa: F401,E402  (lazy modules)
from .modules import (  # noqa: F401,E402
    LazyLinear, LazyConv1d, LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d,
    LazyConvTranspose3d, LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyInstanceNorm1d,
    LazyInstanceNorm2d, LazyInstanceNorm3d)
from .modules import CTCLoss  # noqa: F401
