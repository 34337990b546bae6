"""Matrix products: mm, mv, dot, matmul (the ``@`` operator), addmm, outer.

For C = A @ B the chain rule gives dL/dA = dL/dC @ B^T and dL/dB = A^T @ dL/dC:
each input's gradient is the incoming gradient multiplied by the *other* input.
``matmul`` dispatches on the number of dimensions exactly as PyTorch does, so
the graph shows the same nodes (a vector @ matrix becomes unsqueeze, mm, squeeze).
"""
import weakref

import numpy as np

from .._tensor import Tensor, _wrap
from .._zero_tensor import zero_tensors_exist
from .. import _zero_tensor
from ..autograd.graph import Node, gets_gradient_edge, keep_settings
from ..autograd.grad_mode import _State
from ..autograd.forward_ad import _DualLevel
from . import result
from .._dtype import cpp_name, cpp_type_name
from .shape import unsafe_view
from .views import SAVES_OTHER, check_history_kept
from .pointwise import _broadcast_error, kernel_not_implemented
from ..autograd.kernel_writes import kernel_writes


def _type_name(t):
    return cpp_type_name(t.dtype)


def _check_same_dtype(a, b, first="m1", second="m2"):
    if a._array.dtype != b._array.dtype:
        raise RuntimeError(
            f"expected {first} and {second} to have the same dtype, but got: {_type_name(a)} != "
            f"{_type_name(b)}\nminigrad hint: convert one of them, e.g. with .double() or .float().")


def _check_not_bool(x, kernel):
    """PyTorch's matrix-product kernels have no bool version (numpy's would give True/False)."""
    if x._array.dtype.kind == "b":
        raise kernel_not_implemented(kernel, x)


def _check_tensor(x, name):
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument must be a Tensor, not {type(x).__name__}")


def _requires_grad(value):
    # (a view requires grad when its base does: a view made under no_grad has no edge)
    return value._grad_fn is not None or value._requires_grad or (
        value._base is not None and value._base._graph_requires_grad)


def _remember_layouts(out, mat1, mat2, names=("self", "mat2"), first_edge=0):
    """Note on the product's node whether each matrix was column-major (its gradient is computed
    in that layout, see _column_major), as PyTorch keeps their strides for backward.

    Also what PyTorch's node shows of them (``grad_fn._saved_mat1_sym_sizes``, ...): each
    matrix's sizes, and its strides only when its own gradient is asked for (only that
    gradient's formula reads them; otherwise PyTorch shows an empty tuple). ``names`` are
    PyTorch's names of the two matrices, ``first_edge`` the edge of the first one."""
    node = out._grad_fn
    if node is not None:
        node._mat1_column_major = _column_major(mat1)
        node._mat2_column_major = _column_major(mat2)
        sizes_1, strides_1, sizes_2, strides_2 = _LAYOUT_SETTING_NAMES[names]
        keep_settings(node, {
            sizes_1: mat1._array.shape,
            strides_1: _matrix_strides(mat1) if node.should_compute_output(first_edge) else (),
            sizes_2: mat2._array.shape,
            strides_2: _matrix_strides(mat2) if node.should_compute_output(first_edge + 1) else ()})
    return out


# The settings _remember_layouts keeps, for each way PyTorch names the two matrices (mm's
# "self" and "mat2", addmm's "mat1" and "mat2"), spelled out once rather than at every product
_LAYOUT_SETTING_NAMES = {
    names: tuple(f"{name}_sym_{what}" for name in names for what in ("sizes", "strides"))
    for names in (("self", "mat2"), ("mat1", "mat2"))}


