"""``torch.autograd.backward``, ``torch.autograd.grad`` and ``Tensor.backward`` given wrong arguments.

PyTorch reads their arguments in a fixed order (``inputs``, then the outputs, then each starting
gradient, then ``retain_graph``/``create_graph`` as the engine's bytes, then the count of
gradients, each output's history and the inputs), so a call with several mistakes reports the
first in that order. Each call below draws one to three positional arguments from a pool of
values a learner has at hand and must end the same way under both libraries: the exception
class and PyTorch's message (minigrad's advice only on a ``minigrad hint:`` line), or success.
"""
import itertools
import random
import warnings

import pytest

import minigrad


def pool(lib):
    """Fresh values for each call: graphs are freed by a successful backward."""
    x = lib.ones(2, requires_grad=True)
    y = (x * 2).sum()
    z = x * 3
    return {"x": x, "y": y, "z": z, "v": lib.ones(2), "s": lib.tensor(1.), "str": "a", "none": None,
            "list_x": [x], "list_y": [y], "tuple_xy": (x, y), "int": 1, "true": True, "empty": [],
            "i": lib.tensor([1, 2]), "lst2": [lib.ones(2), lib.ones(2)], "big": 300, "minus": -1,
            "dict_x": {"w": x}}


KEYS = list(pool(minigrad))
CASES = [(function, combo) for function in ("grad", "backward", "Tensor.backward")
         for count in (1, 2, 3) for combo in itertools.product(KEYS, repeat=count)]
CASES = random.Random(0).sample(CASES, 2500)


def outcome(lib, function, combo):
    values = pool(lib)
    args = [values[key] for key in combo]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if function == "Tensor.backward":
                if not isinstance(args[0], lib.Tensor):
                    return "skipped: not a tensor"
                result = args[0].backward(*args[1:])
            else:
                result = getattr(lib.autograd, function)(*args)
    except Exception as error:      # noqa: BLE001 (every exception is compared)
        return f"{type(error).__name__}: {str(error).split(chr(10) + 'minigrad hint')[0]}"
    if isinstance(result, dict):
        return {k: None if v is None else v.tolist() for k, v in result.items()}
    if isinstance(result, tuple):
        return [None if v is None else v.tolist() for v in result]
    return "ok"


@pytest.mark.parametrize("function, combo", CASES)
def test_autograd_call_with_wrong_arguments(torch, function, combo):
    assert outcome(minigrad, function, combo) == outcome(torch, function, combo)
