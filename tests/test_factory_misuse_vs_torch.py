"""Wrong and unusual calls of the functions that make tensors (tensor, as_tensor, asarray, zeros,
ones, empty, full, arange, linspace, logspace, eye, rand, randn, randint, randperm, empty_strided,
scalar_tensor and the *_like ones), and integer tensors given where PyTorch takes an int or a
list of ints, behave as in PyTorch 2.13: the same result (shape, dtype, values where they are
not random or uninitialised, requires_grad), or the same exception class and message
(minigrad's text up to its "minigrad hint:" line).

The cases: calls written out (CALLS: wrong counts, types and keywords, nested data, devices,
sizes past memory or past a C++ int64), data of each kind with each dtype (DATA x DTYPES), the
int-taking functions with each kind of tensor in place of an int (INT_TEMPLATES x INT_TENSORS),
narrow's tensor start (NARROW_CALLS), devices given to nn.Module.to (MODULE_TO_CALLS), and a
sweep generated the same way every time: each factory called with no argument, with each value
of a pool of wrong (and right) arguments, with a fixed-seed sample of pairs and triples of
them, and with keywords.

Left out, with the reason:
- complex numbers (torch.tensor(1+2j), torch.full((2,), 1+2j)): minigrad has no complex dtypes.
- a size past a C++ long long (torch.zeros(2**63)): PyTorch's message goes on with the C++
  stack of the failed conversion; minigrad's stops after its first line.
- Tensor methods given integer tensors for lists of ints (x.sum(torch.tensor(1)),
  x.view(torch.tensor(6))): the parse accepts them as PyTorch does, but the method is called
  with the tensor, not its value (README, "Not the same as PyTorch yet").
"""
import itertools
import random

import numpy as np
import pytest

import minigrad
from conftest import import_torch, outcome_of

torch = import_torch()

