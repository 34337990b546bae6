"""Wrong input, as beginners write it: minigrad must fail exactly as PyTorch fails.

Each row is a snippet of code run twice, with ``lib = minigrad`` and with
``lib = torch`` (``F`` is ``lib.nn.functional``), on the same starting
tensors. The two runs must end the same way:

* both raise: the exception classes are the same, and PyTorch's message
  (its first line when it is long or machine-specific) appears in
  minigrad's, which may add its own advice on a line ``minigrad hint: ...``;
* both warn: the same warning classes, PyTorch's text in minigrad's;
* neither raises: the results agree (e.g. the mean of an empty tensor is nan).

After every row, a follow-up computation checks that the library still works:
grad mode on, default dtype float32, and a fresh gradient is right.
"""
import re
import warnings

import numpy as np
import pytest

import minigrad

SETUP = """
x = lib.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
v = lib.tensor([1., 2., 3.])
i = lib.tensor([1, 2, 3])
m = lib.ones(3, 4)
logits = lib.tensor([[1., 2., 3.], [1., 0., -1.]], requires_grad=True)
target = lib.tensor([0, 2])
"""

CUSTOM_FUNCTION = """
class Square(lib.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return BACKWARD
"""


def custom(backward, call):
    return CUSTOM_FUNCTION.replace("BACKWARD", backward) + call


