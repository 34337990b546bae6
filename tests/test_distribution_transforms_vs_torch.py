"""torch.distributions.transforms (TanhTransform, SoftplusTransform, SoftmaxTransform,
LowerCholeskyTransform, PositiveDefiniteTransform, CorrCholeskyTransform, ReshapeTransform,
IndependentTransform, CatTransform, StackTransform, CumulativeDistributionTransform),
torch.distributions.constraint_registry (biject_to, transform_to, ConstraintRegistry) and the
constraints they need (positive_semidefinite, cat, stack) against PyTorch: values of the forward
map, its inverse and log_abs_det_jacobian with their graphs, gradients, gradcheck and
gradgradcheck in float64, forward mode, the cache, domains, codomains, shapes, signs, equality and repr, samples
and log_prob of TransformedDistributions built on them after manual_seed, and the messages for bad input."""
import pickle

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import every_node_saved, import_torch
from test_distributions_vs_torch import outcome, plain, same

torch = import_torch()

rng = np.random.default_rng(5)
X = rng.standard_normal((2, 6)) * 1.5
SQUARE = rng.standard_normal((2, 3, 3))
SPD = np.array([[2.0, 0.5, 0.1], [0.5, 1.5, 0.3], [0.1, 0.3, 1.0]])


def T(L):
    return L.distributions.transforms


# name -> (the transform from a library, the input x as numpy)
CASES = {
    "Tanh": (lambda L: T(L).TanhTransform(), X),
    "Softplus": (lambda L: T(L).SoftplusTransform(), np.concatenate([X, [[25.0, -30.0, 0.0, 1e-3, 19.0, 21.0]]])),
    "Softmax": (lambda L: T(L).SoftmaxTransform(), X),
    "LowerCholesky": (lambda L: T(L).LowerCholeskyTransform(), SQUARE),
    "PositiveDefinite": (lambda L: T(L).PositiveDefiniteTransform(), SQUARE),
    "CorrCholesky": (lambda L: T(L).CorrCholeskyTransform(), X),
    "CorrCholesky-2x2": (lambda L: T(L).CorrCholeskyTransform(), X[:, :1]),
    "Reshape": (lambda L: T(L).ReshapeTransform((6,), (2, 3)), X),
    "Independent-Tanh": (lambda L: T(L).IndependentTransform(T(L).TanhTransform(), 1), X),
    "Independent-Affine": (lambda L: T(L).IndependentTransform(T(L).AffineTransform(0.5, 2.0), 2), X),
    "Cat": (lambda L: T(L).CatTransform([T(L).ExpTransform(), T(L).identity_transform, T(L).SoftplusTransform()],
                                        dim=1, lengths=[2, 3, 1]), X),
    "Cat-event-dim": (lambda L: T(L).CatTransform([T(L).SoftmaxTransform(), T(L).IndependentTransform(T(L).ExpTransform(), 1)],
                                                  dim=-1, lengths=[4, 2]), X),
    "Cat-batch-dim": (lambda L: T(L).CatTransform([T(L).IndependentTransform(T(L).ExpTransform(), 1),
                                                   T(L).IndependentTransform(T(L).TanhTransform(), 1)], dim=0), X),
    "Stack": (lambda L: T(L).StackTransform([T(L).ExpTransform(), T(L).TanhTransform()], dim=0), X),
    "Stack-dim1": (lambda L: T(L).StackTransform([T(L).SoftplusTransform(), T(L).identity_transform] * 3, dim=1), X),
    "CumulativeDistribution": (lambda L: T(L).CumulativeDistributionTransform(L.distributions.Normal(0.0, 1.0)), X / 2),
    "CumulativeDistribution-Exponential": (
        lambda L: T(L).CumulativeDistributionTransform(L.distributions.Exponential(L.tensor([0.5, 2.0, 1.0] * 2))),
        np.abs(X)),
    "Compose-Tanh-Affine": (lambda L: T(L).ComposeTransform([T(L).TanhTransform(), T(L).AffineTransform(1.0, 3.0)]), X),
}