CALLS = """
torch.zeros(*[object()]*40)
torch.ones(*[object()]*40)
torch.empty(*[object()]*40)
torch.full(*[object()]*40)
torch.tensor(*[object()]*40)
torch.as_tensor(*[object()]*40)
torch.zeros('a')
torch.zeros(2,'a')
torch.zeros((2,3),4)
torch.full(2,3)
torch.full((2,),3,4)
torch.tensor(1,2)
torch.tensor()
torch.as_tensor()
torch.zeros()
torch.full()
torch.full((2,))
torch.zeros(2, names=None)
torch.zeros(2, foo=1)
torch.tensor(1, foo=1)
torch.zeros(2, dtype='a')
torch.zeros((2,), dtype='a')
torch.zeros((2,), names=('a',))
torch.zeros((2,), out=1)
torch.full((2,), 1, names=None)
torch.full((2,), 'x')
torch.full('x', 1)
torch.full((2,), 1, dtype='a')
torch.tensor(1, dtype='a')
torch.tensor(1, device=1.5)
torch.tensor(1, requires_grad=1)
torch.tensor([1,'a'])
torch.tensor([[1,2],[3]])
torch.tensor([1,[2]])
torch.tensor(object())
torch.tensor('a')
torch.tensor(None)
torch.tensor([None])
torch.as_tensor(1, 2)
torch.as_tensor('a')
torch.as_tensor(1, dtype='a')
torch.as_tensor(1, device=1.5)
torch.as_tensor(1, requires_grad=True)
torch.empty(2, memory_format=1)
torch.empty((2,), names=None)
torch.empty(2, pin_memory=1)
torch.zeros(2.0)
torch.zeros(2, 3.0)
torch.zeros([2.0])
torch.zeros(True)
torch.zeros(-1)
torch.ones(-1)
torch.empty(-1)
torch.full((-1,), 2)
torch.zeros(2, requires_grad='a', pin_memory='b', device=1.5, layout='d', dtype='e', out='f')
torch.zeros(2, requires_grad='a', pin_memory='b', device=1.5, layout='d', dtype='e')
torch.zeros(2, requires_grad='a', pin_memory='b', device=1.5, layout='d')
torch.zeros(2, requires_grad='a', pin_memory='b', device=1.5)
torch.zeros(2, requires_grad='a', pin_memory='b')
torch.zeros(2, requires_grad=None, pin_memory=None)
torch.full((2,),1, requires_grad='a', pin_memory='b', device=1.5, layout='d', dtype='e', out='f')
torch.full((2,),1, requires_grad='a', pin_memory='b', device=1.5, layout='d', dtype='e')
torch.full((2,),1, requires_grad='a', pin_memory='b', device=1.5, layout='d')
torch.full((2,),1, requires_grad='a', pin_memory='b', device=1.5)
torch.full((2,),1, requires_grad='a', pin_memory='b')
torch.full((2,),1, requires_grad=None, pin_memory=None)
torch.tensor(1, requires_grad='a', pin_memory='b', device=1.5, dtype='e', names=1)
torch.tensor(1, requires_grad='a', pin_memory='b', device=1.5)
torch.tensor(1, requires_grad='a', pin_memory='b')
torch.tensor(1, requires_grad=None, pin_memory=None)
torch.tensor(1, requires_grad=None)
torch.tensor(1, names=None)
torch.tensor(1, dtype=None, device=None)
torch.as_tensor(1, device=1.5, dtype='e')
torch.as_tensor(1, dtype=None, device=None)
torch.as_tensor(data=1)
torch.tensor(data=1)
torch.tensor(1, data=1)
torch.empty(2, requires_grad='a', pin_memory='b', device=1.5, layout='d', dtype='e', out='f', memory_format=1)
torch.empty(2, requires_grad='a', pin_memory='b', device=1.5, layout='d', dtype='e', out='f')
torch.empty(2, requires_grad='a', pin_memory='b', device=1.5, layout='d', dtype='e')
torch.empty(2, memory_format=None, pin_memory=None, requires_grad=None)
torch.zeros(size=2)
torch.zeros(size=(2,3))
torch.zeros(2, size=3)
torch.full(size=2, fill_value=3)
torch.full(size=(2,), fill_value=3)
torch.full((2,), fill_value=3)
torch.full((2,), 3.5)
torch.full((2,), True)
torch.full((2,), x)
torch.full((2,), torch.tensor(2.))
torch.full((2,), torch.tensor([2.]))
torch.full((2,), None)
torch.full([2, 2.0], 1)
torch.full((2, 'a'), 1)
torch.full(torch.tensor(2), 1)
torch.full((torch.tensor(2),), 1)
torch.zeros(torch.tensor(3))
torch.zeros(torch.tensor([3]))
torch.zeros(torch.tensor([3, 2]))
torch.zeros(torch.tensor(3.))
torch.zeros(torch.tensor(True))
torch.zeros(2, torch.tensor(3))
torch.zeros((2, torch.tensor(3)))
torch.zeros((torch.tensor(2), 3))
torch.zeros(torch.tensor(2), 3)
torch.zeros(torch.tensor(2.), 3)
torch.zeros(2, torch.tensor(3.))
torch.zeros((2, torch.tensor([3])))
torch.zeros((2, torch.tensor([3, 4])))
torch.ones(2, 3, dtype=torch.int64)
torch.ones((2, 3), dtype=int)
torch.ones(2, 3, dtype=float)
torch.zeros([])
torch.zeros(())
torch.zeros([[2]])
torch.zeros((2,), (3,))
torch.zeros(2, (3,))
torch.zeros(None)
torch.zeros(2, None)
torch.empty(None)
torch.ones(x)
torch.ones([x])
torch.ones(2, 3, 4, 5, 6, dtype=torch.float64).shape
torch.tensor([1, 2], dtype=torch.float64)
torch.tensor([1, 2], torch.float64)
torch.tensor([1, 2], 'cpu')
torch.tensor(x)
torch.tensor([x])
torch.tensor([x, x])
torch.tensor([torch.tensor(1.), torch.tensor(2.)])
torch.tensor([torch.tensor(1), 2.5])
torch.tensor([[1, 2], [3, 4.]])
torch.tensor([1, True])
torch.tensor([True, False])
torch.tensor([1.5, True])
torch.tensor(((1, 2), [3, 4]))
torch.tensor([[1], 2])
torch.tensor([[], []])
torch.tensor([])
torch.tensor([[1,2],[3,4,5]])
torch.tensor([[[1]], [[2, 3]]])
torch.tensor([1, None])
torch.tensor({1: 2})
torch.tensor({1, 2})
torch.tensor(range(3))
torch.tensor(b'ab')
torch.tensor([b'a'])
torch.tensor(3.5, dtype=torch.int64)
torch.tensor(-1, dtype=torch.uint8)
torch.tensor(300, dtype=torch.uint8)
torch.tensor(1e400)
torch.tensor(float('nan'), dtype=torch.int64)
torch.tensor(float('inf'), dtype=torch.int64)
torch.tensor([1, 2], requires_grad=True)
torch.tensor([1., 2], requires_grad=True)
torch.tensor([1, 2], dtype=torch.bool)
torch.as_tensor([1, 'a'])
torch.as_tensor([[1,2],[3]])
torch.as_tensor(None)
torch.as_tensor(x, torch.float64)
torch.as_tensor(x, dtype=torch.float64)
torch.as_tensor([1, 2], 'cpu')
torch.as_tensor(x, 'cpu')
torch.as_tensor(x, device='cpu')
torch.as_tensor(x, device='cuda')
torch.tensor(1, device='cuda')
torch.tensor(1, device='foo')
torch.zeros(2, device='foo')
torch.zeros(2, device='cpu:0')
torch.zeros(2, device=0)
torch.zeros(2, device=-1)
torch.zeros(2, layout=torch.strided)
torch.zeros(2, layout=None)
torch.zeros(2, out=torch.zeros(3))
torch.zeros(2, out=torch.zeros(3), dtype=torch.float64)
torch.zeros(2, dtype=torch.float64, requires_grad=True)
torch.zeros(2, dtype=torch.int64, requires_grad=True)
torch.full((2,), 1, dtype=torch.int64, requires_grad=True)
torch.full((2,), 1.5, dtype=torch.int64)
torch.full((2,), 2**70)
torch.full((2,), 300, dtype=torch.uint8)
torch.full((2,), -1, dtype=torch.uint8)
torch.full((2,), 1.5, dtype=torch.bool)
torch.empty(2, 3).shape
torch.empty(2**62, 2**62)
torch.zeros(2**40, 2**40)
torch.tensor([1.,[2]])
torch.tensor([True,[2]])
torch.tensor([1,(2,)])
torch.tensor([1,[]])
torch.tensor([[1], 2.])
torch.tensor([[1], [2], 3])
torch.tensor([[1, 2], [3, [4]]])
torch.tensor([[1, 2], [3, 4, 5], 6])
torch.tensor([[1, 2], 6, [3, 4, 5]])
torch.tensor([[[1]], [2]])
torch.tensor([range(2), range(2)])
torch.tensor([range(2), [1, 2]])
torch.tensor(range(0))
torch.tensor([1, b'a'])
torch.tensor(bytearray(b'a'))
torch.tensor([1, 'a'])
torch.tensor(['a'])
torch.tensor([[1, 2], ['a', 'b']])
torch.tensor([None, 1])
torch.tensor([1, object()])
torch.tensor([torch.tensor([1, 2]), torch.tensor([3, 4])])
torch.tensor([torch.tensor(1), torch.tensor(2)])
torch.tensor([torch.tensor([1]), torch.tensor([2])])
torch.tensor([[1, 2], torch.tensor([3, 4])])
torch.tensor([1, torch.tensor([3, 4])])
torch.tensor([1, torch.tensor(3.5)])
torch.tensor([torch.tensor(1.5), 1])
torch.tensor([1, 2.5, True])
torch.tensor([[True], [2]])
torch.tensor([1.5], dtype=torch.int64)
torch.tensor([[1]], dtype=torch.bool)
torch.tensor([1, [2]], dtype=torch.float64)
torch.tensor([[1], 2], dtype=torch.float64)
torch.tensor({'a': 1})
torch.tensor(iter([1, 2]))
torch.tensor((i for i in range(2)))
torch.tensor(1, dtype=torch.float64, device='cpu')
torch.as_tensor([1, [2]])
torch.as_tensor(range(3))
torch.as_tensor([[1], 2])
torch.as_tensor(b'a')
torch.tensor(float('nan'), dtype=torch.int32)
torch.tensor([2**31], dtype=torch.int32)
torch.tensor([2**70])
torch.tensor([1.5, 2**70])
torch.tensor([[]])
torch.tensor([[], [1]])
torch.tensor([[1], []])
torch.tensor(())
torch.tensor(((), ()))
torch.tensor([torch.tensor([1., 2]), torch.tensor([3., 4])])
torch.tensor([1., torch.tensor([3., 4])])
torch.tensor([torch.tensor(2.5)], dtype=torch.int64)
torch.tensor([torch.tensor([2.5])], dtype=torch.int64)
torch.tensor([True, torch.tensor([1, 2])])
torch.tensor([torch.tensor([True, False])])
torch.tensor([torch.tensor([1, 2]), [3, 4]])
torch.tensor([[1, 2], torch.tensor([3, 4, 5])])
torch.tensor([[1, 2], torch.tensor(3)])
torch.tensor([1, [2]], dtype=torch.bool)
torch.tensor([[1], 2], dtype=torch.bool)
torch.tensor([1.5, (2,)])
torch.tensor([1, range(2)])
torch.tensor([1, 'ab'])
torch.tensor([[1], 'ab'])
torch.tensor([[1, 2], 'ab'])
torch.tensor(['ab', [1, 2]])
torch.tensor([[1], None])
torch.tensor([1, [None]])
torch.tensor([[None], 1])
torch.tensor([[1.5], 2], dtype=torch.int64)
torch.tensor([[1, 2], torch.tensor([3., 4])])
torch.tensor([[1, 2], torch.tensor([[3, 4]])])
torch.tensor(x[:1, :1])
torch.tensor([x[0], x[1]])
torch.tensor([[x[0, 0]]])
torch.tensor([x[:1, :1]])
torch.arange()
torch.arange('a')
torch.arange(1, 'a')
torch.arange(1, 2, 3, 4)
torch.arange(5, dtype='a')
torch.arange(5, foo=1)
torch.arange(torch.tensor(5))
torch.arange(torch.tensor([5]))
torch.arange(x)
torch.arange(5, requires_grad=True)
torch.arange(5., requires_grad=True)
torch.arange(0, 5, 0)
torch.arange(5, 0)
torch.arange(float('nan'))
torch.arange(float('inf'))
torch.arange(5, device='cpu:0')
torch.arange(5, device='foo')
torch.arange(5, layout=torch.strided)
torch.arange(5, pin_memory=False)
torch.arange(start=1, end=3)
torch.arange(end=3)
torch.arange(1, end=3)
torch.arange(None)
torch.arange(True)
torch.linspace()
torch.linspace(0, 1)
torch.linspace(0, 1, 'a')
torch.linspace(0, 1, 2.5)
torch.linspace(0, 1, -1)
torch.linspace(0, 1, 5, dtype=torch.int64)
torch.linspace('a', 1, 5)
torch.linspace(torch.tensor(0.), torch.tensor(1.), 5)
torch.linspace(torch.tensor([0.]), 1, 5)
torch.linspace(0, 1, steps=5)
torch.linspace(0, 1, 5, 6)
torch.linspace(0, 1, 5, foo=2)
torch.linspace(0, 1, torch.tensor(5))
torch.logspace(0, 1)
torch.logspace(0, 1, 5, 'a')
torch.logspace(0, 1, 5, base=2)
torch.logspace(0, 1, 5, 2, 3)
torch.logspace(0, 1, -1)
torch.eye()
torch.eye('a')
torch.eye(2, 'a')
torch.eye(2, 3, 4)
torch.eye(-1)
torch.eye(2, -1)
torch.eye(2.0)
torch.eye(2, m=3)
torch.eye(n=2, m=3)
torch.eye(2, dtype=torch.int64)
torch.eye(None)
torch.eye(2, None)
torch.rand()
torch.rand('a')
torch.rand(2, 'a')
torch.rand((2, 3), 4)
torch.rand(2, dtype=torch.int64)
torch.rand(-1)
torch.rand(2.5)
torch.rand(2, generator=1)
torch.rand(2, foo=1)
torch.rand([2, 2.0])
torch.rand(size=2)
torch.rand(size=(2,)).shape
torch.randn()
torch.randn('a')
torch.randn(2, dtype=torch.int64)
torch.randn(-1)
torch.randn(2, 3, 'a')
torch.randint()
torch.randint(5)
torch.randint(5, 3)
torch.randint(5, (3,)).shape
torch.randint(0, 5, (3,)).shape
torch.randint(5, 0, (3,))
torch.randint(0, 5, 3)
torch.randint(0, 5)
torch.randint(2.5, (3,))
torch.randint(0, 5, (3,), dtype=torch.float32).dtype
torch.randint(0, 5, (3,), dtype=torch.bool)
torch.randint('a', (3,))
torch.randint(5, size=(3,)).shape
torch.randint(low=0, high=5, size=(3,)).shape
torch.randint(high=5, size=(3,)).shape
torch.randint(0, 5, (3,), foo=1)
torch.randint(0, 5, (-1,))
torch.randint(5, 5, (3,))
torch.randperm()
torch.randperm('a')
torch.randperm(-1)
torch.randperm(2.5)
torch.randperm(3, 4)
torch.randperm(3, dtype=torch.float32).dtype
torch.randperm(3, dtype=torch.bool)
torch.randperm(300, dtype=torch.uint8)
torch.randperm(n=3).shape
torch.empty_strided()
torch.empty_strided((2, 3))
torch.empty_strided((2, 3), (3, 1)).shape
torch.empty_strided((2, 3), (3,))
torch.empty_strided(2, 1)
torch.empty_strided((2, 3), (3, 1), 5)
torch.empty_strided((2, -1), (3, 1))
torch.empty_strided((2, 3), (-3, 1))
torch.empty_strided((2, 'a'), (3, 1))
torch.empty_strided((2, 3), (3, 1), dtype='a')
torch.zeros_like()
torch.zeros_like(1)
torch.zeros_like([1, 2])
torch.zeros_like(x, 1)
torch.zeros_like(x, dtype='a')
torch.zeros_like(x, foo=1)
torch.zeros_like(x, memory_format=1)
torch.zeros_like(x, memory_format=torch.contiguous_format)
torch.zeros_like(x, layout=torch.strided)
torch.zeros_like(x, device='cpu:0')
torch.zeros_like(x, device='foo')
torch.zeros_like(x, pin_memory=False)
torch.zeros_like(x, requires_grad=None)
torch.zeros_like(x, requires_grad=1)
torch.ones_like(1)
torch.ones_like(x, torch.float64)
torch.empty_like('a')
torch.empty_like(x).shape
torch.rand_like(x, dtype=torch.int64)
torch.randn_like(i)
torch.rand_like(1)
torch.full_like(x)
torch.full_like(x, 'a')
torch.full_like(x, 1, 2)
torch.full_like(1, 2)
torch.full_like(x, torch.tensor(2.))
torch.full_like(x, torch.tensor([2.]))
torch.full_like(x, x)
torch.full_like(x, None)
torch.full_like(x, 2, dtype=torch.int64)
torch.full_like(x, 2.5, dtype=torch.int64)
torch.full_like(i, 2.5)
torch.full_like(x, 2**70)
torch.full_like(i, 2**70)
torch.full_like(x, fill_value=3)
torch.randint_like(x, 5).shape
torch.randint_like(x)
torch.randint_like(x, 'a')
torch.randint_like(x, 5, 2)
torch.randint_like(x, 2.5)
torch.scalar_tensor()
torch.scalar_tensor('a')
torch.scalar_tensor(1, 2)
torch.scalar_tensor(x)
torch.scalar_tensor(True)
torch.scalar_tensor(2)
torch.tensor(5).new_zeros(2)
torch.as_tensor([1, 2], dtype=torch.float64, device='cpu:0')
torch.asarray([1, 2], foo=1)
torch.asarray()
torch.asarray(1, 2)
torch.from_numpy([1, 2])
torch.full((2,), 1, layout=torch.strided).shape
torch.empty(2, memory_format=torch.contiguous_format).shape
torch.empty(2, memory_format=torch.channels_last)
torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride()
torch.zeros(2, pin_memory=True)
""".strip().splitlines()

