"""``Dropout`` and its variants (PyTorch: torch/nn/modules/dropout.py).

* ``Dropout``                  - single elements
* ``Dropout1d/2d/3d``          - whole channels of 1-, 2-, 3-dimensional signals
* ``AlphaDropout``             - for SELU networks: keeps mean 0 and variance 1
* ``FeatureAlphaDropout``      - the same, whole channels at a time

All of them act only in training mode and let everything through in eval mode.
"""
from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    """What every dropout layer shares: ``p``, ``inplace``, and how it prints."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        """The settings PyTorch prints: ``p=0.5, inplace=False``."""
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zeroes random elements with probability ``p`` while training; does nothing in eval mode."""

    def forward(self, input):
        """``F.dropout(input, p, training=self.training)``: the identity in eval mode."""
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of (N, C, L) or (C, L) input while training."""

    def forward(self, input):
        """``F.dropout1d(input, p, training=self.training)``."""
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of (N, C, H, W) input while training."""

    def forward(self, input):
        """``F.dropout2d(input, p, training=self.training)``."""
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zeroes whole channels of (N, C, D, H, W) input while training."""

    def forward(self, input):
        """``F.dropout3d(input, p, training=self.training)``."""
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout for SELU networks: keeps the mean and variance of its input while training."""

    def forward(self, input):
        """``F.alpha_dropout(input, p, training=self.training)``."""
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels while training."""

    def forward(self, input):
        """``F.feature_alpha_dropout(input, p, training=self.training)``."""
        return F.feature_alpha_dropout(input, self.p, self.training)
