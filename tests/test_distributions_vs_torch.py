"""torch.distributions against PyTorch: samples after manual_seed, log_prob, entropy, moments,
cdf/icdf, shapes, expand, the autograd graph (grad_fn names through rsample and log_prob),
gradients, gradcheck in float64, kl_divergence for the registered pairs, argument validation
with PyTorch's messages, and printing."""
import importlib

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck

from conftest import import_torch


def graph(grad_fn, depth=6):
    """The grad_fn tree as nested names (cut at ``depth`` to keep it short)."""
    if grad_fn is None or depth == 0:
        return None
    return (type(grad_fn).__name__, tuple(graph(c, depth - 1) for c, _ in grad_fn.next_functions))


def plain(x):
    """A value comparable across the two libraries."""
    if hasattr(x, "detach") and hasattr(x, "numpy"):
        return ("tensor", str(x.dtype), x.detach().numpy(), graph(x.grad_fn))
    if isinstance(x, tuple) and type(x).__name__ == "Size":
        return tuple(x)
    if isinstance(x, (list, tuple)):
        return type(x)(plain(v) for v in x)
    return x


def same(a, b, last_bit=False):
    """Equal dtypes, shapes, graphs and messages; values equal to the last bit, or (where
    ``last_bit``) within a few units of it."""
    a, b = plain(a), plain(b)
    if isinstance(a, tuple) and len(a) == 4 and a[:1] == ("tensor",):
        assert a[1] == b[1] and a[3] == b[3], (a, b)
        assert a[2].shape == b[2].shape
        if last_bit and a[2].dtype.kind == "f":
            tol = 1e-5 if a[2].dtype == np.float32 else 1e-13
            np.testing.assert_allclose(a[2], b[2], rtol=tol, atol=tol)
        else:
            np.testing.assert_array_equal(a[2], b[2])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y, last_bit)
    else:
        assert a == b


def outcome(fn):
    """The result of ``fn()``, or its exception class and message."""
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001  (compared with PyTorch's)
        # messages naming a class name its module, minigrad.distributions for torch.distributions
        return ("raised", type(e).__name__, str(e).replace("'minigrad.", "'torch."))


rng = np.random.default_rng(0)
A = rng.standard_normal((2, 3))
POS = np.abs(rng.standard_normal((2, 3))) + 0.2
P = rng.uniform(0.05, 0.95, (2, 3))
SPD = np.array([[2.0, 0.5, 0.1], [0.5, 1.5, 0.3], [0.1, 0.3, 1.0]])
TRIL = np.linalg.cholesky(SPD)

# name -> (constructor from (lib, dtype) to (distribution, parameters), values to score)
CASES = {
    "Normal": (lambda L, t: L.distributions.Normal(t(A), t(POS)), A[0] * 1.5),
    "Normal-scalars": (lambda L, t: L.distributions.Normal(0.5, 2.0), np.array([0.3, -1.2])),
    "Normal-broadcast": (lambda L, t: L.distributions.Normal(t(A[0]), t(POS[:, :1])), A),
    "Categorical-probs": (lambda L, t: L.distributions.Categorical(probs=t(POS)), np.array([0.0, 2.0])),
    "Categorical-logits": (lambda L, t: L.distributions.Categorical(logits=t(A)), np.array([[1.0, 0.0]])),
    "Categorical-1d": (lambda L, t: L.distributions.Categorical(probs=t(POS[0])), np.array([2.0, 1.0, 0.0])),
    "Bernoulli-probs": (lambda L, t: L.distributions.Bernoulli(probs=t(P)), np.array([1.0, 0.0, 1.0])),
    "Bernoulli-logits": (lambda L, t: L.distributions.Bernoulli(logits=t(A)), np.array([[1.0, 0.0, 1.0]])),
    "Bernoulli-scalar": (lambda L, t: L.distributions.Bernoulli(0.3), np.array([1.0, 0.0])),
    "Uniform": (lambda L, t: L.distributions.Uniform(t(A), t(A + POS)), A + POS * 0.5),
    "Uniform-scalars": (lambda L, t: L.distributions.Uniform(-1.0, 3.0), np.array([0.5, 2.0])),
    "Exponential": (lambda L, t: L.distributions.Exponential(t(POS)), POS * 0.7),
    "Laplace": (lambda L, t: L.distributions.Laplace(t(A), t(POS)), A[::-1]),
    "OneHotCategorical": (lambda L, t: L.distributions.OneHotCategorical(probs=t(POS)),
                          np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])),
    "Independent": (lambda L, t: L.distributions.Independent(L.distributions.Normal(t(A), t(POS)), 1), A[1]),
    "LogNormal": (lambda L, t: L.distributions.LogNormal(t(A), t(POS)), POS + 0.1),
    "TransformedDistribution": (
        lambda L, t: L.distributions.TransformedDistribution(
            L.distributions.Normal(t(A), t(POS)),
            [L.distributions.AffineTransform(t(A[1]), t(POS[0])), L.distributions.ExpTransform()]),
        POS[::-1] + 0.1),
    "Cauchy": (lambda L, t: L.distributions.Cauchy(t(A), t(POS)), A[::-1] * 3),
    "Gumbel": (lambda L, t: L.distributions.Gumbel(t(A), t(POS)), A[::-1] * 2),
    "Gumbel-scalars": (lambda L, t: L.distributions.Gumbel(1.0, 2.0), np.array([0.5, -1.0])),
    "HalfNormal": (lambda L, t: L.distributions.HalfNormal(t(POS)), np.abs(A[1])),
    "Geometric-probs": (lambda L, t: L.distributions.Geometric(probs=t(P)), np.array([0.0, 3.0, 1.0])),
    "Geometric-logits": (lambda L, t: L.distributions.Geometric(logits=t(A)), np.array([[2.0, 0.0, 5.0]])),
    "RelaxedBernoulli": (lambda L, t: L.distributions.RelaxedBernoulli(t(np.array(0.7)), probs=t(P)), P[::-1]),
    "LogitRelaxedBernoulli": (lambda L, t: L.distributions.relaxed_bernoulli.LogitRelaxedBernoulli(t(np.array(0.5)), logits=t(A)), A[1]),
    "RelaxedOneHotCategorical": (
        lambda L, t: L.distributions.RelaxedOneHotCategorical(t(np.array(0.6)), logits=t(A)),
        POS / POS.sum(-1, keepdims=True)),
    "ExpRelaxedCategorical": (lambda L, t: L.distributions.relaxed_categorical.ExpRelaxedCategorical(t(np.array(2.0)), probs=t(POS)),
                              np.log(P / P.sum(-1, keepdims=True))),
    "HalfCauchy": (lambda L, t: L.distributions.HalfCauchy(t(POS)), np.abs(A[0]) * 3),
    "Pareto": (lambda L, t: L.distributions.Pareto(t(POS), t(POS[::-1] * 3)), POS * 1.5),
    "MultivariateNormal-cov": (lambda L, t: L.distributions.MultivariateNormal(t(A[0]), t(SPD)), A),
    "MultivariateNormal-tril": (lambda L, t: L.distributions.MultivariateNormal(t(A), scale_tril=t(TRIL)), A[1]),
    "MultivariateNormal-prec": (lambda L, t: L.distributions.MultivariateNormal(t(A[1]), precision_matrix=t(SPD)), A),
}

