"""The versions a result starts at when all inputs are inference tensors, outside inference mode.

Normally an operation's result starts at version 0: PyTorch's autograd layer runs first, and
below it the kernel's own steps are not counted. Inference tensors carry no autograd layer,
so an operation whose inputs are *all* inference tensors, called outside
``inference_mode``, goes straight to PyTorch's CPU kernel. Its new result is a normal
tensor (made outside inference mode), and every in-place step the kernel then takes on it
through the dispatcher counts a version, as a user's own ``y.add_(1)`` would:

* ``resize_`` or ``fill_`` of a result of one element (``dot``, ``sum``, the values and
  indices of ``kthvalue``, ``cummax``, ...), ``zero_`` of new zeros (``diag``, ``new_zeros``);
* ``copy_`` into new memory: ``clone``, ``repeat``, ``to``/``double``/..., the ``*_copy``
  functions (a view, then copied), ``contiguous`` of a non-contiguous tensor;
* an ``out=`` call: functions written as "make an empty tensor, then call my own out=
  variant" (``deg2rad``, ``nansum``, ``frexp``, ``logical_not``, ...);
* the in-place form after a copy: the out-of-place ``masked_fill``, ``index_add``,
  ``scatter_reduce``, ``*_scatter`` are ``clone()`` then the in-place op (2 steps);
* a decomposition's own in-place steps: ``mean`` is ``sum`` then ``div_``, ``rot90`` a flip
  then ``transpose_``, ``linalg.inv`` solves against an identity made with ``zero_`` and
  ``fill_``...

Kernels that compute straight into a result they allocate (PyTorch's "structured" kernels:
``exp``, ``add``, ``mm``, ``cumsum`` of a tensor with dims, ...) take no such step: their
results stay at version 0, as do results of a call where *some* input is a normal tensor
(then the autograd layer runs, and nothing below it counts).

``KERNEL_WRITES`` says, per operation, how many such steps PyTorch's CPU kernel takes: a
number, a tuple (one number per output: values and indices, ...), or a function of the
output and the inputs where it depends on them. Measured against PyTorch 2.13 by
tests/test_inference_kernel_versions_vs_torch.py. ``kernel_writes`` applies it; it costs
one test of a global list when no inference tensor was ever made.
"""
import math

from .. import _dtype
from .grad_mode import _State, _inference_tensors_exist


def _zero_dims(out, *inputs, **settings):
    """1 for a result without dims (PyTorch writes it with ``fill_``), else 0."""
    return 1 if out._array.ndim == 0 else 0


def _scan(out, *inputs, **settings):
    """``cumsum``/``cumprod`` of a 0-d tensor or of no elements: ``fill_``/``copy_`` of the
    result; of a tensor with elements, computed straight into it."""
    return 1 if out._array.ndim == 0 or out._array.size == 0 else 0


def _input_zero_dims(out, input, *rest, **settings):
    """1 when the input has no dims (a 0-d input takes a path of its own), else 0."""
    return 1 if input._array.ndim == 0 else 0


def _vector_norm(out, input, all_dims):
    """A vector norm of a 0-d input over all dims is its ``abs`` (written with abs's out=
    variant), as is a norm over dims of size 1 only (nothing to reduce: as many results as
    elements); of no elements, zeros (``fill_``); else computed straight into the result."""
    array = input._array
    if array.size == 0 or (array.ndim == 0 and all_dims):
        return 1
    return 1 if array.ndim and out._array.size == array.size else 0


def _loss_reduced(out, input, target, reduction):
    """A pointwise loss, then ``mean`` (``sum`` + ``div_``) or ``sum`` (``resize_`` + ``fill_``):
    2 steps, 1 for 0-d inputs (their loss is reduced without a resize); none unreduced."""
    if reduction == "none":
        return 0
    return 1 if input._array.ndim == 0 else 2


def _block_diag(out, *tensors):
    """``block_diag``: zeros (``zero_``), then each block copied in (``copy_``)."""
    return 1 + len(tensors)


def _pow(out, input, exponent):
    """``x ** 0`` is ones (``fill_``), ``x ** 1`` a ``clone`` (``copy_``): one step each; other
    exponents are computed straight into the result."""
    return 1 if exponent in (0, 1) and not isinstance(exponent, bool) else 0


def _constant_pad(out, input, pad):
    """``F.pad``'s constant mode: a new tensor filled with the value (``fill_``), the input
    copied into its middle (``copy_``); only cropping (no amount > 0) is a narrowed ``clone``."""
    return 2 if any(amount > 0 for amount in pad) else 1


def _unless_empty(out, *inputs, **settings):
    """One step (``amax``'s ``resize_``, ``pdist``'s), none for a result without elements."""
    return 1 if out._array.size else 0


