"""PyTorch's ZeroTensor (zeros without memory), its rules against PyTorch's own.

``torch._efficientzerotensor(size)`` makes one, and the gradient of ``sgn`` of real numbers is
one. Each test runs the same program in both libraries and compares what comes out: whether a
result is a ZeroTensor, its shape, dtype and values (read through ``clone()``, which gives
ordinary zeros), whether it requires grad, and the exception class and message where PyTorch
refuses (minigrad may add a line of advice after PyTorch's message). See minigrad/_zero_tensor.py.
"""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _message(error):
    """The exception as PyTorch shows it (a "minigrad hint:" line after it left out)."""
    return type(error).__name__, str(error).split("\nminigrad hint:")[0]


def _shown(value, L):
    """A result as both libraries can show it."""
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_shown(item, L) for item in value]
    if not isinstance(value, L.Tensor):
        return value
    values = value.detach().clone()
    return (value._is_zerotensor(), tuple(value.shape), str(value.dtype), value.requires_grad,
            str(values.tolist()), np.signbit(values.float().numpy()).tolist())     # (nan as "nan")


def _outcome(program, L):
    try:
        return _shown(program(L), L)
    except Exception as error:          # (both libraries must fail alike)
        return _message(error)


def _zeros(L, *size, **options):
    return L._efficientzerotensor(size, **options)


def _ones(L, *size, **options):
    return L.ones(*size, dtype=L.float64, **options) if size else L.tensor(1.0, dtype=L.float64)


