"""W1: one training step of a 784-256-10 ReLU network on a batch of 128, in float32.

The same step in three ways:

* minigrad and PyTorch run *the same function*, ``learner_step``, written as
  a learner writes it after the course (``import minigrad as torch``);
* ``numpy_step`` is the step written by hand with numpy: forward, the
  backward formulas worked out on paper, the update. No autograd library
  built on numpy can be faster than this, so it is the floor minigrad is
  measured against.

Run on its own (``python -m benchmarks.mlp --repeats 50``) it measures W1 in
this process and prints the result as JSON; ``__main__`` uses that for the
two-thread row, in two processes: one for the numpy-based steps (minigrad and
both numpy steps, which share numpy's thread pool) and one for PyTorch (``--only
torch``), whose own pool of threads would otherwise compete with numpy's (see
``workloads.run_w1``).
"""
import argparse
import json

import numpy as np

from .timing import compare, import_torch, optional_libraries, stopwatch

LAYER_SIZES = (784, 256, 10)
BATCH = 128
LEARNING_RATE = 0.01
LEARNER_NUMPY = "numpy, learner's step"      # numpy_learner_step's name in the results


def make_data(seed=0):
    """Inputs, labels and initial parameters (W1, b1, W2, b2) as numpy arrays."""
    rng = np.random.default_rng(seed)
    n_in, n_hidden, n_out = LAYER_SIZES
    inputs = rng.standard_normal((BATCH, n_in)).astype(np.float32)
    labels = rng.integers(0, n_out, size=BATCH).astype(np.int64)
    parameters = [
        (rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)).astype(np.float32),
        np.zeros(n_hidden, dtype=np.float32),
        (rng.standard_normal((n_hidden, n_out)) / np.sqrt(n_hidden)).astype(np.float32),
        np.zeros(n_out, dtype=np.float32),
    ]
    return inputs, labels, parameters


# --- the step as a learner writes it: runs unchanged on minigrad and PyTorch -----------

def learner_step(torch, x, y, parameters, lr=LEARNING_RATE):
    w1, b1, w2, b2 = parameters
    hidden = (x @ w1 + b1).relu()
    logits = hidden @ w2 + b2
    loss = torch.nn.functional.cross_entropy(logits, y)
    loss.backward()
    with torch.no_grad():
        for p in parameters:
            p -= lr * p.grad
            p.grad.zero_()
    return loss


def tensors_for(library, data):
    inputs, labels, parameters = data
    x = library.tensor(inputs.copy())
    y = library.tensor(labels.copy())
    params = [library.tensor(p.copy(), requires_grad=True) for p in parameters]
    return x, y, params


# --- the same step by hand with numpy: the floor ----------------------------------------

def numpy_step(x, y, parameters, rows, lr=LEARNING_RATE):
    """Forward, backward and update of the network, with no autograd at all.

    ``rows`` is ``np.arange(batch)``, made once. In-place operations are used
    wherever they save an allocation, as a careful numpy programmer would.
    """
    w1, b1, w2, b2 = parameters
    batch = x.shape[0]
    # forward
    hidden = x @ w1
    hidden += b1
    np.maximum(hidden, 0, out=hidden)
    logits = hidden @ w2
    logits += b2
    # softmax cross-entropy: loss_i = log(sum_j exp(z_ij)) - z_i,y_i, with z shifted by its max
    logits -= logits.max(axis=1, keepdims=True)
    probabilities = np.exp(logits)
    totals = probabilities.sum(axis=1, keepdims=True)
    loss = np.log(totals).mean() - logits[rows, y].mean()
    probabilities /= totals
    # backward: d(loss)/d(logits) = (softmax - one_hot(y)) / batch
    grad_logits = probabilities
    grad_logits[rows, y] -= 1
    grad_logits *= 1 / batch
    grad_w2 = hidden.T @ grad_logits
    grad_b2 = grad_logits.sum(axis=0)
    grad_hidden = grad_logits @ w2.T
    grad_hidden *= hidden > 0                  # ReLU passes gradient only where it was active
    grad_w1 = x.T @ grad_hidden
    grad_b1 = grad_hidden.sum(axis=0)
    # SGD update, in place
    for p, g in ((w1, grad_w1), (b1, grad_b1), (w2, grad_w2), (b2, grad_b2)):
        g *= lr
        p -= g
    return loss


def numpy_learner_step(x, y, parameters, grads, rows, lr=LEARNING_RATE):
    """``learner_step`` written out with numpy: the same arrays an autograd library must make.

    The learner's code asks for new arrays at every operation, for each gradient to be
    added into a ``.grad`` that ``zero_()`` filled with zeros, and for a temporary
    ``lr * p.grad``: memory traffic the tight ``numpy_step`` avoids. No library running
    the learner's step can be faster than this, so it shows how much of the gap to
    ``numpy_step`` is the step itself. ``grads`` holds one array per parameter (``.grad``).
    """
    w1, b1, w2, b2 = parameters
    batch = x.shape[0]
    # forward: one new array per operation
    before_relu = x @ w1 + b1
    hidden = np.maximum(before_relu, 0)
    logits = hidden @ w2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probabilities = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_probabilities[rows, y].mean()
    # backward: each node's gradient is a new array
    grad_logits = np.exp(log_probabilities)
    grad_logits[rows, y] -= 1
    grad_logits *= 1 / batch
    grad_hidden = grad_logits @ w2.T
    grad_before_relu = np.where(before_relu > 0, grad_hidden, 0)
    new_grads = (x.T @ grad_before_relu, grad_before_relu.sum(axis=0),
                 hidden.T @ grad_logits, grad_logits.sum(axis=0))
    for grad, new in zip(grads, new_grads):
        grad += new                            # into the zeroed .grad
    # the learner's update: p -= lr * p.grad; p.grad.zero_()
    for p, grad in zip(parameters, grads):
        p -= lr * grad
        grad.fill(0)
    return loss


