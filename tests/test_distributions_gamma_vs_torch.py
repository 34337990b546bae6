"""The gamma family against PyTorch: torch._standard_gamma and torch._sample_dirichlet samples bit
for bit after manual_seed (and the generator's state after them), their reparameterised gradients
(_standard_gamma_grad, _dirichlet_grad), and the distributions built on them (Gamma, Chi2, Beta,
Dirichlet, StudentT, InverseGamma, FisherSnedecor, NegativeBinomial): samples, rsample gradients,
log_prob, entropy, moments, expand, gradcheck of log_prob, kl_divergence and validation messages."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck

from conftest import import_torch
from test_distributions_vs_torch import outcome, same


def _dtype(lib, name):
    return getattr(lib, name)


# --- the samplers -------------------------------------------------------------------------------

SAMPLER_ALPHAS = {
    "mixed": np.array([0.1, 0.5, 0.9, 1.0, 2.0, 7.5, 10.0, 100.0, 1e-3, 3.0]),
    "small": np.array([1e-4, 0.01, 0.05, 0.3, 0.999]),
    "large": np.array([1e4, 50.0, 8.5, 123.25]),
    "edges": np.array([0.0, 1e-30, -0.5, -0.7, np.nan, np.inf]),
}
SAMPLER_SHAPES = [(), (7,), (2, 1, 17)]


def _alphas(lib, key, shape, dtype):
    values = SAMPLER_ALPHAS[key]
    size = int(np.prod(shape))
    flat = np.resize(values, max(size, 1))[:size] if shape else values[:1].reshape(())
    return lib.tensor(flat.reshape(shape), dtype=_dtype(lib, dtype))


def _draws(lib, key, shape, dtype, seed):
    """A gamma sample, a Dirichlet sample, then the generator's state and a normal after them."""
    lib.manual_seed(seed)
    alpha = _alphas(lib, key, shape, dtype)
    gamma = lib._standard_gamma(alpha)
    dirichlet = lib._sample_dirichlet(alpha.abs() + 0.01) if key != "edges" else None
    single = lib.randn(1, dtype=lib.float64)          # (uses a kept Box-Muller partner, if any)
    return [gamma, dirichlet, lib.get_rng_state(), single]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SAMPLER_SHAPES)
@pytest.mark.parametrize("key", list(SAMPLER_ALPHAS))
def test_standard_gamma_and_dirichlet_samples_bit_for_bit(key, shape, dtype):
    torch = import_torch()
    for seed in (0, 12345):
        same(_draws(minigrad, key, shape, dtype, seed), _draws(torch, key, shape, dtype, seed))


def test_generator_argument_and_expanded_alpha_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        g = lib.Generator().manual_seed(7)
        alpha = lib.tensor([[0.4], [3.0]], dtype=lib.float64).expand(2, 6)
        seen.append([lib._standard_gamma(alpha, generator=g), lib._sample_dirichlet(alpha, generator=g),
                     g.get_state(), outcome(lambda: lib._standard_gamma(alpha, generator=3))])
    same(seen[0], seen[1])


def _gradient_inputs(lib, dtype):
    rng = np.random.default_rng(5)
    alpha = np.concatenate([np.exp(rng.uniform(-4, 5, 300)), [9.0, 20.0, 20.0, 0.5]])
    x = np.concatenate([np.exp(rng.uniform(-6, 5, 300)), [9.0, 19.0, 30.0, 0.0]])
    beta = np.exp(rng.uniform(-4, 5, 304))
    y = np.concatenate([rng.uniform(0, 1, 280), rng.uniform(0, 1e-3, 12), 1 - rng.uniform(0, 1e-3, 12)])
    t = lambda a: lib.tensor(a, dtype=_dtype(lib, dtype))  # noqa: E731
    return t(alpha), t(x), t(y), t(alpha + beta)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_grad_and_dirichlet_grad_values_bit_for_bit(dtype):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        alpha, x, y, total = _gradient_inputs(lib, dtype)
        seen.append([lib._standard_gamma_grad(alpha, x), lib._dirichlet_grad(y, alpha, total)])
    same(seen[0], seen[1])


