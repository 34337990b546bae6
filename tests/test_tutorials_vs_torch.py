"""PyTorch's tutorials, run unchanged: a program written the way a tutorial's code reads runs
once with real PyTorch and once with minigrad standing in for it (``minigrad.install_as_torch()``
before the program, so its own ``import torch``, ``torch.nn``, ``torch.utils.data`` ... find
minigrad), each in a fresh Python process; what they print must be the same text.

The programs are our own, each following one of PyTorch's tutorials or recipes step by step on
small synthetic data (no downloads), seeded with ``torch.manual_seed``:

* "Learning PyTorch with Examples": the numpy warm-up, tensors by hand, autograd, a custom
  autograd Function (a Legendre polynomial), ``nn``, ``optim``, a custom Module, and a module
  whose forward picks a different graph at every call;
* "What is torch.nn really?": logistic regression by hand, then refactored step by step with
  ``nn.functional``, ``nn.Module``, ``nn.Linear``, ``optim``, ``TensorDataset``/``DataLoader``,
  validation, a CNN, ``nn.Sequential`` with a lambda layer and ``AdaptiveAvgPool2d``;
* the "Learn the Basics" series: tensors, building a model, autograd, the optimization loop,
  saving and loading;
* recipes: defining a network, what a state_dict is, zeroing gradients, a general checkpoint,
  warmstarting a model from another one's parameters (``strict=False``) and its errors;
* "Double Backward with Custom Functions" (gradcheck and gradgradcheck, whose random
  grad_outputs come from the seeded generator) and "Forward-mode Automatic Differentiation";
* the autograd reference's examples: tensor hooks, saved tensors hooks and ``save_on_cpu``,
  anomaly detection, the in-place correctness check, module hooks, inference mode.

Losses are printed with few digits where the last bit of MKL's float32 ``exp``/``log``/``sin`` or
of a matrix product differs (README, "Where minigrad differs from PyTorch on purpose").
Only standard output is compared: a warning names the file it is attributed to, which is
PyTorch's own module under PyTorch and the program's line under minigrad. A printed error may
go on with a ``minigrad hint:`` line of advice, left out of the comparison.
"""
import os
import pathlib
import re
import subprocess
import sys

import pytest

from conftest import import_torch

import_torch()      # (skips the module where the reference library is missing)

ROOT = pathlib.Path(__file__).resolve().parent.parent

PROGRAMS = {}