# --- the optional libraries, each written the way its documentation suggests ------------

def mygrad_step(mygrad, x, y, parameters, lr=LEARNING_RATE):
    from mygrad.nnet.activations import relu
    from mygrad.nnet.losses import softmax_crossentropy
    w1, b1, w2, b2 = parameters
    loss = softmax_crossentropy(relu(x @ w1 + b1) @ w2 + b2, y)
    loss.backward()
    for p in parameters:
        p.data -= lr * p.grad
    return loss


def make_autograd_step(rows):
    """HIPS autograd is functional: differentiate a loss *function* of the parameters."""
    import autograd
    import autograd.numpy as anp

    def loss_of(parameters, x, y):
        w1, b1, w2, b2 = parameters
        logits = anp.dot(anp.maximum(anp.dot(x, w1) + b1, 0), w2) + b2
        shifted = logits - anp.max(logits, axis=1, keepdims=True)
        log_probabilities = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
        return -anp.mean(log_probabilities[rows, y])

    gradient_of_loss = autograd.grad(loss_of)

    def step(x, y, parameters, lr=LEARNING_RATE):
        for p, g in zip(parameters, gradient_of_loss(parameters, x, y)):
            p -= lr * g

    return step


# --- timing -----------------------------------------------------------------------------

def timed(step):
    def run():
        lap = stopwatch()
        step()
        return {"step": lap()}
    return run


def implementations(torch, optional, data):
    """``{name: run-once function}`` for every implementation available here."""
    import minigrad
    inputs, labels, parameters = data
    rows = np.arange(BATCH)
    found = {}
    x, y, params = tensors_for(minigrad, data)
    found["minigrad"] = timed(lambda: learner_step(minigrad, x, y, params))
    numpy_params = [p.copy() for p in parameters]
    found["numpy"] = timed(lambda: numpy_step(inputs, labels, numpy_params, rows))
    learner_params = [p.copy() for p in parameters]
    learner_grads = [np.zeros_like(p) for p in parameters]
    found[LEARNER_NUMPY] = timed(lambda: numpy_learner_step(inputs, labels, learner_params,
                                                            learner_grads, rows))
    if torch is not None:
        tx, ty, tparams = tensors_for(torch, data)
        found["torch"] = timed(lambda: learner_step(torch, tx, ty, tparams))
    if "mygrad" in optional:
        mygrad = optional["mygrad"]
        mx = mygrad.tensor(inputs, constant=True)
        mparams = [mygrad.tensor(p.copy()) for p in parameters]
        found["mygrad"] = timed(lambda: mygrad_step(mygrad, mx, labels, mparams))
    if "autograd" in optional:
        autograd_step = make_autograd_step(rows)
        aparams = [p.copy() for p in parameters]
        found["autograd"] = timed(lambda: autograd_step(inputs, labels, aparams))
    return found


def check_agreement(torch):
    """One step from the same start in minigrad, numpy (and PyTorch): same loss, same update?

    A benchmark that times the wrong computation is worse than none.
    """
    import minigrad
    data = make_data()
    inputs, labels, parameters = data
    x, y, params = tensors_for(minigrad, data)
    losses = {"minigrad": learner_step(minigrad, x, y, params).item()}
    updated = {"minigrad": params[0].detach().numpy()}
    numpy_params = [p.copy() for p in parameters]
    losses["numpy"] = float(numpy_step(inputs, labels, numpy_params, np.arange(BATCH)))
    updated["numpy"] = numpy_params[0]
    learner_params = [p.copy() for p in parameters]
    losses[LEARNER_NUMPY] = float(numpy_learner_step(
        inputs, labels, learner_params, [np.zeros_like(p) for p in parameters], np.arange(BATCH)))
    updated[LEARNER_NUMPY] = learner_params[0]
    if torch is not None:
        tx, ty, tparams = tensors_for(torch, data)
        losses["torch"] = learner_step(torch, tx, ty, tparams).item()
        updated["torch"] = tparams[0].detach().numpy()
    agree = all(
        np.isclose(losses[name], losses["numpy"], rtol=1e-4)
        and np.allclose(updated[name], updated["numpy"], rtol=1e-4, atol=1e-6)
        for name in losses)
    return {"agree": bool(agree), "losses": losses}


def measure(repeats, with_torch=True, with_optional=True, only=None):
    """W1 timed for every implementation available here (``only``: those named), and the check
    that they agree."""
    torch = import_torch() if with_torch else None
    optional = optional_libraries(with_optional)
    found = implementations(torch, {k: v for k, v in optional.items() if k != "micrograd"},
                            make_data())
    if only is not None:
        found = {name: run for name, run in found.items() if name in only}
    results = compare(found, repeats, optional_repeats=max(1, repeats // 5), warmup=3)
    return {"results": results, "check": check_agreement(torch)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--no-torch", action="store_true")
    parser.add_argument("--only", help="comma-separated implementations to time (e.g. torch)")
    arguments = parser.parse_args()
    only = arguments.only.split(",") if arguments.only else None
    outcome = measure(arguments.repeats, with_torch=not arguments.no_torch, with_optional=False,
                      only=only)
    print(json.dumps(outcome))


if __name__ == "__main__":
    main()
