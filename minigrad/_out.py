"""Writing a result into a tensor the caller gives: ``torch.add(a, b, out=c)``
(PyTorch: the ``.out`` variants of its operations, and ``resize_output`` in
aten/src/ATen/native/Resize.cpp).

``out=`` asks an operation to put its result into an existing tensor instead of
a new one. minigrad computes the result as usual, then copies it into ``out``,
following PyTorch's rules in PyTorch's order:

1. autograd: an out= call is never recorded, so while grad mode is on no input
   (nor ``out``) may require grad;
2. the operation runs (its own errors come first);
3. dtype: each operation has its own rule for an ``out`` of another dtype
   (``OUT_RULES`` below, one line per function);
4. shape: an ``out`` of another shape is resized, silently when it has no
   elements, else with PyTorch's deprecation warning;
5. the values are written into ``out``'s memory (views of ``out`` see them) and
   ``out``'s version counter goes up by one, as for any in-place change.

The same ``out`` object comes back (for the functions that give values and
indices, max and min with a dim, sort, topk, median, mode, ...: a named pair of
the two ``out`` tensors, ``torch.return_types.max_out``).

Which functions take out= and how is one table, ``OUT_RULES``; a learner who wants
to see what happens to ``torch.add(a, b, out=c)`` reads ``call_with_out`` from top
to bottom.
"""
import warnings
from typing import NamedTuple

import numpy as np

from ._type_names import type_name
from ._tensor import Tensor
from ._dtype import scalar_type_name, cpp_type_name, to_numpy_dtype
from ._warnings import stacklevel_outside_minigrad, warn_once, own_warnings_muted
from .autograd import grad_mode as _grad_mode
from .autograd.grad_mode import _State, no_grad as _no_grad
from .autograd.graph import needs_grad
from ._ops.inplace import bump_version, _can_cast, _check_partial_overlap, _overlaps
from ._ops.reduction import return_types


class OutRule(NamedTuple):
    """How one function treats ``out=``.

    ``dtype`` says which dtypes ``out`` may have:
      "cast"     any dtype the result can be cast to (floats not into integers, only
                 bools into bools): PyTorch's elementwise machinery (TensorIterator);
      "same"     exactly the result's dtype;
      "bool"     only bool;
      "float"    any floating-point dtype (the result is cast into it);
      "compute"  any dtype: the operation computes in ``out``'s dtype (sum, cumsum, ...:
                 as if called with ``dtype=out.dtype``);
      "create"   any dtype: a creation function makes its values in ``out``'s dtype;
      "drawn"    any dtype: random numbers drawn straight into ``out`` (bernoulli, normal).
    ``message``: PyTorch's text when ``out``'s dtype does not fit; {result}/{out} are the
    dtypes' ScalarType names (Float, Long), {result_cpp}/{out_cpp} their C++ names
    (float, long int), {result_type}/{out_type} their old tensor types (torch.FloatTensor).
    ``error``: its exception class.
    ``outputs``: 2 for functions that give (values, indices) (max and min: with a dim);
    ``indices_message``: then the text for indices that are not int64.
    ``dim_required``: out= only with a dim (sum(x, out=t) is no signature of PyTorch's).
    ``overlap``: what PyTorch refuses when ``out`` shares memory with an input: "partial"
    (elementwise operations: all of an input is fine, x.add(1, out=x), part of it is not),
    "any" (index_select), "any after resize" (cat, gather: they resize out first), "" (not
    checked: the other operations).
    """
    dtype: str
    message: str = ""
    error: type = RuntimeError
    outputs: int = 1
    dim_required: bool = False
    indices_message: str = ""
    overlap: str = ""


# PyTorch's messages for an out of the wrong dtype
CAST = "result type {result} can't be cast to the desired output type {out}"
FOUND = "Found dtype {out} but expected {result}"
EXPECTED = "Expected out tensor to have dtype {result_cpp}, but got {out_cpp} instead"

_cast, _found = OutRule("cast", CAST, overlap="partial"), OutRule("same", FOUND, overlap="partial")
_expected = OutRule("same", EXPECTED)
_values_indices = OutRule("same", EXPECTED, outputs=2, indices_message=EXPECTED)


def _pair(values, indices):
    return OutRule("same", values, outputs=2, indices_message=indices)


_MEDIAN = _pair("Expected tensor for 'values' to have the same type as tensor for argument #2 "
                "'self'; but type {out_type} does not equal {result_type} (while checking "
                "arguments for median)",
                "Expected tensor for argument #1 'indices' to have scalar type Long; but got "
                "{out_type} instead (while checking arguments for median)")
_SCAN = _pair("expected scalar_type {result} but found {out}", "expected scalar_type {result} but "
              "found {out}")


_created = OutRule("create")