# the functions that take an int or a list of ints, with {t} where a tensor is given for one
INT_TEMPLATES = """
torch.unsqueeze(x, {t})
torch.select(x, {t}, 0)
torch.select(x, 0, {t})
torch.cumsum(x, {t})
torch.triu(x, {t})
torch.eye({t})
torch.eye(2, {t})
torch.diagonal(x, {t})
torch.narrow(x, {t}, 0, 1)
torch.narrow(x, 0, 0, {t})
torch.chunk(x, {t})
torch.topk(x, {t})
torch.movedim(x, {t}, 0)
torch.squeeze(x, {t})
torch.argmax(x, {t})
torch.softmax(x, {t})
torch.kthvalue(x, {t})
torch.flatten(x, {t})
torch.index_select(x, {t}, torch.tensor([0]))
torch.diff(x, {t})
torch.gather(x, {t}, torch.tensor([[0]]))
torch.randperm({t}).shape
torch.sum(x, {t})
torch.sum(x, ({t},))
torch.sum(x, (0, {t}))
torch.mean(x, {t})
torch.std(x, {t})
torch.amax(x, {t})
torch.roll(x, {t}, 1)
torch.roll(x, 1, {t})
torch.roll(x, ({t},), (1,))
torch.permute(x, ({t}, 0))
torch.flip(x, {t})
torch.flip(x, ({t},))
torch.reshape(x, ({t}, -1))
torch.reshape(x, {t})
torch.zeros({t})
torch.zeros(2, {t})
torch.ones(({t}, 2))
torch.full(({t},), 1)
torch.empty({t}, 2).shape
torch.rand({t}).shape
torch.randn(2, {t}).shape
torch.randint(5, ({t},)).shape
torch.empty_strided(({t},), (1,)).shape
torch.tile(x, ({t},))
torch.tensor_split(x, {t})
torch.split(x, {t})
torch.transpose(x, {t}, 0)
torch.swapaxes(x, {t}, 0)
torch.repeat_interleave(x, {t})
torch.as_strided(x, ({t},), (1,))
""".strip().splitlines()
INT_TENSORS = ["torch.tensor([1])", "torch.tensor(True)", "torch.tensor(1)", "torch.tensor([[1]])",
               "torch.tensor(1.)", "torch.tensor([1, 0])", "torch.tensor(0, dtype=torch.uint8)"]

