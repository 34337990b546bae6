"""Self-checking exercises for the course notebooks.

Each lesson has a module (``minigrad.course.lesson01`` ...) with one function
per exercise. A learner passes their answer; the function prints whether it is
right and, if not, a hint about what to look at. The checks live in the
package (not in the notebooks) so that they work the same in JupyterLab,
Binder and Colab.

    from minigrad.course import lesson02
    lesson02.exercise_1(x.grad)
"""

from ._errors import show_error, show_warnings  # noqa: E402,F401  (cells that fail on purpose)