# Results that pass through elementwise functions whose last bit minigrad does not always share
# with PyTorch (float32 log, exp and sqrt, float64 log1p and erf, batched matmul); the README's
# "Not the same as PyTorch yet" lists them. Everything else is compared to the last bit.
LAST_BIT = {
    "Normal": {"perplexity", "cdf"},
    "Normal-broadcast": {"perplexity"},
    "Categorical-probs": {"logits", "log_prob", "entropy", "perplexity", "expand-log_prob", "grads"},
    "Categorical-logits": {"probs", "logits", "log_prob", "entropy", "perplexity", "expand-log_prob", "grads"},
    "Categorical-1d": {"logits", "log_prob", "perplexity", "grads"},
    "Bernoulli-probs": {"stddev", "logits", "log_prob", "entropy", "perplexity", "expand-log_prob"},
    "Bernoulli-logits": {"stddev", "log_prob", "entropy", "perplexity", "expand-log_prob"},
    "Bernoulli-scalar": {"log_prob", "entropy", "perplexity"},
    "Uniform": {"log_prob", "entropy", "perplexity", "expand-log_prob"},
    "Exponential": {"perplexity", "cdf"},
    "Laplace": {"perplexity", "sample", "expand-sample", "grads"},
    "OneHotCategorical": {"stddev", "logits", "log_prob", "entropy", "perplexity", "expand-log_prob", "grads"},
    "Independent": {"perplexity"},
    "LogNormal": {"mean", "variance", "stddev", "mode", "sample", "sample-empty", "rsample", "perplexity",
                  "expand-sample", "grads"},
    "TransformedDistribution": {"sample", "sample-empty", "rsample", "log_prob", "expand-sample",
                                "expand-log_prob", "grads"},
    "Cauchy": {"perplexity", "cdf"},
    "Gumbel": {"sample", "sample-empty", "rsample", "log_prob", "perplexity", "cdf", "expand-sample",
               "expand-log_prob", "grads"},
    "Gumbel-scalars": {"log_prob", "cdf", "expand-sample"},
    "HalfNormal": {"stddev", "perplexity"},
    "Geometric-probs": {"stddev", "logits", "log_prob", "entropy", "perplexity", "expand-log_prob", "grads"},
    "Geometric-logits": {"stddev", "entropy", "perplexity", "grads"},
    "RelaxedBernoulli": {"logits", "sample", "sample-empty", "log_prob", "expand-sample", "expand-log_prob",
                         "grads"},
    "LogitRelaxedBernoulli": {"sample", "sample-empty", "expand-sample", "grads"},
    "RelaxedOneHotCategorical": {"probs", "logits", "sample", "sample-empty", "rsample", "log_prob", "expand-sample",
                                 "expand-log_prob", "grads"},
    "ExpRelaxedCategorical": {"logits", "sample", "sample-empty", "rsample", "log_prob", "expand-sample",
                              "expand-log_prob", "grads"},
    "HalfCauchy": {"perplexity", "log_prob", "expand-log_prob"},
    "Pareto": {"stddev", "sample", "sample-empty", "rsample", "log_prob", "perplexity", "cdf", "expand-sample",
               "expand-log_prob", "grads"},
    "MultivariateNormal-cov": {"stddev", "sample", "rsample", "expand-sample", "grads"},
    "MultivariateNormal-tril": {"stddev", "sample", "rsample", "expand-sample", "grads"},
    "MultivariateNormal-prec": {"sample", "rsample", "perplexity", "expand-sample", "grads"},
}