NARROW_CALLS = """
x.narrow(0, torch.tensor(0), 1)
x.narrow(0, torch.tensor([0]), 1)
x.narrow(0, torch.tensor(0.), 1)
x.narrow(0, torch.tensor(True), 1)
x.narrow(0, torch.tensor([[0]]), 1)
x.narrow(0, torch.tensor(0, dtype=torch.int32), 1)
x.narrow(0, torch.tensor(0, dtype=torch.uint8), 1)
x.narrow(0, torch.tensor(5), 1)
x.narrow(0, torch.tensor(-1), 1)
x.narrow(0, torch.tensor(0), torch.tensor(1))
x.narrow(torch.tensor(0), 0, 1)
x.narrow(0, 0, torch.tensor(1))
x.narrow(0, start=torch.tensor(0), length=1)
x.narrow(0, torch.tensor(0.), 1.)
x.narrow(0, torch.tensor([0, 1]), 1)
x.narrow(0, torch.tensor([0.]), 1)
x.narrow(0, torch.tensor(0, dtype=torch.float64), 1)
x.narrow(0, torch.tensor(0, requires_grad=True, dtype=torch.float32), 1)
x.narrow(0, 1.5, 1)
x.narrow(0, True, 1)
x.narrow(0, torch.tensor(3), 1)
""".strip().splitlines()

