"""``torch.special``: the special functions under the names SciPy uses.

Each is the function of the same meaning in minigrad, recorded with the same node
(``special.expit(x)`` is ``sigmoid(x)``: SigmoidBackward0; ``special.psi`` and
``special.digamma`` are ``digamma``: DigammaBackward0; ``special.gammaln`` is ``lgamma``;
``special.multigammaln`` is ``mvlgamma``). The Bessel functions i0, i0e, i1, i1e live in
_ops/bessel.py; entr, erfcx, ndtr, ndtri, log_ndtr, xlog1py, zeta in _ops/special_functions.py;
the Bessel functions PyTorch does not differentiate (bessel_j0, modified_bessel_k0, ...) in
_ops/bessel_functions.py, the orthogonal polynomials in _ops/orthogonal_polynomials.py.
"""
from ._ops.gamma import digamma, lgamma as gammaln, polygamma  # noqa: F401
from ._ops.logarithms import exp2, expm1, logit, xlogy  # noqa: F401
from ._ops.pointwise import log1p, sigmoid as expit  # noqa: F401
from ._ops.reduction import logsumexp  # noqa: F401
from ._ops.special import erf, erfc, erfinv, sinc  # noqa: F401
from ._ops.bessel import i0, i0e, i1, i1e
from ._ops.gamma import multigammaln
from ._python_arg_parser import checked as _checked

from ._ops.special_functions import entr, erfcx, ndtr, ndtri, log_ndtr, xlog1py, zeta  # noqa: E402
from ._ops import bessel_functions as _bessel_functions  # noqa: E402
from ._ops.incomplete_gamma import gammainc, gammaincc  # noqa: E402
from ._ops import orthogonal_polynomials as _polynomials  # noqa: E402
from ._out import _cast as _elementwise_out  # noqa: E402

psi = digamma

# PyTorch's parser names these with their C++ names (special_i0(): argument 'input' ...)
i0, i0e, i1, i1e, multigammaln = (
    _checked(function, f"special_{name}", (("input", "Tensor"),))
    for function, name in ((i0, "i0"), (i0e, "i0e"), (i1, "i1"), (i1e, "i1e"), (multigammaln, "multigammaln")))

# out= as PyTorch's elementwise functions take it (the result cast into out)
entr, erfcx, ndtr, ndtri, log_ndtr, xlog1py, zeta = (
    _checked(function, f"special_{function.__name__}", parameters, _elementwise_out)
    for function, parameters in ((entr, (("input", "Tensor"),)), (erfcx, (("input", "Tensor"),)),
                                 (ndtr, (("input", "Tensor"),)), (ndtri, (("input", "Tensor"),)),
                                 (log_ndtr, (("input", "Tensor"),)), (xlog1py, ()), (zeta, ())))
gammainc, gammaincc = (_checked(function, f"special_{function.__name__}", (("input", "Tensor"),), _elementwise_out)
                       for function in (gammainc, gammaincc))


for _name in _bessel_functions.NAMES:  # bessel_j0, modified_bessel_k1, ... (out= too)
    globals()[_name] = _checked(getattr(_bessel_functions, _name), f"special_{_name}", (("input", "Tensor"),),
                                _elementwise_out)
for _name in _polynomials.NAMES:       # chebyshev_polynomial_t(x, n), ... (out= too)
    globals()[_name] = _checked(getattr(_polynomials, _name), f"special_{_name}", (), _elementwise_out)


def softmax(input, dim, *, dtype=None):
    """``torch.softmax(input, dim, dtype=dtype)``: exp(input) / sum(exp(input)) along dim (SoftmaxBackward0)."""
    from .nn.functional import _softmax
    return _softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    """``torch.log_softmax(input, dim, dtype=dtype)``: input - logsumexp(input) along dim (LogSoftmaxBackward0)."""
    from .nn.functional import _log_softmax
    return _log_softmax(input, dim, dtype=dtype)


def round(input, *, decimals=0):
    """``torch.round(input, decimals=decimals)``: to the nearest integer (halves to even), or to
    ``decimals`` digits after the point."""
    from ._ops.rounding import round as _round
    return _round(input, decimals=decimals)


__all__ = ["bessel_j0", "bessel_j1", "entr", "erfcx", "log_ndtr", "log_softmax", "ndtr", "ndtri",
           "round", "softmax", "xlog1py", "zeta", "gammainc", "gammaincc", *_polynomials.NAMES, *_bessel_functions.NAMES,
           "digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i0e",
           "i1", "i1e", "log1p", "logit", "logsumexp", "multigammaln", "polygamma", "psi", "sinc",
           "xlogy"]