PROGRAMS["learning_pytorch_with_examples"] = r"""
import math
import numpy as np
import torch

# numpy warm-up
np.random.seed(0)
x = np.linspace(-math.pi, math.pi, 200)
y = np.sin(x)
a, b, c, d = np.random.randn(4)
lr = 1e-6
for t in range(100):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = np.square(y_pred - y).sum()
    if t % 50 == 49:
        print(t, round(loss, 4))
    g = 2.0 * (y_pred - y)
    a -= lr * g.sum(); b -= lr * (g * x).sum(); c -= lr * (g * x ** 2).sum(); d -= lr * (g * x ** 3).sum()
print(f'numpy: y = {a:.4f} + {b:.4f} x + {c:.4f} x^2 + {d:.4f} x^3')

torch.manual_seed(0)
dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 200, device=device, dtype=dtype)
y = torch.sin(x)
a = torch.randn((), device=device, dtype=dtype)
b = torch.randn((), device=device, dtype=dtype)
c = torch.randn((), device=device, dtype=dtype)
d = torch.randn((), device=device, dtype=dtype)
for t in range(100):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 50 == 49:
        print(t, f'{loss:.3f}')
    grad_y_pred = 2.0 * (y_pred - y)
    a -= lr * grad_y_pred.sum()
    b -= lr * (grad_y_pred * x).sum()
    c -= lr * (grad_y_pred * x ** 2).sum()
    d -= lr * (grad_y_pred * x ** 3).sum()
print(f'tensors: y = {a.item():.3f} + {b.item():.3f} x + {c.item():.3f} x^2 + {d.item():.3f} x^3')

# autograd
a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)
for t in range(100):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, f'{loss.item():.3f}', loss.grad_fn)
    loss.backward()
    with torch.no_grad():
        a -= lr * a.grad; b -= lr * b.grad; c -= lr * c.grad; d -= lr * d.grad
        a.grad = None; b.grad = None; c.grad = None; d.grad = None
print(a, b.grad, c.requires_grad)

class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)

a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(100):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, f'{loss.item():.3f}')
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad; b -= learning_rate * b.grad
        c -= learning_rate * c.grad; d -= learning_rate * d.grad
        a.grad = None; b.grad = None; c.grad = None; d.grad = None
print(y_pred.grad_fn, P3(c + d * x).grad_fn.__class__.__name__)
print(f'Legendre: y = {round(a.item(), 3) + 0.0:.3f} + {b.item():.3f} * P3({c.item():.3f} + {d.item():.3f} x)')

# nn
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
print(model)
loss_fn = torch.nn.MSELoss(reduction='sum')
for t in range(100):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, f'{loss.item():.3f}')
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= 1e-6 * param.grad
linear_layer = model[0]
print(f'nn: y = {linear_layer.bias.item():.3f} + {linear_layer.weight[:, 0].item():.3f} x + {linear_layer.weight[:, 1].item():.3f} x^2 + {linear_layer.weight[:, 2].item():.3f} x^3')
print(y_pred.grad_fn, loss.grad_fn)

# optim
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
print(optimizer)
for t in range(100):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, f'{loss.item():.3f}')
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print([f'{v:.3f}' for v in model[0].weight.flatten().tolist()])

class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
    def string(self):
        return f'y = {self.a.item():.3f} + {self.b.item():.3f} x + {self.c.item():.3f} x^2 + {self.d.item():.3f} x^3'

model = Polynomial3()
print(model)
print(list(model.named_parameters())[0])
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(100):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 50 == 49:
        print(t, f'{loss.item():.3f}')
    optimizer.zero_grad(); loss.backward(); optimizer.step()
print(model.string())

import random
random.seed(0)
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))
    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y
    def string(self):
        return f'y = {self.a.item():.3f} + {self.b.item():.3f} x + {self.c.item():.3f} x^2 + {self.d.item():.3f} x^3 + {self.e.item():.3f} x^4 ? + {self.e.item():.3f} x^5 ?'

model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(100):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 50 == 49:
        print(t, f'{loss.item():.3f}')
    optimizer.zero_grad(); loss.backward(); optimizer.step()
print(model.string())
print(optimizer.state_dict()['param_groups'])
"""

PROGRAMS["what_is_torch_nn_really"] = r"""
import math
import numpy as np
import torch
torch.manual_seed(0)
n, bs = 256, 64
x_train = torch.rand(n, 784)
y_train = torch.randint(0, 10, (n,))
x_valid = torch.rand(128, 784)
y_valid = torch.randint(0, 10, (128,))
x_train, y_train, x_valid, y_valid = map(torch.tensor, (x_train.numpy(), y_train.numpy(), x_valid.numpy(), y_valid.numpy()))
print(x_train, y_train)
print(x_train.shape, y_train.min(), y_train.max())

weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)
def nll(input, target):
    return -input[range(target.shape[0]), target].mean()
loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()
print(accuracy(preds, yb))
lr, epochs = 0.5, 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        xb = x_train[start_i:start_i + bs]; yb = y_train[start_i:start_i + bs]
        loss = loss_func(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f'{loss_func(model(xb), yb).item():.3f}', accuracy(model(xb), yb))

import torch.nn.functional as F
loss_func = F.cross_entropy
def model(xb):
    return xb @ weights + bias
print(f'{loss_func(model(xb), yb).item():.3f}', accuracy(model(xb), yb))

from torch import nn
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
        self.bias = nn.Parameter(torch.zeros(10))
    def forward(self, xb):
        return xb @ self.weights + self.bias
model = Mnist_Logistic()
print(model, loss_func(model(xb), yb))
def fit():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            xb = x_train[start_i:start_i + bs]; yb = y_train[start_i:start_i + bs]
            loss = loss_func(model(xb), yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()
fit()
print(f'{loss_func(model(xb), yb).item():.3f}')

class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)
    def forward(self, xb):
        return self.lin(xb)
model = Mnist_Logistic()
print(model, f'{loss_func(model(xb), yb).item():.3f}')
fit()

from torch import optim
def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)
model, opt = get_model()
print(opt)
from torch.utils.data import TensorDataset, DataLoader
train_ds = TensorDataset(x_train, y_train)
print(len(train_ds), train_ds[0][1])
train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs * 2)
for epoch in range(epochs):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward(); opt.step(); opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(epoch, f'{(valid_loss / len(valid_dl)).item():.3f}')

def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward(); opt.step(); opt.zero_grad()
    return loss.item(), len(xb)
def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f'{val_loss:.3f}')
def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=True), DataLoader(valid_ds, batch_size=bs * 2))
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
model, opt = get_model()
fit(epochs, model, loss_func, opt, train_dl, valid_dl)

class Mnist_CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1)
    def forward(self, xb):
        xb = xb.view(-1, 1, 28, 28)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.relu(self.conv3(xb))
        xb = F.avg_pool2d(xb, 4)
        return xb.view(-1, xb.size(1))
lr = 0.1
model = Mnist_CNN()
print(model)
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(1, model, loss_func, opt, train_dl, valid_dl)

class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
def preprocess(x):
    return x.view(-1, 1, 28, 28)
model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.AvgPool2d(4),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(1, model, loss_func, opt, train_dl, valid_dl)

def preprocess(x, y):
    return x.view(-1, 1, 28, 28), y
class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl; self.func = func
    def __len__(self):
        return len(self.dl)
    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
train_dl = WrappedDataLoader(train_dl, preprocess)
valid_dl = WrappedDataLoader(valid_dl, preprocess)
model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(1, model, loss_func, opt, train_dl, valid_dl)
print(torch.cuda.is_available(), torch.device('cpu'))
"""