PROPERTIES = ["batch_shape", "event_shape", "mean", "variance", "stddev", "mode", "has_rsample",
              "has_enumerate_support", "probs", "logits"]


def _build(lib, name, dtype):
    params = []

    def t(a):
        x = lib.tensor(np.ascontiguousarray(a), dtype=getattr(lib, dtype), requires_grad=True)
        params.append(x)
        return x
    ctor, value = CASES[name]
    return ctor(lib, t), params, lib.tensor(np.ascontiguousarray(value), dtype=getattr(lib, dtype))


def _everything(lib, name, dtype):
    d, params, value = _build(lib, name, dtype)
    out = {"repr": repr(d), "support": outcome(lambda: repr(d.support))}
    for p in PROPERTIES:
        out[p] = outcome(lambda: getattr(d, p))
    lib.manual_seed(0)
    out["sample"] = outcome(lambda: d.sample((4,)))
    out["sample-empty"] = outcome(lambda: d.sample())
    if d.has_rsample:
        lib.manual_seed(1)
        out["rsample"] = outcome(lambda: d.rsample((2, 1)))
    out["log_prob"] = outcome(lambda: d.log_prob(value))
    out["entropy"] = outcome(d.entropy)
    out["perplexity"] = outcome(d.perplexity)
    out["cdf"] = outcome(lambda: d.cdf(value))
    out["enumerate_support"] = outcome(lambda: d.enumerate_support())
    out["enumerate_support-no-expand"] = outcome(lambda: d.enumerate_support(expand=False))
    e = d.expand((5,) + tuple(d.batch_shape))
    out["expand"] = (repr(e), tuple(e.batch_shape), tuple(e.event_shape))
    lib.manual_seed(2)
    out["expand-sample"] = outcome(lambda: e.sample())
    out["expand-log_prob"] = outcome(lambda: e.log_prob(value))
    loss = d.log_prob(value).sum()
    if out["entropy"][0] == "ok":
        loss = loss + d.entropy().sum()
    if d.has_rsample:
        lib.manual_seed(3)
        loss = loss + (d.rsample((3,)) ** 2).sum()
    if params:
        out["grads"] = lib.autograd.grad(loss, params, allow_unused=True)
    return out


# Bernoulli(0.3) keeps float32 logits; scoring float64 values goes through
# F.binary_cross_entropy_with_logits with mixed dtypes, which minigrad computes in float64
# where PyTorch computes log-sigmoid in float32 (a difference of F's, not of the distribution)
@pytest.mark.parametrize("name, dtype", [(n, d) for n in CASES for d in ("float32", "float64")
                                         if (n, d) != ("Bernoulli-scalar", "float64")])
def test_values_samples_graph_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    mine, theirs = _everything(minigrad, name, dtype), _everything(torch, name, dtype)
    assert mine.keys() == theirs.keys()
    for key in mine:
        same(mine[key], theirs[key], key in LAST_BIT.get(name, ()))


