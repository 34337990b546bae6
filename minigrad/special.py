"""``torch.special``: the special functions under the names SciPy uses.

Each is the function of the same meaning in minigrad, recorded with the same node
(``special.expit(x)`` is ``sigmoid(x)``: SigmoidBackward0; ``special.psi`` and
``special.digamma`` are ``digamma``: DigammaBackward0; ``special.gammaln`` is ``lgamma``).
"""
from ._ops.gamma import digamma, lgamma as gammaln, polygamma  # noqa: F401
from ._ops.logarithms import exp2, expm1, logit, xlogy  # noqa: F401
from ._ops.pointwise import log1p, sigmoid as expit  # noqa: F401
from ._ops.reduction import logsumexp  # noqa: F401
from ._ops.special import erf, erfc, erfinv, sinc  # noqa: F401

psi = digamma

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "log1p",
           "logit", "logsumexp", "polygamma", "psi", "sinc", "xlogy"]
