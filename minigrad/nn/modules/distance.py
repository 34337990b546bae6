"""Layers that compare two inputs: CosineSimilarity and PairwiseDistance (as torch/nn/modules/distance.py)."""
from .module import Module
from .. import functional as F


class PairwiseDistance(Module):
    """The ``p``-norm distance between matching rows of two inputs (``F.pairwise_distance``)."""

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        """``F.pairwise_distance(x1, x2, p, eps, keepdim)``."""
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """The cosine of the angle between two inputs along ``dim`` (``F.cosine_similarity``)."""

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        """``F.cosine_similarity(x1, x2, dim, eps)``."""
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