# --- operations on a ZeroTensor: which give one, which give ordinary zeros, which refuse ---------
OPERATIONS = {
    # products and quotients: a ZeroTensor, zeros whatever the other operand holds
    "z * z": lambda L: _zeros(L, 2, 3) * _zeros(L, 2, 3),
    "z * y": lambda L: _zeros(L, 2, 3) * L.tensor([1.0, float("inf"), float("nan")]),
    "y * z": lambda L: L.tensor([[1.0], [float("inf")]]) * _zeros(L, 2, 3),
    "z * 2": lambda L: _zeros(L, 2, 3) * 2,
    "2.5 * z": lambda L: 2.5 * _zeros(L, 2, 3),
    "z * nan": lambda L: _zeros(L, 2) * float("nan"),
    "int z * 2.5": lambda L: _zeros(L, 2, dtype=L.int32) * 2.5,
    "int z * 2": lambda L: _zeros(L, 2, dtype=L.int32) * 2,
    "bool z * 2": lambda L: _zeros(L, 2, dtype=L.bool) * 2,
    "bool z * True": lambda L: _zeros(L, 2, dtype=L.bool) * True,
    "half z * 2.5": lambda L: _zeros(L, 2, dtype=L.float16) * 2.5,
    "int z * float y": lambda L: _zeros(L, 2, dtype=L.int64) * L.ones(2),
    "z * float64 0-d": lambda L: _zeros(L, 2) * L.tensor(2.5, dtype=L.float64),
    "0-d z * y": lambda L: _zeros(L) * L.ones(2),
    "torch.mul": lambda L: L.mul(_zeros(L, 2), 3),
    "z.multiply": lambda L: _zeros(L, 2).multiply(3),
    "z * y requires grad": lambda L: _zeros(L, 2) * L.ones(2, requires_grad=True),
    "z requiring grad * 2": lambda L: _zeros(L, 2, requires_grad=True) * 2,
    "grad_fn of z * y": lambda L: type((_zeros(L, 2) * L.ones(2, requires_grad=True)).grad_fn).__name__,
    "z / y": lambda L: _zeros(L, 2) / L.tensor([0.0, 1.0]),
    "z / 2": lambda L: _zeros(L, 2) / 2,
    "int z / 2": lambda L: _zeros(L, 2, dtype=L.int64) / 2,
    "int z / 2.5": lambda L: _zeros(L, 2, dtype=L.int32) / 2.5,
    "z.true_divide": lambda L: _zeros(L, 2).true_divide(2),
    "y / z": lambda L: L.tensor([-1.0, 0.0, float("nan")]) / _zeros(L, 3),
    "y / z of integers": lambda L: L.tensor([1, 0]) / _zeros(L, 2, dtype=L.int64),
    "y / z of float64": lambda L: L.tensor([-1.0, 1.0]) / _zeros(L, 2, dtype=L.float64),
    "2 / z": lambda L: 2 / _zeros(L, 2),
    "z / z": lambda L: _zeros(L, 2) / _zeros(L, 2),
    "z // 2": lambda L: _zeros(L, 2) // 2,
    "z.div floor": lambda L: _zeros(L, 2).div(2, rounding_mode="floor"),
    "z + z": lambda L: _zeros(L, 2) + _zeros(L, 2),
    "z - z": lambda L: _zeros(L, 2) - _zeros(L, 2),
    "z + z alpha": lambda L: _zeros(L, 2).add(_zeros(L, 2), alpha=2),
    "z - z alpha": lambda L: _zeros(L, 2).sub(_zeros(L, 2), alpha=3),
    "int z + z": lambda L: _zeros(L, 2, dtype=L.int64) + _zeros(L, 2),
    "z.dot(z)": lambda L: _zeros(L, 3).dot(_zeros(L, 3)),
    "z.dot(y)": lambda L: _zeros(L, 3).dot(L.tensor([1.0, float("inf"), 2.0])),
    "y.dot(z)": lambda L: L.ones(3).dot(_zeros(L, 3)),
    "z @ y of vectors": lambda L: _zeros(L, 3) @ L.ones(3),
    "vdot": lambda L: L.vdot(_zeros(L, 3), L.ones(3)),
    "linalg.cross": lambda L: L.linalg.cross(_zeros(L, 2, 3), L.ones(2, 3)),
    "outer": lambda L: L.outer(_zeros(L, 2), L.ones(3)),
    # views, and what gives the tensor itself: a ZeroTensor
    "view": lambda L: _zeros(L, 2, 3).view(3, 2),
    "reshape": lambda L: _zeros(L, 2, 3).reshape(6),
    "flatten": lambda L: _zeros(L, 2, 3).flatten(),
    "t": lambda L: _zeros(L, 2, 3).t(),
    "mT": lambda L: _zeros(L, 2, 3).mT,
    "transpose": lambda L: _zeros(L, 2, 3).transpose(0, 1),
    "permute": lambda L: _zeros(L, 2, 3).permute(1, 0),
    "unsqueeze": lambda L: _zeros(L, 2, 3).unsqueeze(0),
    "squeeze": lambda L: _zeros(L, 1, 3).squeeze(),
    "expand": lambda L: _zeros(L, 1, 3).expand(4, 3),
    "z[0]": lambda L: _zeros(L, 2, 3)[0],
    "z[:, 1]": lambda L: _zeros(L, 2, 3)[:, 1],
    "z[None]": lambda L: _zeros(L, 2, 3)[None],
    "narrow": lambda L: _zeros(L, 2, 3).narrow(1, 0, 2),
    "select": lambda L: _zeros(L, 2, 3).select(0, 1),
    "split": lambda L: _zeros(L, 2, 3).split(1),
    "chunk": lambda L: _zeros(L, 2, 3).chunk(2),
    "unbind": lambda L: _zeros(L, 2, 3).unbind(),
    "diagonal": lambda L: _zeros(L, 2, 3).diagonal(),
    "unfold": lambda L: _zeros(L, 2, 3).unfold(1, 2, 1),
    "as_strided": lambda L: _zeros(L, 2, 3).as_strided((2,), (1,)),
    "movedim": lambda L: _zeros(L, 2, 3).movedim(0, 1),
    "detach": lambda L: _zeros(L, 2, 3).detach(),
    ".data": lambda L: _zeros(L, 2, requires_grad=True).data,
    "contiguous": lambda L: _zeros(L, 2, 3).contiguous(),
    "to the same dtype": lambda L: _zeros(L, 2, 3).to(L.float32),
    "float() of float32": lambda L: _zeros(L, 2).float(),
    "requires_grad_": lambda L: _zeros(L, 2).requires_grad_(),
    "requires_grad_ then * 2": lambda L: _zeros(L, 2).requires_grad_() * 2,
    "t_": lambda L: _zeros(L, 1, 2).t_(),
    "squeeze_": lambda L: _zeros(L, 1, 2).squeeze_(),
    "unsqueeze_": lambda L: _zeros(L, 1, 2).unsqueeze_(0),
    "transpose_": lambda L: _zeros(L, 1, 2).transpose_(0, 1),
    "detach_": lambda L: _zeros(L, 1, 2).detach_(),
    # everything else: ordinary zeros
    "z + y": lambda L: _zeros(L, 2) + L.ones(2),
    "z + 1": lambda L: _zeros(L, 2) + 1,
    "z - 0": lambda L: _zeros(L, 2) - 0,
    "z + y of signed zeros": lambda L: _zeros(L, 2) + L.tensor([-0.0, 1.0]),
    "y + z of signed zeros": lambda L: L.tensor([-0.0, 1.0]) + _zeros(L, 2),
    "y - z of signed zeros": lambda L: L.tensor([-0.0, 1.0]) - _zeros(L, 2),
    "z - y of signed zeros": lambda L: _zeros(L, 2) - L.tensor([-0.0, 1.0]),
    "z - y alpha": lambda L: _zeros(L, 2).sub(L.tensor([-0.0, 1.0]), alpha=2),
    "z + y alpha": lambda L: _zeros(L, 2).add(L.tensor([0.0, 1.0]), alpha=-1),
    "z - 0.0": lambda L: _zeros(L, 2) - 0.0,
    "int z - 0": lambda L: _zeros(L, 2, dtype=L.int64) - 0,
    "int z + y": lambda L: _zeros(L, 2, dtype=L.int64) + L.tensor([-0.0, 1.0]),
    "column z - y": lambda L: _zeros(L, 2, 1) - L.tensor([-0.0, 1.0]),
    "1 - z": lambda L: 1 - _zeros(L, 2),
    "-z": lambda L: -_zeros(L, 2),
    "sin": lambda L: _zeros(L, 2).sin(),
    "exp": lambda L: _zeros(L, 2).exp(),
    "abs": lambda L: _zeros(L, 2).abs(),
    "sgn": lambda L: _zeros(L, 2).sgn(),
    "pow": lambda L: _zeros(L, 2) ** 2,
    "sum": lambda L: _zeros(L, 2, 3).sum(),
    "sum(0)": lambda L: _zeros(L, 2, 3).sum(0),
    "mean": lambda L: _zeros(L, 2, 3).mean(),
    "clone": lambda L: _zeros(L, 2).clone(),
    "matmul": lambda L: _zeros(L, 2, 3) @ L.ones(3, 2),
    "mm": lambda L: _zeros(L, 2, 3).mm(L.ones(3, 2)),
    "mv": lambda L: _zeros(L, 2, 3).mv(L.ones(3)),
    "z == 0": lambda L: _zeros(L, 2) == 0,
    "z < 1": lambda L: _zeros(L, 2) < 1,
    "where": lambda L: L.where(L.ones(2) > 0, _zeros(L, 2), L.ones(2)),
    "cat": lambda L: L.cat([_zeros(L, 2), _zeros(L, 2)]),
    "z[[0, 1]]": lambda L: _zeros(L, 2, 3)[[0, 1]],
    "z[mask]": lambda L: _zeros(L, 2)[L.tensor([True, False])],
    "to float64": lambda L: _zeros(L, 2).to(L.float64),
    "to int64": lambda L: _zeros(L, 2).to(L.int64),
    "to(copy=True)": lambda L: _zeros(L, 2).to(L.float32, copy=True),
    "double()": lambda L: _zeros(L, 2).double(),
    "reshape of a transpose": lambda L: _zeros(L, 2, 3).t().reshape(6),
    "contiguous of a transpose": lambda L: _zeros(L, 2, 3).t().contiguous(),
    "zeros_like": lambda L: L.zeros_like(_zeros(L, 2)),
    "mul out=": lambda L: L.mul(_zeros(L, 2), 2, out=L.empty(2)),
    "sum_to_size": lambda L: _zeros(L, 2, 3).sum_to_size(3),
    # what works on one
    "item": lambda L: _zeros(L).item(),
    "bool": lambda L: bool(_zeros(L)),
    "float": lambda L: float(_zeros(L, 1)),
    "repr": lambda L: repr(_zeros(L, 2, 2)),
    "repr requiring grad": lambda L: repr(_zeros(L, 2, requires_grad=True)),
    "len": lambda L: len(_zeros(L, 3, 2)),
    "stride": lambda L: _zeros(L, 2, 3).stride(),
    "is_contiguous": lambda L: _zeros(L, 2, 3).is_contiguous(),
    "_version": lambda L: _zeros(L, 2)._version,
    "data_ptr": lambda L: _zeros(L, 2, 3).data_ptr(),
    "data_ptr of a row": lambda L: (_zeros(L, 2, 3)[1].data_ptr(), _zeros(L, 2, 3)[1].storage_offset()),
    "numpy(force=True)": lambda L: _zeros(L, 2).numpy(force=True).tolist(),
    "tolist without elements": lambda L: _zeros(L, 0).tolist(),
    # refused: no memory to read ...
    "tolist": lambda L: _zeros(L, 2).tolist(),
    "tolist of 0-d": lambda L: _zeros(L).tolist(),
    "tolist of a product": lambda L: (_zeros(L, 2) * 2).tolist(),
    "numpy": lambda L: _zeros(L, 2).numpy(),
    "numpy without elements": lambda L: _zeros(L, 0).numpy(),
    "numpy requiring grad": lambda L: _zeros(L, 2, requires_grad=True).numpy(),
    "np.asarray": lambda L: np.asarray(_zeros(L, 2)),
    # ... nor to write
    "zero_": lambda L: _zeros(L, 2).zero_(),
    "add_": lambda L: _zeros(L, 2).add_(1),
    "add_ of a wrong shape": lambda L: _zeros(L, 2).add_(L.ones(3)),
    "add_ of a float into ints": lambda L: _zeros(L, 2, dtype=L.int64).add_(1.5),
    "mul_": lambda L: _zeros(L, 2).mul_(2),
    "fill_": lambda L: _zeros(L, 2).fill_(2),
    "exp_": lambda L: _zeros(L, 2).exp_(),
    "clamp_": lambda L: _zeros(L, 2).clamp_(0, 1),
    "masked_fill_": lambda L: _zeros(L, 2).masked_fill_(L.tensor([True, False]), 1.0),
    "index_add_": lambda L: _zeros(L, 2).index_add_(0, L.tensor([0]), L.ones(1)),
    "uniform_": lambda L: _zeros(L, 2).uniform_(),
    "add_ of a view": lambda L: _zeros(L, 2, 3)[0].add_(1),
    "add_ of an expanded one": lambda L: _zeros(L, 1).expand(3).add_(1),
    "add_ requiring grad": lambda L: _zeros(L, 2, requires_grad=True).add_(1),
    "copy_": lambda L: _zeros(L, 2).copy_(L.ones(2)),
    "copy_ of itself": lambda L: (lambda z: z.copy_(z))(_zeros(L, 2)),
    "copy_ of a wrong shape": lambda L: _zeros(L, 2).copy_(L.ones(3)),
    "y.copy_(z)": lambda L: L.ones(2).copy_(_zeros(L, 2)),
    "y.add_(z)": lambda L: L.ones(2).add_(_zeros(L, 2)),
    "y.mul_(z)": lambda L: L.ones(2).mul_(_zeros(L, 2)),
    "z[0] = 1": lambda L: _zeros(L, 2).__setitem__(0, 1.0),
    "z[0, 0] = 1": lambda L: _zeros(L, 2, 3).__setitem__((0, 0), 1.0),
    "z[0] = 1 of rows": lambda L: _zeros(L, 2, 3).__setitem__(0, 1.0),
    "z[0:1] = 1": lambda L: _zeros(L, 2).__setitem__(slice(0, 1), 1.0),
    "z[0] = y": lambda L: _zeros(L, 2, 3).__setitem__(0, L.ones(3)),
    "z[[0]] = 1": lambda L: _zeros(L, 2, 3).__setitem__([0], 1.0),
    "z[[0]] = y": lambda L: _zeros(L, 2, 3).__setitem__([0], L.ones(3)),
    "z[mask] = 1": lambda L: _zeros(L, 2, 3).__setitem__(L.ones(2, 3, dtype=L.bool), 1.0),
    "z[5] = 1": lambda L: _zeros(L, 2).__setitem__(5, 1.0),
    # shapes that do not broadcast: PyTorch's ZeroTensor kernels say so with broadcast_shapes' words
    "z * y of wrong shapes": lambda L: _zeros(L, 2, 3) * L.ones(4, 3),
    "y * z of wrong shapes": lambda L: L.ones(2, 1, 3) * _zeros(L, 4, 2),
    "z / y of wrong shapes": lambda L: _zeros(L, 3) / L.ones(2),
    "y / z of wrong shapes": lambda L: L.ones(3) / _zeros(L, 2),
    "z + z of wrong shapes": lambda L: _zeros(L, 3) + _zeros(L, 2),
    "z + y of wrong shapes": lambda L: _zeros(L, 3) + L.ones(2),
    "z - y of wrong shapes": lambda L: _zeros(L, 3) - L.ones(2),
    "z.dot of a wrong size": lambda L: _zeros(L, 2).dot(L.ones(3)),
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_operation_on_a_zero_tensor_as_torch(name):
    """An operation on a ZeroTensor gives PyTorch's result (a ZeroTensor or ordinary zeros, its
    dtype and values) or PyTorch's refusal, word for word."""
    torch = import_torch()
    assert _outcome(OPERATIONS[name], minigrad) == _outcome(OPERATIONS[name], torch)


# --- torch._efficientzerotensor's arguments ---------------------------------------------------
MAKING = {
    "a tuple": lambda L: L._efficientzerotensor((2, 3)),
    "sizes one by one": lambda L: L._efficientzerotensor(2, 3),
    "a list": lambda L: L._efficientzerotensor([2, 3]),
    "a Size": lambda L: L._efficientzerotensor(L.Size([2])),
    "by keyword": lambda L: L._efficientzerotensor(size=(2,)),
    "0-d": lambda L: L._efficientzerotensor(()),
    "dtype": lambda L: L._efficientzerotensor((2,), dtype=L.float64),
    "integers": lambda L: L._efficientzerotensor((2,), dtype=L.int64),
    "requires_grad": lambda L: L._efficientzerotensor((2,), requires_grad=True),
    "layout, device, pin_memory": lambda L: L._efficientzerotensor((2,), layout=L.strided, device="cpu",
                                                                   pin_memory=False),
    "nothing": lambda L: L._efficientzerotensor(),
    "a tensor": lambda L: L._efficientzerotensor(L.tensor([2, 3])),
    "a str": lambda L: L._efficientzerotensor("a"),
    "a float": lambda L: L._efficientzerotensor(2.0),
    "a float in the tuple": lambda L: L._efficientzerotensor((2.0,)),
    "None": lambda L: L._efficientzerotensor(None),
    "two arguments": lambda L: L._efficientzerotensor((2,), 3),
    "an unknown keyword": lambda L: L._efficientzerotensor((2,), foo=1),
    "out=": lambda L: L._efficientzerotensor((2,), out=L.empty(2)),
    "a wrong dtype": lambda L: L._efficientzerotensor((2,), dtype=3),
    "requires_grad=1": lambda L: L._efficientzerotensor((2,), requires_grad=1),
    "integers requiring grad": lambda L: L._efficientzerotensor((2,), dtype=L.int64, requires_grad=True),
    "a negative size": lambda L: L._efficientzerotensor((-1,)),
    "is a leaf": lambda L: L._efficientzerotensor((2,), requires_grad=True).is_leaf,
}


@pytest.mark.parametrize("name", sorted(MAKING))
def test_efficientzerotensor_arguments_as_torch(name):
    """torch._efficientzerotensor takes (and refuses) PyTorch's arguments."""
    torch = import_torch()
    assert _outcome(MAKING[name], minigrad) == _outcome(MAKING[name], torch)


# --- sgn's gradient, followed through backward ------------------------------------------------
def _leaf(L):
    return L.linspace(-1, 2, 6, dtype=L.float64).reshape(2, 3).clone().requires_grad_()


# y = f(x); y.sgn().sum().backward(): which formulas pass the ZeroTensor on to x.grad
THROUGH = {
    "x * 2": lambda L, x: x * 2,
    "2 * x": lambda L, x: 2 * x,
    "x * y": lambda L, x: x * _ones(L, 2, 3),
    "x * x": lambda L, x: x * x,
    "x * x.detach()": lambda L, x: x * x.detach(),
    "x / 2": lambda L, x: x / 2,
    "2 / x": lambda L, x: 2 / x,
    "y / x": lambda L, x: x.detach() / x,
    "x.exp()": lambda L, x: x.exp(),
    "x.sin()": lambda L, x: x.sin(),
    "x.abs()": lambda L, x: x.abs(),
    "x ** 2": lambda L, x: x ** 2,
    "x ** 3": lambda L, x: x ** 3,
    "x.square()": lambda L, x: x.square(),
    "x.sqrt()": lambda L, x: x.abs().sqrt(),
    "x.log()": lambda L, x: x.abs().log(),
    "x.tanh()": lambda L, x: x.tanh(),
    "x.sigmoid()": lambda L, x: x.sigmoid(),
    "x.relu()": lambda L, x: x.relu(),
    "x.view(6)": lambda L, x: x.view(6),
    "x.reshape": lambda L, x: x.reshape(3, 2),
    "x.flatten()": lambda L, x: x.flatten(),
    "x.unsqueeze(0)": lambda L, x: x.unsqueeze(0),
    "x.t()": lambda L, x: x.t(),
    "x.permute": lambda L, x: x.permute(1, 0),
    "x.sum()": lambda L, x: x.sum(),
    "x.sum(0)": lambda L, x: x.sum(0),
    "x.mean()": lambda L, x: x.mean(),
    "x.mean(0)": lambda L, x: x.mean(0),
    "-x": lambda L, x: -x,
    "x + 1": lambda L, x: x + 1,
    "x - 1": lambda L, x: x - 1,
    "1 - x": lambda L, x: 1 - x,
    "y - x": lambda L, x: x.detach() - x,
    "x + y alpha": lambda L, x: L.add(x.detach(), x, alpha=2),
    "x[0]": lambda L, x: x[0],
    "x[[0, 1]]": lambda L, x: x[[0, 1]],
    "expand": lambda L, x: x[:1].expand(4, 3),
    "x @ y": lambda L, x: x @ _ones(L, 3, 2),
    "x.mv(y)": lambda L, x: x.mv(_ones(L, 3)),
    "dot": lambda L, x: x[0].dot(x[1]),
    "cat": lambda L, x: L.cat([x, x]),
    "clone": lambda L, x: x.clone(),
    "x.float()": lambda L, x: x.float(),
    "contiguous of t": lambda L, x: x.t().contiguous(),
    "split": lambda L, x: x.split(1)[0],
    "prod": lambda L, x: x.prod(),
    "addcmul": lambda L, x: L.addcmul(x, x, x),
    "lerp": lambda L, x: L.lerp(x, x * 0, 0.3),
    "atan2": lambda L, x: L.atan2(x, x + 3),
    "hypot": lambda L, x: L.hypot(x, x + 1),
    "var": lambda L, x: x.var(),
    "where": lambda L, x: L.where(x > 0, x, 0.0),
    "clamp": lambda L, x: x.clamp(0, 1),
    "softmax": lambda L, x: x.softmax(0),
    "max": lambda L, x: x.max(),
    "std": lambda L, x: x.std(),
    "sgn": lambda L, x: x.sgn(),
    "mul_ in the graph": lambda L, x: (x * 1).mul_(2),
    "cumsum": lambda L, x: x.cumsum(0),
    "flip": lambda L, x: x.flip(0),
    "erf": lambda L, x: x.erf(),
    "x.lgamma()": lambda L, x: x.lgamma(),
    "x.lgamma().sgn_()": lambda L, x: x.lgamma().sgn_(),
    "x.digamma()": lambda L, x: x.abs().digamma(),
    "x.sinh()": lambda L, x: x.sinh(),
}


def _gradient(L, program):
    x = _leaf(L)
    try:
        program(L, x).sgn().sum().backward()
    except RuntimeError as error:
        return _message(error)
    return x.grad._is_zerotensor(), x.grad._version


@pytest.mark.parametrize("name", sorted(THROUGH))
def test_sgn_gradient_through_an_operation_as_torch(name):
    """sgn's ZeroTensor gradient stays one through the backward formulas that multiply, divide
    or view it (x * 2, x.exp(), x.view(6), ...), and reaches the leaf as ordinary zeros through
    the others (x.tanh(), x.sum(), x.mean(), x[0], ...), at PyTorch's version."""
    torch = import_torch()
    assert _gradient(minigrad, THROUGH[name]) == _gradient(torch, THROUGH[name])


# where a hook sits and what it returns: (on the leaf itself?, the hook)
HOOKS = {
    "a leaf's hook doubles it": (True, lambda g: g * 2),
    "a leaf's hook adds 1": (True, lambda g: g + 1),
    "a leaf's hook clones it": (True, lambda g: g.clone()),
    "a hook only looks": (False, lambda g: None),
    "an inner hook doubles it": (False, lambda g: g * 2),
    "an inner hook views it": (False, lambda g: g.view(6).view(2, 3)),
    "an inner hook clones it": (False, lambda g: g.clone()),
}


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_zero_tensor_through_hooks_as_torch(name):
    """A hook is handed sgn's ZeroTensor; what it returns (g * 2 is one too, g + 1 and g.clone()
    are not) goes on to the leaf as PyTorch's does."""
    torch = import_torch()
    on_the_leaf, hook = HOOKS[name]

    def outcome(L):
        x, seen = _leaf(L), []

        def watched(g):
            seen.append(g._is_zerotensor())
            return hook(g)
        y = x if on_the_leaf else x * 3
        y.register_hook(watched)
        y.sgn().sum().backward()
        return seen, x.grad._is_zerotensor(), x.grad._version
    assert outcome(minigrad) == outcome(torch)


def test_retain_grad_of_a_zero_tensor_as_torch():
    """A non-leaf that retains its gradient keeps sgn's ZeroTensor as ordinary zeros (as PyTorch
    does), while the leaf behind it gets the product, a ZeroTensor."""
    torch = import_torch()

    def outcome(L):
        x = _leaf(L)
        y = x * 3
        y.retain_grad()
        y.sgn().sum().backward()
        return y.grad._is_zerotensor(), x.grad._is_zerotensor(), x.grad._version
    assert outcome(minigrad) == outcome(torch)


SECOND_ORDER = {
    "abs": lambda L, x: x.abs(),
    "abs of 2 x": lambda L, x: (x * 2).abs(),
    "abs then exp": lambda L, x: x.abs().exp(),
    "abs of a view": lambda L, x: x.view(6).abs(),
    "abs, gradient times 3": lambda L, x: x.abs(),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order_through_abs_to_a_leaf_as_torch(name):
    """abs's gradient is grad * sgn(x): differentiated again, sgn's ZeroTensor reaches the leaf,
    still one through a product or a view (as PyTorch's does), and a second backward into it
    is refused."""
    torch = import_torch()

    def outcome(L):
        x = _leaf(L)
        (g,) = L.autograd.grad(SECOND_ORDER[name](L, x).sum(), x, create_graph=True)
        (g * 3 if name.endswith("times 3") else g).sum().backward(retain_graph=True)
        first = (x.grad._is_zerotensor(), x.grad._version)
        try:
            (g * 3 if name.endswith("times 3") else g).sum().backward()
        except RuntimeError as error:
            return first, _message(error)
        return first, (x.grad._is_zerotensor(), x.grad._version)
    assert outcome(minigrad) == outcome(torch)


GRAD_OF_A_LEAF = {
    "grad * 2": lambda L, g: g * 2,
    "grad.view(-1)": lambda L, g: g.view(-1),
    "grad + grad": lambda L, g: g + g,
    "grad.detach()": lambda L, g: g.detach(),
    "grad.clone()": lambda L, g: g.clone(),
    "grad.T": lambda L, g: g.T,
    "grad.sum()": lambda L, g: g.sum(),
    "grad.tolist()": lambda L, g: g.tolist(),
    "grad.zero_()": lambda L, g: g.zero_(),
    "grad.mul_(2)": lambda L, g: g.mul_(2),
    "grad[0]": lambda L, g: g[0],
}


@pytest.mark.parametrize("name", sorted(GRAD_OF_A_LEAF))
def test_operations_on_a_zero_tensor_grad_as_torch(name):
    """A .grad that is sgn's ZeroTensor follows the same rules as one made directly."""
    torch = import_torch()

    def outcome(L):
        x = _leaf(L)
        x.sgn().sum().backward()
        return _outcome(lambda L: GRAD_OF_A_LEAF[name](L, x.grad), L), x.grad._version
    assert outcome(minigrad) == outcome(torch)


@pytest.mark.parametrize("create_graph", [False, True])
def test_autograd_grad_of_a_product_is_a_zero_tensor_as_torch(create_graph):
    """autograd.grad hands back the ZeroTensor, also through a product, with or without
    create_graph (it then requires no grad: nothing recorded made it)."""
    torch = import_torch()

    def outcome(L):
        x = _leaf(L)
        (g,) = L.autograd.grad((x * 2).sgn().sum(), x, create_graph=create_graph)
        return g._is_zerotensor(), g.requires_grad, g.grad_fn is None
    assert outcome(minigrad) == outcome(torch)


def _parameter_with_a_zero_tensor_grad(L):
    p = L.nn.Parameter(L.ones(3))
    p.sgn().sum().backward()
    return p


def _two_steps(optimizer, p):
    optimizer.step()
    optimizer.step()
    return p


TRAINING = {
    "SGD's steps": lambda L, p: _two_steps(L.optim.SGD([p], lr=0.1), p),
    "SGD's steps with momentum and weight decay": lambda L, p: _two_steps(
        L.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.1), p),
    "Adam's steps": lambda L, p: _two_steps(L.optim.Adam([p], lr=0.1), p),
    "zero_grad(set_to_none=False)": lambda L, p: L.optim.SGD([p], lr=0.1).zero_grad(set_to_none=False),
    "clip_grad_norm_": lambda L, p: L.nn.utils.clip_grad_norm_([p], 1.0),
    "clip_grad_value_": lambda L, p: L.nn.utils.clip_grad_value_([p], 1.0),
    "printing .grad": lambda L, p: str(p.grad),
    ".grad.norm()": lambda L, p: p.grad.norm(),
}


@pytest.mark.parametrize("name", sorted(TRAINING))
def test_training_with_a_zero_tensor_grad_as_torch(name):
    """Optimisers read a ZeroTensor .grad as zeros; what would change it in place (zero_grad
    without set_to_none, clipping) is refused as in PyTorch."""
    torch = import_torch()
    assert (_outcome(lambda L: TRAINING[name](L, _parameter_with_a_zero_tensor_grad(L)), minigrad)
            == _outcome(lambda L: TRAINING[name](L, _parameter_with_a_zero_tensor_grad(L)), torch))
