"""``Flatten`` and ``Unflatten`` (PyTorch: torch/nn/modules/flatten.py)."""
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


class Unflatten(Module):
    """Splits dimension ``dim`` into several with sizes ``unflattened_size`` (Flatten's inverse)."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for position, size in enumerate(unflattened_size):
            if not isinstance(size, int):
                raise TypeError("unflattened_size must be tuple of ints, but found element of type "
                                f"{type(size).__name__} at pos {position}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        """``input.unflatten(dim, unflattened_size)`` (a view: ViewBackward0)."""
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        """The settings PyTorch prints: ``dim=1, unflattened_size=(2, 2)``."""
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
