"""``show_error``: run code that fails on purpose, print the error, keep the notebook going.

A lesson sometimes shows an error on purpose (an in-place change of a leaf,
a second backward...). A cell that raises would stop "Run all" - and Google
Colab ignores the cell tags that tell JupyterLab to carry on - so such cells
wrap the failing line instead:

    with show_error():
        w -= 0.1 * w.grad

The block runs; the exception it raises is printed as the last line of a
traceback would print it (``RuntimeError: a leaf Variable ...``) and is not
raised further. It works the same with ``import torch`` and with
``import minigrad as torch``.
"""
import contextlib
import warnings


@contextlib.contextmanager
def show_error():
    """Run the ``with`` block, print the exception it raises as ``Type: message``, swallow it.

    If the block runs without an error, that is a mistake in the lesson (the
    text says an error happens here), so ``AssertionError`` is raised.
    """
    try:
        yield
    except Exception as error:  # noqa: BLE001 - any error is the point of the example
        message = str(error)
        print(f"{type(error).__name__}: {message}" if message else type(error).__name__)
    else:
        raise AssertionError("show_error(): the code in this block was expected to fail, but it ran")


def show_warnings():
    """Show every warning, each time it happens, as one short line ``Category: message``.

    Python normally shows a given warning once per place in the code, prefixed
    with the name of the file it came from - and in a notebook that name
    changes at every run. Lessons that show warnings call this once.
    """

    def one_line(message, category, filename, lineno, line=None):
        return f"{category.__name__}: {message}\n"

    warnings.formatwarning = one_line
    warnings.simplefilter("always")