def test_sampler_graphs_and_messages_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        a = lib.tensor([0.5, 2.0, 10.0], requires_grad=True)
        x = lib._standard_gamma(a)
        node = x.grad_fn
        saved = [node._saved_self, node._saved_result]
        (grad,) = lib.autograd.grad(x.sum(), a)
        g = lib._standard_gamma_grad(a, x)
        d = lib._sample_dirichlet(a)
        total = a.sum(-1, True).expand(3)
        dg = lib._dirichlet_grad(d.detach(), a, total)
        seen.append([x, saved, grad, g, d, dg, len(dg.grad_fn.next_functions),
                     lib._standard_gamma_grad(a.detach(), x).grad_fn,
                     outcome(lambda: g.sum().backward()), outcome(lambda: d.sum().backward()),
                     outcome(lambda: dg.sum().backward())])
        for bad in (lambda: lib._standard_gamma(lib.tensor([1, 2])),
                    lambda: lib._standard_gamma(lib.tensor([1.0], dtype=lib.float16)),
                    lambda: lib._standard_gamma(3.0),
                    lambda: lib._sample_dirichlet(lib.tensor([1, 2])),
                    lambda: lib._standard_gamma_grad(a, x.double()),
                    lambda: lib._standard_gamma_grad(a, lib.ones(2)),
                    lambda: lib._dirichlet_grad(d, a.double(), a),
                    lambda: lib._dirichlet_grad(d.half(), a.half(), a.half())):
            seen[-1].append(outcome(bad))
        from_forward = []
        with lib.autograd.forward_ad.dual_level():
            dual = lib.autograd.forward_ad.make_dual(a.detach(), lib.ones(3))
            for op in (lambda: lib._standard_gamma(dual), lambda: lib._sample_dirichlet(dual),
                       lambda: lib._standard_gamma_grad(dual, x.detach()),
                       lambda: lib._dirichlet_grad(d.detach(), dual, total.detach())):
                from_forward.append(outcome(op)[:2] if outcome(op)[0] == "raised" else "ok")
        seen[-1].append(from_forward)
    same(seen[0], seen[1])


# --- the distributions ---------------------------------------------------------------------------

rng = np.random.default_rng(0)
POS = np.abs(rng.standard_normal((2, 3))) + 0.2
A = rng.standard_normal((2, 3))
P = rng.uniform(0.05, 0.95, (2, 3))
COUNTS = np.array([[0.0, 3.0, 1.0], [7.0, 0.0, 2.0]])

# name -> (constructor from (lib, t) to a distribution, values to score)
CASES = {
    "Gamma": (lambda D, t: D.Gamma(t(POS * 3), t(POS[::-1])), POS * 2),
    "Gamma-below-1": (lambda D, t: D.Gamma(t(POS * 0.3), t(POS)), POS[::-1]),
    "Gamma-scalars": (lambda D, t: D.Gamma(0.5, 2.0), np.array([0.3, 1.2])),
    "Chi2": (lambda D, t: D.Chi2(t(POS * 4)), POS * 3),
    "Beta": (lambda D, t: D.Beta(t(POS), t(POS[::-1] * 2)), P),
    "Beta-scalars": (lambda D, t: D.Beta(0.5, 1.5), np.array([0.25, 0.75])),
    "Dirichlet": (lambda D, t: D.Dirichlet(t(POS * 2)), POS / POS.sum(-1, keepdims=True)),
    "Dirichlet-below-1": (lambda D, t: D.Dirichlet(t(POS * 0.4)), P / P.sum(-1, keepdims=True)),
    "StudentT": (lambda D, t: D.StudentT(t(POS * 3), t(A), t(POS[::-1])), A[::-1] * 2),
    "StudentT-small-df": (lambda D, t: D.StudentT(t(np.array([0.5, 1.5, 4.0, 6.0]))), np.append(A[0], 2.0)),
    "InverseGamma": (lambda D, t: D.InverseGamma(t(POS * 3), t(POS)), POS[::-1]),
    "FisherSnedecor": (lambda D, t: D.FisherSnedecor(t(POS * 5), t(POS[::-1] * 8)), POS),
    "NegativeBinomial-probs": (lambda D, t: D.NegativeBinomial(t(POS * 3), probs=t(P)), COUNTS),
    "NegativeBinomial-logits": (lambda D, t: D.NegativeBinomial(t(POS * 3), logits=t(A)), COUNTS[::-1]),
}
# Samples are compared to the last bit. Results through lgamma, digamma, gammainc, float32
# log/exp/pow or float64 log1p, whose last bit minigrad does not always share with PyTorch (see
# README), are compared within a few units of it.
LAST_BIT = {"log_prob", "entropy", "perplexity", "cdf", "expand-log_prob", "grads", "stddev", "logits",
            "probs", "rsample-grads", "variance", "mean", "mode"}
PROPERTIES = ["batch_shape", "event_shape", "mean", "variance", "stddev", "mode", "has_rsample",
              "support", "arg_constraints", "logits", "probs", "df", "concentration1", "concentration0"]


def _build(lib, name, dtype):
    params = []

    def t(a):
        x = lib.tensor(np.ascontiguousarray(a), dtype=_dtype(lib, dtype), requires_grad=True)
        params.append(x)
        return x
    ctor, value = CASES[name]
    return ctor(lib.distributions, t), params, lib.tensor(np.ascontiguousarray(value), dtype=_dtype(lib, dtype))


def _everything(lib, name, dtype):
    d, params, value = _build(lib, name, dtype)
    out = {"repr": repr(d)}
    for p in PROPERTIES:
        got = outcome(lambda: getattr(d, p))
        out[p] = (got[0], repr(got[1])) if p in ("support", "arg_constraints") and got[0] == "ok" else got
    lib.manual_seed(0)
    out["sample"] = outcome(lambda: d.sample((4,)))
    out["sample-empty"] = outcome(lambda: d.sample())
    out["state"] = lib.get_rng_state()
    if d.has_rsample:
        lib.manual_seed(1)
        out["rsample"] = outcome(lambda: d.rsample((2, 1)))
        lib.manual_seed(3)
        sample = d.rsample((3,))
        out["rsample-grads"] = (lib.autograd.grad((sample ** 2).sum(), params, allow_unused=True, retain_graph=True)
                                if params else None)
    out["log_prob"] = outcome(lambda: d.log_prob(value))
    out["entropy"] = outcome(d.entropy)
    out["perplexity"] = outcome(d.perplexity)
    out["cdf"] = outcome(lambda: d.cdf(value))
    e = d.expand((5,) + tuple(d.batch_shape))
    out["expand"] = (repr(e), tuple(e.batch_shape), tuple(e.event_shape), type(e).__name__)
    lib.manual_seed(2)
    out["expand-sample"] = outcome(lambda: e.sample())
    out["expand-log_prob"] = outcome(lambda: e.log_prob(value))
    loss = d.log_prob(value).sum()
    if out["entropy"][0] == "ok":
        loss = loss + d.entropy().sum()
    out["grads"] = lib.autograd.grad(loss, params, allow_unused=True) if params else None
    return out




# Beta(0.5, 1.5) keeps float32 concentrations (numbers become default-dtype tensors); scoring
# float64 values then mixes in float32 lgamma, whose last bit minigrad does not always share
@pytest.mark.parametrize("name, dtype", [(n, d) for n in CASES for d in ("float32", "float64")
                                         if (n, d) != ("Beta-scalars", "float64")])
def test_distribution_values_samples_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    mine, theirs = _everything(minigrad, name, dtype), _everything(torch, name, dtype)
    assert mine.keys() == theirs.keys()
    for key in mine:
        same(mine[key], theirs[key], key in LAST_BIT)


WITH_ENTROPY = {"Gamma", "Gamma-below-1", "Chi2", "Beta", "Dirichlet", "StudentT", "InverseGamma"}
GRADCHECK_CASES = ["Gamma", "Gamma-below-1", "Chi2", "Beta", "Dirichlet", "StudentT", "InverseGamma",
                   "FisherSnedecor", "NegativeBinomial-probs", "NegativeBinomial-logits"]


@pytest.mark.parametrize("name", GRADCHECK_CASES)
def test_gradcheck_log_prob_and_entropy_float64(name):
    ctor, value = CASES[name]
    _, params, _ = _build(minigrad, name, "float64")
    score = minigrad.tensor(np.ascontiguousarray(value), dtype=minigrad.float64)

    def log_prob_and_entropy(*parameters):
        tensors = iter(parameters)
        d = ctor(minigrad.distributions, lambda a: next(tensors))
        if name == "FisherSnedecor":        # (its variance is nan where df2 <= 4)
            return d.log_prob(score)
        return d.log_prob(score), d.entropy() if name in WITH_ENTROPY else d.variance

    assert gradcheck(log_prob_and_entropy, tuple(params))


