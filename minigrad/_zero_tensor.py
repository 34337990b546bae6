"""PyTorch's ZeroTensor: zeros that take no memory, and the rules for what flows out of one.

Why PyTorch has them. Many derivative formulas know in advance that a gradient is all zeros:
``sgn`` of real numbers is flat, so its gradient is 0 whatever arrives. Allocating a tensor
and filling it with zeros, then multiplying it through the rest of backward, would cost time
and memory for nothing. PyTorch hands out a *ZeroTensor* there instead: a tensor with a shape
and a dtype but no memory, which every operation knows to be zeros (``x._is_zerotensor()``
says True). Multiplying one gives zeros again without any arithmetic, so the product is a
ZeroTensor too; so are its views. Most other operations first turn it into ordinary zeros
and give an ordinary tensor.

The rules, as PyTorch 2.13 follows them (each checked against it in
tests/test_zero_tensor_vs_torch.py):

* still a ZeroTensor: a view of one (``view``, ``reshape``, ``t``, ``x[0]``, ``expand``,
  ``split``, ...), ``detach()``, ``.data``, and what returns the tensor itself (``to`` of the
  same dtype, ``contiguous``, ``requires_grad_``, ``t_``, ``squeeze_``, ...);
* a ZeroTensor again, its values zeros whatever the other operand holds (0 * inf is 0 here):
  a product with one (``*``, ``mul``, ``dot``, ``vdot``, ``linalg.cross``), a quotient whose
  dividend is one (``z / y``), and the sum or difference of two of them (``z + z``, ``z - z``).
  A Python number in such a product counts as a tensor of its own dtype (float64 for a
  float), so an integer ZeroTensor times 2.5 is float64, not float32. (A derivative formula's
  division by a plain number, as mean's, gives ordinary zeros: only its product keeps one.)
* the same kernels give ordinary results for the rest of these four operations, without
  reading the values they know: ``y / z`` is +inf everywhere (even where y is 0 or nan),
  ``z / z`` is nan, ``z + y`` is y itself and ``z - y`` is -y (so ``z - 0`` is -0.0). Shapes
  that do not broadcast are refused with torch.broadcast_shapes's message;
* everything else (``z + 1``, ``-z``, ``z.sin()``, ``z.sum()``, ``clone()``, ``z[[0, 1]]``,
  ``to`` another dtype, ``z @ matrix``) is an ordinary tensor of zeros;
* having no memory, one refuses ``tolist()``, ``numpy()`` (unless ``force=True``) and every
  change of its values in place, with PyTorch's messages below, and its ``data_ptr()`` is 0;
  printing, ``item()`` and ``bool()`` work.

minigrad's ZeroTensor is an ordinary tensor of zeros, marked: ``_zero_tensor_memory`` holds its
array a second time (see ``Tensor._is_zerotensor``). The marking is read only where one can
arrive: ``zero_tensors_exist`` stays empty until the first one is made, so the operations that
follow these rules (mul, div, add, sub, views) pay one look at that list in a program that
never takes sgn's gradient.
"""
import numpy as np

# Empty until the first ZeroTensor is made (then it holds True): the operations that pass one on
# look at it before anything else, so ordinary programs never ask a tensor whether it is one.
zero_tensors_exist = []

# PyTorch's messages (word for word, the leading space of NUMPY's included)
IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained "
             "using .clone() if you want a mutable tensor.")
IMMUTABLE_COPY = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, "
                  "if you want a mutable zero tensor.")       # (copy_ and x[i] = v)
TOLIST = "tolist() shouldn't be called on a tensor with unallocated storage"
NUMPY = " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array."


def as_zero_tensor(tensor):
    """Mark ``tensor`` (new zeros, or a view of a ZeroTensor) as a ZeroTensor; returns it."""
    tensor._zero_tensor_memory = tensor._array
    if not zero_tensors_exist:
        zero_tensors_exist.append(True)
    return tensor


def involved(input, other):
    """Is ``input`` or ``other`` a ZeroTensor (two tensors)?"""
    return input._zero_tensor_memory is not None or other._zero_tensor_memory is not None


def is_zero_tensor(value):
    """True for a tensor marked as a ZeroTensor (False for numbers and anything else)."""
    return getattr(value, "_zero_tensor_memory", None) is not None


def either_is_zero_tensor(input, other):
    """Does a ZeroTensor take part in ``input op other``? Then PyTorch checks the two shapes
    its own way first, with torch.broadcast_shapes's message, not the usual one."""
    if not (is_zero_tensor(input) or is_zero_tensor(other)):
        return False
    from .functional import broadcast_shapes      # (functional.py builds on the tensors)
    from ._dtype import Size
    broadcast_shapes(*(Size(np.shape(_array_of(value))) for value in (input, other)))
    return True


def zeros_for(input, other):
    """The values of a ZeroTensor result of ``input op other``: new zeros of the broadcast shape,
    in the dtype PyTorch's ZeroTensor kernels give (a Python number counts as a 0-d tensor of its
    own dtype there: float64 for a float, int64 for an int)."""
    from ._dtype import result_type
    from ._tensor import _wrap
    operands = [value if hasattr(value, "_array") else _wrap(np.asarray(value)) for value in (input, other)]
    shape = np.broadcast_shapes(np.shape(_array_of(input)), np.shape(_array_of(other)))
    return np.zeros(shape, result_type(*operands))


def refuse_change(tensor, copying=False):
    """PyTorch's error for a change in place of a ZeroTensor (``copying``: by copy_ or x[i] = v)."""
    if tensor._zero_tensor_memory is not None:
        raise RuntimeError(IMMUTABLE_COPY if copying else IMMUTABLE)


def refuse_item_assignment(tensor, index, value):
    """``z[index] = value`` of a ZeroTensor: PyTorch checks the index first (its IndexError), then
    refuses as copy_ does when it copies into a view (a tensor value, or one element), else as
    fill_ or index_put_ do."""
    target = tensor[index]
    copying = target._base is not None and (hasattr(value, "_array") or target._array.ndim == 0)
    raise RuntimeError(IMMUTABLE_COPY if copying else IMMUTABLE)


def made_zero(out):
    """``out``, the new result of an operation PyTorch gives a ZeroTensor (dot, vdot, ...), with
    its values zeros (the other operand's inf or nan left unread) and marked as one."""
    out._array = np.zeros(out._array.shape, out._array.dtype)
    return as_zero_tensor(out)


def _array_of(value):
    return value._array if hasattr(value, "_array") else value


def _efficientzerotensor(*size, dtype=None, layout=None, device=None, pin_memory=False,
                         requires_grad=False):
    """A ZeroTensor of the given size (float32 unless ``dtype``): zeros PyTorch keeps without
    memory, as the gradient of ``sgn`` is one. Products and views of it are ZeroTensors too;
    ``clone()`` gives ordinary zeros that may be changed."""
    from . import _creation
    _creation._check_size_given("_efficientzerotensor", size)
    shape = _creation._size(size)
    _creation._check_flag("_efficientzerotensor", requires_grad)
    return as_zero_tensor(_creation._leaf(np.zeros(shape, dtype=_creation._float_dtype(dtype)),
                                          requires_grad))