# nn.Module.to reads a device as the factories do (a module on 'meta' is left out: minigrad has
# no meta tensors)
MODULE_TO_CALLS = """
torch.nn.Linear(2, 2).to('cpu:0').weight.device
torch.nn.Linear(2, 2).to('cpu:1').weight.device
torch.nn.Linear(2, 2).to('cpu:-1')
torch.nn.Linear(2, 2).to('cpu:')
torch.nn.Linear(2, 2).to('cpu:01')
torch.nn.Linear(2, 2).to('CPU')
torch.nn.Linear(2, 2).to('')
torch.nn.Linear(2, 2).to(0)
torch.nn.Linear(2, 2).to(-1)
torch.nn.Linear(2, 2).to('foo')
torch.nn.Linear(2, 2).to('cuda:0')
torch.nn.Linear(2, 2).to('cuda')
torch.nn.Linear(2, 2).to(torch.device('cpu')).weight.device
torch.nn.Linear(2, 2).to('cpu', torch.float64).weight.dtype
torch.nn.Linear(2, 2).to('cpu:0', torch.float64).weight.dtype
torch.nn.Linear(2, 2).to(device='cpu:0').weight.device
torch.nn.Linear(2, 2).to(device='cpu:0', dtype=torch.float64).weight.dtype
torch.nn.Linear(2, 2).to('cpu:0', dtype=torch.int64)
torch.nn.Linear(2, 2).to(' cpu')
torch.nn.Linear(2, 2).to('cpu:0:0')
torch.nn.Linear(2, 2).to(1.5)
""".strip().splitlines()