def _flip(out, input, dims):
    """``flip`` copies (``clone``: ``copy_``) when no flipped dim has more than one element, or
    no element at all."""
    shape = input._array.shape
    return 1 if input._array.size == 0 or all(shape[d] <= 1 for d in dims) else 0


def _rot90(out, input, turns, dims):
    """``rot90``: a flip of one dim (odd turns) or both (two turns), then ``transpose_`` for odd
    turns; no turn at all is a ``clone``."""
    if turns == 0:
        return 1
    flipped = (dims[1],) if turns == 1 else dims if turns == 2 else (dims[0],)
    return _flip(out, input, flipped) + turns % 2


def _index_add(out, input, index, source, alpha):
    """``index_add``: a ``copy_`` of the input, then (a matrix, alpha 1) its rows added with
    ``index_put_``-like steps: one more write."""
    return 2 if input._array.ndim > 1 and alpha == 1 else 1


def _scatter_reduce(out, input, index, src, reduce, include_self):
    """``scatter_reduce``: a ``clone``, then ``scatter_reduce_``; ``mean`` divides in place
    afterwards, and without ``include_self`` the places written are first set (``masked_fill_``)."""
    return 3 if reduce == "mean" or not include_self else 2


def _unique(out, input, inverse, counts, consecutive=False, dim=None):
    """``unique`` (flat) resizes each result it gives; ``unique_consecutive`` (flat) its inverse
    and counts, and its values and counts once more when some neighbours were equal (fewer
    values than elements); along a dim, only the counts are resized. Of no elements, nothing
    is written but an inverse shaped like an input of two or more dims."""
    if dim is not None:
        return (0,) + (0,) * inverse + (1,) * counts
    if input._array.size == 0:      # returned at once: only an inverse of 2+ dims is resized
        return (0,) + (1 if input._array.ndim > 1 else 0,) * inverse + (0,) * counts
    if not consecutive:
        return (1,) * (1 + inverse + counts)
    shrunk = 1 if out._array.size < input._array.size else 0     # (some neighbours were equal)
    return (shrunk,) + (1,) * inverse + (1 + shrunk,) * counts


def _max_dim(out, input, keepdim):
    """``max``/``min`` along a dim: values and indices written with the dim kept (``resize_``),
    then squeezed in place (``squeeze_``); 0-d inputs are copied (one step); an empty result
    is returned at once."""
    if out._array.size == 0:
        return 0
    return 1 if input._array.ndim == 0 else 0 if keepdim else 2


def _index_along_single(out, input, dim):
    """``argmax``/``argmin`` along a dim of one element: every index is 0, written into the
    result with ``zero_`` (one step); along a longer dim, or of a 0-d input, computed straight
    into it."""
    return 1 if input._array.ndim and input._array.shape[dim] == 1 else 0


def _one_element(out, input):
    """``var``/``std``: a result of one element is written with a copy of its own, and so is
    the (nan) result of an input without elements."""
    return 1 if out._array.size == 1 or input._array.size == 0 else 0


def _input_empty(out, input, **settings):
    """A kernel that returns at once when its input has no elements, after filling (or
    copying) its result: ``roll``, ``var_mean``; none otherwise."""
    return 1 if input._array.size == 0 else 0


def _median_of_nothing(out, input):
    """``median``/``nanmedian`` of no elements makes a 0-d NaN in the *default* dtype (``fill_``)
    and converts it to the input's dtype. That NaN is a normal tensor, so its conversion goes
    through the autograd layer, below which nothing counts: only an input of the default dtype
    (float32, unless ``set_default_dtype`` changed it), which needs no conversion, keeps the
    ``fill_``. (int64's "NaN" is -2**63.)"""
    if input._array.size:
        return 0
    return 1 if input._array.dtype == _dtype.DEFAULT_FLOAT else 0


def _repeat(out, input, repeats):
    """``repeat``/``tile``: the input copied into the new memory (``copy_``), also when it has no
    elements; none when a repeat count is 0 (the empty result is returned at once)."""
    return 0 if 0 in repeats else 1


def _mm(out, a, b):
    """``mm``/``bmm``: computed straight into the result, but a product over an inner dim of
    size 0 is zeros (``zero_``)."""
    return 1 if a._array.shape[-1] == 0 and out._array.size else 0


def _qr(out, A, mode):
    """``linalg.qr``: Q (empty with mode 'r') and R written into prepared memory; R once more
    (its triangle) for a wide matrix, with mode 'complete', and for a square one with mode 'r'."""
    rows, columns = A._array.shape[-2:]
    twice = rows < columns or mode == "complete" or (mode == "r" and rows == columns)
    return (0 if mode == "r" else 1, 2 if twice else 1)