# The linear-algebra functions with several results: out= is a tuple of tensors, each of the
# result's dtype; what comes back is torch.return_types.<name>_out with these fields.
NAMED_OUTS = {
    "linalg_slogdet": ("sign", "logabsdet"), "slogdet": ("sign", "logabsdet"),
    "linalg_inv_ex": ("inverse", "info"), "linalg_cholesky_ex": ("L", "info"),
    "linalg_solve_ex": ("result", "info"), "linalg_lu_factor": ("LU", "pivots"),
    "linalg_lu_factor_ex": ("LU", "pivots", "info"), "linalg_lu": ("P", "L", "U"),
    "linalg_svd": ("U", "S", "Vh"), "svd": ("U", "S", "V"), "linalg_eigh": ("eigenvalues", "eigenvectors"),
    "linalg_qr": ("Q", "R"), "qr": ("Q", "R"), "linalg_ldl_factor": ("LD", "pivots"),
    "linalg_ldl_factor_ex": ("LD", "pivots", "info"), "lu_unpack": ("P", "L", "U"),
    "triangular_solve": ("solution", "cloned_coefficient"),
    "linalg_lstsq": ("solution", "residuals", "rank", "singular_values"), "geqrf": ("a", "tau"),
}
# (these two cast their results into out: PyTorch names the output a dtype does not fit)
CASTABLE_OUTS = {"linalg_lstsq": "torch.linalg.lstsq", "geqrf": "torch.geqrf"}
# (these copy their result into out, which PyTorch resizes row by row; the second ones only an
# out that had elements: an empty one takes the result's layout)
ROW_MAJOR_OUTS = ("cholesky", "cholesky_solve", "linalg_tensorinv", "linalg_tensorsolve")
ROW_MAJOR_IF_RESIZED = ("cholesky_inverse", "linalg_householder_product")