# data for torch.tensor and torch.as_tensor, each given with each dtype
DATA = ["1", "1.5", "True", "[1, 2]", "[1.5, 2]", "[True, False]", "[[1, 2], [3, 4]]", "[]", "[[]]",
        "[[], []]", "[torch.tensor(1), 2]", "[torch.tensor(1.5), 2]", "[[1, 2], torch.tensor([3, 4])]",
        "torch.tensor([1, 2])", "(1, 2)", "((1, 2), (3, 4))", "[[1], [2.5]]", "[1, -1]", "[300]",
        "[-129]", "[float('nan')]", "[float('inf')]", "np.array([1, 2])", "[np.float64(1.5), 2]",
        "[np.int32(3)]", "[np.int32(3), 1]", "[[np.array(1)]]", "np.array([[1, 2]], dtype='float16')",
        "range(2, 5)", "[range(2), range(2)]", "[2**62]", "[0.1, 0.2]", "[[True], [2]]"]
DTYPES = ["None", "torch.float32", "torch.float64", "torch.int64", "torch.int32", "torch.uint8",
          "torch.int8", "torch.bool", "torch.float16"]
DATA_CALLS = [f"torch.{name}({data}, dtype={dtype})" for data in DATA for dtype in DTYPES
              for name in ("tensor", "as_tensor")]

