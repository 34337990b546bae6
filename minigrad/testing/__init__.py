"""torch.testing: checking that results are what you expect.

    torch.testing.assert_close(actual, expected)

passes when the two are close (tensors of one shape and dtype, numbers, or lists and dicts of
them), and otherwise fails with an AssertionError that says how far apart they are and where,
word for word as PyTorch's. See ``_comparison.py``.
"""
from ._comparison import assert_close, assert_allclose  # noqa: F401
