"""torch.cuda, torch.backends, torch.mps, torch.xpu, torch.accelerator, torch.cpu, torch.version,
torch.device and torch.testing against PyTorch built for the CPU only: return values, exception
classes and messages, warnings (and the line they name), the switches tutorials set for reproducible
runs, the first lines of tutorials that pick a device, devices named and tensors sent to them,
assert_close's verdicts and messages for tensors, numbers, sequences and mappings, and make_tensor's
draws to the bit."""
import contextlib
import io
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()


def _normalise(text):
    """A message without minigrad's own hint line, and with minigrad's class names written as
    PyTorch's (the classes are minigrad's own: ``<class 'minigrad._tensor.Tensor'>``)."""
    text = text.split("\nminigrad hint:")[0]
    for ours, theirs in (("minigrad._tensor.Tensor", "torch.Tensor"), ("minigrad.nn.parameter", "torch.nn.parameter")):
        text = text.replace(ours, theirs)
    return text


def _outcome(call, L):
    """What ``call(L)`` does: its value (or the exception's class and message) and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = call(L)
            result = ("returned", value if isinstance(value, (bool, int, float, str, list, type(None)))
                      else type(value).__name__)
        except Exception as error:      # noqa: BLE001  (the exception is what is compared)
            result = (type(error).__name__, _normalise(str(error)))
    return result, [(w.category.__name__, str(w.message), w.filename) for w in caught]


def _same_outcome(call):
    ours, theirs = _outcome(call, minigrad), _outcome(call, torch)
    assert ours == theirs
    return ours


# --- torch.cuda -------------------------------------------------------------------------------------

CUDA_CALLS = {
    name: (lambda name: lambda L: getattr(L.cuda, name)())(name) for name in (
        "is_available", "device_count", "is_initialized", "seed", "seed_all", "initial_seed",
        "current_device", "synchronize", "empty_cache", "memory_allocated", "max_memory_allocated",
        "memory_reserved", "max_memory_reserved", "reset_peak_memory_stats", "reset_max_memory_allocated",
        "reset_max_memory_cached", "reset_accumulated_memory_stats", "memory_cached", "max_memory_cached",
        "is_bf16_supported", "is_tf32_supported", "get_rng_state", "get_rng_state_all", "init",
        "get_arch_list", "get_gencode_flags", "get_device_capability", "get_device_name",
        "get_device_properties", "current_stream", "default_stream", "mem_get_info", "ipc_collect",
        "get_sync_debug_mode", "current_blas_handle", "_is_compiled", "Stream")}
CUDA_CALLS.update({
    "version": lambda L: [L.version.cuda, L.version.hip, L.version.rocm, L.version.xpu, L.version.debug],
    "version is the package's": lambda L: L.version.__version__ == L.__version__,
    "OutOfMemoryError": lambda L: [L.cuda.OutOfMemoryError is L.OutOfMemoryError,
                                   issubclass(L.OutOfMemoryError, RuntimeError), L.OutOfMemoryError.__name__],
    "memory_stats": lambda L: dict(L.cuda.memory_stats()),
    "manual_seed": lambda L: L.cuda.manual_seed(0),
    "manual_seed_all": lambda L: L.cuda.manual_seed_all(0),
    "manual_seed_keyword": lambda L: L.cuda.manual_seed(seed=3),
    "manual_seed_float": lambda L: L.cuda.manual_seed(1.5),
    "manual_seed_huge": lambda L: L.cuda.manual_seed(2**70),
    "manual_seed_str": lambda L: L.cuda.manual_seed("a"),
    "manual_seed_None": lambda L: L.cuda.manual_seed(None),
    "set_rng_state": lambda L: L.cuda.set_rng_state(L.get_rng_state()),
    "set_rng_state_not_a_tensor": lambda L: L.cuda.set_rng_state(5),
    "set_rng_state_all": lambda L: L.cuda.set_rng_state_all([L.get_rng_state()]),
    "get_device_name_0": lambda L: L.cuda.get_device_name(0),
    "get_device_properties_0": lambda L: L.cuda.get_device_properties(0),
    "synchronize_0": lambda L: L.cuda.synchronize(0),
    "memory_allocated_0": lambda L: L.cuda.memory_allocated(0),
    "memory_allocated_cuda0": lambda L: L.cuda.memory_allocated(device="cuda:0"),
    "is_bf16_supported_False": lambda L: L.cuda.is_bf16_supported(False),
    "current_device_argument": lambda L: L.cuda.current_device(5),
    "device_context_0": lambda L: L.cuda.device(0).__enter__(),
    "device_context_cuda1": lambda L: L.cuda.device("cuda:1").__enter__(),
    "device_context_minus_1": lambda L: L.cuda.device(-1).__enter__(),
    "device_context_cuda": lambda L: L.cuda.device("cuda").__enter__(),
    "device_context_None": lambda L: L.cuda.device(None).__enter__(),
    "device_context_cpu": lambda L: L.cuda.device("cpu"),
    "device_context_mps": lambda L: L.cuda.device("mps"),
    "device_of_a_cpu_tensor": lambda L: L.cuda.device_of(L.ones(1)).__enter__(),
    "Event": lambda L: L.cuda.Event(enable_timing=True),
    "stream(None)": lambda L: L.cuda.stream(None).__enter__(),
    "stream(a cpu stream)": lambda L: L.cuda.stream(L.cpu.Stream()).__enter__(),
})
for _argument in (0, 1, -1, "cuda", "cuda:0", "cpu", "cpu:0", "mps", None, 1.5, "xyz"):
    CUDA_CALLS[f"set_device({_argument!r})"] = (lambda a: lambda L: L.cuda.set_device(a))(_argument)
for _argument in ("cpu", "cuda", "cuda:0", "mps"):
    CUDA_CALLS[f"set_device(device({_argument!r}))"] = (lambda a: lambda L: L.cuda.set_device(L.device(a)))(_argument)
    CUDA_CALLS[f"device(device({_argument!r}))"] = (lambda a: lambda L: L.cuda.device(L.device(a)).__enter__())(_argument)
    CUDA_CALLS[f"memory_allocated(device({_argument!r}))"] = (
        lambda a: lambda L: L.cuda.memory_allocated(L.device(a)))(_argument)


@pytest.mark.parametrize("name", sorted(CUDA_CALLS))
def test_torch_cuda_answers_as_a_cpu_only_build(name):
    _same_outcome(CUDA_CALLS[name])


def test_the_main_answers_and_messages_are_these():
    assert _same_outcome(CUDA_CALLS["is_available"])[0] == ("returned", False)
    assert _same_outcome(CUDA_CALLS["device_count"])[0] == ("returned", 0)
    assert _same_outcome(CUDA_CALLS["current_device"])[0] == ("AssertionError", "Torch not compiled with CUDA enabled")
    result, caught = _same_outcome(CUDA_CALLS["reset_max_memory_allocated"])
    assert result[0] == "AttributeError" and caught[0][0] == "FutureWarning"
    assert caught[0][2] == __file__          # (the warning names the caller's line)
    with pytest.raises(AssertionError) as error:
        minigrad.cuda.synchronize()
    assert str(error.value).split("\n")[1].startswith("minigrad hint:")


def test_cuda_seeding_leaves_the_cpu_generator_alone():
    """torch.cuda.manual_seed(_all) and seed(_all) change nothing the CPU draws."""
    draws = []
    for L in (minigrad, torch):
        L.manual_seed(5)
        L.cuda.manual_seed(7)
        L.cuda.manual_seed_all(9)
        L.cuda.seed()
        L.cuda.seed_all()
        draws.append((L.initial_seed(), L.rand(4).numpy()))
    assert draws[0][0] == draws[1][0] == 5
    np.testing.assert_array_equal(draws[0][1], draws[1][1])


# --- tensors and modules sent to CUDA or MPS -----------------------------------------------------

DEVICE_CALLS = {
    "Tensor.cuda": lambda L: L.ones(2).cuda(),
    "Tensor.cuda(0)": lambda L: L.ones(2).cuda(0),
    "to('cuda')": lambda L: L.ones(2).to("cuda"),
    "to('cuda:0')": lambda L: L.ones(2).to("cuda:0"),
    "to(device='cuda')": lambda L: L.ones(2).to(device="cuda"),
    "to('mps')": lambda L: L.ones(2).to("mps"),
    "ones(device='cuda')": lambda L: L.ones(2, device="cuda"),
    "zeros(device='cuda:1')": lambda L: L.zeros(2, device="cuda:1"),
    "tensor(device='cuda')": lambda L: L.tensor([1.0], device="cuda"),
    "randn(device='cuda')": lambda L: L.randn(2, device="cuda"),
    "is_cuda": lambda L: L.ones(2).is_cuda,
    "to('cpu') is itself": lambda L: L.ones(2).to("cpu").is_cpu,
    "Module.cuda": lambda L: L.nn.Linear(2, 2).cuda(),
    "Module.to('cuda')": lambda L: L.nn.Linear(2, 2).to("cuda"),
    "device('xyz')": lambda L: L.device("xyz"),
}

def _saved_and_loaded(L, map_location):
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        L.save({"w": L.ones(2)}, f"{folder}/w.pt")
        return L.load(f"{folder}/w.pt", map_location=map_location)["w"].tolist()


# torch.device names any device, as in PyTorch; only a tensor sent to one other than the CPU fails
DEVICE_OBJECTS = {
    "cuda": lambda L: repr(L.device("cuda")),
    "cuda:1": lambda L: repr(L.device("cuda:1")),
    "cuda, 0": lambda L: repr(L.device("cuda", 0)),
    "type=, index=": lambda L: repr(L.device(type="cuda", index=1)),
    "cpu, 0": lambda L: repr(L.device("cpu", 0)),
    "cpu:0": lambda L: repr(L.device("cpu:0")),
    "cpu, None": lambda L: repr(L.device("cpu", None)),
    "mps": lambda L: repr(L.device("mps")),
    "meta": lambda L: repr(L.device("meta")),
    "a copy": lambda L: repr(L.device(L.device("cuda:1"))),
    "type and index": lambda L: [L.device("cuda").type, L.device("cuda").index, L.device("cuda:2").index,
                                 L.device("cpu").index, L.ones(1).device.type, L.ones(1).device.index],
    "str": lambda L: [str(L.device("cuda:1")), str(L.device("cuda")), str(L.device("cpu", 0))],
    "equality": lambda L: [L.device("cuda") == L.device("cuda:0"), L.device("cuda:0") == L.device("cuda", 0),
                           L.device("cpu") == "cpu", L.device("cpu") == L.device("cpu:0"),
                           L.ones(1).device == L.device("cpu"), L.ones(1).device == L.device("cuda"),
                           L.device("cuda") != L.device("cpu")],
    "hash": lambda L: [hash(L.device("cuda:1")) == hash(L.device("cuda", 1)), len({L.device("cpu"), L.device("cpu")})],
    "pickle": lambda L: repr(__import__("pickle").loads(__import__("pickle").dumps(L.device("cuda:1")))),
    "cuda:-1": lambda L: L.device("cuda:-1"),
    "cuda:x": lambda L: L.device("cuda:x"),
    "cuda, -1": lambda L: L.device("cuda", -1),
    "cuda, 'x'": lambda L: L.device("cuda", "x"),
    "index alone": lambda L: L.device(0),
    "gpu": lambda L: L.device("gpu"),
    "None": lambda L: L.device(None),
    "a float": lambda L: L.device(1.5),
    "a list": lambda L: L.device([1]),
    "no argument": lambda L: L.device(),
    "three arguments": lambda L: L.device("cuda", 0, 1),
    "an unknown keyword": lambda L: L.device(type="cuda", idx=0),
    "device=": lambda L: repr(L.device(device="cuda")),
    "index twice": lambda L: L.device("cuda:0", 1),
    "index in type=": lambda L: L.device(type="cuda:1"),
    "index None": lambda L: repr(L.device("cuda", None)),
    "index=-1": lambda L: L.device("cuda", index=-1),
    "index True": lambda L: L.device("cpu", True),
    "index too large": lambda L: L.device(2**63),
    "index -1 alone": lambda L: L.device(-1),
    "unknown type with an index": lambda L: L.device("xyz", 1),
    "unreadable with an index": lambda L: L.device("cuda:x", 1),
    "ones(device=device('cuda'))": lambda L: L.ones(2, device=L.device("cuda")),
    "ones(device=device('cpu:0'))": lambda L: repr(L.ones(2, device=L.device("cpu:0")).device),
    "to(device('cuda'))": lambda L: L.ones(2).to(L.device("cuda")),
    "to(device('cuda:0'), float64)": lambda L: L.ones(2).to(L.device("cuda:0"), L.float64),
    "to(device=device('cuda'))": lambda L: L.ones(2).to(device=L.device("cuda")),
    "to(device('cpu', 0))": lambda L: L.ones(2).to(L.device("cpu", 0)).tolist(),
    "to(device('mps'))": lambda L: L.ones(2).to(L.device("mps")),
    "cuda(device('cuda'))": lambda L: L.ones(2).cuda(L.device("cuda")),
    "new_zeros(device=device('cuda'))": lambda L: L.ones(2).new_zeros(1, device=L.device("cuda")),
    "new_tensor(device=device('cuda'))": lambda L: L.ones(2).new_tensor([1], device=L.device("cuda")),
    "zeros_like(device=device('cuda'))": lambda L: L.zeros_like(L.ones(1), device=L.device("cuda")),
    "tensor(device=device('cuda'))": lambda L: L.tensor([1.0], device=L.device("cuda")),
    "arange(device=device('cuda'))": lambda L: L.arange(3, device=L.device("cuda")),
    "Module.to(device('cuda'))": lambda L: L.nn.Linear(1, 1).to(L.device("cuda")),
    "Module.to(device('cpu'))": lambda L: L.nn.Linear(1, 1).to(L.device("cpu")),
    "load(map_location={'cuda:0': 'cpu'})": lambda L: _saved_and_loaded(L, {"cuda:0": "cpu"}),
    "load(map_location=device('cpu'))": lambda L: _saved_and_loaded(L, L.device("cpu")),
    "Parameter.to(device('cuda'))": lambda L: L.nn.Parameter(L.ones(1)).to(L.device("cuda")),
}

for _name in ("cuda", "cuda:0", "mps", "meta", "cpu", "cpu:0", "xyz", 0, None, "xpu", "ipu", "hip", "mtia", "lazy",
              "hpu", "xla", "privateuseone", "opengl"):
    DEVICE_OBJECTS[f"Generator(device={_name!r})"] = (lambda d: lambda L: repr(L.Generator(device=d).device))(_name)
DEVICE_OBJECTS["Generator(device=device('cuda'))"] = lambda L: L.Generator(device=L.device("cuda"))
DEVICE_OBJECTS["Generator().device"] = lambda L: [repr(L.Generator().device), repr(L.default_generator.device)]


@pytest.mark.parametrize("name", sorted(DEVICE_CALLS) + sorted(DEVICE_OBJECTS))
def test_tensors_sent_to_a_missing_device_fail_as_in_a_cpu_only_build(name):
    _same_outcome(DEVICE_CALLS.get(name) or DEVICE_OBJECTS[name])


def test_a_device_chosen_by_availability_is_the_cpu():
    for L in (minigrad, torch):
        chosen = L.device("cuda" if L.cuda.is_available() else "cpu")
        assert (repr(chosen), chosen == L.ones(1).device, L.ones(1).to(chosen).device.type) == (
            "device(type='cpu')", True, "cpu")


# --- torch.backends -----------------------------------------------------------------------------------

BACKEND_CALLS = {
    "cudnn.is_available": lambda L: L.backends.cudnn.is_available(),
    "cudnn.version": lambda L: L.backends.cudnn.version(),
    "cudnn.is_acceptable": lambda L: L.backends.cudnn.is_acceptable(L.ones(1)),
    "cudnn.enabled": lambda L: L.backends.cudnn.enabled,
    "cudnn.deterministic": lambda L: L.backends.cudnn.deterministic,
    "cudnn.benchmark": lambda L: L.backends.cudnn.benchmark,
    "cudnn.allow_tf32": lambda L: L.backends.cudnn.allow_tf32,
    "cudnn.benchmark_limit": lambda L: L.backends.cudnn.benchmark_limit,
    "mps.is_available": lambda L: L.backends.mps.is_available(),
    "mps.is_built": lambda L: L.backends.mps.is_built(),
    "cuda.is_built": lambda L: L.backends.cuda.is_built(),
    "cuda.matmul.allow_tf32": lambda L: L.backends.cuda.matmul.allow_tf32,
    "cuda.matmul.allow_fp16_reduced_precision_reduction":
        lambda L: L.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
    "cuda.matmul.allow_bf16_reduced_precision_reduction":
        lambda L: L.backends.cuda.matmul.allow_bf16_reduced_precision_reduction,
    "cpu.get_cpu_capability": lambda L: L.backends.cpu.get_cpu_capability(),
    "cuda.matmul.unknown": lambda L: L.backends.cuda.matmul.allow_everything,
    "cuda.matmul.unknown=": lambda L: setattr(L.backends.cuda.matmul, "allow_everything", True),
}
for _switch in ("enabled", "deterministic", "benchmark", "allow_tf32"):
    for _value in (1, 1.5, None, "yes"):
        BACKEND_CALLS[f"cudnn.{_switch}={_value!r}"] = (
            lambda s, v: lambda L: setattr(L.backends.cudnn, s, v))(_switch, _value)
BACKEND_CALLS["cuda.matmul.allow_tf32=1"] = lambda L: setattr(L.backends.cuda.matmul, "allow_tf32", 1)


@pytest.mark.parametrize("name", sorted(BACKEND_CALLS))
def test_torch_backends_answer_as_a_cpu_only_build(name):
    _same_outcome(BACKEND_CALLS[name])


@contextlib.contextmanager
def _switches_restored(L):
    cudnn = L.backends.cudnn
    saved = (cudnn.enabled, cudnn.deterministic, cudnn.benchmark, cudnn.allow_tf32, cudnn.benchmark_limit,
             L.get_float32_matmul_precision())
    try:
        yield
    finally:
        (cudnn.enabled, cudnn.deterministic, cudnn.benchmark, cudnn.allow_tf32, cudnn.benchmark_limit) = saved[:5]
        L.set_float32_matmul_precision(saved[5])


def test_the_cudnn_switches_are_kept_and_read_back():
    seen = []
    for L in (minigrad, torch):
        with _switches_restored(L):
            cudnn = L.backends.cudnn
            cudnn.deterministic, cudnn.benchmark, cudnn.enabled, cudnn.allow_tf32 = True, True, False, False
            cudnn.benchmark_limit = 5
            try:
                cudnn.deterministic = 1          # refused: the value stays
            except RuntimeError as error:
                message = str(error)
            seen.append((cudnn.deterministic, cudnn.benchmark, cudnn.enabled, cudnn.allow_tf32,
                         cudnn.benchmark_limit, message))
        seen.append((L.backends.cudnn.deterministic, L.backends.cudnn.benchmark))
    assert seen[0] == seen[2] == (True, True, False, False, 5, "set_deterministic_cudnn expects a bool, but got int")
    assert seen[1] == seen[3] == (False, False)


def test_matmul_allow_tf32_is_the_float32_matmul_precision():
    seen = []
    for L in (minigrad, torch):
        with _switches_restored(L):
            steps = [L.backends.cuda.matmul.allow_tf32, L.get_float32_matmul_precision()]
            L.backends.cuda.matmul.allow_tf32 = True
            steps += [L.backends.cuda.matmul.allow_tf32, L.get_float32_matmul_precision()]
            L.backends.cuda.matmul.allow_tf32 = False
            steps += [L.backends.cuda.matmul.allow_tf32, L.get_float32_matmul_precision()]
            for precision in ("high", "medium", "highest"):
                L.set_float32_matmul_precision(precision)
                steps += [L.backends.cuda.matmul.allow_tf32, L.backends.cudnn.allow_tf32]
            seen.append(steps)
    assert seen[0] == seen[1]
    assert seen[0][:6] == [False, "highest", True, "high", False, "highest"]


PRECISION_CALLS = {
    "an int": lambda L: L.set_float32_matmul_precision(1),
    "None": lambda L: L.set_float32_matmul_precision(None),
    "bytes": lambda L: (L.set_float32_matmul_precision(b"high"), L.get_float32_matmul_precision())[1],
    "an unknown name": lambda L: (L.set_float32_matmul_precision("HIGH"), L.get_float32_matmul_precision())[1],
}


@pytest.mark.parametrize("name", sorted(PRECISION_CALLS))
def test_set_float32_matmul_precision_refuses_and_warns_as_pytorch(name):
    def call(L):
        with _switches_restored(L):
            return PRECISION_CALLS[name](L)
    ours, theirs = _outcome(call, minigrad), _outcome(call, torch)
    assert ours[0] == theirs[0]
    # (the warnings' class and text; PyTorch's names a line of its own __init__.py, minigrad's the caller's)
    assert [w[:2] for w in ours[1]] == [w[:2] for w in theirs[1]]
    assert all(w[2] == __file__ for w in ours[1])


# --- torch.accelerator and torch.cpu --------------------------------------------------------------

ACCELERATOR_CALLS = {
    "is_available": lambda L: L.accelerator.is_available(),
    "current_accelerator": lambda L: L.accelerator.current_accelerator(),
    "current_accelerator(check_available=True)": lambda L: L.accelerator.current_accelerator(check_available=True),
    "device_count": lambda L: L.accelerator.device_count(),
    "current_device_index": lambda L: L.accelerator.current_device_index(),
    "current_device_idx": lambda L: L.accelerator.current_device_idx(),
    "set_device_index": lambda L: L.accelerator.set_device_index(0),
    "set_device_idx": lambda L: L.accelerator.set_device_idx(0),
    "synchronize": lambda L: L.accelerator.synchronize(),
    "current_stream": lambda L: L.accelerator.current_stream(),
    "empty_cache": lambda L: L.accelerator.empty_cache(),
    "memory_allocated": lambda L: L.accelerator.memory_allocated(),
    "max_memory_allocated": lambda L: L.accelerator.max_memory_allocated(),
    "reset_peak_memory_stats": lambda L: L.accelerator.reset_peak_memory_stats(),
    "memory_stats": lambda L: L.accelerator.memory_stats(),
    "device_index(0)": lambda L: L.accelerator.device_index(0).__enter__(),
    "device_index(None)": lambda L: L.accelerator.device_index(None).__enter__(),
}
CPU_CALLS = {
    "is_available": lambda L: L.cpu.is_available(),
    "is_initialized": lambda L: L.cpu.is_initialized(),
    "device_count": lambda L: L.cpu.device_count(),
    "current_device": lambda L: L.cpu.current_device(),
    "synchronize": lambda L: L.cpu.synchronize(),
    "synchronize('cpu')": lambda L: L.cpu.synchronize("cpu"),
    "set_device": lambda L: L.cpu.set_device("cuda"),
    "current_stream": lambda L: L.cpu.current_stream(),
    "current_stream is one stream": lambda L: L.cpu.current_stream() is L.cpu.current_stream("cpu"),
    "Stream methods": lambda L: [L.cpu.Stream().wait_stream(L.cpu.Stream()), L.cpu.Stream().wait_event(L.cpu.Event()),
                                 L.cpu.Stream().record_event()],
    "Event methods": lambda L: [L.cpu.Event().query(), L.cpu.Event().record(), L.cpu.Event().synchronize(),
                                L.cpu.Event().wait()],
    "stream": lambda L: L.cpu.stream(None).__enter__(),
}

OTHER_GPU_CALLS = {
    f"{module}.{name}": (lambda module, name: lambda L: getattr(getattr(L, module), name)())(module, name)
    for module, names in (
        ("mps", ("is_available", "device_count", "seed", "get_rng_state", "synchronize", "empty_cache",
                 "current_allocated_memory", "driver_allocated_memory", "recommended_max_memory")),
        ("xpu", ("is_available", "device_count", "is_initialized", "is_bf16_supported", "seed", "seed_all",
                 "empty_cache", "memory_allocated", "max_memory_allocated", "init", "current_device",
                 "synchronize", "get_device_name", "initial_seed", "get_rng_state")))
    for name in names}
OTHER_GPU_CALLS.update({
    "mps.manual_seed": lambda L: L.mps.manual_seed(0),
    "mps.manual_seed('a')": lambda L: L.mps.manual_seed("a"),
    "mps.set_rng_state": lambda L: L.mps.set_rng_state(L.get_rng_state()),
    "xpu.manual_seed": lambda L: L.xpu.manual_seed(0),
    "xpu.manual_seed('a')": lambda L: L.xpu.manual_seed("a"),
    "xpu.manual_seed_all": lambda L: L.xpu.manual_seed_all(0),
    "xpu.set_device": lambda L: L.xpu.set_device(0),
})


@pytest.mark.parametrize("name", sorted(OTHER_GPU_CALLS))
def test_torch_mps_and_torch_xpu_answer_as_a_build_without_them(name):
    _same_outcome(OTHER_GPU_CALLS[name])


@pytest.mark.parametrize("name", sorted(ACCELERATOR_CALLS))
def test_torch_accelerator_answers_as_a_cpu_only_build(name):
    _same_outcome(ACCELERATOR_CALLS[name])


@pytest.mark.parametrize("name", sorted(CPU_CALLS))
def test_torch_cpu_answers_as_pytorch(name):
    _same_outcome(CPU_CALLS[name])


# --- the first lines of tutorials ---------------------------------------------------------------------

PREAMBLES = {
    "cuda_or_cpu": """