PROGRAMS["learn_the_basics"] = r"""
import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
x_ones = torch.ones_like(x_data)
print(f"ones like:\n{x_ones}")
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(f"random like:\n{x_rand}")
shape = (2, 3,)
print(torch.rand(shape), torch.ones(shape), torch.zeros(shape), sep='\n')
tensor = torch.rand(3, 4)
print("shape:", tensor.shape)
print("dtype:", tensor.dtype)
print("device:", tensor.device)
if torch.cuda.is_available():
    tensor = tensor.to("cuda")
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print("device chosen:", device)
tensor = torch.ones(4, 4)
print("row 0:", tensor[0])
print("column 0:", tensor[:, 0])
print("last column:", tensor[..., -1])
tensor[:, 1] = 0
print(tensor)
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(y3, z3)
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
print(tensor)
tensor.add_(5)
print(tensor)
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits
model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, 28, 28, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print("predicted:", y_pred)
input_image = torch.rand(3, 28, 28)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=28*28, out_features=20)
hidden1 = layer1(flat_image)
print(hidden1.size())
print("before relu:", hidden1)
hidden1 = nn.ReLU()(hidden1)
print("after relu:", hidden1)
seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10))
logits = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab)
print(model)
for name, param in model.named_parameters():
    print(name, param.size(), param[:2])

# autograd
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print("z:", z.grad_fn)
print("loss:", loss.grad_fn)
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w)+b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print("after one backward", inp.grad)
out.backward(torch.ones_like(out), retain_graph=True)
print("after two", inp.grad)
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print("after zero_ and one more", inp.grad)
try:
    loss.backward()
except RuntimeError as e:
    print(type(e).__name__, e)

# optimization loop
from torch.utils.data import TensorDataset, DataLoader
train_data = TensorDataset(torch.rand(96, 1, 28, 28), torch.randint(0, 10, (96,)))
test_data = TensorDataset(torch.rand(32, 1, 28, 28), torch.randint(0, 10, (32,)))
learning_rate = 1e-3
batch_size = 16
epochs = 2
train_dataloader = DataLoader(train_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"batch loss {loss:.6f} ({current} of {size})")
def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"accuracy {100 * correct:.1f}%, mean loss {test_loss:.6f}")
for t in range(epochs):
    print("epoch", t + 1)
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("trained")

# save and load
import io, tempfile, os
d = tempfile.mkdtemp()
torch.save(model.state_dict(), os.path.join(d, 'model_weights.pth'))
model2 = NeuralNetwork()
print(model2.load_state_dict(torch.load(os.path.join(d, 'model_weights.pth'), weights_only=True)))
model2.eval()
print(torch.equal(model2(X), model(X)))
torch.save(model, os.path.join(d, 'model.pth'))
model3 = torch.load(os.path.join(d, 'model.pth'), weights_only=False)
print(model3)
print(list(model.state_dict().keys()))
"""

