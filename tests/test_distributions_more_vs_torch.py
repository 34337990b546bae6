"""The distributions that need no gamma sampler (Poisson, Binomial, Multinomial,
ContinuousBernoulli, Kumaraswamy, Weibull, VonMises, LowRankMultivariateNormal,
MixtureSameFamily, LogisticNormal, GeneralizedPareto, OneHotCategoricalStraightThrough) and the
PowerTransform and StickBreakingTransform against PyTorch: samples bit for bit over seeds and
shapes with the generator left in the same state, rsample and its gradients, log_prob, entropy,
moments, support, expand, enumerate_support, gradcheck in float64, kl_divergence values and
validation messages."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck

from conftest import import_torch
from test_distributions_vs_torch import outcome, same

rng = np.random.default_rng(1)
A = rng.standard_normal((2, 3))
POS = np.abs(rng.standard_normal((2, 3))) + 0.3
P = rng.uniform(0.05, 0.95, (2, 3))
RATE = np.array([[0.0, 0.7, 3.5], [12.0, 40.0, 0.2]])  # 0, small (inversion) and large (rejection)
COUNT = np.array([[2.0], [9.0]])
SPD = np.array([[2.0, 0.5, 0.1], [0.5, 1.5, 0.3], [0.1, 0.3, 1.0]])
W = rng.standard_normal((3, 2)) * 0.7
CB_P = np.array([[0.2, 0.4995, 0.5], [0.8, 0.97, 0.3]])  # two inside the Taylor region

# name -> (constructor from (lib, t) with t making a parameter tensor, values to score)
CASES = {
    "Poisson": (lambda L, t: L.distributions.Poisson(t(RATE)), np.array([0.0, 2.0, 5.0])),
    "Poisson-scalar": (lambda L, t: L.distributions.Poisson(4.5), np.array([3.0, 0.0])),
    "Binomial-probs": (lambda L, t: L.distributions.Binomial(t(COUNT, grad=False), t(P)),
                       np.array([[0.0, 1.0, 2.0], [9.0, 4.0, 0.0]])),
    "Binomial-logits": (lambda L, t: L.distributions.Binomial(6, logits=t(A)), np.array([1.0, 6.0, 3.0])),
    "Multinomial-probs": (lambda L, t: L.distributions.Multinomial(5, probs=t(POS)),
                          np.array([[1.0, 3.0, 1.0], [0.0, 0.0, 5.0]])),
    "Multinomial-logits": (lambda L, t: L.distributions.Multinomial(3, logits=t(A[0])), np.array([0.0, 2.0, 1.0])),
    "ContinuousBernoulli-probs": (lambda L, t: L.distributions.ContinuousBernoulli(t(CB_P)), P[::-1]),
    "ContinuousBernoulli-logits": (lambda L, t: L.distributions.ContinuousBernoulli(logits=t(A)), P),
    "Kumaraswamy": (lambda L, t: L.distributions.Kumaraswamy(t(POS * 2), t(POS[::-1] + 0.8)), P),
    "Weibull": (lambda L, t: L.distributions.Weibull(t(POS), t(POS[::-1] + 0.5)), POS[::-1]),
    "VonMises": (lambda L, t: L.distributions.VonMises(t(A * 2), t(POS * 3)), A[::-1] * 2),
    "VonMises-tiny": (lambda L, t: L.distributions.VonMises(t(A[0]), t(np.array([1e-6, 0.05, 40.0]))), A[1]),
    "LowRankMVN": (lambda L, t: L.distributions.LowRankMultivariateNormal(t(A), t(W), t(POS[0])), A[::-1]),
    "LowRankMVN-batched": (lambda L, t: L.distributions.LowRankMultivariateNormal(
        t(A[0]), t(np.stack([W, W[::-1] * 2])), t(POS)), A),
    "Mixture-Normal": (lambda L, t: L.distributions.MixtureSameFamily(
        L.distributions.Categorical(probs=t(POS)), L.distributions.Normal(t(A), t(POS[::-1]))), A[:, 0]),
    "Mixture-shared-weights": (lambda L, t: L.distributions.MixtureSameFamily(
        L.distributions.Categorical(probs=t(POS[0])), L.distributions.Normal(t(A), t(POS))), A[:, 1]),
    "Mixture-MVN": (lambda L, t: L.distributions.MixtureSameFamily(
        L.distributions.Categorical(logits=t(A[0])),
        L.distributions.MultivariateNormal(t(A.T), t(SPD[:2, :2]))), A[:, :2].T),
    "Mixture-Independent": (lambda L, t: L.distributions.MixtureSameFamily(
        L.distributions.Categorical(logits=t(A[:, :2])),
        L.distributions.Independent(
            L.distributions.Normal(t(A[:, :2, None] * np.ones(4)), t(POS[:, :2, None] * np.ones(4))), 1)),
        A[:, :1].repeat(4, axis=1)),
    "LogisticNormal": (lambda L, t: L.distributions.LogisticNormal(t(A), t(POS)),
                       np.concatenate([P * 0.25, 1 - P.sum(-1, keepdims=True) * 0.25], -1)),
    "LogisticNormal-scalars": (lambda L, t: L.distributions.LogisticNormal(0.3, 1.5), np.array([0.4, 0.6])),
    "GeneralizedPareto": (lambda L, t: L.distributions.GeneralizedPareto(
        t(A), t(POS), t(np.array([[0.4, 0.0, -0.3], [1.2, 1e-9, 0.6]]))), A + 0.5),
    "OneHotStraightThrough": (lambda L, t: L.distributions.OneHotCategoricalStraightThrough(probs=t(POS)),
                              np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])),
}

# Results that pass through elementwise functions whose last bit minigrad does not always share
# with PyTorch (float32 log, exp, pow and sqrt, lgamma and digamma in both dtypes, batched matmul
# and cholesky); the README's "Not the same as PyTorch yet" lists them. They are compared within
# a few units of the last bit, everything else to the last bit.
LAST_BIT = {
    "Poisson": {"expand-log_prob", "log_prob", "stddev"},
    "Poisson-scalar": {"expand-log_prob", "log_prob"},
    "Binomial-probs": {"expand-log_prob", "grads", "log_prob"},
    "Binomial-logits": {"entropy", "expand-log_prob", "grads", "log_prob", "perplexity"},
    "Multinomial-probs": {"entropy", "expand-log_prob", "grads", "log_prob", "logits", "perplexity", "stddev"},
    "Multinomial-logits": {"expand-log_prob", "grads", "log_prob"},
    "ContinuousBernoulli-probs": {"expand-log_prob", "log_prob", "perplexity"},
    "ContinuousBernoulli-logits": {"entropy", "expand-log_prob", "grads", "icdf", "log_prob", "mean", "perplexity",
                                   "stddev", "variance"},
    "Kumaraswamy": {"entropy", "expand-log_prob", "grads", "log_prob", "mean", "perplexity", "stddev", "variance"},
    "Weibull": {"expand-log_prob", "log_prob", "mean", "perplexity", "stddev", "variance"},
    "VonMises": {"stddev", "variance"},
    "LowRankMVN": {"covariance_matrix", "expand-log_prob", "grads", "log_prob", "perplexity", "precision_matrix",
                   "scale_tril", "stddev"},
    "LowRankMVN-batched": {"covariance_matrix", "entropy", "expand-log_prob", "grads", "log_prob", "perplexity",
                           "precision_matrix", "scale_tril", "stddev"},
    "Mixture-Normal": {"expand-log_prob", "grads", "log_prob"},
    "Mixture-shared-weights": {"grads"},
    "Mixture-MVN": {"grads"},
    "Mixture-Independent": {"grads", "stddev"},
    "LogisticNormal": {"expand-log_prob", "grads", "log_prob"},
    "GeneralizedPareto": {"cdf", "entropy", "expand-log_prob", "log_prob", "perplexity", "stddev"},
    "OneHotStraightThrough": {"logits", "perplexity"},
}
# Samples drawn bit for bit from the same random numbers, then pushed through a float32 log1p
# (ContinuousBernoulli from logits) or a batched matrix product (the low-rank and full
# multivariate normals); von Mises samples in float64 keep the last bit of float64 acos (float32
# samples are rounded from them and agree bit for bit). Every other sample, and the random
# numbers drawn after sampling, agree bit for bit.
SAMPLE_LAST_BIT = {"ContinuousBernoulli-logits", "LowRankMVN", "LowRankMVN-batched", "Mixture-MVN",
                   "VonMises", "VonMises-tiny"}

PROPERTIES = ["batch_shape", "event_shape", "mean", "variance", "stddev", "mode", "has_rsample",
              "has_enumerate_support", "probs", "logits", "total_count", "covariance_matrix",
              "precision_matrix", "scale_tril"]
SAMPLE_SHAPES = [(), (1,), (4,), (2, 3)]


def _build(lib, name, dtype):
    params = []

    def t(a, grad=True):
        x = lib.tensor(np.ascontiguousarray(a), dtype=getattr(lib, dtype), requires_grad=grad)
        if grad:
            params.append(x)
        return x
    ctor, value = CASES[name]
    return ctor(lib, t), params, lib.tensor(np.ascontiguousarray(value), dtype=getattr(lib, dtype))


def _everything(lib, name, dtype):
    d, params, value = _build(lib, name, dtype)
    out = {"repr": repr(d), "support": outcome(lambda: repr(d.support)),
           "arg_constraints": repr(d.arg_constraints)}
    for p in PROPERTIES:
        out[p] = outcome(lambda: getattr(d, p))
    for seed, shape in enumerate(SAMPLE_SHAPES):
        lib.manual_seed(seed)
        out[f"sample{shape}"] = outcome(lambda: d.sample(shape))
        out[f"after-sample{shape}"] = lib.rand(3)  # the generator advanced as far
    if d.has_rsample:
        lib.manual_seed(7)
        out["rsample"] = outcome(lambda: d.rsample((2, 1)))
        out["after-rsample"] = lib.rand(3)
    out["log_prob"] = outcome(lambda: d.log_prob(value))
    out["entropy"] = outcome(d.entropy)
    out["perplexity"] = outcome(d.perplexity)
    out["cdf"] = outcome(lambda: d.cdf(value))
    out["icdf"] = outcome(lambda: d.icdf(value.clamp(0.05, 0.95)))
    out["enumerate_support"] = outcome(lambda: d.enumerate_support())
    out["enumerate_support-no-expand"] = outcome(lambda: d.enumerate_support(expand=False))
    e = d.expand((2,) + tuple(d.batch_shape))
    out["expand"] = (repr(e), tuple(e.batch_shape), tuple(e.event_shape))
    lib.manual_seed(8)
    out["expand-sample"] = outcome(lambda: e.sample())
    out["expand-log_prob"] = outcome(lambda: e.log_prob(value))
    loss = d.log_prob(value).sum()
    if out["entropy"][0] == "ok":
        loss = loss + d.entropy().sum()
    if d.has_rsample:
        lib.manual_seed(9)
        loss = loss + (d.rsample((3,)) ** 2).sum()
    if params:
        out["grads"] = lib.autograd.grad(loss, params, allow_unused=True)
    return out


def _tolerant(name, dtype, key):
    if key in LAST_BIT.get(name, ()):
        return True
    if name.startswith("VonMises") and dtype == "float32":
        return False
    return name in SAMPLE_LAST_BIT and key.startswith(("sample", "expand-sample", "rsample"))


# Left out: GeneralizedPareto in float64, whose log_prob, cdf and log_survival_function fail (in
# both: see the next test); LogisticNormal of two numbers scoring float64 values, where the
# float32 log of the scale enters a float64 result (float32 log differs in the last bit).
@pytest.mark.parametrize("name, dtype", [(n, d) for n in CASES for d in ("float32", "float64")
                                         if (n, d) not in {("GeneralizedPareto", "float64"),
                                                           ("LogisticNormal-scalars", "float64")}])
def test_samples_values_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    mine, theirs = _everything(minigrad, name, dtype), _everything(torch, name, dtype)
    assert mine.keys() == theirs.keys()
    for key in mine:
        same(mine[key], theirs[key], _tolerant(name, dtype, key))


@pytest.mark.parametrize("method", ["log_prob", "cdf", "log_survival_function"])
def test_generalized_pareto_of_float64_fails_as_torch(method):
    """PyTorch's float64 GeneralizedPareto compares its concentration with a float32 zero in
    isclose, which refuses two dtypes: so does minigrad's."""
    torch = import_torch()
    failures = []
    for lib in (minigrad, torch):
        d = lib.distributions.GeneralizedPareto(lib.tensor([0.5], dtype=lib.float64),
                                                lib.tensor([1.0], dtype=lib.float64),
                                                lib.tensor([0.2], dtype=lib.float64))
        with pytest.raises(RuntimeError) as caught:
            getattr(d, method)(lib.tensor([1.0], dtype=lib.float64))
        failures.append(str(caught.value))
    assert failures[0] == failures[1] == "Double did not match Float"