device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")
x = torch.ones(2, 3, device=device)
print(x.device, x.to(device).sum().item())
""",
    "accelerator": """
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
print(torch.zeros(2).to(device).device)
""",
    "cuda_mps_or_cpu": """
device = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
print(device)
""",
    "every_gpu_kind_or_cpu": """
if torch.cuda.is_available():
    device = torch.device("cuda")
elif torch.xpu.is_available():
    device = torch.device("xpu")
elif torch.backends.mps.is_available():
    device = torch.device("mps")
else:
    device = torch.device("cpu")
torch.mps.manual_seed(0)
torch.xpu.manual_seed_all(0)
print(device, torch.ones(1, device=device).device == device)
""",
    "torch_device": """
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print(device, device.type)
""",
    "reproducible_seeds": """
torch.manual_seed(0)
torch.cuda.manual_seed(0)
torch.cuda.manual_seed_all(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark, torch.randint(0, 100, (5,)).tolist())
if torch.cuda.is_available():
    torch.cuda.synchronize()
print(torch.cuda.device_count(), torch.cuda.memory_allocated())
""",
    "check_with_assert_close": """
a = torch.tensor([1.0, 2.0, 3.0])
torch.testing.assert_close(a * 2, torch.tensor([2.0, 4.0, 6.0]))
torch.testing.assert_close((a / 3) * 3, a)
try:
    torch.testing.assert_close(a, a + 1e-3)
