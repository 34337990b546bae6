"""torch.testing: checking that results are what you expect, and random tensors to check with.

    torch.testing.assert_close(actual, expected)

passes when the two are close (tensors of one shape and dtype, numbers, or lists and dicts of
them), and otherwise fails with an AssertionError that says how far apart they are and where,
word for word as PyTorch's (``_comparison.py``). ``make_tensor(2, 3, dtype=torch.float32,
device="cpu")`` draws a random tensor as PyTorch's does (``_creation.py``).
"""
from ._comparison import assert_close, assert_allclose  # noqa: F401
from ._creation import make_tensor  # noqa: F401