# Which public functions take out= (those whose PyTorch 2.13 signature has it), and how.
OUT_RULES = {
    # elementwise: computed in the inputs' dtype, then cast into out (TensorIterator)
    **{name: _cast for name in (
        "add", "sub", "mul", "div", "true_divide", "subtract", "multiply", "divide", "pow",
        "remainder", "fmod", "floor_divide", "maximum", "minimum", "atan2", "arctan2", "hypot",
        "copysign", "logaddexp", "logaddexp2", "fmax", "fmin", "xlogy",
        "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal",
        "not_equal", "logical_and", "logical_or", "logical_xor", "logical_not",
        "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "square",
        "reciprocal", "expm1", "log2", "log10", "exp2", "asin", "acos", "atan", "sinh", "cosh",
        "asinh", "acosh", "atanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
        "erf", "erfc", "erfinv", "sinc", "deg2rad", "rad2deg", "lgamma", "digamma", "logit",
        "addcmul", "addcdiv", "lerp", "outer", "polygamma", "i0")},
    # bitwise and number theory (integers only: never differentiated)
    **{name: _cast for name in (
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
        "gcd", "lcm")},
    "bitwise_not": _found,
    **{name: _cast for name in ("angle", "nextafter", "igamma", "igammac")},
    "ldexp": OutRule("cast", "ldexp can't be cast to the desired output type {out}", overlap="partial"),
    **{name: _found for name in ("sgn", "absolute", "conj_physical")},
    # (PyTorch's message names the input's dtype as the result's here)
    "mvlgamma": OutRule("cast", "mvlgamma: result type {input} can't be cast to the desired output "
                                "type {result}"),
    "heaviside": OutRule("same", "heaviside is not yet implemented for tensors with different "
                                 "dtypes.", overlap="partial"),
    "float_power": OutRule("same", "the output given to float_power has dtype {out} but the "
                                   "operation's result requires dtype {result}", overlap="partial"),
    **{name: OutRule("cast", CAST) for name in ("std", "var")},
    # elementwise that keep the input's dtype: out must have it
    **{name: _found for name in (
        "abs", "sign", "neg", "negative", "floor", "ceil", "trunc", "round", "frac", "fix",
        "clamp", "clip", "clamp_min", "clamp_max")},
    "nan_to_num": OutRule("same", "nan_to_num: dtype of out: {out} should be same as input: {result}",
                          overlap="partial"),
    **{name: OutRule("bool", name + " does not support non-boolean outputs.", overlap="partial")
       for name in ("signbit", "isposinf", "isneginf")},
    # reductions and scans: computed in out's dtype
    **{name: OutRule("compute", EXPECTED, dim_required=True) for name in ("sum", "prod")},
    **{name: OutRule("compute", EXPECTED) for name in ("cumsum", "cumprod", "mean")},
    "nansum": OutRule("compute", "nansum: provided dtype must match dtype of result. Got {out} and "
                                 "{result}."),
    **{name: OutRule("bool", name + " only supports bool tensor for result, got: {out}")
       for name in ("all", "any")},
    **{name: OutRule("same", "Expected the dtype for input and out to match, but got {result} for "
                             "input's dtype and {out} for out's dtype.") for name in ("amax", "amin")},
    **{name: _expected for name in (
        "argmax", "argmin", "norm", "mm", "bmm", "mv", "addmm", "addmv", "baddbmm", "softmax",
        "log_softmax", "tril", "triu", "diag", "index_add", "scatter", "scatter_add",
        "take_along_dim")},
    "addr": OutRule("cast", CAST),
    "gather": OutRule("same", EXPECTED, overlap="any after resize"),
    "matmul": _expected,           # (1-d times 1-d is a dot product: see _check_dtype)
    "dot": OutRule("same", "result dtype {out} does not match input dtype {result}"),
    **{name: _values_indices for name in ("max", "min", "sort", "topk")},
    "median": _MEDIAN, "nanmedian": _MEDIAN, "cummax": _SCAN, "cummin": _SCAN,
    "kthvalue": _pair("output values must be of same type as input",
                      "output indices must be of scalar type Long"),
    "mode": _pair("expected scalar type '{result}' but got '{out}' for values output",
                  "expected scalar type '{result}' but got '{out}' for indices output"),
    "logsumexp": OutRule("float", "logsumexp(): Expected floating point type for result tensor, "
                                  "but got: {out}"),
    # statistics, sorting and differences
    **{name: OutRule("same", "quantile() out tensor must be same dtype as the input tensor")
       for name in ("quantile", "nanquantile")},
    **{name: _expected for name in ("msort", "renorm", "scatter_reduce", "index_reduce")},
    "histc": OutRule("same", "torch.histogram: input tensor and hist tensor should have the same dtype, "
                             "but got input {result_cpp} and hist {out_cpp}"),
    "diff": OutRule("cast", CAST),
    **{name: OutRule("same", FOUND) for name in ("searchsorted", "bucketize")},    # (see call_with_out)
    # joining: any dtype the inputs can be cast to
    **{name: OutRule("cast", "torch.cat(): input types can't be cast to the desired output type "
                             "{out}", TypeError, overlap="any after resize")
       for name in ("cat", "concat")},
    "stack": OutRule("cast", "torch.cat(): input types can't be cast to the desired output type "
                             "{out}", TypeError),
    "where": OutRule("same", "Expected out type to be {result} but got {out}", overlap="partial"),
    "index_select": OutRule("same", "index_select(): self and result must have the same scalar type",
                            overlap="any"),
    "masked_select": OutRule("same", "masked_select(): self and result must have the same scalar type"),
    "take": OutRule("same", "take(): self and out expected to have the same dtype, but got "
                            "self.dtype = {result} and out.dtype = {out}"),
    "nonzero": OutRule("same", "nonzero: Expected out tensor to have scalar type Long but got scalar "
                               "type{out}"),
    # products composed of others (products.py)
    **{name: OutRule("same", "tensordot: Expected the output tensor to have dtype {result}, but got an "
                             "output tensor with dtype {out}") for name in ("tensordot", "inner")},
    "vdot": OutRule("same", "result dtype {out} does not match input dtype {result}"),
    "kron": OutRule("cast", CAST),
    "addbmm": OutRule("same", "self and mat2 must have the same dtype, but got {out} and {result}"),
    "ger": OutRule("cast", CAST),
    "chain_matmul": OutRule("same", "multi_dot(): expected out tensor to have dtype {result_cpp} but "
                                    "got {out_cpp}"),
    # linear algebra (torch.linalg's are named linalg_<name>, as in PyTorch's messages)
    **{name: _expected for name in (
        "linalg_det", "linalg_inv", "linalg_solve", "linalg_cholesky", "linalg_vector_norm",
        "linalg_svdvals", "linalg_eigvalsh", "linalg_cross", "linalg_lu_solve", "linalg_ldl_solve",
        "linalg_matmul", "inverse", "lu_solve", "cross")},
    **{name: OutRule("cast", prefix + ": Expected result to be safely castable from {result} dtype, "
                             "but got result with dtype {out}")
       for name, prefix in (("linalg_cond", "linalg.cond"), ("linalg_pinv", "linalg.pinv"),
                            ("linalg_householder_product", "torch.linalg.householder_product"),
                            ("linalg_tensorinv", "tensorinv"), ("linalg_tensorsolve", "tensorsolve"),
                            ("cholesky", "cholesky"), ("cholesky_solve", "cholesky_solve"),
                            ("cholesky_inverse", "cholesky_inverse"),
                            ("linalg_matrix_power", "matrix_power"), ("matrix_power", "matrix_power"))},
    **{name: OutRule("same", f"linalg.{name[7:]} expected out tensor dtype {{result}} but got: {{out}}")
       for name in ("linalg_matrix_norm", "linalg_norm")},
    "linalg_vecdot": OutRule("same", "linalg.vecdot: Expected out of dtype{result} but found {out}"),
    "linalg_solve_triangular": OutRule("same", "expected scalar type {result} but found {out}"),
    "linalg_multi_dot": OutRule("same", "multi_dot(): expected out tensor to have dtype {result_cpp} but "
                                        "got {out_cpp}"),
    "linalg_matrix_rank": OutRule("cast", CAST),
    **{name: OutRule("cast" if name in CASTABLE_OUTS else "same", EXPECTED, outputs=len(fields),
                     indices_message=EXPECTED)
       for name, fields in NAMED_OUTS.items()},
    # random numbers drawn straight into out, in out's dtype (_ops/drawn_into_out.py)
    "bernoulli": OutRule("drawn"), "normal": OutRule("drawn"),
    # creation: made in out's dtype
    **{name: _created for name in (
        "zeros", "ones", "full", "arange", "rand", "randn", "randint", "eye", "linspace",
        "randperm", "empty")},
}

