"""``einsum``: products and sums of tensors written as index equations, e.g. ``'ij,jk->ik'``.

Every letter names an axis. Letters shared by two operands are multiplied
together; letters missing from the output are summed over. The gradient with
respect to one operand is again an einsum: the output gradient times all the
*other* operands, keeping exactly that operand's letters.

PyTorch computes einsum by permuting, reshaping and calling bmm, so its graph
shows those nodes (e.g. ViewBackward0 or PermuteBackward0 on the result);
minigrad records a single EinsumBackward0 node, which is easier to read.
PyTorch: torch.einsum.
"""
import string

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.graph import Node
from . import result


def _parse(equation, operands):
    """Input letter strings and the output letter string, with '...' spelled out."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    spare = [c for c in string.ascii_uppercase + string.ascii_lowercase if c not in equation]
    ellipsis_ndim = 0
    for term, operand in zip(terms, operands):
        if "..." in term:
            ellipsis_ndim = max(ellipsis_ndim, operand.ndim - (len(term) - 3))
    ellipsis = "".join(spare[:ellipsis_ndim])
    spelled = []
    for term, operand in zip(terms, operands):
        if "..." in term:
            own = operand.ndim - (len(term) - 3)
            term = term.replace("...", ellipsis[ellipsis_ndim - own:])
        if len(term) != operand.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(term)}) does not match "
                f"the number of dimensions ({operand.ndim}) for operand {len(spelled)}"
                + ("" if "..." in equation else " and no ellipsis was given"))
        spelled.append(term)
    if arrow:
        output = output.replace("...", ellipsis)
    else:   # implicit output: the ellipsis, then the letters used once, in alphabetical order
        letters = "".join(spelled)
        output = ellipsis + "".join(sorted(c for c in set(letters)
                                           if letters.count(c) == 1 and c not in ellipsis))
    for c in output:
        if not any(c in term for term in spelled):
            raise RuntimeError(
                f"einsum(): output subscript {c} does not appear in the equation for any input "
                "operand")
    sizes = {}
    for k, (term, operand) in enumerate(zip(spelled, operands)):
        for c, n in zip(term, operand.shape):
            if c in sizes and sizes[c] != n and n != 1 and sizes[c] != 1:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {n} for operand {k} which does not "
                    f"broadcast with previously seen size {sizes[c]}")
            sizes[c] = n if c not in sizes or sizes[c] == 1 else sizes[c]
    return spelled, output, sizes


class EinsumBackward0(Node):
    """result = einsum(equation, *operands)   ->
        grad_operands[k] = einsum(grad and the other operands -> the letters of operand k)"""

    def backward(self, grad):
        operands = self.saved_tensors
        grads = []
        for k, term in enumerate(self.terms):
            if not self.should_compute_output(k):
                grads.append(None)
                continue
            grads.append(_operand_gradient(grad, self.output, self.terms, operands, k, self.sizes))
        return tuple(grads)


def _operand_gradient(grad, output, terms, operands, k, sizes):
    """einsum of grad with every operand but number k, giving operand k's letters."""
    term = terms[k]
    spare = iter(c for c in string.ascii_letters
                 if c not in output and c not in "".join(terms))
    letters, extra_terms, extra_operands, wanted = [], [], [], ""
    dtype = grad._array.dtype
    for c in term:
        if c in wanted:
            # a repeated letter (a diagonal such as 'ii'): give the copy its own
            # letter and tie the two together with an identity matrix
            fresh = next(spare)
            extra_terms.append(c + fresh)
            extra_operands.append(_wrap(np.eye(sizes[c], dtype=dtype)))
            letters.append(fresh)
        else:
            letters.append(c)
        wanted += c
    others = [t for i, t in enumerate(terms) if i != k]
    present = output + "".join(others) + "".join(extra_terms)
    for c in dict.fromkeys(term):
        if c not in present:
            # summed away by this operand alone: every element gets the gradient (a ones vector)
            extra_terms.append(c)
            extra_operands.append(_wrap(np.ones(sizes[c], dtype=dtype)))
    equation = ",".join([output] + others + extra_terms) + "->" + "".join(letters)
    grad_k = einsum(equation, grad, *[o for i, o in enumerate(operands) if i != k], *extra_operands)
    if tuple(grad_k.shape) != tuple(operands[k].shape):     # an operand broadcast along size 1
        dims = tuple(d for d, n in enumerate(operands[k].shape) if n == 1 and grad_k.shape[d] != 1)
        grad_k = grad_k.sum(dims, keepdim=True)
    return grad_k


def einsum(equation, *operands):
    """Sum of products over the letters of ``equation``, e.g. ``einsum('ij,jk->ik', a, b)`` = a @ b.

    Gradient for each operand: an einsum of grad with the other operands, back to that
    operand's letters.
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not "
                        f"{type(equation).__name__}")
    for position, operand in enumerate(operands):
        if not isinstance(operand, Tensor):
            raise TypeError(f"expected Tensor as element {position} in argument 1, but got "
                            f"{type(operand).__name__}")
    terms, output, sizes = _parse(equation, operands)
    arrays = [o._array for o in operands]
    dtype = np.result_type(*arrays)
    spelled = ",".join(terms) + "->" + output
    out = np.einsum(spelled, *arrays).astype(dtype, copy=False)
    return result(np.asarray(out), EinsumBackward0, operands, saved=operands, terms=terms,
                  output=output, sizes=sizes)
