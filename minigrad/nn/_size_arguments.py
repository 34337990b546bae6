"""PyTorch's TypeErrors for the size arguments of convolutions, pooling and padding
(kernel_size, stride, padding, dilation, output_size, pad): each is an int or a tuple of ints.

PyTorch checks them in its argument parser before anything runs, with messages of three kinds:

    max_pool2d(): argument 'kernel_size' (position 2) must be tuple of ints, not float
    max_pool2d(): argument 'padding' (position 4) must be tuple of ints, but found element of type float at pos 0
    pad(): argument 'pad' failed to unpack the object at pos 2 with error "type must be tuple of ints,but got float"

(the position is named when the argument was given by position; the last message counts from 1).
"""
import numpy as np

from .._type_names import type_name
from .._tensor import Tensor


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def int_tuple_error(function, argument, value, position=None, allow_int=True):
    """The TypeError for ``value`` if it is not an int (when ``allow_int``) or a tuple of ints, else None."""
    where = f" (position {position})" if position is not None else ""
    if isinstance(value, (tuple, list)):
        for index, element in enumerate(value):
            if _is_int(element) or (isinstance(element, Tensor) and element.numel() == 1):
                continue
            if index == 0:
                return TypeError(f"{function}(): argument '{argument}'{where} must be tuple of ints, but found "
                                 f"element of type {type_name(element)} at pos 0")
            return TypeError(f"{function}(): argument '{argument}' failed to unpack the object at pos {index + 1} "
                             f"with error \"type must be tuple of ints,but got {type_name(element)}\"")
        return None
    if allow_int and _is_int(value):
        return None
    return TypeError(f"{function}(): argument '{argument}'{where} must be tuple of ints, not {type_name(value)}")


def check_int_tuples(function, arguments):
    """Raise the first error among ``arguments``: (name, value, position or None); None values
    pass, except for the kernel size, which has no default."""
    for argument, value, position in arguments:
        if value is None and argument != "kernel_size":
            continue
        error = int_tuple_error(function, argument, value, position)
        if error is not None:
            raise error


def check_tensor(function, argument, value, position):
    """``function(): argument 'input' (position 1) must be Tensor, not list``."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{argument}' (position {position}) must be Tensor, "
                        f"not {type_name(value)}")
