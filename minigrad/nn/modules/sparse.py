"""``Embedding``: a learnable table of vectors, looked up by index, and ``EmbeddingBag``: the sum, mean
or max of each bag of lookups (PyTorch: torch/nn/modules/sparse.py).

Word ``i`` of a vocabulary becomes row ``i`` of ``weight`` (num_embeddings x embedding_dim).
The rows start as random numbers from N(0, 1), drawn exactly as PyTorch draws them after the
same ``manual_seed``, and are learned like any other weight.
"""
from ..._creation import empty
from ...autograd.grad_mode import no_grad
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class Embedding(Module):
    """``Embedding(10, 3)(indices)`` is ``weight[indices]``: one row of 3 numbers per index.

    ``padding_idx``: that row starts as zeros and gets no gradient. ``max_norm``: rows looked up
    are shrunk, in place, to at most that norm.
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(empty((num_embeddings, embedding_dim), dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def reset_parameters(self):
        """Rows from N(0, 1); the padding row, if any, zeros."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        """``F.embedding(input, weight, padding_idx, max_norm, ...)``."""
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        """The settings PyTorch prints: ``10, 3`` and only those that differ from the defaults."""
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            text += ", sparse=True"
        return text

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        """An Embedding whose table is ``embeddings`` (2-D, shared, not copied); with ``freeze``
        (the default) it is not trained."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
                   padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


class EmbeddingBag(Module):
    """``EmbeddingBag(10, 3)(indices, offsets)``: per bag of indices, the mean (or sum, or max:
    ``mode``) of the rows of ``weight`` they look up, without making the rows one by one.

    ``padding_idx``: that row starts as zeros, is left out of every bag and gets no gradient.
    """

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(empty((num_embeddings, embedding_dim), dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        """Rows from N(0, 1); the padding row, if any, zeros."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        """``F.embedding_bag(input, weight, offsets, ...)``: one row per bag."""
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset,
                               self.padding_idx)

    def extra_repr(self):
        """``10, 3, mode='mean'``, and the other settings PyTorch prints when they are not the defaults."""
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm!r}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type!r}"
        if self.scale_grad_by_freq is not False:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq!r}"
        text += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx!r}"
        return text

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        """An EmbeddingBag whose table is ``embeddings`` (2-D, shared, not copied); with ``freeze``
        (the default) it is not trained."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
                  norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag
