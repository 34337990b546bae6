"""``torch._foreach_*``: one operation applied to every tensor of a list (PyTorch: ForeachOpsKernels.cpp).

    torch._foreach_mul_(params, 0.9)              # every p <- p * 0.9
    torch._foreach_add_(params, grads, alpha=-lr)  # every p <- p - lr * g

The optimizers' ``foreach=True`` paths are written with these. On a GPU each call is one
kernel launch for the whole list; on a CPU PyTorch runs them tensor by tensor with the
ordinary operations ("slow" path), and so does minigrad: ``_foreach_add(xs, ys)[i]`` is
exactly ``xs[i].add(ys[i])``, to the last bit. What the functions add is the checking of
the lists (PyTorch's messages) and the several overloads of the second argument:

    a Number           the same number for every tensor
    a list of Numbers  one number per tensor ("tuple of Scalars")
    a 0-d Tensor       the same tensor for every tensor (add, sub's alpha, mul, div)
    a list of Tensors  one tensor per tensor

The out-of-place forms return a tuple of new tensors, the in-place ones (``_`` at the end)
the list they changed.
"""
import numpy as np

from . import _ops
from ._signatures import Signatures
from ._tensor import Tensor

_SELF = "tuple of Tensors self"


def _check_tensor_lists(*lists):
    """PyTorch's check_foreach_api_restrictions: no empty list, all of one length."""
    if len(lists[0]) == 0:
        raise RuntimeError("Tensor list must have at least one tensor.")
    for other in lists[1:]:
        if len(other) != len(lists[0]):
            raise RuntimeError("Tensor lists must have the same number of tensors, got "
                               f"{len(lists[0])} and {len(other)}")


def _check_scalar_list(tensors, scalars):
    if len(tensors) != len(scalars):
        raise RuntimeError("Tensor list must have same number of elements as scalar list.")


def _check_zero_dim(other):
    if other.ndim != 0:
        raise RuntimeError(f"scalar tensor expected to be 0 dim but it has {other.ndim} dimensions "
                           f"and {other.numel()} elements.")


