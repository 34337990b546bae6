"""How a tensor prints: ``repr(t)`` and ``str(t)``, character for character as PyTorch.

Learners compare what their notebook prints with what PyTorch prints, so the
output here has to match exactly, quirks included. The work happens in three
steps, and each has its own section below:

1. Choose one number format for the whole tensor (``_NumberFormat``): integers,
   floats that all happen to be whole (``1.``), fixed point (``1.5000``) or
   scientific (``1.0000e-05``). Every element is padded to the same width, so
   columns line up.
2. Lay the elements out in nested brackets (``_format_values``), wrapping long
   rows at ``linewidth`` and replacing the middle of big tensors with ``...``.
3. Add what the values alone do not tell you (``_suffixes``): an unusual dtype,
   the shape of an empty tensor, ``requires_grad=True`` or ``grad_fn=<...>``.

The options (precision, threshold, ...) live in one module-level object that
``set_printoptions`` changes, as in PyTorch.
"""

import contextlib
import dataclasses
import math

import numpy as np

from ._functorch import _Vmaps, _GradLevels, batched_repr

# --------------------------------------------------------------------------
# Print options
# --------------------------------------------------------------------------


@dataclasses.dataclass
class _PrintOptions:
    """The knobs of tensor printing, with PyTorch's defaults."""

    precision: int = 4  # digits after the decimal point
    threshold: float = 1000  # more elements than this: summarise with '...'
    edgeitems: int = 3  # items kept at each end of a summarised dimension
    linewidth: int = 80  # characters per line before a row wraps
    sci_mode: bool | None = None  # None: choose scientific notation automatically


_options = _PrintOptions()

