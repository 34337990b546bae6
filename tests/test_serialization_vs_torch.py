"""torch.save / torch.load write and read PyTorch's own file format: a file either library
writes loads in the other, and what comes back is what PyTorch's own round trip gives."""
import io
from collections import OrderedDict

import pytest

import minigrad
from conftest import import_torch

torch = import_torch()
LIBS = {"torch": torch, "minigrad": minigrad}


def _objects(L):
    """One of each thing a learner saves: a state_dict, views that share memory, a parameter,
    every dtype, a tensor with history, an empty and an expanded tensor, a dtype, a size."""
    L.manual_seed(0)
    model = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.ReLU(), L.nn.Linear(3, 1))
    x = L.arange(12.).reshape(3, 4)
    return {"state": model.state_dict(), "t": x.t(), "row": x[1, 1:], "x": x,
            "weight": model[0].weight, "int": L.tensor([1, -2]), "bool": L.tensor(True),
            "half": L.ones(2, dtype=L.float16), "int8": L.tensor([-3], dtype=L.int8),
            "uint8": L.tensor([250], dtype=L.uint8), "int32": L.tensor([7], dtype=L.int32),
            "int16": L.tensor([7], dtype=L.int16), "double": L.tensor([0.1], dtype=L.float64),
            "history": L.ones(2, requires_grad=True) * 2, "empty": L.ones(0, 3),
            "expanded": L.ones(3).expand(2, 3), "size": L.Size([2, 3]), "dtype": L.float32,
            "plain": [1, 2.5, "a", None, (True,)]}


def _described(loaded):
    """What a learner can see of what load gave back, in words both libraries print alike."""
    out = []
    for key, value in loaded.items():
        if hasattr(value, "storage_offset"):
            out.append((key, type(value).__name__, str(value.dtype), tuple(value.shape),
                        value.stride(), value.storage_offset(), value.requires_grad,
                        value.is_leaf, value.grad_fn is None, value.tolist()))
        elif key == "state":
            out.append((key, list(value), value._metadata, [t.tolist() for t in value.values()]))
        else:
            out.append((key, repr(value)))
    loaded["x"][0, 1] = 100.0         # views saved together share memory after loading
    out.append(("shared", loaded["t"][1, 0].item(), loaded["row"].tolist()))
    return out


def _save(L, path):
    L.save(_objects(L), path)


@pytest.mark.parametrize("writer", ["torch", "minigrad"])
@pytest.mark.parametrize("reader", ["torch", "minigrad"])
def test_a_file_either_library_writes_loads_in_the_other_as_in_pytorch(writer, reader, tmp_path):
    reference = tmp_path / "reference.pt"
    _save(torch, reference)
    expected = _described(torch.load(reference))
    path = tmp_path / "model.pt"
    _save(LIBS[writer], path)
    assert _described(LIBS[reader].load(path)) == expected


def test_the_file_is_pytorchs_zip_archive_and_mmap_loads_it(tmp_path):
    import zipfile
    path = tmp_path / "weights.pt"
    minigrad.save({"w": minigrad.ones(3)}, path)
    names = zipfile.ZipFile(path).namelist()
    assert names[0] == "weights/data.pkl" and "weights/data/0" in names
    assert "weights/byteorder" in names and "weights/version" in names
    # each storage's bytes start at a multiple of 64, so PyTorch can map the file
    assert torch.load(path, mmap=True)["w"].tolist() == [1.0, 1.0, 1.0]


def test_a_file_object_and_the_same_tensor_twice(tmp_path):
    for L in LIBS.values():
        buffer = io.BytesIO()
        x = L.ones(2)
        L.save([x, x], buffer)
        for M in LIBS.values():
            buffer.seek(0)
            a, b = M.load(buffer)
            a.add_(1)
            assert b.tolist() == [2.0, 2.0]          # one tensor, loaded once


def test_a_whole_module_needs_weights_only_false_and_loads_in_minigrad(tmp_path):
    path = tmp_path / "model.pt"
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    torch.save(model, path)
    messages = []
    for L in LIBS.values():
        with pytest.raises(Exception) as caught:
            L.load(path)
        messages.append((type(caught.value).__name__, str(caught.value)))
    assert messages[0] == messages[1]
    loaded = minigrad.load(path, weights_only=False)
    assert type(loaded) is minigrad.nn.Sequential
    x = [[0.5, -1.0]]
    assert loaded(minigrad.tensor(x)).tolist() == model(torch.tensor(x)).tolist()


def test_a_state_dict_from_pytorch_fills_a_minigrad_model(tmp_path):
    path = tmp_path / "state.pt"
    torch.manual_seed(1)
    model = torch.nn.Linear(4, 2)
    torch.save(model.state_dict(), path)
    mine = minigrad.nn.Linear(4, 2)
    mine.load_state_dict(minigrad.load(path))
    x = [[1.0, 2.0, 3.0, 4.0]]
    assert mine(minigrad.tensor(x)).tolist() == model(torch.tensor(x)).tolist()
    assert isinstance(minigrad.load(path), OrderedDict)
