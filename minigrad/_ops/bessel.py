"""Modified Bessel functions of the first kind: i0, i1, and their scaled forms i0e, i1e.

    i0(x) = sum over k of (x/2)^(2k) / (k!)^2          (even, i0(0) = 1)
    i1(x) = sum over k of (x/2)^(2k+1) / (k! (k+1)!)  (odd, i1(0) = 0)
    i0e(x) = e^-|x| i0(x),  i1e(x) = e^-|x| i1(x)      (no overflow for large |x|)

Their derivatives use each other:

    i0'(x)  = i1(x)
    i1'(x)  = i0(x) - i1(x) / x                   (1/2 at x = 0)
    i0e'(x) = i1e(x) - sgn(x) i0e(x)
    i1e'(x) = i0e(x) - i1e(x) (sgn(x) + 1 / x)     (1/2 at x = 0)

so a gradient of one is a small graph of the others, and can be differentiated again.
PyTorch's formulas for i1 and i1e replace x by eps (the dtype's) where |x| <= eps before
dividing by it, and put 1/2 there afterwards: the graph shows those ``where`` steps.

The values come from the Chebyshev series of the Cephes library (which PyTorch uses too):
on [0, 8] in x/2 - 2, beyond 8 in 32/x - 2, each series of the scaled function.
"""
import numpy as np

from ..autograd.graph import Node
from . import result, save_result
from .pointwise import like_its_input, reciprocal, sgn, where
from .._tensor import _wrap

# Cephes' Chebyshev coefficients (highest degree first): e^-x i0(x) on [0, 8] and
# sqrt(x) e^-x i0(x) beyond 8; e^-x i1(x) / x on [0, 8] and sqrt(x) e^-x i1(x) beyond 8
_I0_SMALL = (
    -4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
    1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
    9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
    -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
    1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
    -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
    1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
    -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
    1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1)
_I0_LARGE = (
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
    2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
    8.04490411014108831608e-1)
_I1_SMALL = (
    2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
    -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
    3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
    -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
    9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
    -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
    4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
    -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
    2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
    -1.76416518357834055153e-1, 2.52587186443633654823e-1)
_I1_LARGE = (
    7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
    4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
    3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
    -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
    7.78576235018280120474e-1)


def _chebyshev(coefficients, y):
    """numpy: the Chebyshev series with these coefficients at y in [-2, 2] (Clenshaw's
    recurrence, as Cephes' chbevl: the constant term counts half)."""
    b0, b1, b2 = np.full_like(y, coefficients[0]), np.zeros_like(y), np.zeros_like(y)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = y * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _scaled(x, small, large, times_x):
    """numpy, float64, x >= 0: the scaled function (e^-x times i0 or i1) from its two series;
    on [0, 8] the i1 series is of e^-x i1(x) / x, so ``times_x`` multiplies x back."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # (each series computed everywhere, at a point inside its range, then one is chosen)
        near = _chebyshev(small, np.minimum(x, 8) / 2 - 2) * (x if times_x else 1)
        beyond = np.maximum(x, 8)
        far = _chebyshev(large, 32 / beyond - 2) / np.sqrt(beyond)
    return np.where(x <= 8, near, far)


def _i0e_values(x):
    return _scaled(np.abs(x), _I0_SMALL, _I0_LARGE, False)


def _i0_values(x):
    # (as PyTorch: e^|x| times the scaled series, so i0(inf) is inf * 0 = nan)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(np.abs(x)) * _i0e_values(x)


def _i1e_values(x):
    scaled = _scaled(np.abs(x), _I1_SMALL, _I1_LARGE, True)
    return np.where(x < 0, -scaled, scaled)          # (odd)


def _i1_values(x):
    with np.errstate(over="ignore", invalid="ignore"):
        values = np.exp(np.abs(x)) * _scaled(np.abs(x), _I1_SMALL, _I1_LARGE, True)
    return np.where(x < 0, -values, values)          # (odd: i1(-inf) is -nan, as PyTorch's)


def _in_float(values, input):
    """``values`` (computed in float64) of every element, in the input's float dtype (ints and
    bools: float32, PyTorch's default)."""
    array = input._array
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        out = values(array.astype(np.float64)).astype(dtype)
    return like_its_input(out, array)


# --- i0 ---------------------------------------------------------------------------------------

