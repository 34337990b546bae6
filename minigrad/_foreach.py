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
import re

import numpy as np

from . import _ops
from ._signatures import Signatures
from ._foreach_graph import (_changed_without_derivative, _one_node_for_all, _records,
                             _records_change)
from ._tensor import Tensor, _wrap

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


def _apply(tensors, each, inplace, recorded_as=None):
    """``each(i, tensor)`` for every tensor: the list itself if in place, else a tuple of results.

    ``recorded_as``: (node name, the arguments' slots) of an out-of-place call, whose results
    PyTorch records as one node when some input requires grad (see ``_one_node_for_all``)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # (PyTorch: no warnings)
        if not inplace and recorded_as is not None and _records(recorded_as[1]):
            return _one_node_for_all(tensors, each, *recorded_as)
        results = [each(i, t) for i, t in enumerate(tensors)]
    return tensors if inplace else tuple(results)


# In place with a number, recorded as PyTorch's slow (per tensor) path records it: the number
# a Scalar (AddBackward1, ...), or no derivative at all (maximum_, minimum_)
_CHANGED_WITH_NUMBER = {
    "add": lambda t, n: _ops.inplace.apply_inplace(t, _ops.pointwise.add_number, n),
    "sub": lambda t, n: _ops.inplace.apply_inplace(t, _ops.pointwise.sub_number, n),
    "mul": lambda t, n: _ops.inplace.apply_inplace(t, _ops.pointwise.mul_by_number, n),
    "div": lambda t, n: _ops.inplace.apply_inplace(t, _ops.pointwise.div_by_number, n),
    "maximum": lambda t, n: _changed_without_derivative(t, "_foreach_maximum_",
                                                        lambda old: old.clamp_min(n)),
    "minimum": lambda t, n: _changed_without_derivative(t, "_foreach_minimum_",
                                                        lambda old: old.clamp_max(n)),
}



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

def _as_tensor_like(t, number):
    """``number`` as a 0-d tensor of ``t``'s dtype (maximum's formula for a Scalar is that of
    maximum with such a tensor: the gradient split between the two at ties)."""
    return _wrap(np.asarray(number, t._array.dtype))


# An element with a number, recorded as PyTorch's foreach formulas record it
_RECORDED_WITH_NUMBER = {
    "add": _ops.pointwise.add_number, "sub": _ops.pointwise.sub_number,
    "mul": _ops.pointwise.mul_by_number, "div": _ops.pointwise.div_by_number,
    "maximum": lambda t, n: t.maximum(_as_tensor_like(t, n)),
    "minimum": lambda t, n: t.minimum(_as_tensor_like(t, n)),
}

# The node PyTorch records for each out-of-place form: a Number ("scalar"), a list of Numbers
# ("scalars"), a list of Tensors ("list"), a 0-d Tensor ("tensor"); its names are generated
# from the overloads, so they follow no simple rule
_BINARY_NODES = {
    "add": {"scalar": "ForeachAddBackward1Scalar", "scalars": "ForeachAddBackward1ScalarList",
            "list": "ForeachAddBackward0List", "tensor": "ForeachAddBackward0Tensor"},
    "sub": {"scalar": "ForeachSubBackward1Scalar", "scalars": "ForeachSubBackward1ScalarList",
            "list": "ForeachSubBackward0List"},
    "mul": {"scalar": "ForeachMulBackward1Scalar", "scalars": "ForeachMulBackward1ScalarList",
            "list": "ForeachMulBackward0List", "tensor": "ForeachMulBackward0Tensor"},
    "div": {"scalar": "ForeachDivBackward1Scalar", "scalars": "ForeachDivBackward1ScalarList",
            "list": "ForeachDivBackward0", "tensor": "ForeachDivBackward0Tensor"},
    "maximum": {"scalar": "ForeachMaximumBackward0", "scalars": "ForeachMaximumBackward1",
                "list": "ForeachMaximumBackward0List"},
    "minimum": {"scalar": "ForeachMinimumBackward0", "scalars": "ForeachMinimumBackward1",
                "list": "ForeachMinimumBackward0List"},
    "clamp_min": {"scalar": "ForeachClampMinBackward0Scalar",
                  "scalars": "ForeachClampMinBackward0ScalarList", "list": "ForeachClampMinBackward1List"},
    "clamp_max": {"scalar": "ForeachClampMaxBackward0Scalar",
                  "scalars": "ForeachClampMaxBackward0ScalarList", "list": "ForeachClampMaxBackward1List"},
    "pow": {"scalar": "ForeachPowBackward0Scalar", "scalars": "ForeachPowBackward1",
            "list": "ForeachPowBackward0"},
}


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

    nodes = _BINARY_NODES[op]
    recorded_with_number = _RECORDED_WITH_NUMBER.get(op)

    changed_with_number = _CHANGED_WITH_NUMBER.get(op)

    def with_number(slots, number):
        """``each`` for a number (a 0-d tensor stands for its number): as PyTorch's formulas
        record it when the call is recorded (the number a Scalar: MulBackward1, ...; maximum's
        gradient split at ties; in place, see _CHANGED_WITH_NUMBER)."""
        number = number.item() if isinstance(number, Tensor) else number
        def each_number(i):
            return number[i] if isinstance(number, list) else number
        if recorded_with_number is not None and not inplace and _records(slots):
            return lambda i, t: recorded_with_number(t, each_number(i))
        if inplace and changed_with_number is not None:
            return lambda i, t: (changed_with_number(t, each_number(i)) if _records_change(t)
                                 else call(t, number_method, each_number(i), {}))
        return lambda i, t: call(t, number_method, each_number(i), {})

    def foreach(*args, **kwargs):
        _, values = signatures.parse(args, kwargs)
        tensors = values["self"]
        if not isinstance(tensors, (list, tuple)):          # pow(2.0, tensors)
            exponents = values["exponent"]
            _check_tensor_lists(exponents)
            return _apply(exponents, lambda i, e: _ops.pointwise.pow(tensors, e), False,
                          ("ForeachPowBackward2", [("numbers", None), ("list", exponents)]))
        key = next(key for key in ("scalar", "scalars", "other", "exponent") if key in values)
        other = values[key]
        alpha = {"alpha": values["alpha"]} if values.get("alpha", 1) != 1 else {}
        if isinstance(other, Tensor) and key == "other":       # one 0-d tensor for all
            _check_tensor_lists(tensors)
            _check_zero_dim(other)
            if inplace and op == "add" and not other.requires_grad:   # (its number, as PyTorch)
                return _apply(tensors, with_number(None, other), inplace)
            return _apply(tensors, lambda i, t: call(t, method, other, alpha), inplace,
                          (nodes["tensor"], [("list", tensors), ("shared", other)]))
        if not isinstance(other, (list, tuple)):                # one number (or 0-d tensor)
            _check_tensor_lists(tensors)
            slots = [("list", tensors), ("numbers", None)]
            return _apply(tensors, with_number(slots, other), inplace, (nodes["scalar"], slots))
        if all(isinstance(o, Tensor) for o in other) and other:  # a tensor each
            _check_tensor_lists(tensors, other)
            if inplace and op in ("maximum", "minimum"):       # (no Tensor method: recorded as one)
                return _apply(tensors, lambda i, t: _ops.inplace.apply_inplace(
                    t, getattr(_ops.pointwise, op), other[i]), inplace)
            return _apply(tensors, lambda i, t: call(t, method, other[i], alpha), inplace,
                          (nodes["list"], [("list", tensors), ("list", other)]))
        _check_tensor_lists(tensors)                             # a number each
        _check_scalar_list(tensors, other)
        slots = [("list", tensors), ("numbers", None)]
        return _apply(tensors, with_number(slots, list(other)), inplace, (nodes["scalars"], slots))

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
        node = f"Foreach{op.capitalize()}Backward0"
        if "value" in values:
            scalars = [values["value"]] * len(tensors)
            node += "Scalar"
        elif isinstance(values["scalars"], Tensor):         # a 1-d tensor of numbers, one each
            given = values["scalars"]
            if given.numel() != len(tensors):
                raise RuntimeError(f"Expected length of scalars to match input of length "
                                   f"{len(tensors)} but got {given.numel()} instead.")
            scalars = given.reshape(-1).tolist()
            node = f"NotImplemented:_foreach_{op}"        # (PyTorch has no derivative for this form)
        else:
            scalars = values["scalars"]
            _check_scalar_list(tensors, scalars)
            node += "ScalarList"
        if inplace and node.startswith("NotImplemented:"):
            others = (*tensors1, *tensors2, values["scalars"])
            return _apply(tensors, lambda i, t: _changed_without_derivative(
                t, f"_foreach_{op}_", lambda old: getattr(old, op)(tensors1[i], tensors2[i],
                                                                   value=scalars[i]), others)
                if _records_change(t, *others)
                else getattr(t, method)(tensors1[i], tensors2[i], value=scalars[i]), inplace)
        return _apply(tensors, lambda i, t: getattr(t, method)(tensors1[i], tensors2[i],
                                                               value=scalars[i]), inplace,
                      (node, [("list", tensors), ("list", tensors1), ("list", tensors2)]))

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
        slots = [("list", tensors), ("list", ends)]
        if "weights" in values:
            weights = values["weights"]
            _check_tensor_lists(tensors, ends, weights)
            node, slots = "ForeachLerpBackward1List", slots + [("list", weights)]
        elif isinstance(values["weight"], (list, tuple)):
            weights = values["weight"]
            _check_tensor_lists(tensors, ends)
            _check_scalar_list(tensors, weights)
            node = "ForeachLerpBackward0ScalarList"
        else:
            _check_tensor_lists(tensors, ends)
            weights = [values["weight"]] * len(tensors)
            node = "ForeachLerpBackward0Scalar"
        return _apply(tensors, lambda i, t: getattr(t, method)(ends[i], weights[i]), inplace,
                      (node, slots))

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

    # (PyTorch's generated names capitalise a letter after a digit too: ForeachLog1PBackward0)
    node = "Foreach" + "".join(part.capitalize() for part in re.split(r"(?<=\d)(?=[a-z])", op)) \
        + "Backward0"

    def foreach(*args, **kwargs):
        tensors = signatures.parse(args, kwargs)[1]["self"]
        _check_tensor_lists(tensors)
        return _apply(tensors, lambda i, t: getattr(t, method)(), inplace,
                      (node, [("list", tensors)]))

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
    return _apply(tensors, lambda i, t: _changed_without_derivative(
        t, "_foreach_copy_", lambda old: sources[i].to(old.dtype).expand_as(old), tuple(sources))
        if _records_change(t, *sources) else t.copy_(sources[i]), True)


def _foreach_norm(*args, **kwargs):
    """``torch._foreach_norm(tensors, ord=2, dtype=None)``: the vector norm of every tensor
    (``torch.linalg.vector_norm``), a tuple of 0-d tensors."""
    values = _NORM.parse(args, kwargs)[1]
    tensors = values["self"]
    _check_tensor_lists(tensors)
    return _apply(tensors, lambda i, t: _ops.reduction.vector_norm(t, values["ord"],
                                                                     dtype=values["dtype"]),
                  False, ("ForeachNormBackward0", [("list", tensors)]))


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