@pytest.mark.parametrize("seed", range(12))
def test_discrete_and_rejection_samples_bit_for_bit_over_seeds(seed):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        D = lib.distributions
        lib.manual_seed(seed)
        rate = lib.rand(5) * 30
        probs = lib.rand(4, 3)
        kappa = lib.rand(3, dtype=lib.float64) * 10 ** (seed % 5 - 3)
        draws = [
            D.Poisson(rate).sample((2,)),
            D.Binomial(lib.tensor([1.0, 5.0, 40.0]), probs).sample(),
            D.Multinomial(seed + 1, probs=probs).sample((2,)),
            D.VonMises(lib.zeros(3), kappa.float() + 0.5).sample(),
            D.MixtureSameFamily(D.Categorical(probs=probs), D.Poisson(rate[:3].expand(4, 3))).sample((3,)),
            D.OneHotCategoricalStraightThrough(logits=probs).rsample((2,)),
        ]
        # float64 von Mises samples keep the last bit of float64 acos, which numpy's and
        # PyTorch's (MKL) may not share; the numbers drawn and accepted are the same
        von_mises_float64 = D.VonMises(lib.zeros(3, dtype=lib.float64), kappa).sample((5,))
        draws.append(lib.rand(2))
        seen.append((draws, von_mises_float64))
    same(seen[0][0], seen[1][0])
    same(seen[0][1], seen[1][1], last_bit=True)