ROWS = [
    # --- non-tensor arguments to functions -----------------------------------------------
    ("exp_list", "lib.exp([1., 2.])"),
    ("relu_none", "lib.relu(None)"),
    ("sin_float", "lib.sin(3.0)"),
    ("log_str", "lib.log('x')"),
    ("sigmoid_list", "lib.sigmoid([1.])"),
    ("tanh_tuple", "lib.tanh((1.,))"),
    ("sqrt_int", "lib.sqrt(4)"),
    ("abs_list", "lib.abs([-1])"),
    ("neg_list", "lib.neg([1.])"),
    ("cos_none", "lib.cos(None)"),
    ("sum_list", "lib.sum([1, 2])"),
    ("mean_list", "lib.mean([1., 2.])"),
    ("max_list", "lib.max([1, 2])"),
    ("min_none", "lib.min(None)"),
    ("argmax_list", "lib.argmax([1, 2])"),
    ("matmul_lists", "lib.matmul([[1.]], [[1.]])"),
    ("matmul_list_right", "lib.matmul(m, [[1.]])"),
    ("mm_list", "lib.mm(m, [[1.]])"),
    ("dot_list", "lib.dot(v, [1., 2., 3.])"),
    ("add_list_first", "lib.add([1.], v)"),
    ("mul_list_second", "lib.mul(v, [1., 2., 3.])"),
    ("add_none", "lib.add(v, None)"),
    ("cat_tensor_not_list", "lib.cat(x, x)"),
    ("cat_empty", "lib.cat([])"),
    ("stack_empty", "lib.stack([])"),
    ("stack_tensor", "lib.stack(x)"),
    ("cat_list_with_list", "lib.cat([x, [1., 2., 3.]])"),
    ("stack_with_number", "lib.stack([v, 1.0])"),
    ("softmax_list", "F.softmax([1., 2.], dim=0)"),
    ("relu_functional_str", "F.relu('x')"),
    ("mse_loss_list", "F.mse_loss(v, [1., 2., 3.])"),
    ("reshape_list", "lib.reshape([1, 2], (2,))"),
    ("transpose_list", "lib.transpose([[1.]], 0, 1)"),
    ("flatten_none", "lib.flatten(None)"),
    ("where_list_condition", "lib.where([True, False], v[:2], v[:2])"),
    ("clamp_list", "lib.clamp([1., 2.], min=0)"),
    ("pow_list", "lib.pow([1., 2.], 2)"),
    ("cumsum_list", "lib.cumsum([1, 2], dim=0)"),
    ("gather_list", "lib.gather([1., 2.], 0, i)"),
    ("einsum_list_operand", "lib.einsum('i,i->', v, [1., 2., 3.])"),
    ("bmm_list", "lib.bmm([[[1.]]], [[[1.]]])"),
    ("from_numpy_list", "lib.from_numpy([1, 2])"),
    ("numel_list", "lib.numel([1, 2])"),
    ("is_floating_point_list", "lib.is_floating_point([1.])"),
    # --- making tensors -------------------------------------------------------------------
    ("tensor_none", "lib.tensor(None)"),
    ("tensor_str", "lib.tensor('abc')"),
    ("tensor_ragged", "lib.tensor([[1, 2], [3]])"),
    ("tensor_dict", "lib.tensor({'a': 1})"),
    ("tensor_list_of_str", "lib.tensor(['a', 'b'])"),
    ("tensor_dtype_str", "lib.tensor([1, 2], dtype='float32')"),
    ("zeros_dtype_str", "lib.zeros(2, dtype='float32')"),
    ("ones_dtype_numpy", "lib.ones(2, dtype=np.float32)"),
    ("zeros_float_size", "lib.zeros(2.5)"),
    ("ones_float_second_size", "lib.ones(2, 3.5)"),
    ("randn_str_size", "lib.randn('3')"),
    ("zeros_negative", "lib.zeros(-1)"),
    ("ones_negative_second", "lib.ones(2, -3)"),
    ("zeros_too_large", "lib.zeros(10**13)"),
    ("ones_too_large_2d", "lib.ones(10**7, 10**7)"),
    ("arange_zero_step", "lib.arange(0, 10, 0)"),
    ("arange_wrong_direction", "lib.arange(0, 10, -1)"),
    ("eye_negative", "lib.eye(-1)"),
    ("full_str_value", "lib.full((2,), 'a')"),
    ("linspace_no_steps", "lib.linspace(0, 1)"),
    ("tensor_int_requires_grad", "lib.tensor([1, 2], requires_grad=True)"),
    ("ones_int_requires_grad", "lib.ones(2, dtype=lib.int64, requires_grad=True)"),
    ("arange_requires_grad", "lib.arange(3, requires_grad=True)"),
    ("zeros_bool_requires_grad", "lib.zeros(2, dtype=lib.bool, requires_grad=True)"),
    ("copy_construct_warning", "lib.tensor(x)"),
    ("as_tensor_none", "lib.as_tensor(None)"),
    ("ones_tuple_and_tuple", "lib.ones((2, 3), (4,))"),
    ("manual_seed_str", "lib.manual_seed('a')"),
    ("randint_no_size", "lib.randint(5)"),
    # --- attributes ----------------------------------------------------------------------
    ("requires_grad_str", "x.detach().requires_grad = 'yes'"),
    ("int_requires_grad_attr", "i.requires_grad = True"),
    ("non_leaf_requires_grad_false", "(x * 2).requires_grad = False"),
    ("requires_grad_underscore_int", "i.requires_grad_()"),
    ("data_list", "x.data = [1., 2.]"),
    ("data_none", "x.data = None"),
    ("grad_list", "x.grad = [1.]"),
    ("grad_wrong_shape", "x.grad = lib.ones(3)"),
    ("grad_wrong_dtype", "x.grad = lib.ones(2, 3, dtype=lib.float64)"),
    ("non_leaf_grad_warning", "(x * 2).grad"),
    ("retain_grad_no_requires", "v.retain_grad()"),
    ("hook_no_requires", "v.register_hook(lambda g: g)"),
    ("shape_index_out_of_range", "x.shape[2]"),
    ("size_dim_out_of_range", "x.size(2)"),
    # --- shapes ----------------------------------------------------------------------------
    ("view_float_size", "x.view(3.0, 2)"),
    ("view_bad_numel", "x.view(4, 2)"),
    ("view_two_minus_one", "x.view(-1, -1)"),
    ("view_str", "x.view('a')"),
    ("view_non_contiguous", "x.t().view(-1)"),
    ("reshape_bad_numel", "x.reshape(5)"),
    ("reshape_minus_one_bad", "x.reshape(-1, 4)"),
    ("transpose_out_of_range", "x.transpose(0, 2)"),
    ("permute_too_few", "x.permute(0)"),
    ("permute_repeated", "x.permute(0, 0)"),
    ("squeeze_out_of_range", "x.squeeze(3)"),
    ("unsqueeze_out_of_range", "x.unsqueeze(5)"),
    ("flatten_bad_dims", "x.flatten(1, 0)"),
    ("expand_bad", "x.expand(3, 3)"),
    ("expand_too_few", "x.expand(2)"),
    ("repeat_too_few", "x.repeat(2)"),
    ("flip_out_of_range", "x.flip(2)"),
    ("split_zero", "x.split(0)"),
    ("chunk_zero", "x.chunk(0)"),
    ("select_out_of_range", "x.select(0, 5)"),
    ("t_of_3d", "lib.ones(2, 2, 2).t()"),
    ("narrow_too_long", "x.narrow(1, 2, 3)"),
    # --- joining -------------------------------------------------------------------------
    ("cat_mismatch", "lib.cat([x, lib.ones(3, 3)], dim=1)"),
    ("cat_dims_mismatch", "lib.cat([x, v])"),
    ("cat_dim_out_of_range", "lib.cat([x, x], dim=2)"),
    ("stack_mismatch", "lib.stack([x, lib.ones(3, 2)])"),
    ("stack_dim_out_of_range", "lib.stack([v, v], dim=3)"),
    # --- indexing ------------------------------------------------------------------------
    ("index_out_of_range", "x[5]"),
    ("too_many_indices", "x[0, 0, 0]"),
    ("index_str", "x['a']"),
    ("index_float", "x[1.5]"),
    ("index_tensor_out_of_range", "v[lib.tensor([5])]"),
    ("index_float_tensor", "v[lib.tensor([0.])]"),
    ("index_bool_mask_wrong_shape", "v[lib.tensor([True, False])]"),
    ("setitem_shape_mismatch", "y = x.detach().clone(); y[0] = lib.ones(4)"),
    ("setitem_column_mismatch", "y = x.detach().clone(); y[:, 0] = lib.ones(3)"),
    ("setitem_list_wrong_length", "y = v.clone(); y[:] = [1., 2.]"),
    ("setitem_str", "y = v.clone(); y[0] = 'a'"),
    ("setitem_on_leaf", "x[0] = 1."),
    ("gather_float_index", "x.gather(0, lib.tensor([[0., 1.]]))"),
    ("gather_out_of_bounds", "x.gather(0, lib.tensor([[5, 1]]))"),
    ("gather_wrong_ndim", "x.gather(0, lib.tensor([0, 1]))"),
    ("index_select_matrix", "x.index_select(0, lib.tensor([[0]]))"),
    ("index_select_float", "x.index_select(0, lib.tensor([0.]))"),
    ("index_select_out_of_range", "x.index_select(0, lib.tensor([7]))"),
    ("scatter_dtype_mismatch", "x.detach().scatter(0, lib.tensor([[0, 1]]), x.detach().double())"),
    ("masked_fill_float_mask", "x.masked_fill(x, 0.)"),
    ("masked_fill_shape", "x.masked_fill(lib.tensor([True, False]), 0.)"),
    ("where_float_condition", "lib.where(v, v, v)"),
    ("where_broadcast", "lib.where(v > 1, v, v[:2])"),
    # --- arithmetic ----------------------------------------------------------------------
    ("add_broadcast", "x + lib.ones(3, 2)"),
    ("mul_broadcast", "x * lib.ones(4)"),
    ("add_str", "x + 'a'"),
    ("add_none_operator", "x + None"),
    ("mul_list_operator", "x * [1, 2, 3]"),
    ("sub_dict", "x - {}"),
    ("int_negative_power", "i ** -1"),
    ("pow_str", "x.pow('a')"),
    ("clamp_no_bounds", "lib.clamp(x)"),
    ("clamp_str", "x.clamp(min='a')"),
    ("int_mean", "i.mean()"),
    ("int_tensor_inplace_float", "j = i.clone(); j += 1.5"),
    ("inplace_broadcast_grow", "y = v.clone(); y += lib.ones(2, 3)"),
    ("compare_broadcast", "v < lib.ones(2)"),
    ("compare_str", "v < 'a'"),
    # --- matrix products -----------------------------------------------------------------
    ("matmul_mismatch", "x @ x"),
    ("mm_mismatch", "lib.mm(x, x)"),
    ("mm_vectors", "lib.mm(v, v)"),
    ("mv_mismatch", "lib.mv(x, lib.ones(2))"),
    ("dot_mismatch", "lib.dot(v, lib.ones(2))"),
    ("dot_dtype", "lib.dot(v, i)"),
    ("matmul_dtype", "x @ lib.ones(3, dtype=lib.float64)"),
    ("matmul_0d", "lib.matmul(lib.tensor(1.), v)"),
    ("row_times_row", "lib.tensor([[1., 2.]]) @ lib.tensor([[1., 2.]])"),
    ("vector_times_matrix_mismatch", "lib.tensor([1., 2.]) @ lib.ones(3, 2)"),
    ("bmm_2d", "lib.bmm(x, x)"),
    ("bmm_batch_mismatch", "lib.bmm(lib.ones(2, 3, 4), lib.ones(3, 4, 5))"),
    ("linear_mismatch", "F.linear(x, lib.ones(2, 2))"),
    ("einsum_too_few_operands", "lib.einsum('ij,jk', x)"),
    ("einsum_size_mismatch", "lib.einsum('ij,jk->ik', x, x)"),
    ("einsum_unknown_output", "lib.einsum('ij->k', x)"),
    # --- reductions and other ops ----------------------------------------------------------
    ("sum_dim_out_of_range", "x.sum(dim=2)"),
    ("sum_repeated_dim", "x.sum(dim=(0, 0))"),
    ("mean_dim_str", "x.mean(dim='a')"),
    ("argmax_dim_out_of_range", "x.argmax(dim=5)"),
    ("max_keepdim_str", "x.max(dim=1, keepdim='a')"),
    ("empty_argmax", "lib.tensor([]).argmax()"),
    ("empty_max", "lib.tensor([]).max()"),
    ("empty_mean_is_nan", "result = lib.tensor([]).mean()"),
    ("empty_sum_is_zero", "result = lib.tensor([]).sum()"),
    ("empty_softmax", "result = F.softmax(lib.tensor([]), dim=0)"),
    ("empty_argmax_dim", "lib.ones(0, 3).argmax(dim=0)"),
    ("cumsum_no_dim", "lib.cumsum(x)"),
    ("prod_tuple_dim", "x.prod((0, 1))"),
    ("topk_too_large", "x.topk(5)"),
    ("sort_dim_out_of_range", "x.sort(dim=3)"),
    ("roll_misaligned", "lib.roll(x, (1, 2), 0)"),
    ("softmax_dim_out_of_range", "F.softmax(x, dim=2)"),
    ("softmax_float_dim", "lib.softmax(x, dim=0.5)"),
    ("softmax_no_dim_warning", "F.softmax(x)"),
    ("log_softmax_no_dim_warning", "F.log_softmax(x)"),
    # --- conversions -----------------------------------------------------------------------
    ("numpy_requires_grad", "x.numpy()"),
    ("item_many", "x.item()"),
    ("float_many", "float(x)"),
    ("int_many", "int(x)"),
    ("bool_many", "bool(x)"),
    ("if_tensor", "if v > 1:\n    pass"),
    ("format_many", "'{:.2f}'.format(x)"),
    ("len_0d", "len(lib.tensor(1.))"),
    ("iter_0d", "for a in lib.tensor(1.):\n    pass"),
    ("index_with_float_tensor_scalar", "[1, 2][lib.tensor(0.)]"),
    ("to_gpu", "x.to('gpu')"),
    ("type_bad_name", "x.type('torch.Nonsense')"),
    # --- backward ----------------------------------------------------------------------------
    ("backward_non_scalar", "(x * 2).backward()"),
    ("backward_twice", "y = (x * x).sum(); y.backward(); y.backward()"),
    ("backward_number", "(x * 2).sum().backward(2.0)"),
    ("backward_gradient_list", "(x * 2).backward(gradient=[1.])"),
    ("backward_wrong_shape", "(x * 2).backward(lib.ones(3))"),
    ("backward_scalar_wrong_shape", "x.sum().backward(lib.ones(2))"),
    ("backward_no_grad_tensor", "v.sum().backward()"),
    ("backward_under_no_grad", "with lib.no_grad():\n    y = (x * 2).sum()\ny.backward()"),
    ("grad_twice", "y = x.exp().sum(); lib.autograd.grad(y, x); lib.autograd.grad(y, x)"),
    ("grad_unused_input", "lib.autograd.grad((x * 2).sum(), logits)"),
    ("grad_of_no_grad_output", "lib.autograd.grad(v.sum(), v)"),
    ("grad_non_scalar", "lib.autograd.grad(x * 2, x)"),
    ("grad_input_no_requires", "lib.autograd.grad((x * 2).sum(), v)"),
    ("modified_saved_tensor", "y = x * 2; z = y * y; y.add_(1); z.sum().backward()"),
    ("modified_saved_exp", "y = x.exp(); z = y.sin(); y.mul_(2); z.sum().backward()"),
    ("inplace_on_leaf", "x.add_(1)"),
    ("sub_assign_on_leaf", "x -= 0.1"),
    ("zero_on_leaf", "x.zero_()"),
    ("exp_inplace_on_leaf", "x.exp_()"),
    ("unsqueeze_inplace_on_leaf", "x.unsqueeze_(0)"),
    ("hook_wrong_shape", "y = x * 2; y.register_hook(lambda g: lib.ones(3)); y.sum().backward()"),
    ("hook_returns_number", "y = x * 2; y.register_hook(lambda g: 1.0); y.sum().backward()"),
    ("hook_returns_list", "y = x * 2; y.register_hook(lambda g: [1.]); y.sum().backward()"),
    ("leaf_hook_wrong_shape", "x.register_hook(lambda g: lib.ones(3)); (x * 2).sum().backward()"),
    ("custom_function_instance_call", custom("grad * 2 * a", "Square()(x)")),
    ("custom_backward_too_many", custom("grad, grad", "Square.apply(x).sum().backward()")),
    ("custom_backward_wrong_shape", custom("lib.ones(3)", "Square.apply(x).sum().backward()")),
    ("custom_forward_call", custom("grad", "Square.forward(None, x).sum().backward(); Square.backward(None, x)")),
    ("no_grad_without_call", "with lib.no_grad:\n    pass"),
    # --- losses ----------------------------------------------------------------------------
    ("cross_entropy_int32_target", "F.cross_entropy(logits, target.int())"),
    ("cross_entropy_target_out_of_range", "F.cross_entropy(logits, lib.tensor([0, 5]))"),
    ("cross_entropy_batch_mismatch", "F.cross_entropy(logits, lib.tensor([0, 1, 2]))"),
    ("cross_entropy_float_target_shape", "F.cross_entropy(logits, lib.tensor([0., 1.]))"),
    ("nll_loss_float_target", "F.nll_loss(logits, lib.tensor([0., 1.]))"),
    ("nll_loss_1d_input_2_targets", "F.nll_loss(v, lib.tensor([0, 1]))"),
    ("mse_loss_broadcast_warning", "F.mse_loss(x, v)"),
    ("mse_loss_bad_reduction", "F.mse_loss(v, v, reduction='average')"),
    ("bce_out_of_range", "F.binary_cross_entropy(v, v)"),
    ("bce_shape_mismatch", "F.binary_cross_entropy(v.sigmoid(), lib.ones(2))"),
    ("bce_logits_shape_mismatch", "F.binary_cross_entropy_with_logits(v, lib.ones(2))"),
    ("cross_entropy_int_logits", "F.cross_entropy(target.view(1, 2), lib.tensor([0]))"),
    ("gelu_bad_approximate", "F.gelu(v, approximate='fast')"),
    # --- errors inside grad-mode blocks must not leave the mode switched --------------------
    ("error_inside_no_grad", "with lib.no_grad():\n    x.view(4, 2)"),
    ("error_inside_enable_grad", "with lib.no_grad():\n    with lib.enable_grad():\n        lib.cat([])"),
    ("error_inside_set_grad_enabled", "with lib.set_grad_enabled(False):\n    lib.exp([1.])"),
    ("error_in_hook_inside_backward", "y = x * 2; y.register_hook(lambda g: g.view(5)); y.sum().backward()"),
    # --- more beginner mistakes ----------------------------------------------------------
    ("transpose_then_mv_mismatch", "x.T @ v"),
    ("randn_matmul_mismatch", "lib.randn(2, 3) @ lib.randn(2, 3)"),
    ("sum_then_backward_non_scalar", "x.sum(dim=1).backward()"),
    ("reshape_then_backward", "x.reshape(3, 2).backward()"),
    ("exp_two_arguments", "lib.exp(x, 2)"),
    ("int_divide_by_zero_is_inf", "result = lib.tensor([1, 2]) / 0"),
    ("sqrt_of_negative_is_nan", "result = lib.sqrt(lib.tensor(-1.))"),
    ("log_of_zero_is_minus_inf", "result = lib.log(lib.tensor([0., 1.]))"),
    ("grad_none_zero", "v.grad.zero_()"),
    ("item_after_squeeze", "lib.tensor([[1., 2.]]).squeeze(0).item()"),
    ("stack_mixed_dtypes", "result = lib.stack([lib.ones(2), lib.ones(2, dtype=lib.float64)])"),
    ("cat_int_and_float", "result = lib.cat([lib.ones(2), lib.ones(2, dtype=lib.int64)])"),
    ("mask_too_short", "lib.arange(5)[lib.tensor([True])]"),
    ("backward_twice_through_exp", "y = x.exp(); y.sum().backward(); y.sum().backward()"),
    ("grad_of_grad_without_create_graph",
     "g, = lib.autograd.grad((x ** 2).sum(), x); g.sum().backward()"),
    ("detach_then_backward", "x.detach().sum().backward()"),
    ("numpy_of_non_leaf", "(x * 2).numpy()"),
    ("view_of_transposed", "x.t().view(6)"),
    ("mean_of_int_dim", "i.mean(dim=0)"),
    ("softmax_of_int", "F.softmax(i, dim=0)"),
    ("log_softmax_int", "F.log_softmax(i, dim=0)"),
    ("zeros_like_list", "lib.zeros_like([1, 2])"),
    ("ones_like_none", "lib.ones_like(None)"),
    ("where_two_arguments", "lib.where(v > 1, v)"),
    ("topk_negative_k", "v.topk(-1)"),
    ("cumsum_dim_out_of_range", "v.cumsum(1)"),
    ("gather_dim_out_of_range", "v.gather(1, i)"),
    ("einsum_wrong_ndim", "lib.einsum('ij->i', v)"),
    ("roll_dim_out_of_range", "v.roll(1, 1)"),
    ("bmm_dtype_mismatch", "lib.bmm(lib.ones(1, 2, 2), lib.ones(1, 2, 2, dtype=lib.float64))"),
    ("prod_dim_out_of_range", "v.prod(1)"),
    ("index_select_dim_out_of_range", "v.index_select(1, i)"),
    ("floor_divide_by_zero_int", "lib.tensor([1, 2]) // 0"),
    ("remainder_by_zero_int", "lib.tensor([1, 2]) % 0"),
    ("numpy_array_plus_tensor", "np.ones(3) + v"),
    ("numpy_array_minus_tensor", "np.ones(3) - v"),
    ("numpy_array_times_tensor", "np.ones(3) * v"),
    ("numpy_scalar_times_tensor", "result = np.float64(2.0) * v"),
    ("tensor_times_numpy_array", "result = v * np.ones(3)"),
]