PROGRAMS["recipes_state_dict_checkpoint_warmstart"] = r"""
import torch, os, tempfile
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(0)
d = tempfile.mkdtemp()

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)
    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output
my_nn = Net()
print(my_nn)
random_data = torch.rand((1, 1, 28, 28))
result = my_nn(random_data)
print(result.shape, result.grad_fn)

# state_dict recipe
class Net2(nn.Module):
    def __init__(self):
        super(Net2, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x
net = Net2()
print(net)
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
print("model state:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())
print("optimizer state:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

# zeroing out gradients
criterion = nn.CrossEntropyLoss()
inputs = torch.rand(8, 3, 32, 32)
labels = torch.randint(0, 10, (8,))
for epoch in range(2):
    running_loss = 0.0
    for i in range(3):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print(epoch + 1, 'mean loss %.3f' % (running_loss / 3))
print(optimizer.state_dict()['state'][0]['momentum_buffer'].shape)

# general checkpoint
EPOCH = 5
PATH = os.path.join(d, "model.pt")
LOSS = 0.4
torch.save({'epoch': EPOCH, 'model_state_dict': net.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(), 'loss': LOSS}, PATH)
model = Net2()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(PATH, weights_only=True)
print(model.load_state_dict(checkpoint['model_state_dict']))
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']
model.eval()
print(epoch, loss, torch.equal(model(inputs), net.eval()(inputs)))
model.train()
print(optimizer.state_dict()['param_groups'][0]['lr'], len(optimizer.state))

# warmstarting
class NetA(nn.Module):
    def __init__(self):
        super(NetA, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
class NetB(NetA):
    def __init__(self):
        super().__init__()
        self.fc4 = nn.Linear(10, 2)
netA = NetA()
netB = NetB()
PATH = os.path.join(d, "model_a.pt")
torch.save(netA.state_dict(), PATH)
print(netB.load_state_dict(torch.load(PATH, weights_only=True), strict=False))
print(netA.load_state_dict(netB.state_dict(), strict=False))
try:
    netB.load_state_dict(torch.load(PATH, weights_only=True))
except RuntimeError as e:
    print(e)
sd = netA.state_dict(); sd['fc1.weight'] = torch.zeros(3, 3)
try:
    netA.load_state_dict(sd)
except RuntimeError as e:
    print(e)
try:
    netA.load_state_dict(sd, strict=False)
except RuntimeError as e:
    print(e)
print(netA.state_dict()['fc3.bias'])
# multiple models in one file
modelA, modelB = NetA(), NetB()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.Adam(modelB.parameters(), lr=0.001)
torch.save({'modelA_state_dict': modelA.state_dict(), 'modelB_state_dict': modelB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(), 'optimizerB_state_dict': optimizerB.state_dict()}, PATH)
ck = torch.load(PATH, weights_only=True)
print(sorted(ck), ck['optimizerB_state_dict'])
"""

PROGRAMS["double_backward_and_forward_mode_ad"] = r"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from functools import partial
torch.manual_seed(0)

# double backward with custom functions
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out
x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))

class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx
    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input
def sinh(x):
    return Sinh.apply(x)[0]
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))

class SinhBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2
    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input
out = SinhBad.apply(x)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g.requires_grad)
try:
    torch.autograd.gradgradcheck(SinhBad.apply, x)
except Exception as e:
    print(type(e).__name__, str(e)[:300])

class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x ** 3
        dx = 3 * x ** 2
        ctx.save_for_backward(x, dx)
        return result, dx
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(my_cube, x), torch.autograd.gradgradcheck(my_cube, x))

# forward-mode AD
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(fwAD.unpack_dual(dual_output))
assert fwAD.unpack_dual(dual_output).tangent is None
print(jvp[0])
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp[:2])
from torch.func import functional_call
model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
print(torch.allclose(jvp, jvp2))

class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result
    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO
fn = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))

