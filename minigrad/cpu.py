"""torch.cpu: the CPU seen as a device, with the same functions torch.cuda has for a GPU.

minigrad computes on the CPU only (and, like a PyTorch built for the CPU only, has no CUDA), so this
device is always there: one of it, always initialised, and nothing to wait for (``synchronize``
returns at once, since every operation has finished when it returns).
"""


def is_available():
    """True: the CPU is always available."""
    return True


def is_initialized():
    """True: the CPU needs no starting."""
    return True


def device_count():
    """1: PyTorch counts the CPU as one device, however many cores it has."""
    return 1


def current_device():
    """'cpu': the one CPU device, by name."""
    return "cpu"


def set_device(device):
    """Make ``device`` current: there is only the CPU, so nothing changes (any value is accepted,
    as in PyTorch)."""


def synchronize(device=None):
    """Wait for the CPU's work to finish: it has already finished."""


class Stream:
    """A queue of work on the CPU. CPU work runs at once, in order, so there is one stream and
    nothing in it ever waits."""

    def __init__(self, priority=-1):
        pass

    def wait_stream(self, stream):
        """Wait for ``stream``'s work: it is done."""

    def wait_event(self, event):
        """Wait for ``event``: it has been reached."""

    def record_event(self, event=None):
        """Mark this point of the stream (nothing to mark on the CPU)."""


class Event:
    """A marker in a stream. On the CPU every event is reached as soon as it is recorded."""

    def query(self):
        """True: the event has been reached."""
        return True

    def record(self, stream=None):
        """Mark this point of ``stream``."""

    def synchronize(self):
        """Wait for the event: it has been reached."""

    def wait(self, stream=None):
        """Make ``stream`` wait for the event: it has been reached."""


_current_stream = Stream()


def current_stream(device=None):
    """The CPU's one stream."""
    return _current_stream


class StreamContext:
    """``with torch.cpu.stream(s):`` runs the block on stream ``s``: on the CPU, the same as
    without it."""

    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return False


def stream(stream):
    """A ``StreamContext`` for ``stream`` (a ``with`` block that changes nothing on the CPU)."""
    return StreamContext(stream)