def _apply(tensors, each, inplace):
    """``each(i, tensor)`` for every tensor: the list itself if in place, else a tuple of results."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # (PyTorch: no warnings)
        results = [each(i, t) for i, t in enumerate(tensors)]
    return tensors if inplace else tuple(results)


# ----- binary operations: the second argument is a Number, Numbers, a Tensor or Tensors -----

_BINARY_SIGNATURES = {
    # in PyTorch's order (it tries them in turn; the message lists them so)
    "add": [f"{_SELF}, Number scalar", f"{_SELF}, tuple of Scalars scalars",
            f"{_SELF}, Tensor other, *, Number alpha=1",
            f"{_SELF}, tuple of Tensors other, *, Number alpha=1"],
    "sub": [f"{_SELF}, Number scalar", f"{_SELF}, tuple of Scalars scalars",
            f"{_SELF}, tuple of Tensors other, *, Number alpha=1"],
    "mul": [f"{_SELF}, tuple of Scalars scalars", f"{_SELF}, Tensor other",
            f"{_SELF}, tuple of Tensors other", f"{_SELF}, Number scalar"],
    "div": [f"{_SELF}, tuple of Scalars scalars", f"{_SELF}, Tensor other",
            f"{_SELF}, tuple of Tensors other", f"{_SELF}, Number scalar"],
    "maximum": [f"{_SELF}, Number scalar", f"{_SELF}, tuple of Scalars scalars",
                f"{_SELF}, tuple of Tensors other"],
    "minimum": [f"{_SELF}, Number scalar", f"{_SELF}, tuple of Scalars scalars",
                f"{_SELF}, tuple of Tensors other"],
    "clamp_min": [f"{_SELF}, Number scalar", f"{_SELF}, tuple of Scalars scalars",
                  f"{_SELF}, tuple of Tensors other"],
    "clamp_max": [f"{_SELF}, Number scalar", f"{_SELF}, tuple of Scalars scalars",
                  f"{_SELF}, tuple of Tensors other"],
    "pow": [f"{_SELF}, Number exponent", f"{_SELF}, tuple of Scalars exponent",
            f"{_SELF}, tuple of Tensors exponent"],
}

# maximum/minimum with numbers are PyTorch's clamp_min/clamp_max (nan handling included)
_WITH_NUMBERS = {"maximum": "clamp_min", "minimum": "clamp_max"}


def _binary(op, inplace):
    name = f"_foreach_{op}" + ("_" if inplace else "")
    texts = list(_BINARY_SIGNATURES[op])
    if op == "pow" and not inplace:
        texts.insert(0, "Number self, tuple of Tensors exponent")
    signatures = Signatures(name, *texts)
    method = op + ("_" if inplace else "")
    number_method = _WITH_NUMBERS.get(op, op) + ("_" if inplace else "")

    def call(t, name, other, alpha):
        if not hasattr(Tensor, name):             # maximum_, minimum_: no such Tensor methods
            return t.copy_(getattr(t, name[:-1])(other, **alpha))
        return getattr(t, name)(other, **alpha)

    def foreach(*args, **kwargs):
        _, values = signatures.parse(args, kwargs)
        tensors = values["self"]
        if not isinstance(tensors, (list, tuple)):          # pow(2.0, tensors)
            exponents = values["exponent"]
            _check_tensor_lists(exponents)
            return tuple(_ops.pointwise.pow(tensors, e) for e in exponents)
        key = next(key for key in ("scalar", "scalars", "other", "exponent") if key in values)
        other = values[key]
        alpha = {"alpha": values["alpha"]} if values.get("alpha", 1) != 1 else {}
        if isinstance(other, Tensor) and key == "other":       # one 0-d tensor for all
            _check_tensor_lists(tensors)
            _check_zero_dim(other)
            return _apply(tensors, lambda i, t: call(t, method, other, alpha), inplace)
        if not isinstance(other, (list, tuple)):                # one number (or 0-d tensor)
            _check_tensor_lists(tensors)
            return _apply(tensors, lambda i, t: call(t, number_method, other, {}), inplace)
        if all(isinstance(o, Tensor) for o in other) and other:  # a tensor each
            _check_tensor_lists(tensors, other)
            return _apply(tensors, lambda i, t: call(t, method, other[i], alpha), inplace)
        _check_tensor_lists(tensors)                             # a number each
        _check_scalar_list(tensors, other)
        return _apply(tensors, lambda i, t: call(t, number_method, other[i], {}), inplace)

    foreach.__name__ = foreach.__qualname__ = name
    foreach.__doc__ = (f"``torch.{name}(tensors, other)``: ``t.{method}(other)`` for every tensor "
                       "t, with ``other`` a Number, a list of Numbers (one each)"
                       + (", a 0-d Tensor" if "Tensor other" in " ".join(texts) else "")
                       + " or a list of Tensors (one each)"
                       + (", ``alpha`` scaling a tensor other" if op in ("add", "sub") else "")
                       + ("; ``pow(number, tensors)`` raises the number to each" if op == "pow"
                          and not inplace else "") + ".")
    return foreach


# ----- addcmul, addcdiv: self + value * t1 * t2 (or t1 / t2) -----

def _pointwise(op, inplace):
    name = f"_foreach_{op}" + ("_" if inplace else "")
    lists = f"{_SELF}, tuple of Tensors tensor1, tuple of Tensors tensor2"
    signatures = Signatures(name, f"{lists}, tuple of Scalars scalars", f"{lists}, Tensor scalars",
                            f"{lists}, Number value=1")
    method = op + ("_" if inplace else "")

    def foreach(*args, **kwargs):
        _, values = signatures.parse(args, kwargs)
        tensors, tensors1, tensors2 = values["self"], values["tensor1"], values["tensor2"]
        _check_tensor_lists(tensors, tensors1, tensors2)
        if "value" in values:
            scalars = [values["value"]] * len(tensors)
        elif isinstance(values["scalars"], Tensor):         # a 1-d tensor of numbers, one each
            given = values["scalars"]
            if given.numel() != len(tensors):
                raise RuntimeError(f"Expected length of scalars to match input of length "
                                   f"{len(tensors)} but got {given.numel()} instead.")
            scalars = given.reshape(-1).tolist()
        else:
            scalars = values["scalars"]
            _check_scalar_list(tensors, scalars)
        return _apply(tensors, lambda i, t: getattr(t, method)(tensors1[i], tensors2[i],
                                                               value=scalars[i]), inplace)

    foreach.__name__ = foreach.__qualname__ = name
    foreach.__doc__ = (f"``torch.{name}(tensors, tensors1, tensors2, value=1)``: "
                       f"``t.{method}(t1, t2, value=v)`` for every tensor t; ``value`` may be one "
                       "Number, a list of Numbers or a 1-d Tensor of them (one each).")
    return foreach


# ----- lerp: self + weight * (end - self) -----

def _lerp(inplace):
    name = "_foreach_lerp" + ("_" if inplace else "")
    lists = f"{_SELF}, tuple of Tensors tensors1"
    signatures = Signatures(name, f"{lists}, Number weight", f"{lists}, tuple of Scalars weight",
                            f"{lists}, tuple of Tensors weights")
    method = "lerp_" if inplace else "lerp"

    def foreach(*args, **kwargs):
        _, values = signatures.parse(args, kwargs)
        tensors, ends = values["self"], values["tensors1"]
        if "weights" in values:
            weights = values["weights"]
            _check_tensor_lists(tensors, ends, weights)
        elif isinstance(values["weight"], (list, tuple)):
            weights = values["weight"]
            _check_tensor_lists(tensors, ends)
            _check_scalar_list(tensors, weights)
        else:
            _check_tensor_lists(tensors, ends)
            weights = [values["weight"]] * len(tensors)
        return _apply(tensors, lambda i, t: getattr(t, method)(ends[i], weights[i]), inplace)

    foreach.__name__ = foreach.__qualname__ = name
    foreach.__doc__ = (f"``torch.{name}(tensors, ends, weight)``: ``t.{method}(end, weight)`` for "
                       "every tensor t; ``weight`` is one Number, a list of Numbers or a list of "
                       "Tensors (one each).")
    return foreach


# ----- unary operations -----

_UNARY = ["abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1",
          "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal", "round",
          "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"]


def _unary(op, inplace):
    name = f"_foreach_{op}" + ("_" if inplace else "")
    signatures = Signatures(name, _SELF)
    method = op + ("_" if inplace else "")

    def foreach(*args, **kwargs):
        tensors = signatures.parse(args, kwargs)[1]["self"]
        _check_tensor_lists(tensors)
        return _apply(tensors, lambda i, t: getattr(t, method)(), inplace)

    foreach.__name__ = foreach.__qualname__ = name
    foreach.__doc__ = f"``torch.{name}(tensors)``: ``t.{method}()`` for every tensor t."
    return foreach


_ZERO = Signatures("_foreach_zero_", _SELF)
_COPY = Signatures("_foreach_copy_", f"{_SELF}, tuple of Tensors src, bool non_blocking=False")
_NORM = Signatures("_foreach_norm", f"{_SELF}, Number ord=2, ScalarType? dtype=None")


def _foreach_zero_(*args, **kwargs):
    """``torch._foreach_zero_(tensors)``: fill every tensor with zeros, in place."""
    tensors = _ZERO.parse(args, kwargs)[1]["self"]
    _check_tensor_lists(tensors)
    return _apply(tensors, lambda i, t: t.zero_(), True)


def _foreach_copy_(*args, **kwargs):
    """``torch._foreach_copy_(tensors, src)``: ``t.copy_(s)`` for every pair, in place."""
    values = _COPY.parse(args, kwargs)[1]
    tensors, sources = values["self"], values["src"]
    _check_tensor_lists(tensors, sources)
    return _apply(tensors, lambda i, t: t.copy_(sources[i]), True)


def _foreach_norm(*args, **kwargs):
    """``torch._foreach_norm(tensors, ord=2, dtype=None)``: the vector norm of every tensor
    (``torch.linalg.vector_norm``), a tuple of 0-d tensors."""
    values = _NORM.parse(args, kwargs)[1]
    tensors = values["self"]
    _check_tensor_lists(tensors)
    return tuple(_ops.reduction.vector_norm(t, values["ord"], dtype=values["dtype"])
                 for t in tensors)


def _all_functions():
    functions = {"_foreach_zero_": _foreach_zero_, "_foreach_copy_": _foreach_copy_,
                 "_foreach_norm": _foreach_norm}
    for inplace in (False, True):
        made = [_binary(op, inplace) for op in _BINARY_SIGNATURES]
        made += [_pointwise(op, inplace) for op in ("addcmul", "addcdiv")]
        made += [_lerp(inplace)] + [_unary(op, inplace) for op in _UNARY]
        functions.update((f.__name__, f) for f in made)
    return functions


FUNCTIONS = _all_functions()
globals().update(FUNCTIONS)
__all__ = sorted(FUNCTIONS)
