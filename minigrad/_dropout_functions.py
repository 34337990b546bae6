"""torch.dropout(input, p, train) and its kin: the C++ forms of F.dropout, F.alpha_dropout,
feature (whole-channel) dropout and F.feature_alpha_dropout. ``train`` is required, and
each has an in-place twin ending in ``_``."""


def _run(input, p, train, inplace, feature, alpha):
    from .nn._dropout import _dropout, _check_p      # (nn imports the package first)
    if not feature and not alpha:
        from .nn.functional import dropout as f_dropout
        return f_dropout(input, p, train, inplace)
    _check_p(p)
    return _dropout(input, p, train, inplace, feature=feature, alpha=alpha)


def dropout(input, p, train):
    """Zero each element with probability p and scale the rest by 1 / (1 - p) (when ``train``)."""
    return _run(input, p, train, False, feature=False, alpha=False)


def dropout_(input, p, train):
    """``dropout`` in place."""
    return _run(input, p, train, True, feature=False, alpha=False)


def alpha_dropout(input, p, train):
    """Alpha dropout (for SELU networks) when ``train``."""
    return _run(input, p, train, False, feature=False, alpha=True)


def alpha_dropout_(input, p, train):
    """``alpha_dropout`` in place."""
    return _run(input, p, train, True, feature=False, alpha=True)


def feature_dropout(input, p, train):
    """Dropout of whole channels (dim 1) at a time, when ``train``."""
    return _run(input, p, train, False, feature=True, alpha=False)


def feature_dropout_(input, p, train):
    """``feature_dropout`` in place."""
    return _run(input, p, train, True, feature=True, alpha=False)


def feature_alpha_dropout(input, p, train):
    """Alpha dropout of whole channels at a time, when ``train``."""
    return _run(input, p, train, False, feature=True, alpha=True)


def feature_alpha_dropout_(input, p, train):
    """``feature_alpha_dropout`` in place."""
    return _run(input, p, train, True, feature=True, alpha=True)