# results through tanh/atanh, float32 log/exp, float64 erf or a Cholesky factorization, whose last
# bit minigrad does not always share with PyTorch (the README lists these functions); the others
# are compared to the last bit
LAST_BIT_64 = {"Tanh", "CorrCholesky", "Independent-Tanh", "Cat-batch-dim", "Stack", "PositiveDefinite",
               "Compose-Tanh-Affine", "CumulativeDistribution"}
EXACT_32 = {"Softplus", "Reshape", "Independent-Affine", "Stack-dim1"}


def _x(L, values, dtype, grad=True):
    return L.tensor(values, dtype=getattr(L, dtype), requires_grad=grad)


def _attributes(t):
    """What a transform says about itself, each answer or its exception."""
    return [outcome(lambda: repr(t)), outcome(lambda: repr(t.inv)), outcome(lambda: repr(t.domain)),
            outcome(lambda: repr(t.codomain)), outcome(lambda: t.bijective), outcome(lambda: t.event_dim),
            outcome(lambda: t.domain.event_dim), outcome(lambda: t.codomain.event_dim),
            outcome(lambda: t.inv.bijective), outcome(lambda: repr(t.inv.domain))]


def _sign(t):
    sign = t.sign
    return plain(sign) if hasattr(sign, "detach") else sign


@pytest.mark.parametrize("name", CASES)
def test_transform_describes_itself_as_pytorch(name):
    make, values = CASES[name]
    mine, theirs = make(minigrad), make(torch)
    assert _attributes(mine) == _attributes(theirs)
    same(outcome(lambda: _sign(mine)), outcome(lambda: _sign(theirs)))
    for size in (tuple, minigrad.Size):   # (PyTorch keeps a tuple a tuple and a Size a Size)
        shape = size(values.shape)
        y_shape = size(theirs(torch.tensor(values)).shape)
        for method in ("forward_shape", "inverse_shape"):
            given = shape if method == "forward_shape" else y_shape
            got = outcome(lambda: getattr(mine, method)(given))
            expected = outcome(lambda: getattr(theirs, method)(torch.Size(given) if size is minigrad.Size else given))
            if expected[0] == "raised":
                assert got == expected
            else:
                assert tuple(got[1]) == tuple(expected[1])
                assert type(got[1]).__name__ == type(expected[1]).__name__
    assert (mine == make(minigrad)) == (theirs == make(torch))
    assert (mine.inv == make(minigrad).inv) == (theirs.inv == make(torch).inv)
    assert (mine != T(minigrad).ExpTransform()) == (theirs != T(torch).ExpTransform())
    assert mine.inv.inv is mine


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", CASES)
def test_forward_inverse_and_log_abs_det_jacobian_match_pytorch(name, dtype):
    make, values = CASES[name]
    last_bit = name in LAST_BIT_64 or (dtype == "float32" and name not in EXACT_32)
    results = []
    for L in (minigrad, torch):
        t = make(L)
        x = _x(L, values, dtype)
        y = t(x)
        y_leaf = y.detach().requires_grad_()
        x_again = t.inv(y_leaf)
        parts = [y, x_again, outcome(lambda: t.log_abs_det_jacobian(x, y)),
                 t.domain.check(x.detach()), t.codomain.check(y.detach())]
        loss = y.sum()
        if t.bijective:
            loss = loss + t.log_abs_det_jacobian(x, y).sum()
        loss.backward()
        x_again.sum().backward()
        results.append(parts + [x.grad, y_leaf.grad])
    same(results[0], results[1], last_bit)


CONSTANT_LOG_DET = {"Reshape", "Independent-Affine"}    # (log-Jacobians that do not depend on x)


def _symmetric(y):
    # a Cholesky factorization reads one triangle: the finite differences must move both
    return (y + y.mT) / 2