def _matrix_exp(out, A):
    """``matrix_exp``: of no matrices, an empty copy (1); of 1x1 matrices, ``exp`` (straight
    into the result); of one matrix, a Taylor polynomial summed with in-place steps (2); of a
    batch of several, each polynomial written into the result by index (none counted)."""
    shape = A._array.shape
    if shape[-1] == 1:
        return 0
    return 1 if A._array.size == 0 else 0 if math.prod(shape[:-2]) > 1 else 2


def _cond(out, A, p):
    """``linalg.cond``: zeros for matrices without elements (1); ||A|| ||A^-1|| in a norm other
    than 2 and 'nuc' ends with an in-place step on the product (1); the singular values' ratio
    and 'nuc' are computed straight into the result."""
    return 1 if A._array.size == 0 or p in ("fro", 1, -1, float("inf"), -float("inf")) else 0


def _svd(out, A, full_matrices):
    """``linalg.svd`` of a matrix without elements: with ``full_matrices``, U (or Vh) is an
    identity of the dims that have elements (zeros, then the diagonal filled: 2)."""
    if A._array.size or not full_matrices:
        return (0, 0, 0)
    rows, columns = A._array.shape[-2:]
    return (2 if rows and math.prod(A._array.shape[:-2]) else 0, 0,
            2 if columns and math.prod(A._array.shape[:-2]) else 0)


def _lu(out, A):
    """``linalg.lu``: P, L, U written into prepared memory; the packed factors are copied into
    U (a wide or square A: once more) or into L (a tall A)."""
    rows, columns = A._array.shape[-2:]
    return (1, 2, 1) if rows > columns else (1, 1, 2)


def _addmm(out, input, first, second, beta):
    """``addmm``/``baddbmm``: ``input`` copied into the result (``copy_``), then the product
    added in; with beta 0 the input is not copied."""
    return 0 if beta == 0 else 1


def _addbmm(out, input, batch1, batch2):
    """``addbmm``: the input copied and scaled (2 steps), then each batch's product added in place."""
    return 2 + batch1._array.shape[0]


def _convolution(out, input, weight, bias, transposed):
    """A convolution's bias: copied into the result before the products are added (``copy_``,
    then ``add_``); a transposed one adds it once at the end; none without a bias."""
    return 0 if bias is None else 1 if transposed else 2


def _trilinear(out, i1, i2, i3, sumdim, slices):
    """``_trilinear`` (bilinear): a result of zeros (``zero_``), each slice of the unrolled dim
    added in place (none when an input has no elements), then ``squeeze_`` of each summed dim."""
    return 1 + slices + len(sumdim)


def _isin(out, *inputs, number_tested=False):
    """``isin``: an empty result, then its out= variant, which returns at once when there are
    no elements to look up, unless the test is a number (then it is ``eq``'s out= call)."""
    return 1 if out._array.size or number_tested else 0