from torch.func import jvp
x = torch.randn([])
f = lambda x: x * torch.tensor([1., 2., 3])
value, grad = jvp(f, (x,), (torch.tensor(1.),))
print(value, grad)
print(torch.allclose(value, f(x)), grad)
def f(x, y):
    return x * y
_, output = jvp(f, (torch.tensor(1.), torch.tensor(2.)), (torch.tensor(3.), torch.tensor(4.)))
print(output)
model = nn.Linear(5, 5)

params = dict(model.named_parameters())
tangents = tuple(torch.rand_like(p) for p in params.values())
def func_params_only(*params_tuple):
    return functional_call(model, dict(zip(params.keys(), params_tuple)), (input,))
model_output, jvp_out = jvp(func_params_only, tuple(params.values()), tangents)
print(jvp_out[0])
"""

PROGRAMS["autograd_docs_hooks_saved_tensors_anomaly"] = r"""
import torch
torch.manual_seed(0)
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()
print(type(h).__name__)
x = torch.randn(3, requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: print("hook saw", g))
z = y.sum()
z.backward()
print(y.grad, x.grad)
def pack_hook(x):
    print("Packing", x)
    return x
def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
print(type(y.grad_fn._raw_saved_self).__name__)
y.sum().backward()
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self is x, y.grad_fn._saved_exponent)
y = x.exp()
print(y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y)
with torch.autograd.graph.save_on_cpu():
    y = (x * x).sum()
y.backward()
print(x.grad)
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp.clone()
    @staticmethod
    def backward(ctx, gO):
        raise RuntimeError("Some error in backward")
        return gO.clone()
def run_fn(a):
    out = MyFunc.apply(a)
    return out.sum()
inp = torch.rand(10, 10, requires_grad=True)
out = run_fn(inp)
try:
    out.backward()
except RuntimeError as e:
    print(e)
with torch.autograd.detect_anomaly(check_nan=True):
    x = torch.tensor([0.0], requires_grad=True)
    y = torch.sqrt(x) * 0
    try:
        (y / y).sum().backward()
    except RuntimeError as e:
        print(str(e).split('\n')[0])
print(torch.is_anomaly_enabled())
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sigmoid()

w = x.clone()
z = w.sigmoid()
w.add_(1)
try:
    (z * w).sum().backward()
    print(x.grad)
except RuntimeError as e:
    print(e)
z = x.sigmoid()
z.add_(1)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)
t = torch.ones(2, requires_grad=True)
def hook(grad):
    return grad + 1
t.register_post_accumulate_grad_hook(lambda p: print("post acc", p.grad))
(t * 3).sum().backward()
m = torch.nn.Linear(2, 2)
m.register_full_backward_hook(lambda mod, gi, go: print("full bw", [g.shape if g is not None else None for g in gi], go[0].shape))
m.register_forward_pre_hook(lambda mod, args: print("pre", args[0].shape))
m.register_forward_hook(lambda mod, args, out: print("fwd", out.grad_fn))
m(torch.randn(3, 2, requires_grad=True)).sum().backward()
print(torch.autograd.grad((x ** 3).sum(), x, create_graph=True))
g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
g.sum().backward()
print(x.grad)
with torch.autograd.set_detect_anomaly(False):
    print(torch.is_anomaly_enabled())
with torch.inference_mode():
    q = torch.ones(2) * 2
print(q.is_inference(), q.requires_grad)
try:
    (q * x).sum().backward()
    print(x.grad)
except RuntimeError as e:
    print(e)
try:
    q.add_(1)
except RuntimeError as e:
    print(e)
"""


def printed(program, as_minigrad):
    """What ``program`` prints in a fresh process, under PyTorch or under minigrad installed as
    torch; memory addresses (in reprs of grad_fn nodes) masked."""
    code = ("import minigrad; minigrad.install_as_torch()\n" if as_minigrad else "") + program
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    finished = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                              capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    return re.sub(r"0x[0-9a-f]+", "0x...", finished.stdout)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_tutorial_prints_the_same(name):
    theirs = printed(PROGRAMS[name], as_minigrad=False)
    ours = printed(PROGRAMS[name], as_minigrad=True)
    ours = [line for line in ours.splitlines() if not line.startswith("minigrad hint:")]
    assert ours == theirs.splitlines()