# The name PyTorch's autograd message gives a function: its own, the original's for an alias
# (torch.subtract is sub), "aten::" + name for creation functions; None: not checked (PyTorch
# does not differentiate these, so an input that requires grad is fine).
GRAD_NAMES = {
    "square": "pow", "negative": "neg", "fix": "trunc", "arcsin": "asin", "arccos": "acos",
    "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
    "arctan2": "atan2", "true_divide": "div", "divide": "div", "subtract": "sub",
    "multiply": "mul", "outer": "mul", "concat": "cat", "clip": "clamp",
    "norm": "linalg_vector_norm", "float_power": "pow", "absolute": "abs", "take_along_dim": "gather",
    "chain_matmul": "mm", "tensordot": None, "inner": None, "kron": "mul", "ger": "mul",
    "msort": "sort", "diff": "sub", "quantile": None, "nanquantile": None, "histc": None,
    "searchsorted": None, "bucketize": None,
    "linalg_det": "_linalg_det", "linalg_inv": "linalg_inv_ex", "inverse": "linalg_inv_ex",
    "linalg_solve": "_linalg_solve_ex", "linalg_cholesky": "linalg_cholesky_ex",
    "linalg_svdvals": "_linalg_svd", "linalg_eigvalsh": "_linalg_eigh", "linalg_matrix_rank": "sum",
    "linalg_vecdot": "sum", "linalg_matrix_power": "matmul", "matrix_power": "matmul",
    "linalg_multi_dot": "mm", "linalg_matmul": "matmul", "lu_solve": "linalg_lu_solve",
    "linalg_ldl_solve": "aten::linalg_ldl_solve", "cross": "linalg_cross",
    "linalg_slogdet": "_linalg_slogdet", "slogdet": "_linalg_slogdet", "linalg_solve_ex": "_linalg_solve_ex",
    "linalg_lu_factor": "linalg_lu_factor_ex", "linalg_svd": "_linalg_svd", "svd": "_linalg_svd",
    "linalg_eigh": "_linalg_eigh", "qr": "linalg_qr",
    "linalg_ldl_factor": "aten::linalg_ldl_factor_ex", "linalg_ldl_factor_ex": "aten::linalg_ldl_factor_ex",
    # (composed of others: see COPIED_INTO_OUT)
    **{name: None for name in ("linalg_matrix_norm", "linalg_norm", "linalg_cond", "linalg_tensorinv",
                               "linalg_tensorsolve")},
    **{name: "aten::" + name for name, rule in OUT_RULES.items() if rule is _created},
    **{name: None for name in (
        "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal",
        "not_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "signbit",
        "isposinf", "isneginf", "floor_divide", "argmax", "argmin", "all", "any", "nonzero",
        "softmax", "log_softmax", "diag", "heaviside", "bitwise_and", "bitwise_or", "bitwise_xor",
        "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "gcd", "lcm",
        "conj_physical")},
}

# PyTorch's composite functions that write into out their own way: addbmm resizes out itself,
# without the warning; kron writes through a view of out that autograd never sees, so out's
# version stays as it was.
RESIZED_SILENTLY = ("addbmm",)
VERSION_KEPT = ("kron",)

# Matrix products whose out= into windows that overlap is written in PyTorch's order
# (overlapping_products.py).
PRODUCTS_IN_LOOP_ORDER = ("addmm", "addbmm", "baddbmm", "addr", "mm", "bmm")

# PyTorch's composite linear-algebra functions compute their result as usual (recorded), then
# copy it into out with copy_ (recorded too: out's grad_fn is CopyBackwards).
COPIED_INTO_OUT = ("linalg_matrix_norm", "linalg_norm", "linalg_cond", "linalg_tensorinv",
                   "linalg_tensorsolve")

# Functions without a derivative (their node is NotImplemented): PyTorch refuses an out that
# requires grad, but records its node into out when an input requires grad.
RECORDED_INTO_OUT = ("linalg_ldl_factor", "linalg_ldl_factor_ex", "linalg_ldl_solve")

