"""nn.init's trunc_normal_, orthogonal_, sparse_, eye_, dirac_, the generator= argument and
the deprecated names without the underscore, against PyTorch with the same seeds."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

FILLS = {
    "trunc_normal": ((5, 7), lambda I, t, g: I.trunc_normal_(t)),
    "trunc_normal_narrow": ((50, 20), lambda I, t, g: I.trunc_normal_(t, mean=0.5, std=2.0, a=0.0, b=0.3)),
    "trunc_normal_far": ((6, 6), lambda I, t, g: I.trunc_normal_(t, mean=3.0, std=1.0, a=-1.0, b=1.0)),
    "trunc_normal_generator": ((4, 4), lambda I, t, g: I.trunc_normal_(t, std=0.02, generator=g)),
    "sparse": ((6, 3), lambda I, t, g: I.sparse_(t, 0.5)),
    "eye": ((3, 4), lambda I, t, g: I.eye_(t)),
    "dirac": ((4, 2, 3, 3), lambda I, t, g: I.dirac_(t, 2)),
    "dirac_1d": ((3, 5, 4), lambda I, t, g: I.dirac_(t)),
    "xavier_generator": ((3, 5), lambda I, t, g: I.xavier_uniform_(t, generator=g)),
    "kaiming_generator": ((3, 5), lambda I, t, g: I.kaiming_normal_(t, generator=g)),
    "uniform_generator": ((3, 5), lambda I, t, g: I.uniform_(t, -2, 2, generator=g)),
}


@pytest.mark.parametrize("name", sorted(FILLS))
def test_fills_as_torch(name):
    torch = import_torch()
    shape, fill = FILLS[name]
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        generator = lib.Generator().manual_seed(5)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fill(lib.nn.init, lib.empty(*shape), generator)
        seen.append((out.numpy(), [str(w.message) for w in caught], lib.rand(1).item()))
    np.testing.assert_array_equal(seen[0][0], seen[1][0])
    assert seen[0][1:] == seen[1][1:]


@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (3, 2, 2)])
def test_orthogonal_as_torch(shape):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        seen.append((lib.nn.init.orthogonal_(lib.empty(*shape, dtype=lib.float64), gain=2).numpy(),
                     lib.rand(1).item()))
    np.testing.assert_allclose(seen[0][0], seen[1][0], rtol=1e-12, atol=1e-12)   # (LAPACK)
    assert seen[0][1] == seen[1][1]


@pytest.mark.parametrize("old", ["uniform", "normal", "constant", "eye", "xavier_uniform",
                                 "xavier_normal", "kaiming_uniform", "kaiming_normal",
                                 "orthogonal", "dirac", "sparse"])
def test_deprecated_names_warn_as_torch(old):
    torch = import_torch()
    extra = {"constant": (0.5,), "sparse": (0.3,)}.get(old, ())
    shape = (4, 2, 3) if old == "dirac" else (4, 3)
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = getattr(lib.nn.init, old)(lib.empty(*shape), *extra)
        seen.append(([(w.category.__name__, str(w.message)) for w in caught], out.numpy()))
    assert seen[0][0] == seen[1][0]
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-5, atol=1e-6)   # (orthogonal: LAPACK)


BAD = {
    "eye_3d": lambda I, L: I.eye_(L.empty(2, 2, 2)),
    "dirac_2d": lambda I, L: I.dirac_(L.empty(2, 2)),
    "dirac_groups": lambda I, L: I.dirac_(L.empty(3, 2, 2), 2),
    "orthogonal_1d": lambda I, L: I.orthogonal_(L.empty(3)),
    "sparse_3d": lambda I, L: I.sparse_(L.empty(2, 2, 2), 0.1),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_shapes_raise_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(ValueError) as caught:
            BAD[name](lib.nn.init, lib)
        outcomes.append(str(caught.value))
    assert outcomes[0] == outcomes[1]