def test_rsample_gradients_are_the_reparameterised_ones_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        D = lib.distributions
        concentration = lib.tensor([0.3, 2.5, 12.0], dtype=lib.float64, requires_grad=True)
        rate = lib.tensor([1.5, 0.5, 2.0], dtype=lib.float64, requires_grad=True)
        lib.manual_seed(4)
        x = D.Gamma(concentration, rate).rsample((5,))
        gamma_grads = lib.autograd.grad(x.sum(), (concentration, rate))
        lib.manual_seed(5)
        y = D.Dirichlet(concentration).rsample((4,))
        dirichlet_grad = lib.autograd.grad((y * lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64)).sum(),
                                           concentration)
        lib.manual_seed(6)
        z = D.Beta(concentration, rate).rsample()
        beta_grads = lib.autograd.grad(z.sum(), (concentration, rate))
        seen.append([[x, y, y.grad_fn.__class__.__name__, z, z.grad_fn.__class__.__name__],
                     [gamma_grads, dirichlet_grad, beta_grads]])
    same(seen[0][0], seen[1][0])
    # (summed over the sample dims by the engine, in numpy's order, which is not always PyTorch's)
    same(seen[0][1], seen[1][1], last_bit=True)


# --- kl_divergence -------------------------------------------------------------------------------

def _kl_pairs(D, t):
    gamma, gamma2 = D.Gamma(t(POS * 3), t(POS)), D.Gamma(t(POS[::-1]), t(POS * 2))
    beta, beta2 = D.Beta(t(POS), t(POS[::-1] * 2)), D.Beta(t(POS * 3), t(POS))
    return {
        "Gamma-Gamma": (gamma, gamma2), "Beta-Beta": (beta, beta2),
        "Chi2-Chi2": (D.Chi2(t(POS * 4)), D.Chi2(t(POS * 2))),
        "Dirichlet-Dirichlet": (D.Dirichlet(t(POS * 2)), D.Dirichlet(t(POS[::-1]))),
        "Beta-Exponential": (beta, D.Exponential(t(POS))), "Beta-Gamma": (beta, gamma),
        "Beta-Normal": (beta, D.Normal(t(A), t(POS))),
        "Beta-Uniform": (beta, D.Uniform(t(np.array([-0.5, 0.0, 0.1])), t(np.array([1.0, 1.5, 1.0])))),
        "Beta-Pareto": (beta, D.Pareto(t(POS), t(POS))),
        "Exponential-Gamma": (D.Exponential(t(POS)), gamma), "Exponential-Beta": (D.Exponential(t(POS)), beta),
        "Gamma-Exponential": (gamma, D.Exponential(t(POS))), "Gamma-Gumbel": (gamma, D.Gumbel(t(A), t(POS))),
        "Gamma-Normal": (gamma, D.Normal(t(A), t(POS))), "Gamma-Beta": (gamma, beta),
        "Gamma-Uniform": (gamma, D.Uniform(t(A), t(A + POS))), "Gamma-Pareto": (gamma, D.Pareto(t(POS), t(POS))),
        "Gumbel-Gamma": (D.Gumbel(t(A), t(POS)), gamma), "Laplace-Beta": (D.Laplace(t(A), t(POS)), beta),
        "Normal-Gamma": (D.Normal(t(A), t(POS)), gamma), "Pareto-Beta": (D.Pareto(t(POS), t(POS)), beta),
        "Pareto-Gamma": (D.Pareto(t(POS), t(POS[::-1] * 3)), gamma),
        "Uniform-Beta": (D.Uniform(t(P * 0.5), t(P * 0.5 + 0.4)), beta),
        "Uniform-Gamma": (D.Uniform(t(POS), t(POS * 2)), gamma),
        "InverseGamma-InverseGamma": (D.InverseGamma(t(POS * 3), t(POS)), D.InverseGamma(t(POS), t(POS * 2))),
        "StudentT-Normal": (D.StudentT(t(POS)), D.Normal(t(A), t(POS))),
    }


KL_NAMES = list(_kl_pairs(minigrad.distributions, lambda a: minigrad.tensor(np.ascontiguousarray(a))))


