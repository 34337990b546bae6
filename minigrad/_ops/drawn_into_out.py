"""``torch.bernoulli(p, out=t)`` and ``torch.normal(..., out=t)``: random numbers drawn straight
into a tensor the caller gives (PyTorch: ``bernoulli_out`` and ``normal_out`` in
aten/src/ATen/native/Distributions.cpp).

Other functions with out= compute their result as usual and copy it into ``out``
(``_out.call_with_out``). These two don't: PyTorch resizes ``out`` and fills it in place, in
``out``'s own dtype and memory order, so the numbers drawn depend on ``out``:

* ``bernoulli(p, out=t)``: ``t`` takes p's shape (silently), then ``t.bernoulli_(p)``: 0 or 1
  in any dtype of ``t`` (bool and integers too);
* ``normal(mean, std, size, out=t)``: ``t`` takes ``size`` (silently), then
  ``t.normal_(mean, std)``: ``t`` must hold floating-point numbers;
* ``normal`` of tensors: ``t`` takes their broadcast shape (for a number std: mean's broadcast
  with ``t``'s own; with the usual warning when it had elements), then ``t.normal_(0, 1)``
  times std plus mean (``t.normal_(0, std)`` plus mean for a number std), each step rounded to
  ``t``'s dtype.

All of this happens below autograd, so ``t``'s version goes up once, as for any out= call.
"""
import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.grad_mode import no_grad


def drawn_into_out(name, out, args, kwargs):
    """``torch.<name>(*args, **kwargs, out=out)`` for bernoulli and normal: see the module's text."""
    if name == "bernoulli":
        return _bernoulli_into(out, *args, **kwargs)
    return _normal_into(out, *args, **kwargs)


def _bernoulli_into(out, input, *, generator=None):
    from .._out import _resized
    if out._array.shape != input._array.shape:
        out._array = _resized(out, input._array)
    with no_grad():
        return out.bernoulli_(input, generator=generator)


def _normal_into(out, mean=0.0, std=1.0, size=None, *, generator=None):
    from .._out import _resized, resize_output
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        shape = tuple(size)
        if out._array.shape != shape:
            out._array = _resized(out, np.empty(shape, out._array.dtype))
        with no_grad():
            return out.normal_(mean, std, generator=generator)
    from .._creation import check_normal_std, broadcast_normal_shape
    check_normal_std(std)
    # (the shape: mean's and std's broadcast; with a number std, mean's and out's own)
    other = std if isinstance(std, Tensor) or not isinstance(mean, Tensor) else out
    shape = broadcast_normal_shape(mean, other)
    resize_output(out, _wrap(np.empty(shape, out._array.dtype)))
    with no_grad():
        out.normal_(0.0, 1.0 if isinstance(std, Tensor) else std, generator=generator)
    # (then in place, as PyTorch's mul_ and add_ on out: computed in the wider dtype, stored in out's)
    values = out._array
    if isinstance(std, Tensor):
        values = (values * std._array).astype(values.dtype, copy=False)
    values = (values + (mean._array if isinstance(mean, Tensor) else mean)).astype(values.dtype, copy=False)
    np.copyto(out._array, values)
    return out


# creation functions whose out= PyTorch fills in place after its resize_: rand with uniform_,
# randn with normal_, randint with random_
_FILLED_IN_PLACE = ("rand", "randn", "randint")


def drawn_in_out_layout(name, out, args, kwargs):
    """``rand``/``randn``/``randint(..., out=t)`` with a ``t`` of the size asked for that is not
    row-major (a transpose): its resize_ keeps ``t``'s layout and the draws fill it in the
    order of its memory. Returns ``t`` so filled, or None when this is not the case (the usual
    out= path, which computes then copies, gives PyTorch's numbers then)."""
    if name not in _FILLED_IN_PLACE or out._array.flags.c_contiguous:
        return None
    if out._array.dtype.kind not in ("fiu" if name == "randint" else "f"):
        return None
    if name == "randint":
        given = dict(zip(("low", "high", "size") if len(args) == 3 else ("high", "size"), args), **kwargs)
        size, low, high = given["size"], given.get("low", 0), given["high"]
    else:
        size = kwargs.get("size", args[0] if len(args) == 1 and not isinstance(args[0], int) else args)
    if tuple(size) != out._array.shape:
        return None
    generator = kwargs.get("generator")
    with no_grad():
        if name == "rand":
            return out.uniform_(0.0, 1.0, generator=generator)
        if name == "randn":
            return out.normal_(0.0, 1.0, generator=generator)
        return out.random_(low, high, generator=generator)