def test_tutorial_policy_gradient_and_vae_steps_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        D = lib.distributions
        lib.manual_seed(0)
        logits = lib.randn(4, 3, requires_grad=True)
        m = D.Categorical(logits=logits)
        action = m.sample()
        loss = -(m.log_prob(action) * lib.tensor([1.0, -0.5, 2.0, 0.1])).sum()
        loss.backward()
        mu, logvar = lib.randn(2, 5, requires_grad=True), lib.randn(2, 5, requires_grad=True)
        q = D.Normal(mu, (0.5 * logvar).exp())
        z = q.rsample()
        kl = D.kl_divergence(q, D.Normal(lib.zeros_like(mu), lib.ones_like(logvar))).sum()
        (kl + (z ** 2).sum()).backward()
        seen.append([[action, z], [loss, logits.grad, kl, mu.grad, logvar.grad]])
    same(seen[0][0], seen[1][0])
    same(seen[0][1], seen[1][1], last_bit=True)  # through float32 exp and log


def _kl_pairs(L, t):
    D = L.distributions
    return {
        "Normal-Normal": (D.Normal(t(A), t(POS)), D.Normal(t(A[::-1]), t(POS[::-1]))),
        "Categorical-Categorical": (D.Categorical(probs=t(POS)), D.Categorical(logits=t(A))),
        "Categorical-zero": (D.Categorical(probs=t(np.array([0.0, 0.4, 0.6]))),
                             D.Categorical(probs=t(np.array([0.5, 0.0, 0.5])))),
        "Bernoulli-Bernoulli": (D.Bernoulli(probs=t(P)), D.Bernoulli(logits=t(A))),
        "Bernoulli-edges": (D.Bernoulli(probs=t(np.array([0.0, 1.0, 0.5]))),
                            D.Bernoulli(probs=t(np.array([0.5, 0.0, 1.0])))),
        "Uniform-Uniform": (D.Uniform(t(A), t(A + POS)), D.Uniform(t(A - 1), t(A + POS * 0.5))),
        "Exponential-Exponential": (D.Exponential(t(POS)), D.Exponential(t(POS[::-1]))),
        "Laplace-Laplace": (D.Laplace(t(A), t(POS)), D.Laplace(t(A[::-1]), t(POS[::-1]))),
        "OneHot-OneHot": (D.OneHotCategorical(probs=t(POS)), D.OneHotCategorical(logits=t(A))),
        "MVN-MVN": (D.MultivariateNormal(t(A), t(SPD)), D.MultivariateNormal(t(A[0]), scale_tril=t(TRIL * 1.5))),
        "Independent-Independent": (D.Independent(D.Normal(t(A), t(POS)), 1),
                                    D.Independent(D.Normal(t(A[::-1]), t(POS[::-1])), 1)),
        "LogNormal-LogNormal": (D.LogNormal(t(A), t(POS)), D.LogNormal(t(A[::-1]), t(POS[::-1]))),
        "Cauchy-Cauchy": (D.Cauchy(t(A), t(POS)), D.Cauchy(t(A[::-1]), t(POS[::-1]))),
        "Gumbel-Gumbel": (D.Gumbel(t(A), t(POS)), D.Gumbel(t(A[::-1]), t(POS[::-1]))),
        "HalfNormal-HalfNormal": (D.HalfNormal(t(POS)), D.HalfNormal(t(POS[::-1]))),
        "Geometric-Geometric": (D.Geometric(probs=t(P)), D.Geometric(logits=t(A))),
        "Pareto-Pareto": (D.Pareto(t(POS), t(POS[::-1] * 3)), D.Pareto(t(POS * 0.5), t(POS * 2))),
        "Pareto-Exponential": (D.Pareto(t(POS), t(POS[::-1] * 3)), D.Exponential(t(POS))),
        "Pareto-Normal": (D.Pareto(t(POS), t(POS[::-1] * 3)), D.Normal(t(A), t(POS))),
        "Pareto-Uniform": (D.Pareto(t(POS), t(POS[::-1] * 3)), D.Uniform(t(A), t(A + POS))),
        "Uniform-Pareto": (D.Uniform(t(POS), t(POS * 2)), D.Pareto(t(POS * 0.5), t(POS * 2))),
        "Uniform-Gumbel": (D.Uniform(t(A), t(A + POS)), D.Gumbel(t(A[::-1]), t(POS))),
        "Exponential-Gumbel": (D.Exponential(t(POS)), D.Gumbel(t(A[::-1]), t(POS))),
        "Gumbel-Normal": (D.Gumbel(t(A), t(POS)), D.Normal(t(A[::-1]), t(POS[::-1]))),
        "Normal-Gumbel": (D.Normal(t(A), t(POS)), D.Gumbel(t(A[::-1]), t(POS[::-1]))),
        "Gumbel-Exponential": (D.Gumbel(t(A), t(POS)), D.Exponential(t(POS))),
        "Normal-Pareto": (D.Normal(t(A), t(POS)), D.Pareto(t(POS), t(POS))),
        "Normal-Laplace": (D.Normal(t(A), t(POS)), D.Laplace(t(A[::-1]), t(POS[::-1]))),
        "Laplace-Normal": (D.Laplace(t(A), t(POS)), D.Normal(t(A[::-1]), t(POS[::-1]))),
        "Uniform-Normal": (D.Uniform(t(A), t(A + POS)), D.Normal(t(A[::-1]), t(POS[::-1]))),
        "Exponential-Normal": (D.Exponential(t(POS)), D.Normal(t(A), t(POS[::-1]))),
        "Uniform-Exponential": (D.Uniform(t(A), t(A + POS)), D.Exponential(t(POS))),
        "Normal-Uniform": (D.Normal(t(A), t(POS)), D.Uniform(t(A), t(A + POS))),
        "Laplace-Exponential": (D.Laplace(t(A), t(POS)), D.Exponential(t(POS))),
        "Exponential-Uniform": (D.Exponential(t(POS)), D.Uniform(t(A), t(A + POS))),
    }


