"""ModuleList, ModuleDict, ParameterList, ParameterDict (and Sequential's list methods) against
PyTorch: the printed module, parameter and state_dict names, indexing and editing, and the
errors for misuse, word for word."""
import minigrad
import pytest

from conftest import import_torch


def _error(call):
    try:
        call()
    except Exception as error:          # the class and the message are what we compare
        return type(error).__name__, str(error)
    return "no error"


def lists(L):
    nn = L.nn
    seen = []
    layers = nn.ModuleList([nn.Linear(2, 3) for _ in range(3)] + [nn.ReLU(), nn.Tanh(), nn.Tanh()])
    seen.append(repr(layers))                          # runs of equal layers print once
    layers.append(nn.Sigmoid())
    layers.insert(1, nn.Identity())
    layers.extend([nn.ReLU()])
    layers += [nn.GELU()]
    seen += [repr(layers), len(layers)]
    del layers[0]
    seen += [repr(layers[:3]), repr(layers[-1]), repr(layers[::2])]
    layers.pop(2)
    del layers[1:3]
    seen += [[name for name, _ in layers.named_parameters()], list(layers.state_dict())]
    seen.append(repr(layers + nn.ModuleList([nn.ReLU()])))
    seen += [repr(nn.ModuleList()), repr(nn.ModuleDict()), repr(nn.ParameterList()), repr(nn.ParameterDict())]
    return seen


def model(L):
    nn = L.nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 1)])
            self.by_name = nn.ModuleDict({"b": nn.Linear(1, 1), "a": nn.ReLU()})
            self.plist = nn.ParameterList([L.ones(2, 3), nn.Parameter(L.zeros(4)), "x"])
            self.pdict = nn.ParameterDict({"z": L.ones(2), "y": nn.Parameter(L.zeros(3, 1, dtype=L.float64))})

    m = Model()
    seen = [repr(m), [name for name, _ in m.named_parameters()], list(m.state_dict()),
            list(m.by_name.keys()), "a" in m.by_name, list(m.by_name), type(m.plist[0]).__name__,
            m.plist[2], len(m.plist), len(m.pdict), list(m.pdict)]
    pdict = m.pdict
    pdict["w"] = L.ones(1)
    seen += [list(pdict.keys()), pdict.popitem()[0], list(pdict), pdict.get("q", 5),
             type(pdict.setdefault("q", L.ones(2))).__name__, list(pdict.copy())]
    pdict.update([("k", L.ones(1))])
    seen += [list(pdict), list((pdict | nn.ParameterDict({"c": L.ones(1)})).keys())]
    m.by_name.update([("c", nn.Tanh())])
    m.by_name["d"] = nn.Sigmoid()
    seen += [repr(m.by_name.pop("b")), list(m.by_name.items())[0][0], repr(m.by_name)]
    plist = nn.ParameterList([L.ones(2)])
    plist[0] = L.zeros(3)
    plist.append(L.ones(1, 2, dtype=L.float64))
    seen += [repr(plist), type(plist[0]).__name__, repr(plist[1:]), [p.shape[-1] for p in plist]]
    return seen


def sequential(L):
    nn = L.nn
    seq = nn.Sequential(nn.ReLU(), nn.Tanh())
    seq.insert(-1, nn.Sigmoid())
    seq.insert(3, nn.GELU())
    seq.extend([nn.ReLU()])
    seen = [repr(seq), repr(seq.pop(0)), repr(seq + seq), len(seq)]
    doubled = nn.Sequential(nn.Linear(2, 2), nn.ReLU()) * 2
    seen += [repr(doubled), len(list(doubled.parameters())), list(doubled.state_dict())]
    seq *= 2
    seen.append(repr(seq))
    seq += nn.Sequential(nn.Tanh())
    seen += [repr(seq), repr(3 * nn.Sequential(nn.ReLU()))]
    seen += [_error(lambda: nn.Sequential() * 0), _error(lambda: nn.Sequential() * 1.5),
             _error(lambda: nn.Sequential() + [nn.ReLU()])]
    return seen


def errors(L):
    nn = L.nn
    layers = nn.ModuleList([nn.ReLU()])
    pdict = nn.ParameterDict()
    calls = [lambda: layers[10], lambda: layers[-2], lambda: nn.ModuleList(3),
             lambda: nn.ParameterList(L.ones(2)), lambda: pdict[1], lambda: nn.ModuleDict([(1, 2, 3)]),
             lambda: nn.ModuleDict([3]), lambda: nn.ModuleDict(3), lambda: nn.ParameterList()(1),
             lambda: nn.ParameterDict()(1), lambda: layers(1), lambda: nn.ParameterDict({"a": 1}).update(3),
             lambda: nn.ParameterDict([(1, 2, 3)]), lambda: nn.Sequential(nn.ReLU()).insert(5, nn.ReLU()),
             lambda: nn.Sequential().insert(0, 3), lambda: nn.ModuleList().append(3),
             lambda: nn.ParameterList([L.ones(1)]).__setitem__(0, 3), lambda: nn.ModuleDict({"a.b": nn.ReLU()})]
    return [_error(call) for call in calls]


@pytest.mark.parametrize("program", [lists, model, sequential, errors])
def test_containers_as_torch(program):
    torch = import_torch()
    ours, theirs = program(minigrad), program(torch)
    assert len(ours) == len(theirs)
    for our, their in zip(ours, theirs):
        # (a class printed in a message names its own package: minigrad.nn... for torch.nn...)
        if isinstance(our, tuple) and isinstance(our[1], str):
            our = (our[0], our[1].replace("minigrad.", "torch."))
        assert our == their


def test_containers_move_with_the_model():
    """What a container holds is converted by .double() and trained by an optimizer."""
    nn = minigrad.nn
    plist = nn.ParameterList([minigrad.ones(2)])
    holder = nn.Sequential(nn.ModuleList([nn.Linear(2, 2)]))
    holder.double()
    plist.double()
    assert holder[0][0].weight.dtype is minigrad.float64 and plist[0].dtype is minigrad.float64
    assert len(list(nn.ModuleDict({"a": nn.Linear(2, 2)}).parameters())) == 2
