"""``Flatten`` (PyTorch: torch/nn/modules/flatten.py)."""
from .module import Module


class Flatten(Module):
    """Merges dimensions ``start_dim`` to ``end_dim`` into one (by default all but the batch)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        """``input.flatten(start_dim, end_dim)`` (by default every dim but the batch)."""
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        """The settings PyTorch prints: ``start_dim=1, end_dim=-1``."""
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