# pairs whose values pass through float32 log/exp (or batched matmul and triangular solves),
# compared within a few units of the last bit; the others to the last bit
KL_LAST_BIT = {"Normal-Normal", "Categorical-Categorical", "Bernoulli-Bernoulli", "Laplace-Laplace",
               "OneHot-OneHot", "MVN-MVN", "LogNormal-LogNormal",
               "Pareto-Normal", "Uniform-Pareto", "Uniform-Gumbel", "Exponential-Gumbel", "Gumbel-Normal",
               "Normal-Gumbel", "Cauchy-Cauchy", "Gumbel-Gumbel", "HalfNormal-HalfNormal", "Geometric-Geometric", "Normal-Laplace", "Laplace-Normal", "Uniform-Normal"}
KL_NAMES = list(_kl_pairs(minigrad, lambda a: minigrad.tensor(np.ascontiguousarray(a))))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", KL_NAMES)
def test_kl_divergence_as_torch(name, dtype):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        params = []

        def t(a):
            x = lib.tensor(np.ascontiguousarray(a), dtype=getattr(lib, dtype), requires_grad=True)
            params.append(x)
            return x
        p, q = _kl_pairs(lib, t)[name]
        kl = lib.distributions.kl_divergence(p, q)
        finite = kl[kl.detach().isfinite()]
        grads = lib.autograd.grad(finite.sum(), params, allow_unused=True) if finite.requires_grad else None
        seen.append((kl, grads))
    same(seen[0], seen[1], name in KL_LAST_BIT)


def _gradcheck_cases(L):
    D = L.distributions
    v = L.tensor(A[1] * 0.5, dtype=L.float64)
    return {
        "Normal.log_prob": (lambda loc, s: D.Normal(loc, s).log_prob(v), (A, POS)),
        "Normal.rsample": (lambda loc, s: D.Normal(loc, s).rsample((2,)), (A, POS)),
        "Categorical.log_prob": (lambda p: D.Categorical(probs=p).log_prob(L.tensor([0, 2])), (POS,)),
        "Categorical.entropy": (lambda z: D.Categorical(logits=z).entropy(), (A,)),
        "Bernoulli.log_prob": (lambda z: D.Bernoulli(logits=z).log_prob(L.tensor([1.0, 0.0, 1.0], dtype=L.float64)), (A,)),
        "Uniform.rsample": (lambda lo, hi: D.Uniform(lo, hi).rsample((2,)), (A, A + POS)),
        "Exponential.rsample": (lambda r: D.Exponential(r).rsample((2,)), (POS,)),
        "Laplace.log_prob": (lambda loc, s: D.Laplace(loc, s).log_prob(v), (A, POS)),
        "Laplace.rsample": (lambda loc, s: D.Laplace(loc, s).rsample(), (A, POS)),
        "MultivariateNormal.log_prob": (lambda loc, c: D.MultivariateNormal(loc, scale_tril=c.tril()).log_prob(v),
                                        (A[0], TRIL)),
        "MultivariateNormal.rsample": (lambda loc, c: D.MultivariateNormal(loc, scale_tril=c.tril()).rsample((2,)),
                                       (A[0], TRIL)),
        "Cauchy.rsample": (lambda loc, s: D.Cauchy(loc, s).rsample((2,)), (A, POS)),
        "Gumbel.log_prob": (lambda loc, s: D.Gumbel(loc, s).log_prob(v), (A, POS)),
        "Gumbel.rsample": (lambda loc, s: D.Gumbel(loc, s).rsample(), (A, POS)),
        "LogNormal.rsample": (lambda loc, s: D.LogNormal(loc, s).rsample(), (A, POS)),
        "LogNormal.log_prob": (lambda loc, s: D.LogNormal(loc, s).log_prob(v.abs() + 0.1), (A, POS)),
        "HalfNormal.log_prob": (lambda s: D.HalfNormal(s).log_prob(v.abs()), (POS,)),
        "Pareto.rsample": (lambda s, a: D.Pareto(s, a).rsample(), (POS, POS + 1)),
        "RelaxedBernoulli.rsample": (lambda z: D.RelaxedBernoulli(L.tensor(0.5, dtype=L.float64), logits=z).rsample(),
                                     (A,)),
        "RelaxedOneHotCategorical.rsample": (
            lambda z: D.RelaxedOneHotCategorical(L.tensor(0.5, dtype=L.float64), logits=z).rsample(), (A,)),
        "Geometric.log_prob": (lambda p: D.Geometric(probs=p).log_prob(L.tensor([0.0, 2.0, 5.0], dtype=L.float64)),
                               (P,)),
        "kl Normal-Normal": (lambda a, b: D.kl_divergence(D.Normal(a, b), D.Normal(b, a.exp())), (A, POS)),
    }