KERNEL_WRITES = {
    # reductions: resize_ of the result (sum_out, amax, ...), mean's sum_out then div_
    "sum": 1, "mean": 2, "prod": 1, "amax": _unless_empty, "logsumexp": 1, "max": 1,
    "amin": lambda out, input: 0 if input._array.dtype == "int64" else _unless_empty(out),  # (measured)
    "max_dim": _max_dim, "argmax_dim": _index_along_single, "var": _one_element, "adaptive_avg_pool": 1, "abs": 1, "sort": 1,
    # copy_ into new memory
    "to": 1, "clone": 1, "repeat": _repeat, "contiguous": 1, "pixel_shuffle": 1, "pixel_unshuffle": 1,
    "channel_shuffle": 1,
    # the *_copy functions: the view, then clone()
    "view_copy": lambda out, input: 1 if out._array.dtype == input._array.dtype else 0,  # (not the dtype form)
    "detach_copy": 1, "alias_copy": 1, "t_copy": 1, "transpose_copy": 1,
    "permute_copy": 1, "expand_copy": 1, "squeeze_copy": 1, "unsqueeze_copy": 1,
    "select_copy": 1, "slice_copy": 1, "diagonal_copy": 1, "unfold_copy": 1,
    "as_strided_copy": 1, "split_copy": 1, "unbind_copy": 1,
    # an empty result, then the function's own out= variant
    "deg2rad": 1, "rad2deg": 1, "frexp": 1, "nansum": 1, "logical_not": 1, "nan_to_num": 1,
    "isreal": 1, "isin": _isin, "hardtanh": 1, "renorm": 1, "bincount": 1, "mvlgamma": 1, "nonzero": 1,
    "all": 1, "any": 1, "logical_and": 1, "logical_or": 1, "logical_xor": 1,
    # new memory filled (fill_, zero_), a clone (x ** 1)
    "new_zeros": 1, "new_ones": 1, "new_full": 1, "pow": _pow, "rpow": 1, "filled_like": 1,
    "signbit": lambda out, input: 1 if input._array.dtype.kind in "bu" else 0,  # (no sign: all False)
    # a result of one element, or resized values and indices: fill_/resize_ of the result
    "dot": 1, "vdot": 1, "mv": 1, "cumsum": _scan, "cumprod": _scan, "logcumsumexp": _zero_dims,
    "vector_norm": _vector_norm, "topk": _input_zero_dims, "cummax": 1, "cummin": 1, "kthvalue": 1,
    "median_dim": 1, "aminmax": 1, "aminmax_keepdim": _input_zero_dims, "aminmax_dim": 2, "mode": 2,
    "unique": _unique, "unique_consecutive": lambda *args, **settings: _unique(*args, consecutive=True, **settings),
    "unique_dim": lambda *args, **settings: _unique(*args, dim=0, **settings),
    # inputs (or inner dims) without elements: the result filled or copied, returned at once
    "median": _median_of_nothing, "roll": _input_empty, "var_mean": _input_empty, "mm": _mm,
    # flips: a clone where nothing moves; rot90's transpose_
    "flip": _flip, "rot90": _rot90,
    # matrix products with an input added (copied in first), convolutions with a bias, bilinear
    "addmm": _addmm, "addbmm": _addbmm, "convolution": _convolution, "trilinear": _trilinear, "fold": 1,
    "unfold": 1,
    # zeros (zero_) or a value (fill_), then the values copied in
    "diag": 1, "diag_embed": 2, "constant_pad_nd": _constant_pad, "pdist": _unless_empty,
    "one_hot": lambda out, *inputs: 2 if out._array.size else 0, "histc": 2, "histogram": (2, 1),
    "histogram_edges": 1, "block_diag": _block_diag,
    # clone(), then the in-place form
    "masked_fill": 2, "masked_scatter": 2, "index_add": _index_add, "index_copy": 1, "index_fill": 2,
    "index_put": 2, "put": 2, "scatter": 1, "scatter_add": 1, "scatter_reduce": _scatter_reduce,
    "select_scatter": 2, "slice_scatter": 2, "diagonal_scatter": 2, "as_strided_scatter": 2,
    # losses: pointwise, then reduced
    "mse_loss": _loss_reduced, "smooth_l1_loss": _loss_reduced, "soft_margin_loss": 1,
    "multi_margin_loss": 1, "multilabel_margin_loss": 1,
    # linear algebra: LAPACK writes its results into memory prepared in place (an identity made
    # with zero_ and fill_ for inv, a copy of A for the factorizations, infos zeroed)
    "inv_ex": (3, 1), "det": 1, "slogdet": (1, 1), "solve_ex": (1, 1), "cholesky_ex": (1, 0),
    "cholesky_function": 3, "lu_factor_ex": (1, 0, 0), "lu": _lu, "qr": _qr, "eigh": (0, 1),
    "matrix_exp": _matrix_exp, "matrix_rank": 1, "lstsq": 1, "solve_triangular": 3,
    "triangular_solve": (1, 1), "cholesky_solve": 2, "cholesky_inverse": 1, "ldl_factor_ex": (1, 0, 0),
    "householder_product": 1, "geqrf": (1, 1), "cond": _cond, "ormqr": 3,
    "svd": _svd, "svd_without_uv": (1, 0, 1),
    # cdist: zeros for rows without columns (1); from a matrix product, clamp_min_ and sqrt_ of
    # the result (2), unless a batch was expanded first (a copy: no longer inference tensors)
    "cdist_zeros": _unless_empty,
    "cdist_by_matrix_product": lambda out, x1, x2: 2 if x1._array.shape[:-2] == x2._array.shape[:-2] else 0,     # (torch.svd(compute_uv=False): U and V are zeros, zero_)
}


def kernel_writes(name, out, *inputs, **settings):
    """``out`` (a tensor, or a tuple of them), its version raised by PyTorch's count of kernel
    steps for ``name`` (``KERNEL_WRITES``) when all ``inputs`` (tensors; None is skipped) are
    inference tensors and inference mode is off. Returns ``out``. ``settings`` (dims, ...) go
    to the entries that are functions."""
    if _inference_tensors_exist and not _State.inference and all(
            t._is_inference for t in inputs if t is not None):
        writes = KERNEL_WRITES[name]
        if callable(writes):
            writes = writes(out[0] if isinstance(out, tuple) else out, *inputs, **settings)
        if isinstance(out, tuple):
            for tensor, count in zip(out, writes if isinstance(writes, tuple) else [writes] * len(out)):
                tensor._version_counter[0] += count
        else:
            out._version_counter[0] += writes[0] if isinstance(writes, tuple) else writes
    return out