# what differs from run to run or is not set in memory: compared by shape and dtype alone
_NOT_COMPARED_BY_VALUE = ("rand", "empty")


def _result(lib, source):
    """What evaluating ``source`` with ``torch`` standing for ``lib`` gives: its outcome, and for
    a tensor its shape, dtype, requires_grad and (unless random or uninitialised) values."""
    names = {"torch": lib, "np": np, "x": lib.arange(6.).reshape(2, 3), "i": lib.arange(6)}
    made = []
    outcome = outcome_of(lambda: made.append(eval(source, names)))     # noqa: S307 (our cases)
    if outcome != "ok":
        return outcome
    value = made[0]
    if not isinstance(value, lib.Tensor):
        return "ok", repr(value).replace("minigrad", "torch")
    shown = (tuple(value.shape), str(value.dtype).replace("minigrad", "torch"), value.requires_grad)
    if not any(word in source for word in _NOT_COMPARED_BY_VALUE):
        shown += (repr(value.tolist()),)      # (a repr: nan equals nan)
    return "ok", shown


@pytest.mark.parametrize("source", CALLS + NARROW_CALLS + MODULE_TO_CALLS + DATA_CALLS)
def test_call_as_in_torch(source):
    assert _result(minigrad, source) == _result(torch, source)


@pytest.mark.parametrize("source", [t.replace("{t}", tensor) for t in INT_TEMPLATES for tensor in INT_TENSORS])
def test_tensor_for_an_int_as_in_torch(source):
    assert _result(minigrad, source) == _result(torch, source)