@pytest.mark.parametrize("name", list(_gradcheck_cases(minigrad)))
def test_gradcheck_float64(name):
    fn, arrays = _gradcheck_cases(minigrad)[name]

    def seeded(*xs):
        minigrad.manual_seed(0)  # the same noise at every evaluation
        return fn(*xs)
    inputs = tuple(minigrad.tensor(np.ascontiguousarray(a), dtype=minigrad.float64, requires_grad=True)
                   for a in arrays)
    assert gradcheck(seeded, inputs, check_undefined_grad=False)


def _error_cases(L):
    D = L.distributions
    n = D.Normal(L.zeros(3), L.ones(3))
    return [
        lambda: D.Normal(0.0, -1.0),
        lambda: D.Normal(L.tensor([0.0, float("nan")]), 1.0),
        lambda: D.Normal(L.zeros(2), L.tensor([[1.0, 0.0]])),
        lambda: D.Normal("a", 1.0),
        lambda: n.log_prob(L.ones(2)),
        lambda: n.log_prob([1.0, 2.0, 3.0]),
        lambda: D.Categorical(),
        lambda: D.Categorical(probs=L.ones(2), logits=L.ones(2)),
        lambda: D.Categorical(probs=L.tensor(1.0)),
        lambda: D.Categorical(logits=L.tensor(1.0)),
        lambda: D.Categorical(probs=L.tensor([0.5, -0.5])),
        lambda: D.Categorical(probs=L.tensor([0.2, 0.8])).log_prob(L.tensor([3])),
        lambda: D.Categorical(probs=L.tensor([0.2, 0.8])).log_prob(L.tensor([0.5])),
        lambda: D.Bernoulli(),
        lambda: D.Bernoulli(probs=L.tensor([0.2, 1.5])),
        lambda: D.Bernoulli(0.3).log_prob(L.tensor(0.5)),
        lambda: D.Uniform(2.0, 1.0),
        lambda: D.Uniform(0.0, 1.0).log_prob(L.tensor(2.0)),
        lambda: D.Exponential(L.tensor([1.0, 0.0])),
        lambda: D.Exponential(1.0).log_prob(L.tensor(-1.0)),
        lambda: D.Laplace(0.0, 0.0),
        lambda: D.OneHotCategorical(probs=L.ones(3)).log_prob(L.tensor([1.0, 1.0, 0.0])),
        lambda: D.Independent(D.Normal(0.0, 1.0), 1),
        lambda: D.Independent(n, 1).log_prob(L.ones(2)),
        lambda: D.MultivariateNormal(L.tensor(0.0), L.eye(2)),
        lambda: D.MultivariateNormal(L.zeros(2)),
        lambda: D.MultivariateNormal(L.zeros(2), L.eye(2), scale_tril=L.eye(2)),
        lambda: D.MultivariateNormal(L.zeros(2), L.ones(2)),
        lambda: D.MultivariateNormal(L.zeros(2), scale_tril=L.ones(2)),
        lambda: D.MultivariateNormal(L.zeros(2), precision_matrix=L.ones(2)),
        lambda: D.MultivariateNormal(L.zeros(2), L.tensor([[1.0, 2.0], [0.0, 1.0]])),
        lambda: D.MultivariateNormal(L.zeros(2), scale_tril=L.tensor([[1.0, 2.0], [0.0, 1.0]])),
        lambda: D.kl_divergence(D.Bernoulli(0.3), D.Normal(0.0, 1.0)),
        lambda: D.kl_divergence(D.Normal(0.0, 1.0), D.Categorical(L.ones(2))),
        lambda: D.kl_divergence(D.MultivariateNormal(L.zeros(2), L.eye(2)),
                                D.MultivariateNormal(L.zeros(3), L.eye(3))),
        lambda: D.kl_divergence(D.Independent(n, 1), D.Independent(D.Normal(L.zeros(1, 3), 1.0), 2)),
        lambda: n.icdf(L.tensor(0.3)),
        lambda: D.Categorical(L.tensor([1, 2, 3])).probs,
        lambda: repr(D.Normal(L.tensor([1, 2]), 1.0)),
        lambda: D.Normal(L.tensor([1, 2]), 1).loc,
        lambda: repr(D.Bernoulli(L.tensor([1, 0]))),
        lambda: (L.manual_seed(0), D.Normal(0.0, 1.0).sample([2]))[1],
        lambda: D.Normal(0.0, 1.0).sample(2),
        lambda: D.Normal(0.0, 1.0).expand([3]).batch_shape,
        lambda: (L.manual_seed(0), D.Categorical(logits=L.zeros(2, 3)).expand((4, 2)).sample())[1],
        lambda: D.Normal(0.0, 1.0).log_prob(L.tensor([1, 2])),
        lambda: D.Categorical(logits=L.zeros(3)).log_prob(L.tensor([[0], [1]])),
        lambda: repr(D.Uniform(L.zeros(2), 1.0).support) + repr(D.Categorical(logits=L.zeros(3)).support),
        lambda: D.Normal(L.zeros(2), 1.0).expand((3, 3)),
        lambda: D.Distribution(L.Size([2]), validate_args=False).batch_shape,
        lambda: D.Independent(D.Normal(L.zeros(2, 3), 1.0), 1).expand((4, 2)).log_prob(L.zeros(3)),
        lambda: D.MultivariateNormal(L.zeros(2), L.eye(2)).expand((3,)).sample().shape,
        lambda: D.MultivariateNormal(L.zeros(3, 2), L.eye(2)).log_prob(L.zeros(4, 1, 2)),
        lambda: D.OneHotCategorical(L.tensor([0.2, 0.8])).enumerate_support(),
        lambda: D.Bernoulli(L.tensor([0.5, 0.2])).mode,
        lambda: D.ExponentialFamily.entropy(D.Normal(L.tensor([0.3, 1.0], requires_grad=True), L.tensor([2.0, 0.5]))),
        lambda: D.ExponentialFamily.entropy(D.Bernoulli(L.tensor([0.2, 0.7]))),
        lambda: D.ExponentialFamily.entropy(D.Exponential(L.tensor([0.2, 0.7]))),
        lambda: (L.manual_seed(0), D.Normal(L.zeros(2), 1.0).sample_n(3))[1],
        lambda: D.Geometric(probs=L.tensor([0.5, 0.0])),
        lambda: D.Geometric(0.5).log_prob(L.tensor(1.5)),
        lambda: D.Geometric(probs=L.tensor([1.0, 0.5])).log_prob(L.tensor([0.0, 2.0])),
        lambda: D.HalfNormal(1.0).log_prob(L.tensor(-1.0)),
        lambda: D.HalfNormal(L.ones(2), validate_args=False).log_prob(L.tensor([-1.0, 1.0])),
        lambda: D.Cauchy(0.0, 1.0).icdf(L.tensor([0.25, 0.5])),
        lambda: D.Gumbel(0.0, 1.0).cdf(L.tensor([0.25, 0.5])),
        lambda: D.HalfNormal(2.0).icdf(L.tensor([0.25, 0.5])),
        lambda: D.LogNormal(0.0, 1.0).log_prob(L.tensor(-1.0)),
        lambda: D.LogNormal(0.0, 1.0).cdf(L.tensor(2.0)),
        lambda: D.LogNormal(0.0, 1.0).icdf(L.tensor(0.3)),
        lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), "exp"),
        lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), [D.ExpTransform(), 2]),
        lambda: D.kl_divergence(D.LogNormal(0.0, 1.0),
                                D.TransformedDistribution(D.Normal(0.0, 1.0), D.AffineTransform(0.0, 2.0))),
        lambda: repr(D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, 2.0)]).inv),
        lambda: repr(D.LogNormal(L.zeros(2), 1.0)) + repr(D.TransformedDistribution(D.Normal(0.0, 1.0), [])),
        lambda: D.AffineTransform(1.0, -2.0).sign,
        lambda: D.AffineTransform(1.0, L.tensor([-2.0, 3.0])).log_abs_det_jacobian(L.zeros(2), L.zeros(2)),
        lambda: D.ExpTransform().inv(L.tensor([1.0, 2.0])),
        lambda: D.Uniform(0.0, 1.0).icdf(L.tensor(0.3)),
        lambda: D.Distribution().mean,
        lambda: D.Distribution().mode,
        lambda: D.Distribution.set_default_validate_args(2),
        lambda: D.Normal(0.0, 1.0).enumerate_support(),
        lambda: D.Independent(D.Bernoulli(L.ones(2) / 2), 1).enumerate_support(),
    ]