# Deprecated functions whose out= variant warns on its own (the function's own warning is not
# given then): ger at every call, chain_matmul once (with another line of PyTorch's).
OUT_WARNINGS = {"ger": ("GER_WARNING", False), "chain_matmul": ("CHAIN_MATMUL_OUT_WARNING", True)}

# Functions without out= whose PyTorch signatures are several: PyTorch says none matched.
NO_OUT_OVERLOADED = ("argsort", "count_nonzero", "narrow", "rand_like", "randn_like", "rsub",
                     "squeeze")


def call_with_out(function, name, rule, args, kwargs):
    """``function(*args, **kwargs)`` (kwargs holding ``out``) with its result written into ``out``;
    ``rule``: the function's ``OutRule``, None if it takes no out=."""
    out = kwargs.pop("out")
    if out is None and rule is not None:
        return function(*args, **kwargs)          # out=None: an ordinary call, as in PyTorch
    if rule is not None and name in ("max", "min") and not _has_dim(args, kwargs):
        rule = _cast                               # max(x, out=t), max(x, y, out=t)
    if name == "bucketize" and not isinstance(args[0] if args else kwargs.get("input"), Tensor):
        # bucketize(number, boundaries) has no out= (PyTorch lists the keywords last given first)
        from ._python_arg_parser import invalid_combination
        raise invalid_combination(name, args, dict(reversed({**kwargs, "out": out}.items())))
    if rule is None or (rule.dim_required and not _has_dim(args, kwargs)):
        if rule is None and name not in NO_OUT_OVERLOADED:
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        from ._python_arg_parser import invalid_combination
        raise invalid_combination(name, args, {**kwargs, "out": out})
    outs = _check_out_argument(name, rule, args, kwargs, out)
    if name in COPIED_INTO_OUT:
        result = function(*args, **kwargs)
        _check_dtype(name, rule, result, out, args)
        resize_output(out, _row_major(result) if name in ROW_MAJOR_OUTS else result)
        return out.copy_(result)
    if name in OUT_WARNINGS:
        _warn_for_out_variant(*OUT_WARNINGS[name])
    if name in ("randn", "empty") and out._graph_requires_grad:
        raise RuntimeError("cannot resize variables that require grad")    # (its first step: resize_)
    grad_name = GRAD_NAMES.get(name, name)
    if name == "normal" and not any(isinstance(a, Tensor) for a in (*args, *kwargs.values())):
        grad_name = "aten::normal"          # (normal(mean, std, size) is a creation function)
    looked_at = ((), {}) if name in RECORDED_INTO_OUT else (args, kwargs)
    if _State.enabled and grad_name is not None and _any_requires_grad(outs, *looked_at):
        raise RuntimeError(
            f"{grad_name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.")
    if _grad_mode._inference_tensors_exist:
        for target in outs:               # (an inference tensor changes only in inference_mode)
            _grad_mode.check_inplace_allowed(target)
    if rule.dtype == "drawn":
        from ._ops.drawn_into_out import drawn_into_out
        return drawn_into_out(name, out, args, kwargs)
    if rule.dtype == "create" and not out._array.flags.c_contiguous:
        from ._ops.drawn_into_out import drawn_in_out_layout
        if drawn_in_out_layout(name, out, args, kwargs) is not None:
            return out
    if name == "mean" and outs[0]._array.dtype.kind not in "fc":
        input = args[0] if args else kwargs["input"]        # (the mean of floats is no integer)
        raise RuntimeError(CAST.format(result=scalar_type_name(input.dtype),
                                       out=scalar_type_name(outs[0].dtype)))
    if name == "nansum" and outs[0]._array.dtype.kind != "f":
        input = args[0] if args else kwargs["input"]        # (its kernel runs in out's dtype)
        if input._array.dtype.kind == "f":
            raise NotImplementedError(f'"nansum_cpu" not implemented for '
                                      f"'{scalar_type_name(outs[0].dtype)}'")
    if rule.dtype in ("compute", "create"):
        kwargs = _in_out_dtype(rule, kwargs, outs[0])
    if name == "baddbmm":           # (its out's dtype is checked before its kernel's dtypes)
        from ._ops.blas import check_baddbmm_out
        check_baddbmm_out(out, *args, **kwargs)
    # (nothing to record, but for RECORDED_INTO_OUT: the values are copied into out)
    with (_grad_mode.enable_grad() if name in RECORDED_INTO_OUT and _State.enabled else _no_grad()):
        if name in OUT_WARNINGS:                 # (it gave its own warning above)
            own_warnings_muted.append(name)
        try:
            results = function(*args, **kwargs)
        finally:
            if name in OUT_WARNINGS:
                own_warnings_muted.pop()
    if rule.outputs == 1:
        results = (results,)
    if name in ("searchsorted", "bucketize") and outs[0]._array.dtype != results[0]._array.dtype:
        # (its own words: the dtype out must have depends on the out_int32 flag)
        raise RuntimeError("torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) "
                           "or Long(int64) depending on whether out_int32 flag is True, but we got output "
                           f"tensor's dtype {scalar_type_name(outs[0].dtype)} and out_int32 flag is "
                           f"{results[0]._array.dtype == np.int32}")
    for position, (result, target) in enumerate(zip(results, outs)):
        if name in CASTABLE_OUTS:
            _check_castable(name, position, result, target)
        _check_dtype(name, rule, result, target, args, indices=position == 1)
    for result, target in zip(results, outs):
        memory_before = target._array
        if rule.overlap == "any after resize":
            resize_output(target, result)
        _check_memory(rule, target, args, memory_before)
    if name in CASTABLE_OUTS:       # (cast into out: PyTorch resizes it row by row, then copies)
        results = [r if r._array.dtype == t._array.dtype else _row_major(r) for r, t in zip(results, outs)]
    if name in ROW_MAJOR_OUTS or (name in ROW_MAJOR_IF_RESIZED and outs[0]._array.size):
        results = [_row_major(r) for r in results]
    if name in PRODUCTS_IN_LOOP_ORDER and outs[0]._array.shape == results[0]._array.shape:
        from ._ops.inplace import overlaps_itself
        if overlaps_itself(outs[0]._array) or (name in ("bmm", "baddbmm") and any(
                isinstance(a, Tensor) and np.shares_memory(a._array, outs[0]._array) for a in args)):
            # (out's elements share memory, or bmm's loop reads what it wrote: PyTorch's order)
            from ._ops.overlapping_products import written_into_out
            from ._tensor import _wrap
            values = written_into_out(name, outs[0], args, kwargs)
            results = results if values is None else [_wrap(values)]
    for result, target in zip(results, outs):
        if rule.dtype == "create":
            _resize_for_creation(name, target, result)
        if name == "empty":
            return out                     # (only resized: its values are whatever they were)
        if name in RESIZED_SILENTLY and target._array.shape != result._array.shape:
            target._array = _resized(target, result._array)
        write_into(target, result, _shapes_in_warning(name, target, result, args, kwargs),
                   counted=name not in VERSION_KEPT)
    for result, target in zip(results, outs):
        if name in RECORDED_INTO_OUT and result._grad_fn is not None:
            target._grad_fn, target._output_nr = result._grad_fn, result._output_nr
    if rule.outputs == 1:
        return out
    if name == "svd":
        bump_version(outs[2])        # (PyTorch writes Vh into V, then transposes it in place)
    return _named_result(name)(*outs)