@pytest.mark.parametrize("name", CASES)
def test_transforms_gradcheck_in_float64(name):
    make, values = CASES[name]
    t = make(minigrad)
    x = _x(minigrad, values[:2], "float64")   # (Softplus's third row: y = 1e-13 is too near 0 to step)
    assert gradcheck(lambda x: t(x), (x,))
    y = t(x).detach().requires_grad_()
    if name == "PositiveDefinite":
        assert gradcheck(lambda y: t.inv(_symmetric(y)), (y,))
    elif name != "Softmax":   # (its inverse, a log, is only a pseudo-inverse: checked on the simplex below)
        assert gradcheck(lambda y: t.inv(y), (y,))
    if t.bijective and name not in CONSTANT_LOG_DET:
        assert gradcheck(lambda x: t.log_abs_det_jacobian(x, t(x)), (x,))


@pytest.mark.parametrize("name", CASES)
def test_transforms_gradgradcheck_in_float64(name):
    make, values = CASES[name]
    t = make(minigrad)
    x = _x(minigrad, values[:2], "float64")
    assert gradgradcheck(lambda x: t(x), (x,))
    if t.bijective and name not in CONSTANT_LOG_DET:
        assert gradgradcheck(lambda x: t.log_abs_det_jacobian(x, t(x)), (x,))


@pytest.mark.parametrize("name", CASES)
def test_graphs_save_what_pytorchs_save(name):
    """Every node of the forward map's and the log-Jacobian's graphs, with its _saved_ settings."""
    make, values = CASES[name]
    graphs = []
    for L in (minigrad, torch):
        t = make(L)
        x = _x(L, values, "float64")
        y = t(x)
        nodes = every_node_saved(y.grad_fn, [])
        if t.bijective:
            nodes = every_node_saved(t.log_abs_det_jacobian(x, y).grad_fn, nodes)
        graphs.append([(node, {key: _shown(value) for key, value in saved.items()}) for node, saved in nodes])
    assert graphs[0] == graphs[1]


def _shown(value):
    # (tensors inside saved tuples, as IndexPut's indices, by their values)
    if isinstance(value, tuple):
        return tuple(_shown(v) for v in value)
    return value.tolist() if hasattr(value, "tolist") and hasattr(value, "grad_fn") else value


@pytest.mark.parametrize("name", CASES)
def test_forward_mode_through_transforms_matches_pytorch(name):
    make, values = CASES[name]
    results = []
    for L in (minigrad, torch):
        t = make(L)
        x = L.tensor(values[:2], dtype=L.float64)
        tangent = L.ones_like(x) * 0.3
        tangents = [L.func.jvp(lambda x: t(x), (x,), (tangent,))[1]]
        if t.bijective:
            tangents.append(L.func.jvp(lambda x: t.log_abs_det_jacobian(x, t(x)), (x,), (tangent,))[1])
        results.append(tangents)
    same(results[0], results[1], last_bit=True)


def test_cache_returns_the_very_tensors_and_inverse_shares_it():
    for L in (minigrad, torch):
        t = T(L).TanhTransform(cache_size=1)
        x = L.tensor([0.3, 30.0], dtype=L.float64)
        y = t(x)
        assert t.inv(y) is x and t(x) is y
        assert y[1].item() == 1.0          # atanh(1) would be inf: the cache gives x back
        inverse_first = T(L).CorrCholeskyTransform(cache_size=1)
        corr = inverse_first(L.tensor(X[0]))
        assert inverse_first.inv(corr) is not None and inverse_first(inverse_first.inv(corr)) is corr
        with_cache = T(L).TanhTransform().with_cache(1)
        assert with_cache._cache_size == 1 and with_cache.inv.with_cache(0).inv._cache_size == 0
    for name, (make, _) in CASES.items():
        mine, theirs = make(minigrad), make(torch)
        assert outcome(lambda: mine.with_cache(1)._cache_size) == outcome(lambda: theirs.with_cache(1)._cache_size)
    assert outcome(lambda: T(minigrad).TanhTransform(cache_size=2)) == outcome(lambda: T(torch).TanhTransform(cache_size=2))
    mine = T(minigrad).StackTransform([T(minigrad).ExpTransform()], cache_size=1)
    assert mine.transforms[0]._cache_size == 1
    restored = pickle.loads(pickle.dumps(T(minigrad).TanhTransform().inv.inv))
    assert repr(restored.inv) == "_InverseTransform(TanhTransform())"


