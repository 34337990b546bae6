"""torch.signal: signal processing (so far, its window functions: ``torch.signal.windows``)."""
from . import windows  # noqa: F401