def _warn_for_out_variant(message_name, once):
    """The deprecation warning of ger's or chain_matmul's out= variant (see OUT_WARNINGS)."""
    from ._ops import products          # lazy: the operations import this module's users
    message = getattr(products, message_name)
    if once:
        warn_once(message)
    else:
        warnings.warn(message, UserWarning, stacklevel=stacklevel_outside_minigrad())


def _check_out_argument(name, rule, args, kwargs, out):
    """``out`` must be a tensor (a pair of them for functions with two results)."""
    if rule.outputs == 1:
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type_name(out)}")
        return (out,)
    if not isinstance(out, (tuple, list)) and name in NAMED_OUTS:
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {type_name(out)}")
    if not isinstance(out, (tuple, list)):
        from ._python_arg_parser import invalid_combination
        raise invalid_combination(name, args, {**kwargs, "out": out})
    if len(out) != rule.outputs:
        raise TypeError(f"expected tuple of {rule.outputs} elements but got {len(out)}")
    for k, item in enumerate(out):
        if not isinstance(item, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument {len(args)}, but got "
                            f"{type_name(item)}")
    return tuple(out)


def _has_dim(args, kwargs):
    """Was a dim given? (max(x, 1) has one, max(x, y) is the elementwise maximum)"""
    return "dim" in kwargs or (len(args) > 1 and not isinstance(args[1], Tensor))


def _any_requires_grad(outs, args, kwargs):
    """Would autograd record this call? (an input or an out requires grad, a list's items too)"""
    tensors = list(outs)
    for value in (*args, *kwargs.values()):
        if isinstance(value, Tensor):
            tensors.append(value)
        elif isinstance(value, (tuple, list)):            # cat([a, b]), stack(...)
            tensors.extend(v for v in value if isinstance(v, Tensor))
    return needs_grad(tensors)