def test_softmax_is_a_pseudo_inverse_and_matches_on_the_simplex():
    for dtype in ("float64", "float32"):
        results = []
        for L in (minigrad, torch):
            t = T(L).SoftmaxTransform()
            y = _x(L, np.array([[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]]), dtype)
            x = t.inv(y)
            results.append([x, t(x), outcome(lambda: t.log_abs_det_jacobian(x, y))])
        same(results[0], results[1], last_bit=dtype == "float32")


# --- TransformedDistribution on the new transforms: samples after manual_seed and log_prob -----

DISTRIBUTIONS = {
    "Normal-Tanh": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(L.tensor([0.0, 1.0, -2.0]), L.tensor([1.0, 0.5, 2.0])), [T(L).TanhTransform()]),
    "Normal-Softplus": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(0.0, 1.0), [T(L).SoftplusTransform()]),
    "biject_to-simplex": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(L.zeros(2, 3), 1.0), [L.distributions.biject_to(L.distributions.constraints.simplex)]),
    "biject_to-corr_cholesky": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Independent(L.distributions.Normal(L.zeros(3), 1.0), 1),
        [L.distributions.biject_to(L.distributions.constraints.corr_cholesky)]),
    "biject_to-interval": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(L.zeros(4), 1.0), [L.distributions.biject_to(L.distributions.constraints.interval(-2.0, 3.0))]),
    "Normal-Reshape": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Independent(L.distributions.Normal(L.zeros(6), 1.0), 1), [T(L).ReshapeTransform((6,), (3, 2))]),
    "Normal-Stack": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(L.zeros(2, 4), 1.0), [T(L).StackTransform([T(L).ExpTransform(), T(L).TanhTransform()])]),
    "Normal-Cat": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(L.zeros(5), 1.0),
        [T(L).CatTransform([T(L).ExpTransform(), T(L).SoftplusTransform()], dim=-1, lengths=[2, 3])]),
    "copula": lambda L: L.distributions.TransformedDistribution(
        L.distributions.MultivariateNormal(L.zeros(2), L.tensor([[1.0, 0.5], [0.5, 1.0]])),
        [T(L).CumulativeDistributionTransform(L.distributions.Normal(0.0, 1.0))]),
}
SAMPLES_EXACT = {"Normal-Reshape", "biject_to-interval", "Normal-Softplus", "copula"}


@pytest.mark.parametrize("name", DISTRIBUTIONS)
def test_transformed_distribution_samples_and_log_prob_match_pytorch(name):
    results = []
    for L in (minigrad, torch):
        d = DISTRIBUTIONS[name](L)
        L.manual_seed(11)
        sample = d.sample((2,))
        rsample = d.rsample()
        expanded = d.expand((2,) + tuple(d.batch_shape))
        results.append(([sample, rsample, d.log_prob(sample), tuple(d.batch_shape), tuple(d.event_shape),
                         repr(d.support), expanded.sample(), tuple(expanded.batch_shape), L.rand(2)],
                        [outcome(lambda: d.cdf(sample)), outcome(lambda: d.icdf(d.cdf(sample)))]))
    same(results[0][0], results[1][0], last_bit=name not in SAMPLES_EXACT)
    same(results[0][1], results[1][1], last_bit=True)     # (through erf)


def test_transform_to_lower_cholesky_parameterizes_a_multivariate_normal():
    results = []
    for L in (minigrad, torch):
        unconstrained = L.tensor(SQUARE[0], dtype=L.float32, requires_grad=True)
        scale_tril = L.distributions.transform_to(L.distributions.constraints.lower_cholesky)(unconstrained)
        d = L.distributions.MultivariateNormal(L.zeros(3), scale_tril=scale_tril)
        L.manual_seed(3)
        sample = d.rsample((2,))
        loss = d.log_prob(sample.detach()).sum()
        loss.backward()
        results.append([scale_tril, sample, loss, unconstrained.grad])
    same(results[0], results[1], last_bit=True)