class I0Backward0(Node):
    """result = i0(self)   ->   grad_self = grad * i1(self)"""

    _saved_names = ("self",)        # grad_fn._saved_self

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * i1(x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * i1(self)"""
        return tangents[0] * i1(inputs[0])


def i0(input):
    """The modified Bessel function of the first kind, order 0 (even; i0(0) = 1).

    Gradient: grad * i1(input).
    """
    return result(_in_float(_i0_values, input), I0Backward0, (input,), saved=(input,))


# --- i0e --------------------------------------------------------------------------------------

class SpecialI0EBackward0(Node):
    """result = e ** -|self| i0(self)   ->   grad_self = grad * (i1e(self) - sgn(self) * result)"""

    _saved_names = ("self", "result")     # grad_fn._saved_self, grad_fn._saved_result

    def backward(self, grad):
        x, out = self.saved_tensors
        return (grad * (i1e(x) - sgn(x) * out),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * (i1e(self) - sgn(self) * result)"""
        return tangents[0] * (i1e(inputs[0]) - sgn(inputs[0]) * out)


def i0e(input):
    """e^-|x| i0(x): i0 scaled so that it does not overflow (about 1 / sqrt(2 pi |x|) far out).

    Gradient: grad * (i1e(x) - sgn(x) i0e(x)).
    """
    return save_result(result(_in_float(_i0e_values, input), SpecialI0EBackward0, (input,)), input)


# --- i1 and i1e: a division by x, kept away from 0 -------------------------------------------

def _away_from_zero(x):
    """(|x| > eps, x where that holds and eps elsewhere): PyTorch's guard before 1 / x."""
    eps = np.finfo(x._array.dtype).eps
    not_tiny = _wrap(np.abs(x._array) > eps)
    return not_tiny, where(not_tiny, x, _wrap(np.array(eps, dtype=x._array.dtype)))


def _half_where_tiny(not_tiny, slope):
    """The slope, with its limit 1/2 where |x| <= eps."""
    return where(not_tiny, slope, _wrap(np.array(0.5, dtype=slope._array.dtype)))


class SpecialI1Backward0(Node):
    """result = i1(self)   ->   grad_self = grad * (i0(self) - result / self) (grad / 2 at self = 0)"""

    _saved_names = ("self", "result")     # grad_fn._saved_self, grad_fn._saved_result

    def backward(self, grad):
        x, out = self.saved_tensors
        return (_times_i1_slope(grad, x, out),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * (i0(self) - result / self), self_t / 2 at self = 0"""
        return _times_i1_slope(tangents[0], inputs[0], out)


def _times_i1_slope(grad, x, out):
    not_tiny, safe_x = _away_from_zero(x)
    slope = i0(safe_x) - out * reciprocal(safe_x)
    return grad * _half_where_tiny(not_tiny, slope)


def i1(input):
    """The modified Bessel function of the first kind, order 1 (odd; i1(0) = 0).

    Gradient: grad * (i0(x) - i1(x) / x), grad / 2 at x = 0.
    """
    return save_result(result(_in_float(_i1_values, input), SpecialI1Backward0, (input,)), input)


class SpecialI1EBackward0(Node):
    """result = e ** -|self| i1(self)   ->
        grad_self = grad * (i0e(self) - result * (sgn(self) + 1 / self)) (grad / 2 at self = 0)"""

    _saved_names = ("self", "result")     # grad_fn._saved_self, grad_fn._saved_result

    def backward(self, grad):
        x, out = self.saved_tensors
        return (_times_i1e_slope(grad, x, out),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * (i0e(self) - result (sgn(self) + 1 / self)), self_t / 2 at self = 0"""
        return _times_i1e_slope(tangents[0], inputs[0], out)


def _times_i1e_slope(grad, x, out):
    not_tiny, safe_x = _away_from_zero(x)
    slope = i0e(safe_x) - out * (sgn(safe_x) + reciprocal(safe_x))
    return grad * _half_where_tiny(not_tiny, slope)


def i1e(input):
    """e^-|x| i1(x): i1 scaled so that it does not overflow.

    Gradient: grad * (i0e(x) - i1e(x) (sgn(x) + 1 / x)), grad / 2 at x = 0.
    """
    return save_result(result(_in_float(_i1e_values, input), SpecialI1EBackward0, (input,)), input)