def _in_out_dtype(rule, kwargs, out):
    """sum, cumsum, ... compute in ``out``'s dtype; ``dtype=`` given as well must agree."""
    asked = kwargs.get("dtype")
    if asked is not None and to_numpy_dtype(asked) != out._array.dtype:
        from ._dtype import from_numpy_dtype
        asked = from_numpy_dtype(to_numpy_dtype(asked))
        if rule.dtype == "create":
            raise RuntimeError(f"dtype {scalar_type_name(asked)} does not match dtype of out "
                               f"parameter ({scalar_type_name(out.dtype)})")
        raise RuntimeError(rule.message.format(
            result=scalar_type_name(asked), out=scalar_type_name(out.dtype),
            result_cpp=cpp_type_name(asked), out_cpp=cpp_type_name(out.dtype)))
    return {**kwargs, "dtype": out.dtype}


def _check_dtype(name, rule, result, out, args, indices=False):
    """PyTorch's error when ``out``'s dtype can't take ``result`` (see ``OutRule.dtype``)."""
    have, want = out._array.dtype, result._array.dtype
    if rule.dtype == "float":
        fits = have.kind == "f"
    elif rule.dtype == "cast":
        fits = have == want or _can_cast(result, out)
    elif rule.dtype == "bool":
        fits = have.kind == "b"
    elif rule.dtype in ("compute", "create"):
        fits = True
    else:
        fits = have == want
    if fits and name in ("matrix_power", "linalg_matrix_power") and have != want:
        fits, rule = False, _expected        # (castable, then refused by the matmul it runs)
    if fits:
        return
    message = rule.indices_message if indices else rule.message
    if rule.dtype == "compute":
        message = CAST
    elif name == "matmul" and all(isinstance(a, Tensor) and a.ndim == 1 for a in args[:2]):
        message = OUT_RULES["dot"].message        # matmul of two vectors runs dot
    raise rule.error(message.format(
        result=scalar_type_name(result.dtype), out=scalar_type_name(out.dtype),
        result_cpp=cpp_type_name(result.dtype), out_cpp=cpp_type_name(out.dtype),
        result_type=_legacy_type_name(result.dtype), out_type=_legacy_type_name(out.dtype),
        input=scalar_type_name(args[0].dtype) if args and isinstance(args[0], Tensor) else ""))


def _row_major(tensor):
    """``tensor``'s values laid out row by row (C order)."""
    from ._tensor import _wrap
    return _wrap(np.array(tensor._array, order="C"))       # (ascontiguousarray makes 0-d 1-d)


def _check_castable(name, position, result, out):
    """lstsq's and geqrf's check of each out: the result must cast into it (PyTorch's text names
    the output; an lstsq singular_values of another floating dtype fails its internal assert)."""
    field = NAMED_OUTS[name][position]
    if field == "residuals":
        field = "solution"          # (PyTorch's message names the solution for both)
    if name == "linalg_lstsq" and field == "singular_values" and out._array.dtype.kind == "f" \
            and out._array.dtype != result._array.dtype and result._array.size == 0:
        # (a driver that computes none: PyTorch then asserts their dtype)
        raise RuntimeError('singular_values.scalar_type() == real_dtype INTERNAL ASSERT FAILED at '
                           '"/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":3381, '
                           "please report a bug to PyTorch. ")
    if out._array.dtype != result._array.dtype and not _can_cast(result, out):
        raise RuntimeError(f"{CASTABLE_OUTS[name]}: Expected {field} to be safely castable from "
                           f"{scalar_type_name(result.dtype)} dtype, but got {field} with dtype "
                           f"{scalar_type_name(out.dtype)}")


def _legacy_type_name(dtype):
    """The old name of a tensor type (torch.FloatTensor) as PyTorch's argument checks print it."""
    name = scalar_type_name(dtype)
    return "CPUBoolType" if name == "Bool" else f"torch.{name}Tensor"


