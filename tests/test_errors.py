"""Every misuse fails the way PyTorch fails: same exception type, a message saying what went wrong.

Each case is run in both libraries. The exception types must be identical;
``phrases`` must appear in *both* messages (where minigrad mirrors PyTorch's
wording), and ``our_phrases`` in minigrad's (e.g. the shapes involved, where
PyTorch's message is less explicit or worded differently).
"""
import re
import warnings

import numpy as np
import pytest

import minigrad


def _backward_twice(lib):
    x = lib.ones(3, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _grad_twice(lib):
    x = lib.ones(3, requires_grad=True)
    y = x.exp().sum()
    lib.autograd.grad(y, x)
    lib.autograd.grad(y, x)


def _saved_tensors_after_backward(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * x
    y.sum().backward()
    return y.grad_fn.saved_tensors if hasattr(y.grad_fn, "saved_tensors") else y.grad_fn._saved_self


def _modified_saved_tensor(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * 2
    z = y * y                  # saves y
    y.add_(1)                  # changes y in place
    z.sum().backward()


def _modified_saved_output_of_exp(lib):
    x = lib.ones(3, requires_grad=True)
    y = x.exp()
    z = y.sin()
    y.mul_(2)
    z.sum().backward()


def _inplace_on_leaf(lib):
    w = lib.ones(3, requires_grad=True)
    w.add_(1)


def _augmented_assign_on_leaf(lib):
    w = lib.ones(3, requires_grad=True)
    w -= 0.1


def _setitem_on_leaf(lib):
    w = lib.ones(3, requires_grad=True)
    w[0] = 2.0


def _zero_on_leaf(lib):
    w = lib.ones(3, requires_grad=True)
    w.zero_()


def _requires_grad_false_on_non_leaf(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * 2
    y.requires_grad = False


def _integer_requires_grad(lib):
    lib.tensor([1, 10], requires_grad=True)


def _integer_requires_grad_later(lib):
    lib.arange(3).requires_grad_()


def _float_tensor_then_int(lib):
    lib.ones(2, dtype=lib.int64, requires_grad=True)


def _backward_non_scalar(lib):
    x = lib.ones(3, requires_grad=True)
    (x * 2).backward()


def _backward_without_grad(lib):
    x = lib.ones(3)
    (x * 2).sum().backward()


def _backward_under_no_grad(lib):
    x = lib.ones(3, requires_grad=True)
    with lib.no_grad():
        y = (x * 2).sum()
    y.backward()


def _backward_of_detached(lib):
    x = lib.ones(3, requires_grad=True)
    (x * 2).sum().detach().backward()


def _gradient_of_wrong_shape(lib):
    x = lib.ones(3, requires_grad=True)
    (x * 2).backward(lib.ones(2))


def _grad_unused_input(lib):
    x = lib.ones(3, requires_grad=True)
    unused = lib.ones(3, requires_grad=True)
    lib.autograd.grad((x * 2).sum(), (x, unused))


def _grad_of_input_not_requiring_grad(lib):
    x = lib.ones(3, requires_grad=True)
    other = lib.ones(3)
    lib.autograd.grad((x * 2).sum(), other)


def _numpy_of_requires_grad(lib):
    lib.ones(3, requires_grad=True).numpy()


def _numpy_of_result(lib):
    (lib.ones(3, requires_grad=True) * 2).numpy()


def _item_of_many(lib):
    lib.ones(3).item()


def _bool_of_many(lib):
    bool(lib.ones(3))


def _if_tensor(lib):
    x = lib.tensor([1.0, 2.0])
    if x > 1:
        pass


def _float_of_many(lib):
    float(lib.ones(2))


def _len_of_0d(lib):
    len(lib.tensor(1.0))


def _iterate_0d(lib):
    iter(lib.tensor(1.0))


def _assign_grad_wrong_shape(lib):
    x = lib.ones(3, requires_grad=True)
    x.grad = lib.ones(2)


def _assign_grad_wrong_dtype(lib):
    x = lib.ones(3, requires_grad=True)
    x.grad = lib.ones(3, dtype=lib.float64)


def _assign_grad_wrong_type(lib):
    x = lib.ones(3, requires_grad=True)
    x.grad = [1.0, 1.0, 1.0]


def _matmul_mismatch(lib):
    lib.ones(2, 3) @ lib.ones(4, 5)


def _matmul_vector_matrix_mismatch(lib):
    lib.ones(3) @ lib.ones(4, 5)


def _matmul_0d(lib):
    lib.tensor(2.0) @ lib.ones(2)


def _mm_mismatch(lib):
    lib.mm(lib.ones(2, 3), lib.ones(2, 3))


def _mm_not_matrix(lib):
    lib.mm(lib.ones(3), lib.ones(3, 2))


def _mm_dtypes(lib):
    lib.mm(lib.ones(2, 3), lib.ones(3, 2, dtype=lib.float64))


def _mv_mismatch(lib):
    lib.mv(lib.ones(2, 3), lib.ones(4))


def _dot_mismatch(lib):
    lib.dot(lib.ones(3), lib.ones(4))


def _dot_2d(lib):
    lib.dot(lib.ones(3, 1), lib.ones(3))


def _broadcast_mismatch(lib):
    lib.ones(2, 3) + lib.ones(4)


def _broadcast_mismatch_mul(lib):
    lib.ones(5, 3, requires_grad=True) * lib.ones(2, 3)


def _view_wrong_size(lib):
    lib.ones(2, 3).view(4, 2)


def _reshape_two_unknowns(lib):
    lib.ones(2, 3).reshape(-1, -1)


def _view_of_transposed(lib):
    lib.ones(2, 3).t().view(6)


def _index_out_of_range(lib):
    lib.ones(3)[3]


def _index_out_of_range_2d(lib):
    lib.ones(2, 3)[0, 5]


def _index_out_of_range_after_none_and_slice(lib):
    lib.ones(2, 3, 4)[None, 1:, :, -5]


def _too_many_indices(lib):
    lib.ones(3)[0, 0]


def _list_index_out_of_range(lib):
    lib.ones(3)[[0, 7]]


def _dim_out_of_range(lib):
    lib.ones(2, 3).sum(dim=2)


def _softmax_dim_out_of_range(lib):
    lib.nn.functional.softmax(lib.ones(2, 3), dim=-3)


def _cat_mismatch(lib):
    lib.cat([lib.ones(2, 3), lib.ones(2, 4)])


def _stack_mismatch(lib):
    lib.stack([lib.ones(3), lib.ones(4)])


def _expand_mismatch(lib):
    lib.ones(2, 3).expand(4, 3)


def _mean_of_int(lib):
    lib.tensor([1, 2]).mean()


def _cross_entropy_float_target_shape(lib):
    lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2))


def _nll_loss_target_out_of_bounds(lib):
    lib.nn.functional.nll_loss(lib.ones(2, 3), lib.tensor([0, 3]))


def _bce_out_of_range(lib):
    lib.nn.functional.binary_cross_entropy(lib.tensor([1.5]), lib.tensor([1.0]))


def _bce_weight_requires_grad(lib):
    lib.nn.functional.binary_cross_entropy_with_logits(
        lib.ones(2, requires_grad=True), lib.ones(2), weight=lib.ones(2, requires_grad=True))


def _retain_grad_without_grad(lib):
    lib.ones(2).retain_grad()


def _hook_without_grad(lib):
    lib.ones(2).register_hook(lambda g: g)


def _backward_inputs_empty(lib):
    x = lib.ones(2, requires_grad=True)
    (x * 2).sum().backward(inputs=[])


def _function_wrong_number_of_grads(lib):
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * 2 + y

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = lib.ones(2, requires_grad=True)
    Twice.apply(x, lib.ones(2, requires_grad=True)).sum().backward()


def _clamp_without_bounds(lib):
    lib.clamp(lib.ones(2))


def _negative_size(lib):
    lib.zeros(2, -1)


def _tensor_of_ragged_list(lib):
    lib.tensor([[1, 2], [3]])


def _jacobian_of_non_tensor(lib):
    lib.autograd.functional.jacobian(lambda x: x * 2, [1.0, 2.0])


def _unsupported_numpy_dtype(lib):
    lib.from_numpy(np.array(["a", "b"]))


def _split_sizes_do_not_add_up(lib):
    lib.ones(3).split([1, 1])


def _masked_fill_with_float_mask(lib):
    lib.ones(3).masked_fill(lib.ones(3), 0.0)


def _int_to_negative_power(lib):
    lib.tensor([2, 3]) ** -1


CASES = [
    # (function, phrases in both messages, phrases in minigrad's message)
    (_backward_twice, ["Trying to backward through the graph a second time", "retain_graph=True"], []),
    (_grad_twice, ["Trying to backward through the graph a second time", "retain_graph=True"], []),
    (_modified_saved_tensor, ["modified by an inplace operation", "is at version 1; expected version 0",
                              "which is output 0 of Add,"], ["minigrad hint:"]),
    (_modified_saved_output_of_exp, ["modified by an inplace operation", "which is output 0 of Mul,"],
     []),
    (_inplace_on_leaf, ["a leaf Variable that requires grad is being used in an in-place operation"], []),
    (_augmented_assign_on_leaf, ["leaf Variable that requires grad", "in-place operation"], ["no_grad"]),
    (_setitem_on_leaf, ["leaf Variable that requires grad"], []),
    (_zero_on_leaf, ["leaf Variable that requires grad"], []),
    (_requires_grad_false_on_non_leaf, ["you can only change requires_grad flags of leaf variables"],
     ["detach()"]),
    (_integer_requires_grad, ["Only Tensors of floating point and complex dtype can require gradients"],
     ["int64"]),
    (_integer_requires_grad_later, ["nly Tensors of floating point"], []),
    (_float_tensor_then_int, ["nly Tensors of floating point"], []),
    (_backward_non_scalar, ["grad can be implicitly created only for scalar outputs"], ["[3]"]),
    (_backward_without_grad, ["element 0 of tensors does not require grad and does not have a grad_fn"],
     []),
    (_backward_under_no_grad, ["does not require grad"], ["no_grad"]),
    (_backward_of_detached, ["does not require grad"], []),
    (_gradient_of_wrong_shape, ["Mismatch in shape", "[2]", "[3]"], []),
    (_grad_unused_input, ["appears to not have been used in the graph", "allow_unused=True"], []),
    (_grad_of_input_not_requiring_grad, ["does not require grad"], []),
    (_numpy_of_requires_grad, ["Can't call numpy() on Tensor that requires grad",
                               "tensor.detach().numpy()"], []),
    (_numpy_of_result, ["Can't call numpy() on Tensor that requires grad"], []),
    (_item_of_many, ["a Tensor with 3 elements cannot be converted to Scalar"], []),
    (_bool_of_many, ["Boolean value of Tensor with more than one value is ambiguous"], []),
    (_if_tensor, ["Boolean value of Tensor with more than one value is ambiguous"], [".any()"]),
    (_float_of_many, ["only one element tensors can be converted to Python scalars"], []),
    (_len_of_0d, ["len() of a 0-d tensor"], []),
    (_iterate_0d, ["iteration over a 0-d tensor"], []),
    (_assign_grad_wrong_shape, [], ["[3]", "[2]"]),
    (_assign_grad_wrong_dtype, ["attempting to assign a gradient with dtype"], ["float64", "float32"]),
    (_assign_grad_wrong_type, ["assigned grad expected to be a Tensor or None but got grad of type list"],
     []),
    (_matmul_mismatch, ["mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"], []),
    (_matmul_vector_matrix_mismatch, ["mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)"], []),
    (_matmul_0d, ["both arguments to matmul need to be at least 1D, but they are 0D and 1D"], []),
    (_mm_mismatch, ["mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"], []),
    (_mm_not_matrix, ["must be a matrix"], []),
    (_mm_dtypes, ["expected m1 and m2 to have the same dtype, but got: float != double"], []),
    (_mv_mismatch, ["size mismatch"], ["2x3", "4"]),
    (_dot_mismatch, ["inconsistent tensor size", "[3]", "[4]"], []),
    (_dot_2d, ["1D tensors expected, but got 2D and 1D tensors"], []),
    (_broadcast_mismatch, ["The size of tensor a (3) must match the size of tensor b (4) at "
                           "non-singleton dimension 1"], []),
    (_broadcast_mismatch_mul, ["The size of tensor a (5) must match the size of tensor b (2) at "
                               "non-singleton dimension 0"], []),
    (_view_wrong_size, ["shape '[4, 2]' is invalid for input of size 6"], []),
    (_reshape_two_unknowns, ["only one dimension can be inferred"], []),
    (_view_of_transposed, ["view size is not compatible with input tensor's size and stride",
                           ".reshape(...)"], []),
    (_index_out_of_range, ["index 3 is out of bounds for dimension 0 with size 3"], []),
    (_index_out_of_range_2d, ["index 5 is out of bounds for dimension 1 with size 3"], []),
    (_index_out_of_range_after_none_and_slice, ["index -5 is out of bounds for dimension 3 with size 4"],
     []),
    (_too_many_indices, ["too many indices for tensor of dimension 1"], []),
    (_list_index_out_of_range, ["out of bounds"], []),
    (_dim_out_of_range, ["Dimension out of range (expected to be in range of [-2, 1], but got 2)"], []),
    (_softmax_dim_out_of_range, ["Dimension out of range (expected to be in range of [-2, 1], but got -3)"],
     []),
    (_cat_mismatch, ["Sizes of tensors must match except in dimension 0"], ["[2, 3]", "[2, 4]"]),
    (_stack_mismatch, ["stack expects each tensor to be equal size, but got [3] at entry 0 and [4] at "
                       "entry 1"], []),
    (_expand_mismatch, ["The expanded size of the tensor (4) must match the existing size (2) at "
                        "non-singleton dimension 0"], []),
    (_mean_of_int, ["mean(): could not infer output dtype", "Long"], []),
    (_cross_entropy_float_target_shape, [], ["[2, 3]", "[2]"]),
    (_nll_loss_target_out_of_bounds, ["Target 3 is out of bounds."], []),
    (_bce_out_of_range, ["all elements of input should be between 0 and 1"], []),
    (_bce_weight_requires_grad, ["is not differentiable with respect to argument 'weight'"], []),
    (_retain_grad_without_grad, ["can't retain_grad on Tensor that has requires_grad=False"], []),
    (_hook_without_grad, ["cannot register a hook on a tensor that doesn't require gradient"], []),
    (_backward_inputs_empty, ["`inputs` argument to `backward()` cannot be empty."], []),
    (_function_wrong_number_of_grads, ["returned an incorrect number of gradients (expected 2, got 1)"],
     []),
    (_clamp_without_bounds, ["At least one of 'min' or 'max' must not be None"], []),
    (_negative_size, ["zeros: Dimension size must be non-negative."], []),
    (_tensor_of_ragged_list, [], []),
    (_jacobian_of_non_tensor, ["must be either a Tensor or a tuple of Tensors"], []),
    (_unsupported_numpy_dtype, ["can't convert np.ndarray of type"], []),
    (_split_sizes_do_not_add_up, ["split_with_sizes expects split_sizes to sum exactly to 3"], []),
    (_masked_fill_with_float_mask, ["masked_fill_ only supports boolean masks"], []),
    (_int_to_negative_power, ["Integers to negative integer powers are not allowed."], []),
]


def _raised(function, lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as info:
            function(lib)
    return info.value


@pytest.mark.parametrize("function, phrases, our_phrases", CASES,
                         ids=[c[0].__name__.strip("_") for c in CASES])
def test_misuse_fails_like_torch(torch, function, phrases, our_phrases):
    ours = _raised(function, minigrad)
    theirs = _raised(function, torch)
    assert type(ours).__name__ == type(theirs).__name__, (repr(ours), repr(theirs))
    assert type(ours).__module__ == "builtins", repr(ours)
    for phrase in phrases:
        assert phrase in str(theirs), (phrase, str(theirs))
        assert phrase in str(ours), (phrase, str(ours))
    for phrase in our_phrases:
        assert phrase in str(ours), (phrase, str(ours))


def test_saved_tensors_are_freed_after_backward():
    x = minigrad.ones(3, requires_grad=True)
    y = x * x
    y.sum().backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.grad_fn.saved_tensors


def test_allow_unused_gives_none_and_materialize_gives_zeros(torch):
    for lib in (minigrad, torch):
        x = lib.ones(3, requires_grad=True)
        unused = lib.ones(2, requires_grad=True)
        gx, gu = lib.autograd.grad((x * 2).sum(), (x, unused), allow_unused=True, retain_graph=True)
        assert gu is None and gx.tolist() == [2.0, 2.0, 2.0]
        _, gu = lib.autograd.grad((x * 2).sum(), (x, unused), materialize_grads=True)
        assert gu.tolist() == [0.0, 0.0]


def test_inplace_on_leaf_is_allowed_under_no_grad(torch):
    for lib in (minigrad, torch):
        w = lib.ones(3, requires_grad=True)
        with lib.no_grad():
            w.add_(1)
            w -= 0.5
            w[0] = 7.0
        assert w.tolist() == [7.0, 1.5, 1.5]
        assert w.is_leaf and w.requires_grad and w.grad_fn is None


def test_inplace_on_a_view_of_a_leaf_is_refused(torch):
    """Both refuse: the view's base is a leaf that requires grad."""
    for lib in (minigrad, torch):
        w = lib.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
            w[:2].mul_(2)


def test_in_place_changes_to_views_of_recorded_tensors_rewrite_the_base(torch):
    """Like PyTorch: the base's history becomes CopySlices and the gradient is right."""
    grads = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        y[:2].mul_(3)
        y.view(3).add_(1)
        assert type(y.grad_fn).__name__ == "CopySlices"
        (y * y).sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]


def test_errors_are_pytorchs_text_then_a_labelled_hint(torch):
    """PyTorch's message word for word; minigrad's advice follows on a 'minigrad hint:' line."""
    with pytest.raises(RuntimeError) as theirs:
        torch.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError) as ours:
        minigrad.tensor([1, 2], requires_grad=True)
    first, hint = str(ours.value).split("\n", 1)
    assert first == str(theirs.value)
    assert hint.startswith("minigrad hint: ") and "torch.int64" in hint