# --- the registries ---------------------------------------------------------------------------

CONSTRAINTS = {
    "real": lambda C: C.real, "real_vector": lambda C: C.real_vector, "positive": lambda C: C.positive,
    "nonnegative": lambda C: C.nonnegative, "greater_than": lambda C: C.greater_than(-1.5),
    "greater_than_eq": lambda C: C.greater_than_eq(2.0), "less_than": lambda C: C.less_than(3.0),
    "unit_interval": lambda C: C.unit_interval, "interval": lambda C: C.interval(-1.0, 4.0),
    "half_open_interval": lambda C: C.half_open_interval(0.0, 1.0), "simplex": lambda C: C.simplex,
    "lower_cholesky": lambda C: C.lower_cholesky, "positive_definite": lambda C: C.positive_definite,
    "positive_semidefinite": lambda C: C.positive_semidefinite, "corr_cholesky": lambda C: C.corr_cholesky,
    "independent-positive": lambda C: C.independent(C.positive, 2),
    "cat": lambda C: C.cat([C.positive, C.real, C.unit_interval], dim=-1, lengths=[2, 3, 1]),
    "stack": lambda C: C.stack([C.positive, C.interval(0.0, 2.0)], dim=0),
    "boolean": lambda C: C.boolean, "integer_interval": lambda C: C.integer_interval(0, 3),
    "lower_triangular": lambda C: C.lower_triangular, "dependent": lambda C: C.dependent,
}
REGISTRY_INPUT = {"lower_cholesky": SQUARE, "positive_definite": SQUARE, "positive_semidefinite": SQUARE,
                  "corr_cholesky": X, "independent-positive": X, "stack": X}


@pytest.mark.parametrize("registry", ["biject_to", "transform_to"])
@pytest.mark.parametrize("name", CONSTRAINTS)
def test_registries_give_pytorchs_transforms(registry, name):
    results = []
    for L in (minigrad, torch):
        D = L.distributions
        constraint = CONSTRAINTS[name](D.constraints)
        got = outcome(lambda: getattr(D, registry)(constraint))
        if got[0] == "ok":
            t = got[1]
            x = L.tensor(REGISTRY_INPUT.get(name, X), dtype=L.float64)
            y = t(x)
            got = ("ok", repr(t), t.bijective, y, constraint.check(y), outcome(lambda: t.log_abs_det_jacobian(x, y)))
        results.append(got)
    same(results[0], results[1], last_bit=True)


def test_register_adds_constraints_and_refuses_other_things():
    for L in (minigrad, torch):
        D = L.distributions
        registry = D.constraint_registry.ConstraintRegistry()
        registry.register(D.constraints.positive, lambda c: D.transforms.SoftplusTransform())

        @registry.register(D.constraints.interval)
        def _stretched(constraint):
            return D.transforms.AffineTransform(constraint.lower_bound, constraint.upper_bound)

        assert isinstance(registry(D.constraints.positive), D.transforms.SoftplusTransform)
        assert registry(D.constraints.interval(2.0, 5.0)).scale == 5.0
    for bad in (3, "positive", int):
        assert outcome(lambda: minigrad.distributions.constraint_registry.ConstraintRegistry().register(bad, abs)) == \
            outcome(lambda: torch.distributions.constraint_registry.ConstraintRegistry().register(bad, abs))
    assert outcome(lambda: minigrad.distributions.constraint_registry.ConstraintRegistry()(minigrad.distributions.constraints.real)) == \
        outcome(lambda: torch.distributions.constraint_registry.ConstraintRegistry()(torch.distributions.constraints.real))


# --- the constraints the transforms need ------------------------------------------------------