# Named bundles of options, as accepted by set_printoptions(profile=...).
_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Change how tensors print, like ``torch.set_printoptions``.

    precision: digits after the decimal point (default 4).
    threshold: tensors with more elements than this are summarised (default 1000).
    edgeitems: items shown at each end of a summarised dimension (default 3).
    linewidth: characters per line before a row wraps (default 80).
    profile: 'default', 'short' or 'full'; sets the four options above first,
        then any option given explicitly overrides it.
    sci_mode: True or False forces scientific notation on or off; None (the
        default) lets each tensor choose. Unlike the other options, it is
        reset to None whenever it is not given, exactly as PyTorch does.
    """
    if profile is not None:
        for name, value in _PROFILES.get(profile, {}).items():
            setattr(_options, name, value)
    if precision is not None:
        _options.precision = precision
    if threshold is not None:
        _options.threshold = threshold
    if edgeitems is not None:
        _options.edgeitems = edgeitems
    if linewidth is not None:
        _options.linewidth = linewidth
    _options.sci_mode = sci_mode


def get_printoptions():
    """Return the current options as a dict that ``set_printoptions(**d)`` accepts."""
    return dataclasses.asdict(_options)


@contextlib.contextmanager
def printoptions(**options):
    """Use some print options inside a ``with`` block, then restore the old ones."""
    saved = get_printoptions()
    set_printoptions(**options)
    try:
        yield
    finally:
        set_printoptions(**saved)


# --------------------------------------------------------------------------
# Step 1: one number format for the whole tensor
# --------------------------------------------------------------------------


class _NumberFormat:
    """Decides, once per tensor, how every element is written and how wide.

    Integers and bools are written as Python writes them. For floats only the
    finite non-zero values vote (0, inf and nan fit any format):

    - scientific notation if the largest is more than 1000 times the smallest,
      or the largest exceeds 1e8, or the smallest is below 1e-4
      (unless ``sci_mode`` forces the choice);
    - otherwise, if every value is a whole number, ``1.`` style (the dot shows
      it is a float tensor);
    - otherwise fixed point with ``precision`` digits, ``1.5000`` style.

    ``width`` is the widest formatted voter, and every element is padded on the
    left to it. Zeros, infs and nans do not count towards it (so they may stick
    out), a quirk kept because PyTorch has it.
    """

    def __init__(self, values, is_floating):
        self.is_floating = is_floating
        self.whole_numbers = True
        self.scientific = False
        self.width = 1
        if not is_floating:
            for value in values.ravel().tolist():
                self.width = max(self.width, len(str(value)))
            return

        # float64 so that float16 cannot overflow in the ratio below
        values = values.astype(np.float64).ravel()
        voters = values[np.isfinite(values) & (values != 0)]
        if voters.size == 0:
            return
        self.whole_numbers = bool(np.all(voters == np.ceil(voters)))
        # Python floats: their ratio may overflow to inf quietly, which is fine here
        largest, smallest = float(np.abs(voters).max()), float(np.abs(voters).min())
        if _options.sci_mode is None:
            self.scientific = bool(
                largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
            )
        else:
            self.scientific = _options.sci_mode
        for value in voters.tolist():
            self.width = max(self.width, len(self._unpadded(value)))

    def _unpadded(self, value):
        """``value`` written in the chosen format, without padding."""
        if not self.is_floating:
            return str(value)
        if self.scientific:
            return f"{value:.{_options.precision}e}"
        if self.whole_numbers:
            text = f"{value:.0f}"
            return text if math.isinf(value) or math.isnan(value) else text + "."
        return f"{value:.{_options.precision}f}"

    def format(self, value):
        """``value`` (a Python number) written and right-aligned to ``width``."""
        return self._unpadded(value).rjust(self.width)


# --------------------------------------------------------------------------
# Step 2: nested brackets, wrapping and summarising
# --------------------------------------------------------------------------


def _is_summarised(array):
    """Big tensors show only ``edgeitems`` items at each end of every dimension."""
    return array.size > _options.threshold


def _shown_values(array):
    """The elements that will actually appear; only they choose the format."""
    if array.ndim == 0 or not _is_summarised(array):
        return array
    edge = _options.edgeitems
    kept = []
    for size in array.shape:
        if size > 2 * edge:
            kept.append(list(range(edge)) + list(range(size - edge, size)))
        else:
            kept.append(list(range(size)))
    return array[np.ix_(*kept)]


def _format_row(row, indent, summarise, number_format):
    """A 1-D array as ``[a, b, c]``, wrapped to fit ``linewidth``.

    ``indent`` is how far the opening bracket sits from the left margin;
    continuation lines start one column further, under the first element.
    """
    edge = _options.edgeitems
    if summarise and not edge:
        items = ["..."]
    elif summarise and len(row) > 2 * edge:
        head, tail = row[:edge].tolist(), row[len(row) - edge :].tolist()
        items = [number_format.format(v) for v in head]
        items.append(" ...")  # the space lines it up like a padded number
        items += [number_format.format(v) for v in tail]
    else:
        items = [number_format.format(v) for v in row.tolist()]

    # each element takes its width plus ", "
    per_line = max(1, (_options.linewidth - indent) // (number_format.width + 2))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _format_values(array, indent, summarise, number_format):
    """Any array as nested brackets; blocks of a 3-D tensor are parted by blank lines."""
    if array.ndim == 0:
        return number_format.format(array.item())
    if array.ndim == 1:
        return _format_row(array, indent, summarise, number_format)

    edge = _options.edgeitems
    size = array.shape[0]
    if summarise and size > 2 * edge:
        kept = list(range(edge)) + [None] + list(range(size - edge, size))
    else:
        kept = list(range(size))
    blocks = [
        "..."
        if i is None
        else _format_values(array[i], indent + 1, summarise, number_format)
        for i in kept
    ]
    # one newline between rows of a matrix, two between matrices, and so on
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(blocks) + "]"


def _format_body(array, is_floating, indent):
    """The bracketed values of a non-empty tensor, with its opening column at ``indent``."""
    summarise = _is_summarised(array)
    number_format = _NumberFormat(_shown_values(array), is_floating)
    return _format_values(array, indent, summarise, number_format)


# --------------------------------------------------------------------------
# Step 3: suffixes, and the whole repr
# --------------------------------------------------------------------------


def _default_dtype_repr():
    """repr of the default float dtype: the one ``tensor([1.5])`` gets.

    Looked up at call time, because minigrad may let users change it, and this
    module is imported while minigrad itself is still being imported.
    """
    try:
        from minigrad import get_default_dtype      # lazy: minigrad/__init__ imports this module
    except ImportError:
        return "torch.float32"
    return repr(get_default_dtype())


def _suffixes(t):
    """The ``key=value`` notes after the values, in PyTorch's order."""
    array = t._array
    dtype_repr = repr(t.dtype)
    notes = []
    if array.size == 0:
        # The shape cannot be read off '[]' unless it is (0,); nor can the
        # dtype, so anything but the default float dtype is named (even int64).
        if array.ndim != 1:
            notes.append(f"size={tuple(array.shape)}")
        if dtype_repr != _default_dtype_repr():
            notes.append(f"dtype={dtype_repr}")
    else:
        if not _options.edgeitems:
            notes.append(f"size={tuple(array.shape)}")
        # Values already reveal these dtypes: '1.' is the default float type,
        # '1' is int64 and 'True' is bool.
        shown_by_values = array.dtype in (np.int64, np.bool_)
        if not shown_by_values and dtype_repr != _default_dtype_repr():
            notes.append(f"dtype={dtype_repr}")
    try:
        grad_fn = t.grad_fn
    except RuntimeError:          # asking a view for its node failed (_ops/views.py):
        notes.append("grad_fn=<Invalid>")     # PyTorch prints this, whatever the reason
    else:
        if grad_fn is not None:
            notes.append(f"grad_fn=<{grad_fn.name().rsplit('::', 1)[-1]}>")   # PyTorch drops a C++ namespace
        elif t.requires_grad:
            notes.append("requires_grad=True")
    tangent = t.__dict__.get("_fw_tangent")      # a dual tensor (autograd/forward_ad.py)
    if tangent is not None and _GradLevels.seen_from != 0:   # (inside a jvp: a level above)
        notes.append(f"tangent={tangent}")    # format(): a 0-d tangent shows as a number
    return notes


def _append_suffixes(text, suffixes, indent):
    """Add ``, suffix`` after ``text``, starting a new line when one would get too long.

    PyTorch counts the current line as two characters longer than it really is
    and checks that one more suffix plus ", " still fits within linewidth; once
    a suffix has moved to a new line the count is exact. We keep both to print
    the same line breaks.
    """
    line_length = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        length = len(suffix)
        if line_length + length + 2 > _options.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + length
        else:
            parts.append(", " + suffix)
            line_length += length + 2
    return "".join(parts) + ")"


def tensor_repr(t):
    """What ``repr(t)`` and ``str(t)`` return, e.g. ``tensor([1., 2.], requires_grad=True)``."""
    if _GradLevels.running and not _Vmaps.seeing_through:   # inside grad, vjp, jvp, ...
        from .func._levels import repr_seen
        return repr_seen(t, _repr_inside_vmap)
    return _repr_inside_vmap(t)


def _repr_inside_vmap(t):
    if t._vmap_levels and _Vmaps.batch_sizes:     # inside vmap: one sample of a batch
        return batched_repr(t, _plain_tensor_repr)
    return _plain_tensor_repr(t)


def _plain_tensor_repr(t):
    prefix = "tensor("
    indent = len(prefix)
    array = t._array
    if array.size == 0:
        body = "[]"
    else:
        body = _format_body(array, t.dtype.is_floating_point, indent)
    return _append_suffixes(prefix + body, _suffixes(t), indent)