# every pair in float64, the closed forms also in float32
KL_FLOAT32 = ["Gamma-Gamma", "Beta-Beta", "Dirichlet-Dirichlet", "Gamma-Normal", "Uniform-Beta", "Pareto-Gamma"]


@pytest.mark.parametrize("name, dtype", [(n, "float64") for n in KL_NAMES] + [(n, "float32") for n in KL_FLOAT32])
def test_kl_divergence_as_torch(name, dtype):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        params = []

        def t(a):
            x = lib.tensor(np.ascontiguousarray(a), dtype=_dtype(lib, dtype), requires_grad=True)
            params.append(x)
            return x
        p, q = _kl_pairs(lib.distributions, t)[name]
        kl = outcome(lambda: lib.distributions.kl_divergence(p, q))
        grads = (lib.autograd.grad(kl[1].sum(), params, allow_unused=True)
                 if kl[0] == "ok" and kl[1].requires_grad else None)
        seen.append([kl, grads])
    same(seen[0], seen[1], last_bit=True)


# --- validation ----------------------------------------------------------------------------------

def _error_cases(lib):
    D, t = lib.distributions, lib.tensor
    return [
        lambda: D.Gamma(t([-1.0, 1.0]), t([1.0, 1.0])),
        lambda: D.Gamma(t([1.0]), t([0.0])),
        lambda: D.Gamma(t([1.0]), t([1.0])).log_prob(t([-1.0])),
        lambda: D.Gamma("a", 1.0),
        lambda: D.Chi2(t([0.0, 2.0])),
        lambda: D.Beta(t([0.5]), t([-0.5])),
        lambda: D.Beta(t([0.5]), t([0.5])).log_prob(t([1.5])),
        lambda: D.Dirichlet(t(1.0)),
        lambda: D.Dirichlet(t([1.0, -1.0])),
        lambda: D.Dirichlet(t([1.0, 2.0])).log_prob(t([0.5, 0.6])),
        lambda: D.Dirichlet(t([1.0, 2.0])).log_prob(t([0.5, 0.5, 0.0])),
        lambda: D.StudentT(t([-1.0])),
        lambda: D.StudentT(t([1.0]), t([0.0]), t([0.0])),
        lambda: D.InverseGamma(t([1.0]), t([-2.0])),
        lambda: D.InverseGamma(t([1.0]), t([2.0])).log_prob(t([-1.0])),
        lambda: D.FisherSnedecor(t([1.0]), t([0.0])),
        lambda: D.NegativeBinomial(t([2.0]), probs=t([0.5]), logits=t([0.0])),
        lambda: D.NegativeBinomial(t([2.0])),
        lambda: D.NegativeBinomial(t([-2.0]), probs=t([0.5])),
        lambda: D.NegativeBinomial(t([2.0]), probs=t([1.0])),
        lambda: D.NegativeBinomial(t([2.0]), probs=t([0.5])).log_prob(t([1.5])),
        lambda: D.Gamma(t([-1.0]), t([1.0]), validate_args=False).mean,
        lambda: repr(D.Gamma(t([1.0, 2.0]), t(3.0)).expand((2, 2))),
        lambda: D.Beta(t([0.5]), t([0.5])).expand((3, 2)),
        lambda: D.kl_divergence(D.StudentT(t([1.0])), D.StudentT(t([2.0]))),
    ]


@pytest.mark.parametrize("index", range(len(_error_cases(minigrad))))
def test_validation_and_messages_as_torch(index):
    torch = import_torch()
    mine = outcome(_error_cases(minigrad)[index])
    theirs = outcome(_error_cases(torch)[index])
    if mine[0] == "ok" and not isinstance(mine[1], str):     # (a distribution: compare its repr)
        mine, theirs = ("ok", repr(mine[1])), ("ok", repr(theirs[1]))
    assert mine == theirs


# --- LKJCholesky and Wishart ---------------------------------------------------------------------

SPD = np.array([[2.0, 0.5, 0.1], [0.5, 1.5, 0.3], [0.1, 0.3, 1.0]])


