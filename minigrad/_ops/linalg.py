"""Matrix products: mm, mv, dot, matmul (the ``@`` operator), addmm, outer.

For C = A @ B the chain rule gives dL/dA = dL/dC @ B^T and dL/dB = A^T @ dL/dC:
each input's gradient is the incoming gradient multiplied by the *other* input.
``matmul`` dispatches on the number of dimensions exactly as PyTorch does, so
the graph shows the same nodes (a vector @ matrix becomes unsqueeze, mm, squeeze).
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.graph import Node
from . import result


def _type_name(t):
    return {"f": {4: "float", 8: "double", 2: "half"}}.get(t._array.dtype.kind, {}).get(
        t._array.dtype.itemsize, t.dtype.name)


def _check_same_dtype(a, b, first="m1", second="m2"):
    if a._array.dtype != b._array.dtype:
        raise RuntimeError(
            f"expected {first} and {second} to have the same dtype, but got: {_type_name(a)} != "
            f"{_type_name(b)}\nminigrad hint: convert one of them, e.g. with .double() or .float().")


def _check_tensor(x, name):
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument must be a Tensor, not {type(x).__name__}")


class MmBackward0(Node):
    """C = A @ B (matrices)   ->   dA = dC @ B^T,  dB = A^T @ dC"""

    def backward(self, grad):
        a, b = self.saved_tensors
        grad_a = grad.mm(b.t()) if a.requires_grad else None
        grad_b = a.t().mm(grad) if b.requires_grad else None
        return grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """forward rule: C_t = A_t @ B + A @ B_t (the product rule)"""
        return tangents[0].mm(inputs[1]) + inputs[0].mm(tangents[1])


def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    _check_tensor(input, "mm")
    _check_tensor(mat2, "mm")
    if input.ndim != 2 or mat2.ndim != 2:
        bad, which = (input, "self") if input.ndim != 2 else (mat2, "mat2")
        raise RuntimeError(f"{which} must be a matrix\nminigrad hint: got a {bad.ndim}-D tensor")
    if input.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({input.shape[0]}x{input.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})")
    _check_same_dtype(input, mat2)
    return result(input._array @ mat2._array, MmBackward0, (input, mat2), saved=(input, mat2))


class MvBackward0(Node):
    """y = M @ v   ->   dM = outer(dy, v),  dv = M^T @ dy"""

    def backward(self, grad):
        m, v = self.saved_tensors
        grad_m = outer(grad, v) if m.requires_grad else None
        grad_v = m.t().mv(grad) if v.requires_grad else None
        return grad_m, grad_v

    def jvp(self, tangents, inputs, out):
        """forward rule: y_t = M_t @ v + M @ v_t"""
        return tangents[0].mv(inputs[1]) + inputs[0].mv(tangents[1])


def mv(input, vec):
    """Matrix (2-D) times vector (1-D)."""
    _check_tensor(input, "mv")
    _check_tensor(vec, "mv")
    if input.ndim != 2 or vec.ndim != 1 or input.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({input.shape[0] if input.ndim else ''}), mat "
            f"({'x'.join(map(str, input.shape))}), vec ({'x'.join(map(str, vec.shape))})")
    if input._array.dtype != vec._array.dtype:
        from .._dtype import cpp_name
        vec_name, mat_name = cpp_name(vec.dtype).capitalize(), cpp_name(input.dtype).capitalize()
        # PyTorch computes mv as addmv(out, mat, vec), with out of the vector's dtype
        raise RuntimeError("addmv input tensors must have the same dtype, but got "
                           f"{vec_name}, {mat_name}, and {vec_name}")
    return result(input._array @ vec._array, MvBackward0, (input, vec), saved=(input, vec))


class DotBackward0(Node):
    """s = a . b   ->   da = ds * b,  db = ds * a"""

    def backward(self, grad):
        a, b = self.saved_tensors
        return grad * b, grad * a

    def jvp(self, tangents, inputs, out):
        """forward rule: s_t = a_t . b + a . b_t"""
        return tangents[0].dot(inputs[1]) + inputs[0].dot(tangents[1])


def dot(input, other):
    """Sum of the products of two 1-D tensors."""
    _check_tensor(input, "dot")
    _check_tensor(other, "dot")
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src [{other.shape[0]}] "
            f"to have the same number of elements, but got {input.shape[0]} and {other.shape[0]} "
            "elements respectively")
    if input._array.dtype != other._array.dtype:
        from .._dtype import cpp_name
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{cpp_name(input.dtype).capitalize()} and {cpp_name(other.dtype).capitalize()}")
    return result(np.asarray(np.dot(input._array, other._array)), DotBackward0, (input, other),
                  saved=(input, other))


def outer(input, vec2):
    """Outer product of two vectors: out[i, j] = input[i] * vec2[j].

    A column times a row, broadcast: PyTorch records it the same way
    (MulBackward0 of a ViewBackward0 and the row vector itself).
    """
    return input.reshape(-1, 1) * vec2


class BmmBackward0(Node):
    """C = A @ B (batches of matrices)   ->   dA = dC @ B^T,  dB = A^T @ dC (batch dims summed by the engine)"""

    def backward(self, grad):
        a, b = self.saved_tensors
        grad_a = grad.matmul(b.transpose(-1, -2)) if a.requires_grad else None
        grad_b = a.transpose(-1, -2).matmul(grad) if b.requires_grad else None
        return grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """forward rule: C_t = A_t @ B + A @ B_t"""
        return tangents[0].matmul(inputs[1]) + inputs[0].matmul(tangents[1])


class UnsafeViewBackward0(Node):
    """out = a reshaped after a batched product   ->   reshape the gradient back"""

    def backward(self, grad):
        return (grad.reshape(self.input_shape),)


def matmul(input, other):
    """The ``@`` operator: dot, mv, mm or batched mm depending on the dimensions."""
    _check_tensor(input, "matmul")
    _check_tensor(other, "matmul")
    da, db = input.ndim, other.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        # PyTorch: treat the vector as a 1xN matrix, multiply, drop the extra dim again
        from .shape import squeeze, SqueezeBackward4
        return squeeze(mm(input.unsqueeze(0), other), 0, _node=SqueezeBackward4)
    if da == 2 and db == 2:
        return mm(input, other)
    if db == 2 and da > 2:
        # fold the batch dims into the rows, one mm, unfold (what PyTorch records)
        rows = input.reshape(-1, input.shape[-1])
        product = mm(rows, other)
        shape = tuple(input.shape[:-1]) + (other.shape[1],)
        return result(product._array.reshape(shape), UnsafeViewBackward0, (product,),
                      input_shape=product._array.shape)
    _check_same_dtype(input, other)
    a = input.unsqueeze(0) if da == 1 else input
    b = other.unsqueeze(-1) if db == 1 else other
    if a.shape[-1] != b.shape[-2]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[-1]}] but got: [{b.shape[0]}, {b.shape[-2]}].")
    out = result(np.matmul(a._array, b._array), BmmBackward0, (a, b), saved=(a, b))
    if da == 1:
        out = out.squeeze(-2)
    if db == 1:
        out = out.squeeze(-1)
    return out


class AddmmBackward0(Node):
    """out = bias + A @ B   ->   dbias = dout (summed by the engine), dA = dout @ B^T, dB = A^T @ dout"""

    def backward(self, grad):
        bias, a, b = self.saved_tensors
        grad_a = grad.mm(b.t()) if a.requires_grad else None
        grad_b = a.t().mm(grad) if b.requires_grad else None
        return grad, grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """forward rule: out_t = bias_t + A_t @ B + A @ B_t"""
        return tangents[0] + tangents[1].mm(inputs[2]) + inputs[1].mm(tangents[2])


def addmm(input, mat1, mat2):
    """input + mat1 @ mat2, in one node (what nn.functional.linear records)."""
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})")
    _check_same_dtype(mat1, mat2)
    return result(input._array + mat1._array @ mat2._array, AddmmBackward0, (input, mat1, mat2),
                  saved=(input, mat1, mat2))