@pytest.mark.filterwarnings("ignore:.*does not define `arg_constraints`:UserWarning")
@pytest.mark.filterwarnings("ignore:`sample_n:FutureWarning")
@pytest.mark.parametrize("index", range(len(_error_cases(minigrad))))
def test_errors_and_messages_as_torch(index):
    torch = import_torch()
    mine = outcome(_error_cases(minigrad)[index])
    theirs = outcome(_error_cases(torch)[index])
    if mine[0] == "ok":
        same(mine[1], theirs[1], last_bit=True)  # icdf and cdf go through tan, atan, log, erfinv
    else:
        assert mine == theirs


def test_validate_args_switches_as_torch():
    torch = import_torch()
    for lib in (minigrad, torch):
        D = lib.distributions
        assert D.Normal(0.0, -1.0, validate_args=False).scale.item() == -1.0
        D.Distribution.set_default_validate_args(False)
        try:
            d = D.Normal(0.0, -1.0)
            assert d.log_prob(lib.tensor([1.0, 2.0, 3.0])).shape == (3,)
            assert D.Categorical(probs=lib.tensor([0.2, 0.8])).log_prob(lib.tensor(0)).shape == ()
        finally:
            D.Distribution.set_default_validate_args(True)
        with pytest.raises(ValueError):
            D.Normal(0.0, -1.0)
        assert D.Normal(0.0, 1.0, validate_args=True).expand((2,))._validate_args