def _matrix_distributions(lib, dtype):
    """Samples, scores, moments and warnings of LKJCholesky and Wishart; the second list holds
    what passes through float32 norm/sqrt or batched matmul (compared within the last bits)."""
    import warnings
    D, kind = lib.distributions, _dtype(lib, dtype)
    concentration = lib.tensor([0.5, 2.0], dtype=kind, requires_grad=True)
    cov = lib.tensor(SPD, dtype=kind, requires_grad=True)
    df = lib.tensor([4.0, 6.5], dtype=kind, requires_grad=True)
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        lkj = D.LKJCholesky(3, concentration)
        lib.manual_seed(0)
        lkj_sample = lkj.sample((2,))
        lib.manual_seed(1)
        lkj_expanded = lkj.expand((4, 2)).sample()
        wishart = D.Wishart(df, covariance_matrix=cov)
        lib.manual_seed(2)
        wishart_sample = wishart.rsample((3,))
        lib.manual_seed(3)
        from_precision = D.Wishart(5.0, precision_matrix=cov.detach()).sample()
        lib.manual_seed(4)
        from_tril = D.Wishart(df, scale_tril=lib.linalg.cholesky(cov.detach())).expand((3, 2)).sample()
        low_df = repr(D.Wishart(lib.tensor(2.5, dtype=kind), covariance_matrix=cov.detach()))
    exact = [repr(lkj.support), repr(wishart.support), lkj.batch_shape, lkj.event_shape, wishart.event_shape,
             [str(w.message) for w in warned], low_df, lib.get_rng_state(),
             outcome(lambda: D.LKJCholesky(1)), outcome(lambda: D.LKJCholesky(3, lib.tensor([-1.0]))),
             outcome(lambda: D.Wishart(1.5, covariance_matrix=cov.detach())),
             outcome(lambda: D.Wishart(5.0)),
             outcome(lambda: D.Wishart(5.0, covariance_matrix=lib.ones(3))),
             outcome(lambda: wishart.log_prob(-cov.detach())), outcome(lkj.entropy)]
    close = [lkj_sample, lkj_expanded, lkj.log_prob(lkj_sample), wishart_sample, from_precision, from_tril,
             wishart.log_prob(wishart_sample.detach()), wishart.entropy(), wishart.mean, wishart.mode,
             wishart.variance, lib.autograd.grad(wishart.entropy().sum() + wishart.mean.sum(), (df, cov)),
             D.kl_divergence(wishart, D.Wishart(df + 1, covariance_matrix=cov))]
    if dtype == "float64":          # (float64 norm and sqrt are exact; batched matmul is not)
        exact, close = exact + close[:2], close[2:]
    return exact, close


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lkj_cholesky_and_wishart_as_torch(dtype):
    torch = import_torch()
    (mine_exact, mine_close), (their_exact, their_close) = (_matrix_distributions(minigrad, dtype),
                                                            _matrix_distributions(torch, dtype))
    same(mine_exact, their_exact)
    same(mine_close, their_close, last_bit=True)


def test_gradcheck_lkj_and_wishart_log_prob_float64():
    D = minigrad.distributions
    value = minigrad.tensor(SPD * 1.3 + np.eye(3), dtype=minigrad.float64)
    minigrad.manual_seed(0)
    corr = D.LKJCholesky(3, minigrad.tensor([1.5], dtype=minigrad.float64)).sample()
    df = minigrad.tensor([4.5, 7.0], dtype=minigrad.float64, requires_grad=True)
    tril = minigrad.tensor(np.linalg.cholesky(SPD), dtype=minigrad.float64, requires_grad=True)
    concentration = minigrad.tensor([0.7, 2.5], dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(lambda d, l: D.Wishart(d, scale_tril=l.tril(), validate_args=False).log_prob(value),
                     (df, tril))
    assert gradcheck(lambda c: D.LKJCholesky(3, c).log_prob(corr), (concentration,))


def test_power_transform_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        T = lib.distributions.transforms
        exponent = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        t = T.PowerTransform(exponent)
        x = lib.tensor([[1.5, 2.0, 0.3]], dtype=lib.float64)
        y = t(x)
        cached = t.with_cache()
        seen.append([y, t.inv(y), t.log_abs_det_jacobian(x, y), t.sign, t == T.PowerTransform(exponent.detach()),
                     t == T.ExpTransform(), cached.inv(cached(x)) is not None, t.forward_shape((4, 1)),
                     t.inverse_shape((3,)), repr(t), repr(t.domain), repr(t.codomain), t.bijective])
    same(seen[0], seen[1])