# --- the sweep -----------------------------------------------------------------------------

FACTORIES = ["zeros", "ones", "empty", "full", "tensor", "as_tensor", "arange", "linspace",
             "logspace", "eye", "rand", "randn", "randint", "randperm", "empty_strided",
             "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
             "asarray", "scalar_tensor"]
KEYWORDS = ["size", "dtype", "device", "requires_grad", "out", "layout", "pin_memory",
            "memory_format", "fill_value", "end", "steps", "n", "m", "high", "generator", "names",
            "data", "foo"]


def _pool(lib):
    """Arguments a learner might pass (the same for both libraries)."""
    return [2, -1, 2.5, True, "a", None, (2, 3), [2, 2.0], lib.tensor(3), lib.tensor([2, 3]),
            lib.tensor(2.), lib.tensor(True), lib.ones(2, 3), [lib.ones(2)], (lib.tensor(2), 3),
            [[1], 2], [1, [2]], range(3), lib.float64, 0, (), lib.tensor([2])]


POOL_SIZE = 22


def _sweep_cases():
    rng = random.Random(0)
    cases = []
    for name in FACTORIES:
        combos = ([()] + [(i,) for i in range(POOL_SIZE)]
                  + rng.sample(list(itertools.product(range(POOL_SIZE), repeat=2)), 30)
                  + rng.sample(list(itertools.product(range(POOL_SIZE), repeat=3)), 12))
        cases += [(name, combo, None) for combo in combos]
        for keyword in rng.sample(KEYWORDS, 6):
            cases.append((name, (rng.choice((0, 6, 12)),), (keyword, rng.randrange(POOL_SIZE))))
    return cases


def _sweep_outcome(lib, name, combo, keyword):
    pool = _pool(lib)
    args = [pool[i] for i in combo]
    kwargs = {keyword[0]: pool[keyword[1]]} if keyword else {}
    return outcome_of(lambda: getattr(lib, name)(*args, **kwargs))


@pytest.mark.parametrize("name, combo, keyword", _sweep_cases(),
                         ids=lambda value: str(value).replace(" ", ""))
def test_factory_sweep_as_in_torch(name, combo, keyword):
    assert _sweep_outcome(minigrad, name, combo, keyword) == _sweep_outcome(torch, name, combo, keyword)