CHECKS = {
    "positive_semidefinite": (lambda C: C.positive_semidefinite,
                              np.stack([SPD, SPD - 1.5 * np.eye(3), np.diag([1.0, 0.0, 2.0]), SQUARE[0]])),
    "cat": (lambda C: C.cat([C.positive, C.unit_interval], dim=1, lengths=[4, 2]), np.abs(X) * [[1], [0.3]]),
    "cat-vectors": (lambda C: C.cat([C.simplex, C.real_vector], dim=-1, lengths=[3, 3]), np.abs(X) / 4),
    "stack": (lambda C: C.stack([C.positive, C.real], dim=0), X),
    "stack-negative-dim": (lambda C: C.stack([C.simplex, C.real_vector], dim=-2), np.abs(X) / 7),
    "stack-last-dim": (lambda C: C.stack([C.nonnegative_integer, C.positive] * 3, dim=-1), np.abs(np.round(X))),
}


@pytest.mark.parametrize("name", CHECKS)
def test_new_constraints_check_as_pytorch(name):
    make, values = CHECKS[name]
    results = []
    for L in (minigrad, torch):
        constraint = make(L.distributions.constraints)
        results.append([outcome(lambda: constraint.check(L.tensor(values))), constraint.event_dim,
                        constraint.is_discrete, repr(constraint)[:5]])
    same(results[0], results[1])


# --- bad input --------------------------------------------------------------------------------