def _matrix_strides(matrix):
    """``matrix.stride()`` read from its array: the method's argument parsing would cost more
    than all the rest of a product's bookkeeping. (An empty matrix asks the method, whose
    rules for the steps numpy gives empty arrays apply to it, see Tensor.stride.)"""
    array = matrix._array
    if not array.size:
        return matrix.stride()
    step_down, step_right = array.strides
    return (step_down // array.itemsize, step_right // array.itemsize)


def _save_operands(out, a, b):
    """Save for C = A @ B only what the gradients need (dA needs B, dB needs A), as PyTorch
    does: an operand that no gradient needs may change in place before backward (an operand
    without an edge, a view made in no_grad, gets no gradient)."""
    node = out._grad_fn
    if node is not None:
        node.save_for_backward(a if gets_gradient_edge(b) else None, b if gets_gradient_edge(a) else None)
    return out


def _each_for_the_other(node):
    """Which of a product's two saved factors backward unpacks: each one only when the other
    factor's gradient is asked for (PyTorch checks a saved tensor for in-place changes only
    when it unpacks it)."""
    return node.should_compute_output(1), node.should_compute_output(0)


class MmBackward0(Node):
    """result = self @ mat2   ->   grad_self = grad @ mat2^T; grad_mat2 = self^T @ grad"""

    _saved_names = ('self', 'mat2')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see the second one first

    _mat1_column_major = _mat2_column_major = False     # (set by forward: see _column_major)

    def backward(self, grad):
        wants_a, wants_b = self.should_compute_output(0), self.should_compute_output(1)
        a, b = self.saved_tensors_for((wants_b, wants_a))    # (each for the other's gradient)
        if _unrecorded_products(grad, a, b):
            # nothing to record (no create_graph): numpy's products alone give the same values,
            # without mm's checks (forward made them) and the views that t() registers; laid
            # out as PyTorch lays them out (see _mat1_gradient)
            g = grad._array
            grad_a = grad_b = None
            if wants_a:
                grad_a = (_transposed(b._array @ g.T) if self._mat1_column_major
                          else _wrap(g @ b._array.T))
            if wants_b:
                grad_b = (_transposed(g.T @ a._array) if self._mat2_column_major
                          else _wrap(a._array.T @ g))
            return grad_a, grad_b
        grad_a = _mat1_gradient(grad, b, self._mat1_column_major) if wants_a else None
        grad_b = _mat2_gradient(grad, a, self._mat2_column_major) if wants_b else None
        return grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t @ mat2 + self @ mat2_t (the product rule)"""
        return tangents[0].mm(inputs[1]) + inputs[0].mm(tangents[1])


def _column_major(matrix):
    """Is ``matrix`` laid out column by column, as ``W.t()`` of a row-major ``W`` is (what
    ``linear`` multiplies by)? PyTorch's mm backward then computes that input's gradient in the
    same layout, so that after t()'s backward it is laid out like ``W``: adopted as ``W.grad``
    as it is, not copied."""
    array = matrix._array
    step_down, step_right = array.strides
    return step_down == array.itemsize and step_right == array.shape[0] * array.itemsize


def _transposed(product):
    """``product.T`` as PyTorch's ``.t()`` of a new product: a view, whose base PyTorch keeps
    with it, so that its engine never adds another gradient into that memory in place (the
    base's memory is held twice); .grad may still adopt it. The base is remembered weakly,
    as detach() remembers its source (see engine.add_to_buffer)."""
    out = _wrap(product.T)
    out._detached_from = weakref.ref(_wrap(product))
    return out


def _mat1_gradient(grad, mat2, column_major):
    """grad @ mat2^T, as PyTorch computes it: (mat2 @ grad^T)^T when mat1 was column-major."""
    return mat2.mm(grad.t()).t() if column_major else grad.mm(mat2.t())


def _mat2_gradient(grad, mat1, column_major):
    """mat1^T @ grad, as PyTorch computes it: (grad^T @ mat1)^T when mat2 was column-major."""
    return grad.t().mm(mat1).t() if column_major else mat1.t().mm(grad)


def _unrecorded_products(grad, a, b):
    """Can MmBackward0 multiply the arrays directly? Yes when nothing is recorded (no
    create_graph, no forward mode) and the saved matrices still fit ``grad`` as in forward
    (a saved-tensor hook may return others: then mm raises PyTorch's error)."""
    if _State.enabled or _DualLevel.open:
        return False
    g = grad._array
    return g.ndim == 2 and _fits(a, g, 0) and _fits(b, g, 1)


def _fits(saved, g, axis):
    """``saved`` is absent (not needed), or a matrix of g's dtype that shares g's ``axis`` size."""
    if saved is None:
        return True
    return (isinstance(saved, Tensor) and saved._array.ndim == 2 and saved._array.dtype == g.dtype
            and saved._array.shape[axis] == g.shape[axis])


def mm(input, mat2):
    """Matrix product of two 2-D tensors.

    Gradient: grad_input = grad @ mat2^T; grad_mat2 = input^T @ grad.
    """
    _check_tensor(input, "mm")
    _check_tensor(mat2, "mm")
    a, b = input._array, mat2._array     # (the arrays' shapes and dtypes: no Size or dtype made)
    if a.ndim != 2 or b.ndim != 2:
        check_history_kept(input, mat2, saves=SAVES_OTHER)   # (recorded, then checked)
        bad, which = (input, "self") if input.ndim != 2 else (mat2, "mat2")
        raise RuntimeError(f"{which} must be a matrix\nminigrad hint: got a {bad.ndim}-D tensor")
    return _matrix_product(input, mat2)


def _matrix_product(input, mat2):
    """mm of two tensors known to be matrices (mm and matmul checked that first): their sizes
    and dtypes checked, the product computed and recorded."""
    a, b = input._array, mat2._array
    if a.shape[1] != b.shape[0]:
        check_history_kept(input, mat2, saves=SAVES_OTHER)
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({input.shape[0]}x{input.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})")
    if a.dtype != b.dtype or a.dtype.kind == "b":      # (one test for the usual case)
        check_history_kept(input, mat2, saves=SAVES_OTHER)   # (recorded, then checked)
        _check_same_dtype(input, mat2)
        _check_not_bool(input, "addmm_impl_cpu_")
    out = kernel_writes("mm", result(a @ b, MmBackward0, (input, mat2)), input, mat2)
    return _save_operands(_remember_layouts(out, input, mat2), input, mat2)


class MvBackward0(Node):
    """result = self @ vec   ->   grad_self = outer(grad, vec); grad_vec = self^T @ grad"""

    _saved_names = ('self', 'vec')      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        m, v = self.saved_tensors_for(_each_for_the_other(self))
        grad_m = outer(grad, v) if self.should_compute_output(0) else None
        grad_v = m.t().mv(grad) if self.should_compute_output(1) else None
        return grad_m, grad_v

    def jvp(self, tangents, inputs, out):
        """result_t = self_t @ vec + self @ vec_t"""
        return tangents[0].mv(inputs[1]) + inputs[0].mv(tangents[1])


def mv(input, vec):
    """Matrix (2-D) times vector (1-D).

    Gradient: grad_input = outer(grad, vec); grad_vec = input^T @ grad.
    """
    _check_tensor(input, "mv")
    _check_tensor(vec, "mv")
    # PyTorch records the product, saving each input for the other's gradient (an inference
    # tensor can't be saved), before its kernel checks the arguments
    if input.ndim == 0:     # PyTorch asks for the matrix's first size, to make addmv's out
        check_history_kept(input, vec, saves=SAVES_OTHER)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if input.ndim != 2 or vec.ndim != 1:
        check_history_kept(input, vec, saves=SAVES_OTHER)    # PyTorch records the product before checking it
        # PyTorch computes mv as addmv(out, mat, vec), with a 1-D out
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    if input.ndim != 2 or vec.ndim != 1 or input.shape[1] != vec.shape[0]:
        check_history_kept(input, vec, saves=SAVES_OTHER)
        raise RuntimeError(
            f"size mismatch, got input ({input.shape[0] if input.ndim else ''}), mat "
            f"({'x'.join(map(str, input.shape))}), vec ({'x'.join(map(str, vec.shape))})")
    if input._array.dtype != vec._array.dtype:
        check_history_kept(input, vec, saves=SAVES_OTHER)
        vec_name, mat_name = cpp_name(vec.dtype).capitalize(), cpp_name(input.dtype).capitalize()
        # PyTorch computes mv as addmv(out, mat, vec), with out of the vector's dtype
        raise RuntimeError("addmv input tensors must have the same dtype, but got "
                           f"{vec_name}, {mat_name}, and {vec_name}")
    _check_not_bool(input, "addmv_impl_cpu")
    out = kernel_writes("mv", result(input._array @ vec._array, MvBackward0, (input, vec)), input, vec)
    return _save_operands(out, input, vec)


class DotBackward0(Node):
    """result = self . tensor   ->   grad_self = grad * tensor; grad_tensor = grad * self"""

    _saved_names = ('self', 'tensor')      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        a, b = self.saved_tensors_for(_each_for_the_other(self))
        return (grad * b if self.should_compute_output(0) else None,
                grad * a if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t . tensor + self . tensor_t"""
        return tangents[0].dot(inputs[1]) + inputs[0].dot(tangents[1])


def dot(input, other):
    """Sum of the products of two 1-D tensors.

    Gradient: grad_input = grad * other; grad_other = grad * input.
    """
    _check_tensor(input, "dot")
    _check_tensor(other, "dot")
    # PyTorch records the product, saving each input for the other's gradient (an inference
    # tensor can't be saved), before its kernel checks the arguments
    if input.ndim != 1 or other.ndim != 1:
        check_history_kept(input, other, saves=SAVES_OTHER)     # PyTorch records the product before checking it
        raise RuntimeError(
            f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input._array.dtype != other._array.dtype:         # (PyTorch checks dtypes before sizes)
        check_history_kept(input, other, saves=SAVES_OTHER)
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{cpp_name(input.dtype).capitalize()} and {cpp_name(other.dtype).capitalize()}")
    if input.shape[0] != other.shape[0]:
        check_history_kept(input, other, saves=SAVES_OTHER)
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src [{other.shape[0]}] "
            f"to have the same number of elements, but got {input.shape[0]} and {other.shape[0]} "
            "elements respectively")
    _check_not_bool(input, "dot")
    # (a product with a ZeroTensor is one, its zeros not computed: see _zero_tensor.py)
    zero = zero_tensors_exist and _zero_tensor.involved(input, other)
    if zero:
        value = np.zeros((), input._array.dtype)
    else:
        value = np.asarray(np.dot(input._array, other._array))
        if value.dtype.kind in "fc":
            # PyTorch's kernel adds the products to a sum that starts at +0: the dot of [-0.] and
            # [1.] is +0, where numpy gives the one product (-0)
            value = value + value.dtype.type(0)
    out = result(value, DotBackward0, (input, other))
    if zero:
        _zero_tensor.as_zero_tensor(out)
    return _save_operands(kernel_writes("dot", out, input, other), input, other)


def outer(input, vec2):
    """Outer product of two vectors: out[i, j] = input[i] * vec2[j].

    A column times a row, broadcast: PyTorch records it the same way
    (MulBackward0 of a ViewBackward0 and the row vector itself).

    Gradient: grad_input = grad @ vec2; grad_vec2 = grad^T @ input.
    """
    for name, value in (("self", input), ("vec2", vec2)):
        if value.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {value.ndim}-D")
    return input.reshape(-1, 1) * vec2


def nothing_to_multiply(input, mat2):
    """True when a batched product has no products to compute (an empty result, or sums of
    nothing): PyTorch's kernel then returns before it compares the dtypes."""
    batch, rows, inner = input.shape
    return batch * rows * mat2.shape[2] == 0 or inner == 0


def batched_product(input, mat2):
    """The batched product of two 3-d tensors' arrays, as PyTorch computes it: its own loop for
    small products (``small_batched_product``), else numpy's batched matmul (BLAS, like
    PyTorch's). An empty product of two dtypes comes in mat2's, as PyTorch's."""
    a, b = input._array, mat2._array
    if a.dtype != b.dtype:
        a = a.astype(b.dtype)
    if a.dtype.kind == "f" and a.shape[1] * a.shape[2] * b.shape[2] < 400:
        return small_batched_product(a, b)
    return np.matmul(a, b)


def small_batched_product(a, b):
    """``a @ b`` for batches of small matrices (fewer than 400 multiply-adds per product:
    contraction x rows x columns), as PyTorch's bmm and baddbmm compute them: each element of
    the result adds its products one after another, first to last, each product and each sum
    rounded (no fused multiply-add), in float32 for float16 inputs. numpy's matmul hands
    these to BLAS, whose order of additions can round the last bit otherwise."""
    computed_in = np.dtype(np.float32) if a.dtype.itemsize < 4 else a.dtype
    total = np.zeros((a.shape[0], a.shape[1], b.shape[2]), computed_in)
    for k in range(a.shape[2]):         # (vectorised over the batch, the rows and the columns)
        total = total + a[:, :, k, None].astype(computed_in) * b[:, None, k, :].astype(computed_in)
    return total.astype(a.dtype, copy=False)


class BmmBackward0(Node):
    """result = self @ mat2, per batch   ->
        grad_self = grad @ mat2^T; grad_mat2 = self^T @ grad"""

    _saved_names = ('self', 'mat2')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see the second one first

    def backward(self, grad):
        a, b = self.saved_tensors_for(_each_for_the_other(self))
        grad_a = grad.bmm(b.transpose(1, 2)) if self.should_compute_output(0) else None
        grad_b = a.transpose(1, 2).bmm(grad) if self.should_compute_output(1) else None
        return grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t @ mat2 + self @ mat2_t"""
        return tangents[0].matmul(inputs[1]) + inputs[0].matmul(tangents[1])


def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors: out[i] = input[i] @ mat2[i]."""
    _check_tensor(input, "bmm")
    _check_tensor(mat2, "bmm")
    if input.ndim != 3 or mat2.ndim != 3:
        check_history_kept(input, mat2, saves=SAVES_OTHER)   # (recorded, then checked)
        raise RuntimeError(f"batch1 must be a 3D tensor" if input.ndim != 3 else
                           "batch2 must be a 3D tensor")
    if input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]:
        check_history_kept(input, mat2, saves=SAVES_OTHER)
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{input.shape[0]}, {input.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}].")
    if input._array.dtype.kind == "b" or input._array.dtype != mat2._array.dtype:
        check_history_kept(input, mat2, saves=SAVES_OTHER)   # (recorded, then checked)
        if not nothing_to_multiply(input, mat2):      # (else PyTorch's kernel returns first)
            _check_not_bool(input, "bmm")              # its kernel is chosen by input's dtype
            # PyTorch's batched kernel's message
            raise RuntimeError(f"expected scalar type {cpp_name(input.dtype).capitalize()} but "
                               f"found {cpp_name(mat2.dtype).capitalize()}")
    out = kernel_writes("mm", result(batched_product(input, mat2), BmmBackward0, (input, mat2)), input, mat2)
    return _save_operands(out, input, mat2)


def matmul(input, other):
    """The ``@`` operator: dot, mv, mm or a batched product, depending on the dimensions.

    Dispatched exactly as PyTorch does, so the graph shows the same nodes:

    * 1-D @ 1-D: dot; 2-D @ 1-D: mv; 2-D @ 2-D: mm; 1-D @ 2-D: unsqueeze, mm, squeeze;
    * one side 3-D or more, the other 1-D or 2-D: fold the batch dimensions into
      the rows (a reshape), one mm or mv, unfold (UnsafeViewBackward0); when the
      batched tensor is on the right, the same on the transposed product;
    * batches on both sides: broadcast the batch dimensions (expand), flatten them
      (reshape), one bmm, unflatten.

    Gradient: that of the product it becomes, e.g. for mm grad_A = grad @ B^T and grad_B = A^T
    @ grad.
    """
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):     # (one test, usually)
        _check_tensor(input, "matmul")
        _check_tensor(other, "matmul")
    da, db = input._array.ndim, other._array.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        return mm(input.unsqueeze(0), other).squeeze_(0)      # (in place, as PyTorch: version 1)
    if da == 2 and db == 2:
        return _matrix_product(input, other)      # (mm without checking again what was checked)
    if da == db == 3:
        # one side is a batch of one matrix and needs a gradient: PyTorch uses it as a
        # matrix (then folds the other side), so its gradient is one matrix product
        # (not with more batch dims: (1, 1, n, m) goes through bmm)
        ones_a, ones_b = input.shape[0] == 1, other.shape[0] == 1
        if ones_a != ones_b:
            squeezable = input if ones_a else other
            if _requires_grad(squeezable):
                squeezed = squeezable.squeeze(0)
                input, other = (squeezed, other) if ones_a else (input, squeezed)
                da, db = input.ndim, other.ndim
    if not _should_fold(input.shape, other.shape, other, input):
        da = db = 3                  # use the batched product below
    if da >= 3 and db <= 2:
        # fold: (..., n, m) @ (m, p) is one (N, m) @ (m, p) product (inner sizes that differ
        # are mm's or mv's error, after the reshape: a recorded view, as in PyTorch, so that an
        # operand made in no_grad gets an edge and the other is saved before the sizes are compared)
        # (the row count written out: -1 cannot be inferred when the last dim is 0)
        folded = input.reshape(int(np.prod(input.shape[:-1])), input.shape[-1])
        product = mm(folded, other) if db == 2 else mv(folded, other)
        shape = tuple(input.shape[:-1]) + ((other.shape[-1],) if db == 2 else ())
        return unsafe_view(product, shape)
    if db >= 3 and da <= 2:
        # fold on the right: a @ B = (B^T @ a^T)^T
        batched = other.mT
        folded = batched.reshape(int(np.prod(batched.shape[:-1])), batched.shape[-1])
        if da == 1:
            return unsafe_view(folded.mv(input), tuple(batched.shape[:-1]))
        product = unsafe_view(folded.mm(input.t()), tuple(batched.shape[:-1]) + (input.shape[0],))
        return product.mT.contiguous()
    # batches on both sides (or a fold would have to copy)
    da, db = input.ndim, other.ndim
    n = input.shape[-2] if da > 1 else 1
    m1 = input.shape[-1]
    m2 = other.shape[-2] if db > 1 else other.shape[-1]
    p = other.shape[-1] if db > 1 else 1
    batch_a = tuple(input.shape[:-2]) if da > 1 else ()
    batch_b = tuple(other.shape[:-2]) if db > 1 else ()
    try:
        batch = tuple(np.broadcast_shapes(batch_a, batch_b))
    except ValueError:      # the batch dimensions clash: PyTorch's broadcasting message for them
        raise _broadcast_error(np.empty(batch_a, dtype=bool), np.empty(batch_b, dtype=bool)) from None
    # (inner sizes that differ are left to bmm: PyTorch expands and reshapes both sides
    # first, recorded views, so bmm sees an edge and saves an operand before it compares them)
    count = int(np.prod(batch))
    a = input.expand(batch + (n, m1)).reshape(count, n, m1)
    if db == 1:
        # a vector on the right is a one-column matrix: PyTorch unsqueezes it, and squeezes
        # that column out of the product again
        b = other.unsqueeze(-1).expand(batch + (m2, p)).reshape(count, m2, p)
        return unsafe_view(bmm(a, b).squeeze(-1), batch + ((n,) if da > 1 else ()))
    b = other.expand(batch + (m2, p)).reshape(count, m2, p)
    shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    return unsafe_view(bmm(a, b), shape)


def _should_fold(shape_a, shape_b, b, a):
    """PyTorch's rule: fold the batched side into one mm/mv when that needs no copy, or
    when the other side needs a gradient (its gradient is then a single matrix)."""
    larger_first = len(shape_a) >= len(shape_b)
    big, small = (shape_a, shape_b) if larger_first else (shape_b, shape_a)
    if not (len(big) >= 3 and len(small) <= 2):
        return False
    small_tensor = b if larger_first else a
    if _requires_grad(small_tensor):
        return True
    if len(shape_a) == 2:
        return False               # folding would need a transpose and a copy of the result
    tensor = a if larger_first else b
    if tensor._array.size == 0:
        return True
    strides = [n // tensor._array.itemsize for n in tensor._array.strides]
    sizes = list(tensor._array.shape)
    if not larger_first:           # the batched side is used transposed
        strides[-2:], sizes[-2:] = strides[:-3:-1], sizes[:-3:-1]
    return all(strides[i] == strides[i + 1] * sizes[i + 1] for i in range(len(sizes) - 2))


class AddmmBackward0(Node):
    """result = self + mat1 @ mat2   ->
        grad_self = grad; grad_mat1 = grad @ mat2^T; grad_mat2 = mat1^T @ grad"""

    _saved_names = ('mat1', 'mat2')      # grad_fn._saved_mat1, ... as in PyTorch

    _mat1_column_major = _mat2_column_major = False     # (set by forward: see _column_major)

    def backward(self, grad):
        a, b = self.saved_tensors
        grad_a = _mat1_gradient(grad, b, self._mat1_column_major) if self.should_compute_output(1) else None
        grad_b = _mat2_gradient(grad, a, self._mat2_column_major) if self.should_compute_output(2) else None
        return grad, grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t + mat1_t @ mat2 + mat1 @ mat2_t"""
        return tangents[0] + tangents[1].mm(inputs[2]) + inputs[1].mm(tangents[2])


def _check_bias_expands(bias, target):
    """PyTorch first expands the added term to the product's shape; its message if it cannot."""
    sizes = bias._array.shape           # (the array's: no Size made)
    if len(sizes) > len(target):
        bias.expand(list(target))       # (refused: more dims than the product, with expand's message)
    offset = len(target) - len(sizes)
    for i, size in enumerate(sizes):
        if offset >= 0 and size != 1 and size != target[offset + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[offset + i]}) must match the existing "
                f"size ({size}) at non-singleton dimension {offset + i}.  Target sizes: "
                f"{list(target)}.  Tensor sizes: {list(bias.shape)}")