def run(lib, code):
    """('raised', class, message) / ('warned', [(class, message)], result) / ('ok', [], result)."""
    namespace = {"lib": lib, "F": lib.nn.functional, "np": np}
    exec(SETUP, namespace)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # minigrad silences numpy's floating-point warnings from its own code (see its
        # __init__.py); keep that filter, as a user's program would have it
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"minigrad(\.|$)",
                                message=r"(overflow|divide by zero|invalid value|underflow) encountered")
        try:
            exec(code, namespace)
        except Exception as error:       # noqa: BLE001  (the exception itself is what we compare)
            return "raised", type(error), str(error)
    caught = [(w.category, str(w.message)) for w in caught
              if not issubclass(w.category, DeprecationWarning)]
    return ("warned" if caught else "ok"), caught, namespace.get("result")


def _normalize(message):
    message = message.replace("minigrad", "torch")
    message = re.sub(r" \(Triggered internally at [^)]*\.\)", "", message)
    return re.sub(r"0x[0-9a-f]+", "0x...", message)


def _expected_text(message):
    """PyTorch's message, or its first line when it is long or has machine-specific parts."""
    message = _normalize(message).strip()
    if "alloc_cpu.cpp" in message:          # PyTorch names its own source file and line
        return message[message.index("DefaultCPUAllocator"):].split(" Error code")[0]
    first_line = message.split("\n")[0]
    return first_line if len(message) > 300 or "\n" in message else message