ERRORS = {
    "reshape-numel": lambda L: T(L).ReshapeTransform((2, 3), (4,)),
    "reshape-forward-shape": lambda L: T(L).ReshapeTransform((2, 3), (6,)).forward_shape((5, 3, 2)),
    "reshape-inverse-shape": lambda L: T(L).ReshapeTransform((2, 3), (6,)).inverse_shape(()),
    "reshape-forward-few-dims": lambda L: T(L).ReshapeTransform((2, 3), (6,)).forward_shape((6,)),
    "corr-forward-shape": lambda L: T(L).CorrCholeskyTransform().forward_shape((2, 4)),
    "corr-forward-empty": lambda L: T(L).CorrCholeskyTransform().forward_shape(()),
    "corr-inverse-not-square": lambda L: T(L).CorrCholeskyTransform().inverse_shape((3, 4)),
    "corr-inverse-few-dims": lambda L: T(L).CorrCholeskyTransform().inverse_shape((3,)),
    "corr-bad-length": lambda L: T(L).CorrCholeskyTransform()(L.zeros(5)),
    "softmax-shape": lambda L: T(L).SoftmaxTransform().forward_shape(()),
    "stick-shape": lambda L: T(L).StickBreakingTransform().inverse_shape(()),
    "independent-few-dims": lambda L: T(L).IndependentTransform(T(L).ExpTransform(), 2)(L.zeros(3)),
    "independent-inverse-few-dims": lambda L: T(L).IndependentTransform(T(L).ExpTransform(), 2).inv(L.zeros(3)),
    "cat-not-transforms": lambda L: T(L).CatTransform([T(L).ExpTransform(), abs]),
    "cat-lengths": lambda L: T(L).CatTransform([T(L).ExpTransform()], lengths=[1, 2]),
    "cat-size": lambda L: T(L).CatTransform([T(L).ExpTransform()] * 2, dim=1)(L.zeros(2, 3)),
    "cat-dim": lambda L: T(L).CatTransform([T(L).ExpTransform()] * 2, dim=2)(L.zeros(2, 3)),
    "cat-inverse-size": lambda L: T(L).CatTransform([T(L).ExpTransform()] * 2).inv(L.ones(3)),
    "cat-ladj-dim": lambda L: T(L).CatTransform([T(L).ExpTransform()] * 2, dim=1).log_abs_det_jacobian(L.zeros(2), L.zeros(2)),
    "cat-ladj-size": lambda L: T(L).CatTransform([T(L).ExpTransform()] * 2).log_abs_det_jacobian(L.zeros(2), L.zeros(3)),
    "stack-size": lambda L: T(L).StackTransform([T(L).ExpTransform()] * 3)(L.zeros(2, 3)),
    "stack-dim": lambda L: T(L).StackTransform([T(L).ExpTransform()] * 3, dim=-3)(L.zeros(2, 3)),
    "stack-not-transforms": lambda L: T(L).StackTransform([T(L).ExpTransform(), None]),
    "stack-ladj-y": lambda L: T(L).StackTransform([T(L).ExpTransform()] * 2).log_abs_det_jacobian(L.zeros(2), L.zeros(3)),
    "constraint-cat-lengths": lambda L: L.distributions.constraints.cat([L.distributions.constraints.real], lengths=[]),
    "constraint-cat-dim": lambda L: L.distributions.constraints.cat([L.distributions.constraints.real], dim=3).check(L.zeros(2)),
    "constraint-stack-items": lambda L: L.distributions.constraints.stack([L.distributions.constraints.real, 1]),
    "constraint-stack-dim": lambda L: L.distributions.constraints.stack([L.distributions.constraints.real], dim=-2).check(L.zeros(2)),
    "softmax-log-prob": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(L.zeros(3), 1.0), [T(L).SoftmaxTransform()]).log_prob(L.tensor([0.2, 0.3, 0.5])),
    "lower-cholesky-log-prob": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(L.zeros(2, 2), 1.0), [T(L).LowerCholeskyTransform()]).log_prob(L.eye(2)),
    "tanh-validated-sample-outside": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(0.0, 1.0), [T(L).TanhTransform()], validate_args=True).log_prob(L.tensor(1.5)),
    "softmax-ladj": lambda L: T(L).SoftmaxTransform().log_abs_det_jacobian(L.zeros(2), L.zeros(2)),
    "lower-cholesky-sign": lambda L: T(L).LowerCholeskyTransform().sign,
    "event-dim-of-corr-cholesky": lambda L: T(L).CorrCholeskyTransform().event_dim,
    "biject_to-lower-cholesky": lambda L: L.distributions.biject_to(L.distributions.constraints.lower_cholesky),
    "biject_to-boolean": lambda L: L.distributions.biject_to(L.distributions.constraints.boolean),
    "positive-definite-inverse-of-non-pd": lambda L: T(L).PositiveDefiniteTransform().inv(-L.eye(2)),
    "tril-to-vec-diag": lambda L: L.distributions.utils.tril_matrix_to_vec(L.zeros(3, 3), diag=3),
    "vec-to-tril-length": lambda L: L.distributions.utils.vec_to_tril_matrix(L.zeros(4), diag=-1),
    "vec-to-tril-fraction": lambda L: L.distributions.utils.vec_to_tril_matrix(L.zeros(2)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_bad_input_raises_pytorchs_exception_and_message(name):
    mine, theirs = outcome(lambda: ERRORS[name](minigrad)), outcome(lambda: ERRORS[name](torch))
    assert mine[0] == theirs[0] == "raised", (mine, theirs)
    assert mine[:2] == theirs[:2]
    assert mine[2].split("\nminigrad hint:")[0] == theirs[2]


def test_tril_matrix_helpers_match_pytorch():
    results = []
    for L in (minigrad, torch):
        utils = L.distributions.utils
        vec = L.tensor(X, requires_grad=True)
        mats = [utils.vec_to_tril_matrix(vec), utils.vec_to_tril_matrix(vec, diag=-1),
                utils.vec_to_tril_matrix(vec[:, :4], diag=1)]
        results.append(mats + [utils.tril_matrix_to_vec(m, diag=d) for m, d in zip(mats, (0, -1, 1))]
                       + [utils.tril_matrix_to_vec(L.tensor(SQUARE), diag=-2)])
    same(results[0], results[1])


# --- the registries on the supports and parameters of distributions (HMC and SVI) -------------

SUPPORTS = {
    "Uniform-support": lambda D, L: D.Uniform(L.tensor([0.0, -1.0]), L.tensor([2.0, 5.0])).support,
    "Exponential-support": lambda D, L: D.Exponential(L.tensor([0.5, 2.0])).support,
    "Beta-support": lambda D, L: D.Beta(L.tensor([0.5, 2.0]), L.tensor([1.5, 3.0])).support,
    "Dirichlet-support": lambda D, L: D.Dirichlet(L.tensor([0.5, 2.0, 1.0])).support,
    "LKJCholesky-support": lambda D, L: D.LKJCholesky(3).support,
    "Pareto-support": lambda D, L: D.Pareto(L.tensor([1.5, 2.0]), L.tensor([1.0, 3.0])).support,
    "MultivariateNormal-scale_tril": lambda D, L: D.MultivariateNormal.arg_constraints["scale_tril"],
    "MultivariateNormal-covariance": lambda D, L: D.MultivariateNormal.arg_constraints["covariance_matrix"],
    "Normal-scale": lambda D, L: D.Normal.arg_constraints["scale"],
    "Categorical-probs": lambda D, L: D.Categorical.arg_constraints["probs"],
    "Binomial-support": lambda D, L: D.Binomial(L.tensor([3.0, 5.0]), L.tensor([0.5, 0.2])).support,
    "Wishart-support": lambda D, L: D.Wishart(L.tensor(4.0), L.eye(2)).support,
    "Poisson-support": lambda D, L: D.Poisson(L.tensor([3.0])).support,
}


@pytest.mark.parametrize("registry", ["biject_to", "transform_to"])
@pytest.mark.parametrize("name", SUPPORTS)
def test_registries_on_supports_and_parameters_of_distributions(registry, name):
    results = []
    for L in (minigrad, torch):
        D = L.distributions
        constraint = SUPPORTS[name](D, L)
        got = outcome(lambda: getattr(D, registry)(constraint))
        if got[0] == "ok":
            t = got[1]
            shape = {"Dirichlet-support": (2, 2), "LKJCholesky-support": (2, 3)}.get(name, (2, 2, 2))
            x = L.tensor(X.reshape(-1)[: int(np.prod(shape))].reshape(shape), requires_grad=True)
            y = t(x)
            values = [y, constraint.check(y)]
            if t.bijective:
                ladj = t.log_abs_det_jacobian(x, y)
                ladj.sum().backward()
                values += [ladj, x.grad]
            got = ("ok", repr(t), values)
        results.append(got)
    same(results[0], results[1], last_bit=True)


def test_potential_energy_through_biject_to_has_pytorchs_gradient():
    """HMC's use: an unconstrained ``u`` mapped onto a distribution's support, the potential
    energy ``-log_prob(sample) - log|det|`` differentiated with respect to ``u``."""
    results = []
    for L in (minigrad, torch):
        D = L.distributions
        # (each distribution with an unconstrained input of the shape its bijection takes)
        for dist, u in ((D.Gamma(L.tensor([2.0, 0.5]), L.tensor([1.0, 3.0])), X[0, :2]),
                        (D.Dirichlet(L.tensor([0.5, 2.0, 1.0])), X[0, :2]),
                        (D.LKJCholesky(3, L.tensor(2.0)), X[0, :3]),
                        (D.Uniform(L.tensor([-1.0]), L.tensor([4.0])), X[0, :1])):
            t = D.biject_to(dist.support)
            u = L.tensor(u, requires_grad=True)
            sample = t(u)
            energy = -(dist.log_prob(sample).sum() + t.log_abs_det_jacobian(u, sample).sum())
            energy.backward()
            results.append([sample, energy, u.grad])
    same(results[: len(results) // 2], results[len(results) // 2:], last_bit=True)


def test_every_name_of_these_modules_exists():
    for module in ("distributions", "distributions.transforms", "distributions.constraints",
                   "distributions.constraint_registry", "distributions.utils"):
        theirs, mine = torch, minigrad
        for part in module.split("."):
            theirs, mine = getattr(theirs, part), getattr(mine, part)
        assert sorted(name for name in theirs.__all__ if not hasattr(mine, name)) == [], module