def test_register_kl_and_subclasses_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        D = lib.distributions

        class MyNormal(D.Normal):
            pass

        class Wide(D.Uniform):
            def __init__(self, high):
                super().__init__(0.0, high)
        seen.append(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 2.0)))
        seen.append(outcome(lambda: Wide(2.0).expand((3,))))
        D.register_kl(MyNormal, MyNormal)(lambda p, q: lib.tensor(7.0))
        seen.append(D.kl_divergence(MyNormal(0.0, 1.0), MyNormal(1.0, 2.0)))
        seen.append(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 2.0)))
        seen.append(repr(D.constraints.real_vector) + repr(D.constraints.positive) + repr(D.constraints.simplex)
                    + repr(D.constraints.interval(0, 1)) + repr(D.constraints.nonnegative))
    same(seen[:5], seen[5:])


def test_lazy_probs_logits_grad_and_repr_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        D = lib.distributions
        z = lib.tensor(A, requires_grad=True)
        c = D.Categorical(logits=z)
        with lib.no_grad():
            probs = c.probs  # computed with gradients even under no_grad, as PyTorch's lazy_property does
        b = D.Bernoulli(probs=lib.tensor(0.25))
        seen.append([repr(c), probs, repr(b), repr(D.Normal(lib.tensor([0.0]), lib.tensor([1.0]))),
                     b.logits, repr(D.MultivariateNormal(lib.zeros(2), lib.eye(2)))])
    same(seen[0], seen[1])


def test_kl_dispatch_picks_the_same_function_as_torch_for_every_pair():
    torch = import_torch()
    import warnings
    from minigrad.distributions import kl as mine_kl
    theirs_kl = importlib.import_module("torch.distributions.kl")
    D = minigrad.distributions
    names = [n for n in D.__all__ if isinstance(getattr(D, n), type) and issubclass(getattr(D, n), D.Distribution)]
    for a in names:
        for b in names:
            with warnings.catch_warnings(record=True) as mine_warned:
                warnings.simplefilter("always")
                mine = mine_kl._dispatch_kl(getattr(D, a), getattr(D, b))
            with warnings.catch_warnings(record=True) as their_warned:
                warnings.simplefilter("always")
                theirs = theirs_kl._dispatch_kl(getattr(torch.distributions, a), getattr(torch.distributions, b))
            assert getattr(mine, "__name__", mine) == getattr(theirs, "__name__", theirs), (a, b)
            assert len(mine_warned) == len(their_warned), (a, b)