def _check_memory(rule, out, args, memory_before):
    """``out`` may not write one memory location twice, nor overlap an input as ``rule.overlap``
    says (PyTorch's checks; where it makes none, see the README). ``memory_before``: out's
    memory before a resize (PyTorch grows the same storage; minigrad may have moved out)."""
    if _overlaps(out._array):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")
    if not rule.overlap:
        return
    inputs = [v for a in args for v in (a if isinstance(a, (tuple, list)) else (a,))
              if isinstance(v, Tensor) and v._version_counter is out._version_counter]
    for input in inputs:
        if rule.overlap == "partial":
            _check_partial_overlap(out, input)
        elif (np.shares_memory(out._array, input._array)
              or np.shares_memory(memory_before, input._array)):
            raise RuntimeError(
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.")


RESIZE_WARNING = (
    "An output with one or more elements was resized since it had shape {old}, which does not "
    "match the required output shape {new}. This behavior is deprecated, and in a future PyTorch "
    "release outputs will not be resized unless they have zero elements. You can explicitly reuse "
    "an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).")
# (PyTorch's text goes on " (Triggered internally at <its C++ file>:<line>.)", a place in its own
# sources that says nothing about the learner's program, so minigrad leaves that out)


ARANGE_WARNING = (
    "The number of elements in the out tensor of shape {old} is {count} which does not match the "
    "computed number of elements {new_count}. Note that this may occur as a result of rounding "
    "error. The out tensor will be resized to a tensor of shape ({new}).")


def _resize_for_creation(name, out, result):
    """Creation functions resize out without the deprecation warning (they call resize_); arange
    warns when the number of elements differs (a hint at rounding in its step), and randn's
    and empty's resize_ counts as a change of its own."""
    array, shape = out._array, result._array.shape
    if array.shape == shape:
        return
    if name == "arange" and array.size not in (0, result._array.size):
        warnings.warn(ARANGE_WARNING.format(
            old=list(array.shape), count=array.size, new_count=result._array.size,
            new=", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "")),
            UserWarning, stacklevel=stacklevel_outside_minigrad())
    out._array = _resized(out, result._array)
    if name in ("randn", "empty"):
        bump_version(out)


def _shapes_in_warning(name, out, result, args, kwargs):
    """The shapes PyTorch's resize warning names. kthvalue and mode resize their outs with the
    reduced dim kept, after putting that dim back into an out of the squeezed rank (kthvalue)
    or into any out with dims (mode); None: the shapes as they are."""
    if name not in ("kthvalue", "mode"):
        return None
    names = ("input", "k", "dim", "keepdim") if name == "kthvalue" else ("input", "dim", "keepdim")
    given = dict(zip(names, args), **kwargs)
    if given.get("keepdim", False):
        return None
    dim = given.get("dim", -1)
    input = given["input"]
    dim = dim + input.ndim if dim < 0 else dim
    kept = list(result._array.shape)
    kept.insert(dim, 1)
    old = list(out._array.shape)
    if (old and name == "mode") or len(old) == input.ndim - 1:
        old.insert(dim, 1)
    return old, kept


def resize_output(out, result, shapes_in_warning=None):
    """Give ``out`` ``result``'s shape if it has another one: silently if ``out`` is empty, else
    with PyTorch's deprecation warning (``shapes_in_warning``: the shapes it names, if not
    ``out``'s and ``result``'s)."""
    array = out._array
    if array.shape == result._array.shape:
        return
    old, new = shapes_in_warning or (list(array.shape), list(result._array.shape))
    if array.size and old != new:
        warnings.warn(RESIZE_WARNING.format(old=old, new=new),
                      UserWarning, stacklevel=stacklevel_outside_minigrad())
    out._array = _resized(out, result._array)


def write_into(out, result, shapes_in_warning=None, counted=True):
    """Copy ``result``'s values into ``out`` (resized first if its shape differs), in place
    (``counted``: a change of ``out``'s version, as nearly always)."""
    resize_output(out, result, shapes_in_warning)
    array = out._array
    if not array.flags.writeable:
        array = out._array = np.lib.stride_tricks.as_strided(array, writeable=True)
    np.copyto(array, result._array, casting="unsafe")
    if counted:
        bump_version(out)


def _resized(out, like):
    """``out``'s array given ``like``'s shape and layout: in ``out``'s own memory if that holds
    enough bytes from where ``out`` starts (PyTorch resizes the storage, which for a view is its
    base's, so the base sees the values), else in that memory grown (as by resize_)."""
    array = out._array
    strides = like.strides if _dense(like) else None
    if strides is not None:
        strides = tuple(s // like.itemsize * array.itemsize for s in strides)
    storage = out._base._array if out._base is not None else array
    if storage.flags.c_contiguous and storage.flags.writeable:
        offset = array.__array_interface__["data"][0] - storage.__array_interface__["data"][0]
        if 0 <= offset and offset + like.size * array.itemsize <= storage.nbytes:
            memory = storage.reshape(-1).view(np.uint8)
            return np.ndarray(like.shape, array.dtype, memory, offset, strides)
    # (else the memory grows, as resize_ grows it: out's base and its other views follow)
    from ._ops.resize import grown_over_memory
    steps = None if strides is None else tuple(s // array.itemsize for s in strides)
    return grown_over_memory(out, like.shape, steps)


def _dense(array):
    """Each element of ``array`` at its own place, no gaps (a layout to copy into new memory)."""
    if array.size <= 1:
        return True
    if any(s < 0 for s in array.strides):
        return False
    span = sum((n - 1) * s for n, s in zip(array.shape, array.strides)) + array.itemsize
    return span == array.size * array.itemsize


_NAMED_RESULTS = {}


def _named_result(name):
    """PyTorch's ``torch.return_types.max_out`` and the like: (values, indices) with names."""
    named = _NAMED_RESULTS.get(name)
    if named is None and name in NAMED_OUTS:
        from ._ops.decompositions import named_result
        named = _NAMED_RESULTS[name] = named_result(name + "_out", NAMED_OUTS[name])
    if named is None:
        named = _NAMED_RESULTS[name] = type(name + "_out", (return_types._ValuesIndices,),
                                            {"_name": name + "_out"})
    return named
