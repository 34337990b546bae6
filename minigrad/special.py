"""``torch.special``: the special functions under the names SciPy uses.

Each is the function of the same meaning in minigrad, recorded with the same node
(``special.expit(x)`` is ``sigmoid(x)``: SigmoidBackward0; ``special.psi`` and
``special.digamma`` are ``digamma``: DigammaBackward0; ``special.gammaln`` is ``lgamma``;
``special.multigammaln`` is ``mvlgamma``). The Bessel functions i0, i0e, i1, i1e live in
_ops/bessel.py.
"""
from ._ops.gamma import digamma, lgamma as gammaln, polygamma  # noqa: F401
from ._ops.logarithms import exp2, expm1, logit, xlogy  # noqa: F401
from ._ops.pointwise import log1p, sigmoid as expit  # noqa: F401
from ._ops.reduction import logsumexp  # noqa: F401
from ._ops.special import erf, erfc, erfinv, sinc  # noqa: F401
from ._ops.bessel import i0, i0e, i1, i1e
from ._ops.gamma import multigammaln
from ._python_arg_parser import checked as _checked

psi = digamma

# PyTorch's parser names these with their C++ names (special_i0(): argument 'input' ...)
i0, i0e, i1, i1e, multigammaln = (
    _checked(function, f"special_{name}", (("input", "Tensor"),))
    for function, name in ((i0, "i0"), (i0e, "i0e"), (i1, "i1"), (i1e, "i1e"), (multigammaln, "multigammaln")))

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i0e",
           "i1", "i1e", "log1p", "logit", "logsumexp", "multigammaln", "polygamma", "psi", "sinc",
           "xlogy"]