def _gradcheck_cases(L):
    D = L.distributions
    f64 = L.float64
    v = L.tensor(A[1] * 0.5, dtype=f64)
    u = L.tensor(P[0], dtype=f64)
    simplex = L.tensor([0.2, 0.5, 0.1, 0.2], dtype=f64)
    return {
        "Poisson.log_prob": (lambda r: D.Poisson(r).log_prob(L.tensor([0.0, 3.0, 1.0], dtype=f64)), (POS,)),
        "Binomial.log_prob": (lambda z: D.Binomial(5, logits=z).log_prob(L.tensor([0.0, 3.0, 5.0], dtype=f64)),
                              (A,)),
        "Binomial.entropy": (lambda p: D.Binomial(4, probs=p).entropy(), (P,)),
        "Multinomial.log_prob": (lambda p: D.Multinomial(4, probs=p).log_prob(L.tensor([1.0, 0.0, 3.0], dtype=f64)),
                                 (POS,)),
        "Multinomial.entropy": (lambda z: D.Multinomial(3, logits=z).entropy(), (A,)),
        "ContinuousBernoulli.log_prob": (lambda p: D.ContinuousBernoulli(p).log_prob(u), (P,)),
        "ContinuousBernoulli.rsample": (lambda z: D.ContinuousBernoulli(logits=z).rsample((2,)), (A,)),
        "ContinuousBernoulli.entropy": (lambda p: D.ContinuousBernoulli(p).entropy(), (P,)),
        "Kumaraswamy.log_prob": (lambda a, b: D.Kumaraswamy(a, b).log_prob(u), (POS, POS[::-1])),
        "Kumaraswamy.rsample": (lambda a, b: D.Kumaraswamy(a, b).rsample(), (POS, POS[::-1])),
        "Weibull.log_prob": (lambda s, k: D.Weibull(s, k).log_prob(v.abs() + 0.1), (POS, POS[::-1] + 0.5)),
        "Weibull.rsample": (lambda s, k: D.Weibull(s, k).rsample((2,)), (POS, POS[::-1] + 0.5)),
        "VonMises.log_prob": (lambda loc, k: D.VonMises(loc, k).log_prob(v), (A, POS * 3)),
        "LowRankMVN.log_prob": (lambda loc, w, d: D.LowRankMultivariateNormal(loc, w, d).log_prob(v),
                                (A[0], W, POS[0])),
        "LowRankMVN.rsample": (lambda loc, w, d: D.LowRankMultivariateNormal(loc, w, d).rsample((2,)),
                               (A[0], W, POS[0])),
        "LowRankMVN.entropy": (lambda w, d: D.LowRankMultivariateNormal(L.zeros(3, dtype=f64), w, d).entropy(),
                               (W, POS)),
        "MixtureSameFamily.log_prob": (
            lambda z, loc, s: D.MixtureSameFamily(D.Categorical(logits=z), D.Normal(loc, s)).log_prob(v[:2, None]),
            (A[0], A, POS)),
        "LogisticNormal.log_prob": (lambda loc, s: D.LogisticNormal(loc, s).log_prob(simplex), (A[0], POS[0])),
        "LogisticNormal.rsample": (lambda loc, s: D.LogisticNormal(loc, s).rsample(), (A, POS)),
        "GeneralizedPareto.rsample": (lambda loc, s, c: D.GeneralizedPareto(loc, s, c).rsample((2,)),
                                      (A, POS, A * 0.3)),
        "kl LowRank-LowRank": (lambda w, d: D.kl_divergence(D.LowRankMultivariateNormal(L.zeros(3, dtype=f64), w, d),
                                                            D.LowRankMultivariateNormal(d, w * 2, d + 1)), (W, POS[0])),
        "kl ContinuousBernoulli-Normal": (
            lambda p, loc: D.kl_divergence(D.ContinuousBernoulli(p), D.Normal(loc, 2.0)), (P, A)),
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


def _kl_pairs(L, t):
    D = L.distributions

    def lowrank(scale):
        return D.LowRankMultivariateNormal(t(A * scale), t(W * scale), t(POS[0] * scale))
    return {
        "Poisson-Poisson": lambda: (D.Poisson(t(POS)), D.Poisson(t(POS[::-1]))),
        "Binomial-Binomial": lambda: (D.Binomial(t(COUNT, False), t(P)), D.Binomial(t(COUNT[::-1] * 0 + 2, False), t(P[::-1]))),
        "Binomial-same-count": lambda: (D.Binomial(4, t(P)), D.Binomial(4, logits=t(A))),
        "CB-CB": lambda: (D.ContinuousBernoulli(t(CB_P)), D.ContinuousBernoulli(logits=t(A))),
        "LowRank-LowRank": lambda: (lowrank(1.0), lowrank(1.5)),
        "MVN-LowRank": lambda: (D.MultivariateNormal(t(A), t(SPD)), lowrank(1.2)),
        "LowRank-MVN": lambda: (lowrank(0.8), D.MultivariateNormal(t(A[0]), t(SPD))),
        "Bernoulli-Poisson": lambda: (D.Bernoulli(t(P)), D.Poisson(t(POS))),
        "CB-Pareto": lambda: (D.ContinuousBernoulli(t(P)), D.Pareto(t(POS), t(POS))),
        "CB-Exponential": lambda: (D.ContinuousBernoulli(t(CB_P)), D.Exponential(t(POS))),
        "CB-Normal": lambda: (D.ContinuousBernoulli(t(CB_P)), D.Normal(t(A), t(POS))),
        "CB-Uniform": lambda: (D.ContinuousBernoulli(t(P)), D.Uniform(t(np.array([-1.0, 0.0, -0.5])), t(np.array([2.0, 2.0, 1.0])))),
        "Uniform-CB": lambda: (D.Uniform(t(np.array([0.1, 0.0, 0.3])), t(np.array([0.6, 0.9, 1.0]))), D.ContinuousBernoulli(t(P))),
        "Exponential-CB": lambda: (D.Exponential(t(POS)), D.ContinuousBernoulli(t(P))),
        "Gumbel-CB": lambda: (D.Gumbel(t(A), t(POS)), D.ContinuousBernoulli(t(P))),
        "Laplace-CB": lambda: (D.Laplace(t(A), t(POS)), D.ContinuousBernoulli(t(P))),
        "Normal-CB": lambda: (D.Normal(t(A), t(POS)), D.ContinuousBernoulli(t(P))),
        "Pareto-CB": lambda: (D.Pareto(t(POS), t(POS)), D.ContinuousBernoulli(t(P))),
        "Poisson-Bernoulli": lambda: (D.Poisson(t(POS)), D.Bernoulli(t(P))),
        "Poisson-Binomial": lambda: (D.Poisson(t(POS)), D.Binomial(3, t(P))),
        "Weibull-Weibull": lambda: (D.Weibull(t(POS), t(POS)), D.Weibull(t(POS), t(POS))),
        "Weibull-other-Weibull": lambda: (D.Weibull(t(POS), t(POS)), D.Weibull(t(POS), t(POS * 2))),
        "Kumaraswamy-Kumaraswamy": lambda: (D.Kumaraswamy(t(POS), t(POS[::-1])), D.Kumaraswamy(t(POS), t(POS[::-1]))),
        "LogisticNormal-LogisticNormal": lambda: (D.LogisticNormal(t(A), t(POS)), D.LogisticNormal(t(A[::-1]), t(POS[::-1]))),
    }


KL_NAMES = list(_kl_pairs(minigrad, lambda a, grad=True: minigrad.tensor(np.ascontiguousarray(a))))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", KL_NAMES)
def test_kl_divergence_as_torch(name, dtype):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        params = []

        def t(a, grad=True):
            x = lib.tensor(np.ascontiguousarray(a), dtype=getattr(lib, dtype), requires_grad=grad)
            if grad:
                params.append(x)
            return x
        p, q = _kl_pairs(lib, t)[name]()
        kl = outcome(lambda: lib.distributions.kl_divergence(p, q))
        grads = None
        if kl[0] == "ok":
            finite = kl[1][kl[1].detach().isfinite()]
            if finite.requires_grad:
                grads = lib.autograd.grad(finite.sum(), params, allow_unused=True)
        seen.append((kl, grads))
    same(seen[0], seen[1], last_bit=True)


def _error_cases(L):
    D = L.distributions
    return [
        lambda: D.Poisson(L.tensor([1.0, -1.0])),
        lambda: D.Poisson(2.0).log_prob(L.tensor(1.5)),
        lambda: D.Poisson(2.0).log_prob(L.tensor(-1.0)),
        lambda: D.Binomial(5),
        lambda: D.Binomial(5, probs=L.tensor(0.5), logits=L.tensor(0.0)),
        lambda: D.Binomial(L.tensor([2.5]), L.tensor([0.5])),
        lambda: D.Binomial(3, L.tensor([1.5])),
        lambda: D.Binomial(3, L.tensor([0.5])).log_prob(L.tensor([4.0])),
        lambda: D.Binomial(L.tensor([3.0, 4.0]), L.tensor([0.5, 0.2])).entropy(),
        lambda: D.Binomial(L.tensor([3.0, 4.0]), L.tensor([0.5, 0.2])).enumerate_support(),
        lambda: repr(D.Binomial(L.tensor([3.0, 4.0]), L.tensor([0.5, 0.2])).support),
        lambda: D.Multinomial(L.tensor(3), L.tensor([0.5, 0.5])),
        lambda: D.Multinomial(3, L.tensor([0.5, -0.5])),
        lambda: D.Multinomial(3, L.tensor([0.5, 0.5])).log_prob(L.tensor([1.0, -1.0])),
        lambda: D.Multinomial(3, L.tensor([0.5, 0.5])).log_prob(L.tensor([3.0, 1.0])),
        lambda: D.Multinomial(3, L.tensor([0.5, 0.5])).mode,
        lambda: D.Multinomial(2, logits=L.tensor([0.0, -float("inf"), 1.0])).log_prob(L.tensor([1.0, 0.0, 1.0])),
        lambda: (L.manual_seed(3), D.Multinomial(6, L.tensor([[0.0, 1.0, 2.0], [1.0, 0.0, 0.0]])).sample((2,)))[1],
        lambda: (L.manual_seed(4), D.Binomial(L.tensor([0.0, 3.0, 5.0, 2.0]),
                                              L.tensor([0.5, 1.0, 0.0, 0.5])).sample((3,)))[1],
        lambda: (L.manual_seed(5), D.Poisson(L.tensor([0.0, 1e-3, 1e4])).sample((2,)), L.rand(2))[1:],
        lambda: D.Multinomial(3, L.tensor([0.5, 0.5])).enumerate_support(),
        lambda: D.ContinuousBernoulli(L.tensor([0.5, 1.5]), validate_args=True),
        lambda: D.ContinuousBernoulli(L.tensor([0.5, 1.5])).probs,
        lambda: D.ContinuousBernoulli(L.tensor([0.5, 1.5]), validate_args=False).probs,
        lambda: D.ContinuousBernoulli(),
        lambda: D.ContinuousBernoulli(0.3).log_prob(L.tensor(1.5)),
        lambda: D.ContinuousBernoulli(L.tensor([0.3, 0.5, 0.9])).cdf(L.tensor([-0.5, 0.5, 2.0])),
        lambda: D.Kumaraswamy(L.tensor([1.0, -1.0]), 1.0),
        lambda: D.Kumaraswamy(2.0, 3.0).log_prob(L.tensor(1.5)),
        lambda: D.Kumaraswamy(L.tensor([2.0, 0.5]), L.tensor([3.0, 2.0])).mode,
        lambda: D.Weibull(0.0, 1.0),
        lambda: D.Weibull(1.0, 2.0).log_prob(L.tensor(-1.0)),
        lambda: D.Weibull(L.tensor([1.0, 2.0]), L.tensor([0.5, 3.0])).mode,
        lambda: D.Weibull(L.tensor([1.0, 2.0]), L.tensor([0.5, 3.0])).cdf(L.tensor([0.5, 1.0])),
        lambda: D.VonMises(L.tensor(0.0), L.tensor(0.0)),
        lambda: D.VonMises(L.tensor(0.0), L.tensor(1.0)).rsample(),
        lambda: D.VonMises(L.tensor([0.0, 1.0]), L.tensor(1.0), validate_args=False).expand((3, 2)).batch_shape,
        lambda: D.VonMises(L.tensor(0.0), L.tensor(1.0)).entropy(),
        lambda: D.VonMises(0.0, 2.0).log_prob(L.tensor([0.5, float("nan")])),
        lambda: (L.manual_seed(6), D.VonMises(L.tensor([[0.5], [-3.0]]), L.tensor([1e-8, 1e-3, 5.0])).sample((2,)))[1],
        lambda: D.LowRankMultivariateNormal(L.tensor(0.0), L.ones(1, 1), L.ones(1)),
        lambda: D.LowRankMultivariateNormal(L.zeros(2), L.ones(2), L.ones(2)),
        lambda: D.LowRankMultivariateNormal(L.zeros(2), L.ones(3, 1), L.ones(2)),
        lambda: D.LowRankMultivariateNormal(L.zeros(2), L.ones(2, 1), L.ones(3)),
        lambda: D.LowRankMultivariateNormal(L.zeros(3, 2), L.ones(4, 2, 1), L.ones(2)),
        lambda: D.LowRankMultivariateNormal(L.zeros(2), L.ones(2, 1), L.tensor([1.0, 0.0])),
        lambda: D.LowRankMultivariateNormal(L.zeros(2), L.ones(2, 1), L.ones(2)).log_prob(L.zeros(3)),
        lambda: D.kl_divergence(D.LowRankMultivariateNormal(L.zeros(2), L.ones(2, 1), L.ones(2)),
                                D.LowRankMultivariateNormal(L.zeros(3), L.ones(3, 1), L.ones(3))),
        lambda: D.kl_divergence(D.MultivariateNormal(L.zeros(2), L.eye(2)),
                                D.LowRankMultivariateNormal(L.zeros(3), L.ones(3, 1), L.ones(3))),
        lambda: D.kl_divergence(D.LowRankMultivariateNormal(L.zeros(3), L.ones(3, 1), L.ones(3)),
                                D.MultivariateNormal(L.zeros(2), L.eye(2))),
        lambda: D.kl_divergence(D.Binomial(2, L.tensor([0.5])), D.Binomial(3, L.tensor([0.5]))),
        lambda: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(L.zeros(2), 1.0)),
        lambda: D.MixtureSameFamily(D.Categorical(L.ones(2)), "normal"),
        lambda: D.MixtureSameFamily(D.Categorical(L.ones(3, 2)), D.Normal(L.zeros(4, 2), 1.0)),
        lambda: D.MixtureSameFamily(D.Categorical(L.ones(3)), D.Normal(L.zeros(2), 1.0)),
        lambda: repr(D.MixtureSameFamily(D.Categorical(L.ones(2)), D.Exponential(L.ones(2))).support),
        lambda: D.MixtureSameFamily(D.Categorical(L.ones(2)), D.Exponential(L.ones(2))).log_prob(L.tensor(-1.0)),
        lambda: D.MixtureSameFamily(D.Categorical(L.ones(2)), D.Normal(L.zeros(2), 1.0)).rsample(),
        lambda: D.MixtureSameFamily(D.Categorical(L.ones(2)), D.Normal(L.zeros(2), 1.0)).cdf(L.tensor([0.5, -1.0])),
        lambda: D.MixtureSameFamily(D.Categorical(L.ones(2)), D.Normal(L.zeros(2), 1.0)).entropy(),
        lambda: D.LogisticNormal(0.0, -1.0),
        lambda: D.LogisticNormal(L.zeros(2), 1.0).log_prob(L.tensor([0.5, 0.2, 0.2])),
        lambda: D.LogisticNormal(L.zeros(2), 1.0).log_prob(L.tensor([0.5, 0.5])),
        lambda: D.GeneralizedPareto(0.0, -1.0, 0.5),
        lambda: D.GeneralizedPareto(0.0, 1.0, float("nan")),
        lambda: D.GeneralizedPareto(0.0, 1.0, -0.5).log_prob(L.tensor(3.0)),
        lambda: D.GeneralizedPareto(0.0, 1.0, 0.5).log_prob(L.tensor(-3.0)),
        lambda: repr(D.GeneralizedPareto(L.zeros(2), 2.0, L.tensor([0.5, -0.5])).support),
        lambda: D.GeneralizedPareto(L.zeros(3), 2.0, L.tensor([0.5, 0.0, -0.5])).cdf(L.tensor([0.5, 1.0, 3.0])),
        lambda: D.GeneralizedPareto(L.zeros(3), 2.0, L.tensor([0.5, 0.0, -0.5])).log_cdf(L.tensor([0.5, 1.0, 3.0])),
        lambda: D.GeneralizedPareto(L.zeros(3), 2.0, L.tensor([1.5, 0.7, 0.2])).variance,
        lambda: D.PowerTransform(L.tensor(2.0)).sign,
        lambda: (lambda t, x: (t(x) is t(x), t.inv(t(x)) is x, t.with_cache(1) is t, t.with_cache(0)._cache_size))(
            D.PowerTransform(L.tensor(0.5), cache_size=1), L.tensor([4.0, 9.0])),
        lambda: (L.manual_seed(2), (lambda d: (d.sample((2,)), d.log_prob(d.sample())))(D.TransformedDistribution(
            D.Exponential(L.tensor([1.0, 2.0])), [D.PowerTransform(L.tensor(0.5)), D.AffineTransform(1.0, 2.0)])))[1],
        lambda: D.PowerTransform(L.tensor(2.0)) == D.PowerTransform(L.tensor(2.0)),
        lambda: D.PowerTransform(L.tensor([2.0, -1.0])).inv(L.tensor([4.0, 2.0])),
        lambda: D.PowerTransform(2.0).log_abs_det_jacobian(L.tensor([3.0]), L.tensor([9.0])),
        lambda: repr(D.ComposeTransform([D.StickBreakingTransform(), D.PowerTransform(L.tensor(2.0))]).codomain),
        lambda: D.StickBreakingTransform().forward_shape(()),
        lambda: D.StickBreakingTransform().inverse_shape((2, 4)),
        lambda: D.StickBreakingTransform().inv(L.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])),
        lambda: D.StickBreakingTransform().log_abs_det_jacobian(L.tensor([0.5, -1.0]),
                                                                D.StickBreakingTransform()(L.tensor([0.5, -1.0]))),
        lambda: D.constraints.multinomial(3).check(L.tensor([[1.0, 2.0], [2.0, 2.0], [-1.0, 1.0]])),
        lambda: repr(D.constraints.multinomial(3)),
        lambda: D.constraints.MixtureSameFamilyConstraint("real"),
        lambda: D.constraints.MixtureSameFamilyConstraint(D.constraints.real_vector).check(L.tensor(1.0)),
        lambda: (L.manual_seed(0), D.Poisson(L.tensor([1.0, 2.0])).sample_n(2))[1],
        lambda: D.ExponentialFamily.entropy(D.Poisson(L.tensor([0.5, 3.0]))),
        lambda: D.ExponentialFamily.entropy(D.ContinuousBernoulli(L.tensor([0.2, 0.7]))),
        lambda: D.kl_divergence(D.Poisson(L.tensor([0.5, 3.0])), D.Geometric(L.tensor([0.5, 0.3]))),
    ]


@pytest.mark.filterwarnings("ignore:`sample_n:FutureWarning")
@pytest.mark.parametrize("index", range(len(_error_cases(minigrad))))
def test_errors_and_messages_as_torch(index):
    torch = import_torch()
    mine = outcome(_error_cases(minigrad)[index])
    theirs = outcome(_error_cases(torch)[index])
    if mine[0] == "ok":
        same(mine[1], theirs[1], last_bit=True)
    else:
        assert mine == theirs