def _pytorch_names(cls):
    return cls.__name__


def check_still_works(lib):
    """Grad mode on, default dtype float32, a new gradient is right."""
    assert lib.is_grad_enabled()
    assert str(lib.tensor([1.0]).dtype).endswith("float32")
    w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (w * w).sum().backward()
    assert w.grad.tolist() == [2.0, 4.0, 6.0]


# Rows where minigrad still differs, each with the reason; strict, so a fix shows up.
KNOWN_DIFFERENCES = {
}


def _known_difference(name, code):
    if name in KNOWN_DIFFERENCES:
        return pytest.param(name, code, marks=pytest.mark.xfail(reason=KNOWN_DIFFERENCES[name],
                                                                strict=True))
    return (name, code)


def assert_same_outcome(torch, code):
    """Run ``code`` with both libraries; they must raise, warn or return the same way."""
    theirs = run(torch, code)
    ours = run(minigrad, code)
    assert ours[0] == theirs[0], f"PyTorch {theirs[0]} {theirs[1:]}, minigrad {ours[0]} {ours[1:]}"
    if theirs[0] == "raised":
        assert ours[1].__name__ == theirs[1].__name__, (ours, theirs)
        expected = _expected_text(theirs[2])
        assert expected in _normalize(ours[2]), f"\nPyTorch:  {expected}\nminigrad: {ours[2]}"
        # PyTorch's text comes first, word for word; minigrad's advice only on lines of its own
        ours_lines, expected_lines = _normalize(ours[2]).split("\n"), expected.split("\n")
        if expected == _normalize(theirs[2]).strip():
            assert ours_lines[:len(expected_lines)] == expected_lines, ours[2]
            # (when only PyTorch's first line is compared, its own further lines follow)
            assert all(line.startswith("torch hint:")
                       for line in ours_lines[len(expected_lines):]), ours[2]
    elif theirs[0] == "warned":
        assert [c.__name__ for c, _ in ours[1]] == [c.__name__ for c, _ in theirs[1]], (ours, theirs)
        for (_, ours_text), (_, theirs_text) in zip(ours[1], theirs[1]):
            assert _expected_text(theirs_text) in _normalize(ours_text)
    else:
        result_ours, result_theirs = ours[2], theirs[2]
        if result_theirs is not None:
            np.testing.assert_allclose(np.asarray(result_ours.tolist(), dtype=float),
                                       np.asarray(result_theirs.tolist(), dtype=float))
            assert tuple(result_ours.shape) == tuple(result_theirs.shape)
    check_still_works(minigrad)
    check_still_works(torch)


@pytest.mark.parametrize("name, code", [_known_difference(*row) for row in ROWS],
                         ids=[row[0] for row in ROWS])
def test_misuse_matches_pytorch(torch, name, code):
    assert_same_outcome(torch, code)


def test_there_are_enough_rows():
    assert len(ROWS) >= 150
    assert len({name for name, _ in ROWS}) == len(ROWS)
