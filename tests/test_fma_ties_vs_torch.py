"""A float32 fused multiply-add (add_ with alpha, SGD's step) whose float64 sum falls on a tie.

minigrad computes p + alpha * g in float64 (the product is exact there) and rounds the sum
to float32 once more; that second rounding is only wrong where the float64 sum lies exactly
halfway between two float32 numbers while the exact sum does not, and there minigrad rounds
to odd first (``_fused_multiply_add.py``). These inputs make such ties on purpose: p = 1 + 2**-23,
alpha = 1 + 2**-23, g = 2**-24 * (1 - 2**-23) gives the exact sum 1 + 2**-23 + 2**-24 - 2**-70,
just below a tie, which float64 rounds onto the tie (rounding that to even would give
1 + 2**-22; PyTorch's fused multiply-add gives 1 + 2**-23).
"""
import numpy as np
import pytest

import minigrad
from conftest import import_torch

torch = import_torch()

TIE_P, TIE_ALPHA, TIE_G = 1 + 2 ** -23, 1 + 2 ** -23, 2 ** -24 * (1 - 2 ** -23)


def tie_inputs(n, seed=0):
    """n numbers of p and g, every third one a tie as above (with either sign), the rest random."""
    rng = np.random.default_rng(seed)
    p = rng.standard_normal(n).astype(np.float32)
    g = rng.standard_normal(n).astype(np.float32)
    signs = np.where(rng.random(n) < 0.5, -1, 1).astype(np.float32)
    p[::3] = TIE_P * signs[::3]
    g[::3] = TIE_G * signs[::3]
    return p, g


def same_bits(mine, theirs):
    return np.array_equal(mine.detach().numpy().view(np.uint32), theirs.detach().numpy().view(np.uint32))


@pytest.mark.parametrize("n", [1, 7, 8, 64, 1000])
@pytest.mark.parametrize("method", ["add_", "sub_"])
def test_add_with_alpha_rounds_ties_as_torch(n, method):
    p, g = tie_inputs(n)
    alpha = TIE_ALPHA if method == "add_" else -TIE_ALPHA
    mine, theirs = minigrad.tensor(p), torch.tensor(p)
    getattr(mine, method)(minigrad.tensor(g), alpha=alpha)
    getattr(theirs, method)(torch.tensor(g), alpha=alpha)
    assert same_bits(mine, theirs)


def test_the_tie_is_one_that_rounding_twice_gets_wrong():
    """(the inputs really are a tie: float64's sum rounded to float32 differs from PyTorch's)"""
    p, g = tie_inputs(64)
    twice = (p.astype(np.float64) + np.float64(np.float32(TIE_ALPHA)) * g).astype(np.float32)
    theirs = torch.tensor(p).add_(torch.tensor(g), alpha=TIE_ALPHA).numpy()
    assert not np.array_equal(twice, theirs)


@pytest.mark.parametrize("how", [{}, {"foreach": True}, {"fused": True}])
@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_sgd_steps_with_ties_match_torch(momentum, how):
    """(fused=True: PyTorch's fused kernel, emulated in optim/_fused.py, rounds ties so too)"""
    p, g = tie_inputs(300, seed=1)
    lr = -TIE_ALPHA          # (minus: SGD adds -lr * g, so the tie is p + alpha * g as above)
    mine = minigrad.tensor(p.copy(), requires_grad=True)
    theirs = torch.tensor(p.copy(), requires_grad=True)
    mine.grad, theirs.grad = minigrad.tensor(g), torch.tensor(g)
    # a negative learning rate is refused by SGD: a positive one with maximize=True flips g
    opt_mine = minigrad.optim.SGD([mine], lr=-lr, momentum=momentum, maximize=True, **how)
    opt_theirs = torch.optim.SGD([theirs], lr=-lr, momentum=momentum, maximize=True, **how)
    for _ in range(3):
        opt_mine.step()
        opt_theirs.step()
        assert same_bits(mine, theirs)


@pytest.mark.parametrize("n", [1, 9, 40])
def test_add_with_alpha_rounds_a_subnormal_tie_as_torch(n):
    """A tie among float32's subnormal numbers, where the halfway points sit higher than for
    normal ones: p + alpha * g = (513 + 1/2) 2**-149 - 2**-196, which float64 rounds onto the tie."""
    rng = np.random.default_rng(n)
    p = (rng.standard_normal(n) * 2.0 ** -130).astype(np.float32)
    g = rng.standard_normal(n).astype(np.float32) * np.float32(2.0 ** -75)
    p[::4], g[::4] = np.float32(2.0 ** -140 + 2.0 ** -149), np.float32(2.0 ** -75 * (1 - 2.0 ** -23))
    alpha = 2.0 ** -75 * (1 + 2.0 ** -23)
    mine, theirs = minigrad.tensor(p), torch.tensor(p)
    mine.add_(minigrad.tensor(g), alpha=alpha)
    theirs.add_(torch.tensor(g), alpha=alpha)
    assert same_bits(mine, theirs)
