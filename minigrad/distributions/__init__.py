"""Probability distributions for sampling and scoring (``torch.distributions``): ``Normal`` for
VAEs (``rsample``, ``kl_divergence``), ``Categorical`` for policy gradients (``sample``,
``log_prob``), and the others most used, with PyTorch's random numbers after ``manual_seed``."""

from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .cauchy import Cauchy
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .geometric import Geometric
from .gumbel import Gumbel
from .half_cauchy import HalfCauchy
from .half_normal import HalfNormal
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .pareto import Pareto
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from . import transforms
from .relaxed_bernoulli import RelaxedBernoulli
from .relaxed_categorical import RelaxedOneHotCategorical
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform, AffineTransform, ComposeTransform, ExpTransform, SigmoidTransform, Transform, identity_transform
from .uniform import Uniform
from .binomial import Binomial
from .continuous_bernoulli import ContinuousBernoulli
from .generalized_pareto import GeneralizedPareto
from .kumaraswamy import Kumaraswamy
from .logistic_normal import LogisticNormal
from .lowrank_multivariate_normal import LowRankMultivariateNormal
from .mixture_same_family import MixtureSameFamily
from .multinomial import Multinomial
from .poisson import Poisson
from .von_mises import VonMises
from .weibull import Weibull
from .transforms import PowerTransform, StickBreakingTransform

__all__ = [
    "Bernoulli", "Categorical", "Cauchy", "Geometric", "Gumbel", "HalfNormal", "HalfCauchy", "Pareto", "AbsTransform", "Distribution", "Exponential", "ExponentialFamily", "Independent",
    "Laplace", "LogNormal", "MultivariateNormal", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough",
    "TransformedDistribution", "AffineTransform", "ComposeTransform", "ExpTransform", "Transform",
    "identity_transform", "SigmoidTransform", "RelaxedBernoulli", "RelaxedOneHotCategorical", "Uniform", "constraints", "transforms", "kl_divergence", "register_kl",
    "Binomial", "ContinuousBernoulli", "GeneralizedPareto", "Kumaraswamy", "LogisticNormal", "LowRankMultivariateNormal",
    "MixtureSameFamily", "Multinomial", "Poisson", "VonMises", "Weibull", "PowerTransform", "StickBreakingTransform",
]

# the gamma family: distributions drawn from torch._standard_gamma / torch._sample_dirichlet
from .beta import Beta  # noqa: E402
from .chi2 import Chi2  # noqa: E402
from .dirichlet import Dirichlet  # noqa: E402
from .fishersnedecor import FisherSnedecor  # noqa: E402
from .gamma import Gamma  # noqa: E402
from .inverse_gamma import InverseGamma  # noqa: E402
from .lkj_cholesky import LKJCholesky  # noqa: E402
from .negative_binomial import NegativeBinomial  # noqa: E402
from .studentT import StudentT  # noqa: E402
from .wishart import Wishart  # noqa: E402

__all__ += ["Beta", "Chi2", "Dirichlet", "FisherSnedecor", "Gamma", "InverseGamma", "LKJCholesky",
            "NegativeBinomial", "StudentT", "Wishart"]

# the other transforms, and the registries giving a transform onto a constraint
from .transforms import (  # noqa: E402
    CatTransform, CorrCholeskyTransform, CumulativeDistributionTransform, IndependentTransform,
    LowerCholeskyTransform, PositiveDefiniteTransform, ReshapeTransform, SoftmaxTransform, SoftplusTransform,
    StackTransform, TanhTransform,
)
from . import constraint_registry  # noqa: E402
from .constraint_registry import biject_to, transform_to  # noqa: E402

__all__ += ["CatTransform", "CorrCholeskyTransform", "CumulativeDistributionTransform", "IndependentTransform",
            "LowerCholeskyTransform", "PositiveDefiniteTransform", "ReshapeTransform", "SoftmaxTransform",
            "SoftplusTransform", "StackTransform", "TanhTransform", "biject_to", "transform_to"]