except AssertionError as error:
    print(error)
print("ok")
""",
}


@pytest.mark.parametrize("name", sorted(PREAMBLES))
def test_tutorial_preambles_run_and_print_the_same(name):
    printed = []
    for L in (minigrad, torch):
        with _switches_restored(L):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(PREAMBLES[name], {"torch": L})      # noqa: S102  (the tutorial's code, as written)
            printed.append(out.getvalue())
    assert printed[0] == printed[1]
    assert printed[0]


# --- torch.testing.assert_close ---------------------------------------------------------------------

def _t(L, values, dtype="float32"):
    return L.tensor(values, dtype=getattr(L, dtype))


NAN, INF = float("nan"), float("inf")
ASSERT_CLOSE = {
    "equal": lambda L: (_t(L, [1., 2.]), _t(L, [1., 2.])),
    "one_mismatch": lambda L: (_t(L, [1., 2., 3.]), _t(L, [1., 2.5, 3.])),
    "all_mismatch": lambda L: (_t(L, [1., 2.]), _t(L, [3., 5.])),
    "2d": lambda L: (_t(L, [[1., 2.], [3., 4.]]), _t(L, [[1., 2.], [3., 4.5]])),
    "3d_index": lambda L: (L.zeros(3, 4, 5), L.zeros(3, 4, 5).index_fill(2, L.tensor([3]), 1.0)),
    "many_elements": lambda L: (L.arange(100.), L.arange(100.) + L.tensor([0.] * 99 + [1.])),
    "float32_near": lambda L: (_t(L, [1.]), _t(L, [1.000001])),
    "float32_far": lambda L: (_t(L, [1.]), _t(L, [1.0001])),
    "float32_tenths": lambda L: (_t(L, [0.1]), _t(L, [0.2])),
    "float64_near": lambda L: (_t(L, [1.], "float64"), _t(L, [1.0000001], "float64")),
    "float64_far": lambda L: (_t(L, [1.], "float64"), _t(L, [1.001], "float64")),
    "float16_near": lambda L: (_t(L, [1.], "float16"), _t(L, [1.001], "float16")),
    "float16_far": lambda L: (_t(L, [1.], "float16"), _t(L, [1.01], "float16")),
    "zero_expected": lambda L: (_t(L, [1.]), _t(L, [0.])),
    "negative": lambda L: (_t(L, [-1., -2.]), _t(L, [-1., -3.])),
    "nan": lambda L: (_t(L, [NAN]), _t(L, [NAN])),
    "nan_against_number": lambda L: (_t(L, [NAN, 1.]), _t(L, [1., 1.])),
    "two_nans": lambda L: (_t(L, [1., NAN, 3., NAN]), _t(L, [2., 0., 3., NAN])),
    "inf": lambda L: (_t(L, [INF]), _t(L, [INF])),
    "inf_against_minus_inf": lambda L: (_t(L, [INF]), _t(L, [-INF])),
    "minus_zero": lambda L: (_t(L, [-0.]), _t(L, [0.])),
    "int64": lambda L: (_t(L, [1, 2], "int64"), _t(L, [1, 3], "int64")),
    "int8_overflow": lambda L: (_t(L, [127], "int8"), _t(L, [-128], "int8")),
    "uint8": lambda L: (_t(L, [0], "uint8"), _t(L, [255], "uint8")),
    "bool_tensors": lambda L: (_t(L, [True, False], "bool"), _t(L, [True, True], "bool")),
    "scalar_tensors": lambda L: (_t(L, 1.), _t(L, 2.)),
    "scalar_tensors_tenths": lambda L: (_t(L, 0.1), _t(L, 0.2)),
    "scalar_tensors_zero": lambda L: (_t(L, 1.), _t(L, 0.)),
    "scalar_tensors_int": lambda L: (_t(L, 3, "int64"), _t(L, 4, "int64")),
    "scalar_tensors_int8_overflow": lambda L: (_t(L, 127, "int8"), _t(L, -128, "int8")),
    "scalar_tensors_bool": lambda L: (_t(L, True, "bool"), _t(L, False, "bool")),
    "empty": lambda L: (L.ones(0), L.ones(0)),
    "shape": lambda L: (L.ones(2), L.ones(3)),
    "empty_shapes": lambda L: (L.ones(0), L.ones(0, 2)),
    "dtype": lambda L: (L.ones(2), L.ones(2, dtype=L.float64)),
    "shape_before_dtype": lambda L: (L.ones(2), L.ones(3, dtype=L.float64)),
    "requires_grad": lambda L: (L.ones(1, requires_grad=True), L.ones(1)),
    "parameter_and_tensor": lambda L: (L.nn.Parameter(L.ones(1)), L.ones(1)),
    "numpy_arrays": lambda L: (np.array([1., 2.]), np.array([1., 3.])),
    "numpy_float32_arrays": lambda L: (np.array([1.], dtype=np.float32), np.array([1.1], dtype=np.float32)),
    "numpy_int_arrays": lambda L: (np.array([1, 2]), np.array([1, 3])),
    "tensor_and_array": lambda L: (L.ones(1), np.ones(1)),
    "tensor_and_list": lambda L: (_t(L, [1., 2.]), [1., 2.]),
    "tensor_and_number": lambda L: (_t(L, 1.), 1.),
    "number_and_tensor": lambda L: (1., _t(L, 1.)),
    "ints": lambda L: (1, 2),
    "floats": lambda L: (1.0, 1.5),
    "floats_close": lambda L: (1.0, 1.0 + 1e-9),
    "float_zero_expected": lambda L: (1.0, 0.0),
    "float_infs": lambda L: (INF, INF),
    "float_nans": lambda L: (NAN, NAN),
    "complex_numbers": lambda L: (1 + 1j, 1 + 2j),
    "numpy_floats": lambda L: (np.float64(1.0), np.float64(2.0)),
    "numpy_float32_and_float": lambda L: (np.float32(1.0), 1.0),
    "int_and_float": lambda L: (1, 1.0),
    "bools": lambda L: (True, False),
    "bool_and_int": lambda L: (True, 1),
    "int_and_bool": lambda L: (1, True),
    "Nones": lambda L: (None, None),
    "None_and_int": lambda L: ([None], [1]),
    "strings": lambda L: ("a", "a"),
    "lists": lambda L: ([1., 2.], [1., 3.]),
    "list_and_tuple": lambda L: ((1., 2.), [1., 2.]),
    "nested_lists": lambda L: ([[1., 2.]], [[1., 3.]]),
    "list_lengths": lambda L: ([1, 2], [1]),
    "nested_list_lengths": lambda L: ([[1, 2]], [[1]]),
    "nested_strings": lambda L: ([["a"]], [["a"]]),
    "lists_of_tensors": lambda L: ([L.ones(1), L.ones(1)], [L.ones(1), L.zeros(1)]),
    "list_and_dict": lambda L: ([1], {"a": 1}),
    "dicts": lambda L: ({"a": L.ones(1)}, {"a": L.zeros(1)}),
    "dict_keys": lambda L: ({"a": 1}, {"b": 1}),
    "dict_keys_several": lambda L: ({"a": 1, "c": 2}, {"b": 1, "c": 2, "d": 3}),
    "dict_key_missing": lambda L: ({"a": 1}, {"a": 1, "b": 2}),
    "dict_keys_nested": lambda L: ([{"a": 1}], [{"b": 1}]),
    "dict_sorted_keys": lambda L: ({"b": L.ones(1), "a": L.ones(2)}, {"b": L.zeros(1), "a": L.ones(3)}),
    "dict_unsortable_keys": lambda L: ({1: 1, "a": 2}, {1: 1, "a": 3}),
}
ASSERT_CLOSE_OPTIONS = {
    "dtype_unchecked": (lambda L: (L.ones(2), L.ones(2, dtype=L.float64)), dict(check_dtype=False)),
    "int_and_float_unchecked": (lambda L: (_t(L, [1, 2], "int64"), _t(L, [1., 2.5])), dict(check_dtype=False)),
    "float32_and_float64_unchecked": (lambda L: (_t(L, [1.]), _t(L, [1.001], "float64")), dict(check_dtype=False)),
    "float16_and_float32_unchecked": (lambda L: (_t(L, [1.], "float16"), _t(L, [1.01])), dict(check_dtype=False)),
    "numbers_unchecked": (lambda L: (1.0, 2), dict(check_dtype=False)),
    "equal_nan": (lambda L: (_t(L, [NAN]), _t(L, [NAN])), dict(equal_nan=True)),
    "equal_nan_numbers": (lambda L: (NAN, NAN), dict(equal_nan=True)),
    "rtol_only": (lambda L: (_t(L, [1.]), _t(L, [2.])), dict(rtol=0.1)),
    "atol_only": (lambda L: (1., 1.), dict(atol=1.)),
    "rtol_only_unsupported": (lambda L: (L.ones(2), "a"), dict(rtol=1.0)),
    "rtol_only_Nones": (lambda L: (None, None), dict(rtol=1.0)),
    "rtol_and_atol": (lambda L: (_t(L, [1.]), _t(L, [2.])), dict(rtol=0.1, atol=0.0)),
    "rtol_and_atol_zero": (lambda L: (_t(L, [1.]), _t(L, [2.])), dict(rtol=0, atol=0)),
    "tiny_values_exactly": (lambda L: (_t(L, [1e-30]), _t(L, [2e-30])), dict(rtol=0., atol=0.)),
    "ints_with_tolerances": (lambda L: (_t(L, [10, 20], "int64"), _t(L, [11, 20], "int64")), dict(rtol=0.01, atol=0.5)),
    "msg": (lambda L: (_t(L, [1.]), _t(L, [2.])), dict(msg="custom")),
    "msg_callable": (lambda L: (_t(L, [1.]), _t(L, [2.])), dict(msg=lambda m: "X" + m)),
    "msg_shape": (lambda L: (L.ones(2), L.ones(3)), dict(msg="m")),
    "msg_callable_item": (lambda L: ([L.ones(2)], [L.ones(3)]), dict(msg=lambda m: "<" + m + ">")),
    "msg_type": (lambda L: ("a", "b"), dict(msg="m")),
    "msg_keys": (lambda L: ({"a": 1}, {"b": 1}), dict(msg="m")),
    "msg_bools": (lambda L: (True, False), dict(msg="m")),
    "stride": (lambda L: (L.ones(2, 2).t(), L.ones(2, 2)), dict(check_stride=True)),
    "stride_with_msg": (lambda L: (L.ones(2, 2).t(), L.zeros(2, 2)), dict(check_stride=True, msg="M")),
    "subclasses_refused": (lambda L: (L.nn.Parameter(L.ones(1)), L.ones(1)), dict(allow_subclasses=False)),
    "check_device_off": (lambda L: (L.ones(1), L.zeros(1)), dict(check_device=False)),
}


@pytest.mark.parametrize("name", sorted(ASSERT_CLOSE) + sorted(ASSERT_CLOSE_OPTIONS))
def test_assert_close_matches_pytorch(name):
    """The verdict, the exception class and the message word for word."""
    make, options = ASSERT_CLOSE_OPTIONS.get(name, (ASSERT_CLOSE.get(name), {}))
    _same_outcome(lambda L: L.testing.assert_close(*make(L), **options))


def test_assert_close_messages_read_as_pytorch_documents_them():
    result, _ = _same_outcome(lambda L: L.testing.assert_close(*ASSERT_CLOSE["one_mismatch"](L)))
    assert result == ("AssertionError", "Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n"
                      "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
                      "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)")
    result, _ = _same_outcome(lambda L: L.testing.assert_close(*ASSERT_CLOSE["nested_lists"](L)))
    assert result[1].endswith("\n\nThe failure occurred for item [0][1]")


def test_assert_close_takes_two_positional_arguments():
    _same_outcome(lambda L: L.testing.assert_close(L.ones(1), L.ones(1), True))


@pytest.mark.parametrize("name", ["mismatch", "equal", "number", "shape"])
def test_assert_allclose_warns_and_compares_as_pytorch(name):
    pairs = {"mismatch": lambda L: (L.ones(1), L.zeros(1)), "equal": lambda L: (L.ones(2), [1., 1.]),
             "number": lambda L: (L.ones(1), 1.), "shape": lambda L: (L.ones(1, 2), L.ones(2, 1))}
    _same_outcome(lambda L: L.testing.assert_allclose(*pairs[name](L)))


def test_the_namespaces_are_where_pytorch_has_them_and_testing_waits_for_its_first_use():
    """torch.cuda, torch.backends.cudnn, ... are there after ``import minigrad``; minigrad.testing
    is imported at its first use (it costs every import otherwise), and dir() lists it all along."""
    import os
    import pathlib
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parent.parent
    code = ("import sys, minigrad\n"
            "print('minigrad.testing' in sys.modules, 'testing' in dir(minigrad))\n"
            "print(all(name in sys.modules for name in ('minigrad.cuda', 'minigrad.backends.cudnn',"
            " 'minigrad.backends.mps', 'minigrad.accelerator', 'minigrad.cpu', 'minigrad.mps', 'minigrad.xpu')))\n"
            "minigrad.testing.assert_close(minigrad.ones(2), minigrad.ones(2))\n"
            "import minigrad.testing as again\n"
            "print(again is minigrad.testing, again.assert_close is minigrad.testing.assert_close)\n")
    finished = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(root)), timeout=300)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.split() == ["False", "True", "True", "True", "True"]
    for name in ("cuda", "backends", "accelerator", "cpu", "mps", "xpu", "testing"):
        assert getattr(minigrad, name).__name__ == f"minigrad.{name}"
        assert hasattr(torch, name)


# --- torch.testing.make_tensor ----------------------------------------------------------------------

def _make_tensor_cases():
    cases = {}
    for dtype in ("float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool"):
        small = (0, 2) if dtype in ("bool", "uint8") else (-2.5, 4.5)
        cases.update({
            f"{dtype}": (dtype, (3, 5), {}),
            f"{dtype}_many": (dtype, (40,), {}),
            f"{dtype}_noncontiguous": (dtype, (2, 3), dict(noncontiguous=True)),
            f"{dtype}_exclude_zero": (dtype, (30,), dict(exclude_zero=True, **({} if dtype == "bool" else
                                                                               dict(low=0, high=3)))),
            f"{dtype}_low_high": (dtype, (7,), dict(low=small[0], high=small[1])),
            f"{dtype}_outside_the_dtype": (dtype, (7,), dict(low=-1000, high=-500)),
            f"{dtype}_requires_grad": (dtype, (2,), dict(requires_grad=True)),
        })
    cases.update({
        "float32_huge_range": ("float32", (5,), dict(low=-3e38, high=3e38)),
        "int64_wide_range": ("int64", (5,), dict(low=-2**62, high=2**62)),
        "low_equals_high": ("float32", (2, 3), dict(low=1, high=1)),
        "low_above_high": ("float32", (2, 3), dict(low=2, high=1)),
        "low_nan": ("float32", (2, 3), dict(low=float("nan"))),
        "noncontiguous_and_memory_format": ("float32", (2, 3), dict(noncontiguous=True, memory_format="contiguous_format")),
        "channels_last": ("float32", (2, 3, 4, 5), dict(memory_format="channels_last")),
        "noncontiguous_one_element": ("float32", (1,), dict(noncontiguous=True)),
        "shape_as_a_list": ("float32", ([2, 3],), {}),
        "no_shape": ("float32", (), {}),
        "on_cuda": ("float32", (2, 3), dict(device="cuda")),
    })
    return cases


MAKE_TENSOR = _make_tensor_cases()


@pytest.mark.parametrize("name", sorted(MAKE_TENSOR))
def test_make_tensor_draws_what_pytorch_draws(name):
    """The same seed gives the same tensor (values to the bit, dtype, shape, strides, requires_grad),
    and the same errors and warnings."""
    dtype, shape, options = MAKE_TENSOR[name]

    def make(L):
        keywords = {key: getattr(L, value) if key == "memory_format" else value for key, value in options.items()}
        keywords.setdefault("device", "cpu")
        L.manual_seed(0)
        made = L.testing.make_tensor(*shape, dtype=getattr(L, dtype), **keywords)
        return [str(made.dtype), tuple(made.shape), made.stride(), made.requires_grad, made.is_contiguous(),
                made.detach().numpy().tobytes()]
    _same_outcome(make)


def test_make_tensor_needs_a_device():
    _same_outcome(lambda L: L.testing.make_tensor(2, dtype=L.float32))


@pytest.mark.parametrize("capability", ["default", "avx512"])
def test_get_cpu_capability_follows_aten_cpu_capability(capability):
    """torch.backends.cpu.get_cpu_capability() names the kernels ATEN_CPU_CAPABILITY asks for."""
    import os
    import pathlib
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parent.parent
    code = ("import minigrad, torch\n"
            "print(minigrad.backends.cpu.get_cpu_capability(), torch.backends.cpu.get_cpu_capability())")
    finished = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, PYTHONPATH=str(root), ATEN_CPU_CAPABILITY=capability))
    assert finished.returncode == 0, finished.stderr
    ours, theirs = finished.stdout.split()
    assert ours == theirs == capability.upper()