def addmm(input, mat1, mat2):
    """input + mat1 @ mat2, in one node (what nn.functional.linear records).

    Gradient: grad_input = grad (summed to its shape); grad_mat1 = grad @ mat2^T; grad_mat2 =
    mat1^T @ grad.
    """
    # PyTorch's order of checks: dtypes (the added term with mat2 first, then mat1 with mat2),
    # then that both are matrices, then their shapes, then that the added term expands
    for first, name in ((input, "self"), (mat1, "mat1")):
        if first._array.dtype != mat2._array.dtype:
            raise RuntimeError(
                f"{name} and mat2 must have the same dtype, but got "
                f"{cpp_name(first.dtype).capitalize()} and {cpp_name(mat2.dtype).capitalize()}"
                "\nminigrad hint: convert one of them, e.g. with .double() or .float().")
    for name, matrix in (("mat1", mat1), ("mat2", mat2)):
        if matrix._array.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {matrix._array.ndim}-D tensor")
    rows, inner = mat1._array.shape       # (the arrays' shapes: no Size made, no property called)
    if inner != mat2._array.shape[0]:
        check_history_kept(input, mat1, mat2, saves=((), (2,), (1,)))   # (recorded, then checked)
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})")
    _check_bias_expands(input, (rows, mat2._array.shape[1]))
    _check_not_bool(mat1, "addmm_impl_cpu_")
    # (alpha and beta: shown as grad_fn._saved_alpha / _saved_beta, as PyTorch's node does)
    out = result(input._array + mat1._array @ mat2._array, AddmmBackward0, (input, mat1, mat2),
                 alpha=1, beta=1)
    kernel_writes("addmm", out, input, mat1, mat2, beta=1)
    return _save_operands(_remember_layouts(out, mat1, mat2, ("mat1", "mat2"), 1), mat1, mat2)
