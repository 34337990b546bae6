"""Random numbers: ``manual_seed``, ``Generator`` and the draws behind rand, randn, randint, ...

PyTorch's CPU generator is a Mersenne Twister (mt19937): seeded with the low 32
bits of the seed, it yields a stream of 32-bit integers. Every random function
turns that stream into numbers with a fixed recipe, and minigrad follows the
same recipes, so the same seed gives bit for bit the same numbers as PyTorch:

- uniform float32: the low 24 bits of one 32-bit draw, times 2**-24;
  uniform float64: the low 53 bits of two draws glued together (first draw = high
  half), times 2**-53. Then ``x * (high - low) + low``.
- normal, fewer than 16 numbers (or float64 in any size below 16): Box-Muller in
  float64 on two uniform doubles u1, u2: ``sqrt(-2 log(1 - u2)) * cos(2 pi u1)``; the
  partner value ``... * sin(2 pi u1)`` is kept in the generator for the next single draw.
- normal, 16 numbers or more: first fill the tensor with uniforms, then transform
  each block of 16 in place, the first 8 as ``u1`` and the last 8 as ``u2``:
  ``sqrt(-2 log(1 - u1)) * cos(2 pi u2)`` and ``... * sin(2 pi u2)``. If the size is not a
  multiple of 16, the last 16 numbers are drawn again and transformed once more.
  float32 uses PyTorch's vectorised float32 log/sin/cos on AVX2 CPUs (see
  ``_avx_mathfun`` and ``cpu_capability``), the C library's elsewhere.
- integers in [low, high): one 32-bit draw modulo (high - low), plus low (two draws
  glued together when high - low is 2**28 or more).
- randperm(n): the Fisher-Yates shuffle, one 32-bit draw modulo (n - i) per step.
- bernoulli with a tensor of probabilities p: one uniform per element, 1 where it is
  below p; the uniform is a float32 one (24 bits) unless p is float64 (53 bits).
- bernoulli with one number p (``x.bernoulli_(0.3)``, dropout): one float64 uniform
  (53 bits) per element whatever the tensor's dtype, 1 where it is below p. (PyTorch
  built with MKL uses MKL's own generator here on Intel CPUs only; elsewhere, as here,
  it takes this recipe.)
- exponential with rate lambd: one float64 uniform u (53 bits) per element, whatever the
  tensor's dtype, then ``-1 / lambd * log1p(-u)`` in float64, rounded to the dtype.

numpy's ``MT19937`` bit generator produces the raw 32-bit stream; we only set its
state the way mt19937 is seeded.
"""
import contextlib
import functools
import math
import os
import struct

import numpy as np

from . import _avx_mathfun
from ._fused_multiply_add import fma, fma64

# PyTorch's default seed: a fresh session is seeded with it, so it is reproducible too.
_DEFAULT_SEED = 67280421310721


def _mt19937_state(seed32):
    """The 624-word state mt19937 starts from for a 32-bit seed (Matsumoto and Nishimura's recipe)."""
    key = np.empty(624, dtype=np.uint32)
    word = seed32
    for i in range(624):
        key[i] = word
        word = (1812433253 * (word ^ (word >> 30)) + i + 1) & 0xFFFF_FFFF
    return {"bit_generator": "MT19937", "state": {"key": key, "pos": 624}}


# What PyTorch built for the CPU only says when asked for a generator of another device (by
# device type; the other types are "<TYPE> device type not an accelerator.")
_NO_GENERATOR = {
    "xpu": "Cannot get XPU generator without ATen_xpu library.",
    "mps": "Cannot execute getNewGenerator() without MPS backend.",
    "mtia": "Cannot execute getNewGenerator() without MTIA backend.",
    "hip": "Backend doesn`t support getNewGenerator()",
    "hpu": "Backend doesn`t support getNewGenerator()",
    "xla": "Cannot get XLA generator without torch_xla library. This error has occurred because you are "
           "trying to use some XLA functionality, but the XLA library has not been loaded by the dynamic "
           "linker. You must load xla libraries by `import torch_xla`",
    "privateuseone": "Please register PrivateUse1HooksInterface by `RegisterPrivateUse1HooksInterface` first.",
}


def _generator_device(device):
    """The device a Generator is made for: the CPU (None, 'cpu', 'cpu:0', ...: the CPU's generator
    has no index), else PyTorch's error, as there is no other device here."""
    from ._tensor import device as torch_device, check_cpu_device
    if device is None:
        return torch_device("cpu")
    if isinstance(device, (int, np.integer)) and not isinstance(device, bool):
        check_cpu_device(device)            # (an index names an accelerator: refused)
    kind = torch_device(device).type        # (PyTorch's error for a name that is no device)
    if kind == "cpu":
        return torch_device("cpu")
    if kind == "cuda":
        # (the same text as for initialising CUDA, but for its first words)
        from ._python_variable_methods import _CUDA_LIBRARY_MISSING
        raise RuntimeError("Cannot get CUDA generator without ATen_cuda library."
                           + _CUDA_LIBRARY_MISSING.partition(".")[2])
    raise RuntimeError(_NO_GENERATOR.get(kind, f"{kind.upper()} device type not an accelerator."))


class Generator:
    """A random number generator (PyTorch's ``torch.Generator``): an mt19937 stream plus a seed."""

    def __init__(self, device="cpu"):
        self.device = _generator_device(device)
        self._bits = np.random.MT19937()
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed):
        """Restart the stream from ``seed`` (any integer); returns the generator itself."""
        if isinstance(seed, float):         # (torch.manual_seed takes int(seed) first; this does not)
            raise RuntimeError("manual_seed expected a long, but got float")
        seed = int(seed)
        if not -(1 << 63) <= seed < 1 << 64:        # (C++ reads it as an int64 or a uint64)
            raise ValueError("Overflow when unpacking long long")
        if seed < 0:                        # PyTorch reads a negative seed as its unsigned 64-bit form
            seed += 1 << 64
        self._seed = seed
        self._bits.state = _mt19937_state(seed & 0xFFFF_FFFF)
        self._next_normal = None            # the partner value of the last single Box-Muller pair
        self._fresh = True                  # nothing drawn since seeding (see get_state)
        return self

    def seed(self):
        """Reseed from the operating system's randomness; returns the new seed."""
        new = int(np.random.SeedSequence().entropy) & 0xFFFF_FFFF_FFFF_FFFF
        self.manual_seed(new)
        return new

    def initial_seed(self):
        """The seed this generator was last seeded with."""
        return self._seed

    def __repr__(self):
        return f"<minigrad.Generator object at {hex(id(self))}>"

    # -- saving and restoring the stream -------------------------------------------------------
    def get_state(self):
        """The generator's whole state as a uint8 tensor of 5056 bytes, laid out as PyTorch's
        (so a state taken from minigrad gives PyTorch the same numbers, and back): see
        ``_STATE_LAYOUT``."""
        from ._tensor import _wrap          # lazy: _tensor imports this module's users
        state = self._bits.state["state"]
        position = int(state["pos"])
        # mt19937 as PyTorch keeps it: `next` words of the current block used, `left` = 625 - next
        # (1 when a new block is due: right after seeding, next is 0 there)
        used = 0 if (position == 624 and self._fresh) else position
        memory = bytearray(_STATE_SIZE)
        seed = self._seed - (1 << 64) if self._seed >= 1 << 63 else self._seed    # (an int64)
        _STATE_LAYOUT.pack_into(memory, 0, seed, 625 - position, 1, used)
        words = np.ndarray(624, "<u8", memory, _STATE_LAYOUT.size)     # (a view of the bytes)
        words[:] = state["key"]
        if self._next_normal is not None:       # the kept Box-Muller partner: normal_y, valid
            _NORMAL_LAYOUT.pack_into(memory, _NORMAL_OFFSET, 0.0, self._next_normal, 0.0, 1)
        return _wrap(np.frombuffer(bytes(memory), dtype=np.uint8).copy())

    def set_state(self, new_state):
        """Continue the stream from a state ``get_state`` gave (this generator's, another's, or
        PyTorch's); returns the generator itself."""
        from ._tensor import Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._array.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state._array.size != _STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the "
                               f"input RNG state size to be {new_state._array.size}")
        memory = new_state._array.tobytes()
        seed, left, _, used = _STATE_LAYOUT.unpack_from(memory, 0)
        key = np.frombuffer(memory, dtype="<u8", count=624, offset=_STATE_LAYOUT.size)
        position = 625 - left if left > 1 else 624
        self._seed = seed % (1 << 64)
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": key.astype(np.uint32), "pos": position}}
        self._fresh = left == 1 and used == 0
        _, normal_y, _, valid = _NORMAL_LAYOUT.unpack_from(memory, _NORMAL_OFFSET)
        self._next_normal = normal_y if valid else None
        return self

    # -- the raw stream --------------------------------------------------------------------
    def random32(self, n):
        """The next ``n`` 32-bit integers of the stream (as uint64)."""
        self._fresh = False
        return self._bits.random_raw(n).astype(np.uint64)

    def random64(self, n):
        """The next ``n`` 64-bit integers: two 32-bit draws each, the first one the high half."""
        words = self.random32(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]


# PyTorch's CPU generator state as bytes (CPUGeneratorImplState): the initial seed (int64), left
# and seeded (int32 each), next (uint64), then the 624 mt19937 words (each in a uint64), then the
# kept normal sample (normal_x, normal_y, normal_rho as doubles, normal_is_valid as int32), padding,
# and a float32 normal sample with its flag (minigrad never keeps one): 5056 bytes in all.
_STATE_LAYOUT = struct.Struct("<qiiQ")
_NORMAL_OFFSET = _STATE_LAYOUT.size + 624 * 8
_NORMAL_LAYOUT = struct.Struct("<dddi")
_STATE_SIZE = 5056


default_generator = Generator()      # the generator every random function uses unless given one


# Set while a vmap(randomness="error") runs its function: every draw is refused with this
# message (minigrad/func/_vmap.py sets and restores it).
refuse_draws = None


def _pick(generator):
    if refuse_draws is not None:
        raise RuntimeError(refuse_draws)
    return default_generator if generator is None else generator


def manual_seed(seed):
    """Restart the default stream from ``seed``; returns the default Generator (as PyTorch does)."""
    return default_generator.manual_seed(int(seed))


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Run the ``with`` block on a copy of the random state: the default generator's state is
    put back when the block ends, so draws inside it do not change those after it."""
    if not enabled:
        yield
        return
    saved = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(saved)


def get_rng_state():
    """The default generator's state, a uint8 tensor (see ``Generator.get_state``)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Continue the default generator's stream from ``new_state`` (from ``get_rng_state``)."""
    default_generator.set_state(new_state)


def seed():
    """Reseed the default generator from the operating system's randomness; returns the new seed."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


# -- turning the stream into numbers ---------------------------------------------------------
def _uniform01(generator, n, dtype):
    """n uniform numbers in [0, 1) of ``dtype`` (float32: 24 random bits, float64: 53)."""
    if dtype == np.float32:
        return (generator.random32(n) & np.uint64(0xFFFFFF)).astype(np.float32) * np.float32(2.0 ** -24)
    bits53 = generator.random64(n) & np.uint64((1 << 53) - 1)
    return bits53.astype(np.float64) * 2.0 ** -53


def uniform(shape, low=0.0, high=1.0, dtype=np.float32, generator=None, fused=True):
    """A numpy array of uniform numbers in [low, high), as ``torch.rand``/``uniform_`` draw them.

    ``fused=False``: the multiply and the add rounded one after the other, as in the loops of
    PyTorch's that draw one number at a time (``rrelu``'s slopes)."""
    dtype = np.dtype(dtype).type
    if dtype == np.float16:
        # PyTorch draws float16 as float32 and rounds; a number rounded up to ``high`` is
        # replaced by ``low``, so that the range stays [low, high)
        x = uniform(shape, low, high, np.float32, generator, fused).astype(np.float16)
        return np.where(x == np.float16(high), np.float16(low), x)
    n = math.prod(shape)
    x = _uniform01(_pick(generator), n, dtype)
    if (low, high) != (0.0, 1.0):
        span = dtype(dtype(high) - dtype(low))
        if not fused:
            x = x * span + dtype(low)
        elif dtype == np.float32:               # one fused multiply-add on the CPU
            x = fma(x, span, np.float32(low))
        else:
            x = fma64(x, span, low)
    return x.reshape(shape)


def _single_normals(generator, n):
    """n standard normal float64 numbers drawn one by one (Box-Muller, the partner value cached)."""
    out = np.empty(n)
    for i in range(n):
        if generator._next_normal is not None:
            out[i], generator._next_normal = generator._next_normal, None
            continue
        u1, u2 = _uniform01(generator, 2, np.float64)
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        angle = 2.0 * math.pi * u1
        generator._next_normal = radius * math.sin(angle)
        out[i] = radius * math.cos(angle)
    return out


def cpu_capability():
    """'avx2', 'avx512' or 'default': the instruction set PyTorch's CPU kernels pick on this machine.

    It matters for one thing only: float32 ``randn`` of 16 or more numbers uses
    vectorised float32 log/sin/cos with AVX2 (and AVX512), and the C library's with the
    others, which differ in the last bit now and then. Like PyTorch, the
    environment variable ATEN_CPU_CAPABILITY overrides what the CPU supports.
    """
    chosen = os.environ.get("ATEN_CPU_CAPABILITY", "").strip().lower()
    if chosen in ("avx2", "avx512", "default"):
        return chosen
    flags = set()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        return "default"
    if {"avx512f", "avx512vl", "avx512bw", "avx512dq", "fma"} <= flags:
        return "avx512"
    if {"avx2", "fma"} <= flags:
        return "avx2"
    return "default"


_CAPABILITY = cpu_capability()


@functools.lru_cache(maxsize=None)
def _c_float_functions():
    """The C library's logf, cosf and sinf, element by element (numpy's own differ in the last bit)."""
    import ctypes        # lazy: only float32 sin/cos/log on some inputs need the C library
    import ctypes.util

    library = ctypes.CDLL(ctypes.util.find_library("m") or None)
    functions = []
    for name in ("logf", "cosf", "sinf"):
        function = getattr(library, name)
        function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
        functions.append(lambda values, f=function: np.array(
            [f(float(v)) for v in values], dtype=np.float32))
    return functions


def _box_muller_16(block, dtype, mean, std):
    """Turn 16 uniforms into 16 normals: 8 radii from the first half, 8 angles from the second."""
    u1 = (dtype(1) - block[:8]).astype(dtype)          # (0, 1], so the log is finite
    u2 = block[8:]
    if dtype == np.float32 and _CAPABILITY in ("avx2", "avx512"):     # (AVX512 runs the same loop)
        radius = np.sqrt(_avx_mathfun._mul(np.float32(-2.0), _avx_mathfun.log(u1)))
        sin, cos = _avx_mathfun.sincos(_avx_mathfun._mul(np.float32(2.0 * math.pi), u2))
        values = np.concatenate([_avx_mathfun._mul(radius, cos), _avx_mathfun._mul(radius, sin)])
        if (mean, std) != (0.0, 1.0):                  # one fused multiply-add on the CPU
            values = fma(values, np.float32(std), np.float32(mean))
        return values
    if dtype == np.float32:
        # the C library's float log, cos and sin, as PyTorch calls them
        f32, f64 = np.float32, np.float64
        logf, cosf, sinf = _c_float_functions()
        log_u1 = logf(u1)
        radius = np.sqrt((f32(-2.0) * log_u1).astype(f64)).astype(f32)
        angle = (2.0 * math.pi * u2.astype(f64)).astype(f32)
        cos, sin = cosf(angle), sinf(angle)
        values = np.concatenate([radius * cos, radius * sin]).astype(f32)
    else:
        radius = np.sqrt(-2.0 * np.log(u1))
        angle = 2.0 * math.pi * u2
        values = np.concatenate([radius * np.cos(angle), radius * np.sin(angle)])
    if (mean, std) != (0.0, 1.0):
        if _CAPABILITY == "default":                   # compiled without fused multiply-add
            values = (values * dtype(std)).astype(dtype) + dtype(mean)
        elif dtype == np.float32:
            values = fma(values, np.float32(std), np.float32(mean))
        else:
            values = fma64(values, std, mean)
    return values.astype(dtype)


def normal(shape, mean=0.0, std=1.0, dtype=np.float32, generator=None, one_by_one=False):
    """A numpy array of normal numbers, as ``torch.randn``/``normal_`` draw them.

    ``one_by_one``: as PyTorch fills a tensor that is not row-major (``randn_like`` of a
    transposed tensor): single Box-Muller draws whatever the size, in the order of its memory."""
    generator = _pick(generator)
    dtype = np.dtype(dtype).type
    n = math.prod(shape)
    if dtype == np.float16 and not (n < 16 or one_by_one):
        # PyTorch's float16 loop computes in float32, but draws uniforms for the whole blocks
        # of 16 only, then 16 more for the last (overlapping) block if n is no multiple of 16
        whole = n - n % 16
        values = normal((whole,), mean, std, np.float32, generator).astype(np.float16)
        if n % 16:
            values = np.concatenate([values[:n - 16],
                                     normal((16,), mean, std, np.float32, generator).astype(np.float16)])
        return values.reshape(shape)
    if n < 16 or one_by_one:
        values = fma64(_single_normals(generator, n), std, mean)
        if dtype == np.float16:      # (C++'s float16 is made from a double through a float)
            values = values.astype(np.float32)
        return values.astype(dtype).reshape(shape)
    data = _uniform01(generator, n, dtype)
    for start in range(0, n - 15, 16):
        data[start:start + 16] = _box_muller_16(data[start:start + 16], dtype, mean, std)
    if n % 16:
        data[n - 16:] = _box_muller_16(_uniform01(generator, 16, dtype), dtype, mean, std)
    return data.reshape(shape)


def integers(shape, low, high, generator=None):
    """A numpy int64 array of integers in [low, high), as ``torch.randint`` draws them."""
    generator = _pick(generator)
    span = high - low
    n = math.prod(shape)
    # PyTorch takes a 64-bit draw from a span of 2**28 on (not 2**32): the modulo of a 32-bit
    # draw by such a span would favour the small values too much
    draws = generator.random32(n) if span < (1 << 28) else generator.random64(n)
    return ((draws % np.uint64(span)).astype(np.int64) + low).reshape(shape)


def permutation(n, generator=None):
    """A random permutation of 0..n-1 (int64), as ``torch.randperm`` shuffles it."""
    generator = _pick(generator)
    order = np.arange(n, dtype=np.int64)
    draws = generator.random32(max(n - 1, 0))
    for i in range(n - 1):
        j = i + int(draws[i] % np.uint64(n - i))
        order[i], order[j] = order[j], order[i]
    return order


def bernoulli(probabilities, generator=None, strides=None):
    """1.0 where a fresh uniform number is below p, else 0.0 (one draw per element of p, in the
    memory order of a tensor laid out with ``strides``: see ``in_memory_order``)."""
    p = np.asarray(probabilities)
    dtype = np.float64 if p.dtype == np.float64 else np.float32
    draws = in_memory_order(_uniform01(_pick(generator), p.size, dtype), p.shape, strides)
    return (draws < p).astype(p.dtype)


def bernoulli_scalar(shape, p, generator=None, strides=None):
    """A numpy bool array of ``shape``: True where a fresh float64 uniform is below the number ``p``.

    PyTorch fills a tensor in the order its elements lie in memory; pass the
    ``strides`` of a tensor that is not in row-major order (e.g. a transpose)
    to fill it the same way.
    """
    draws = _uniform01(_pick(generator), math.prod(shape), np.float64) < float(p)
    return in_memory_order(draws, shape, strides)


def in_memory_order(draws, shape, strides=None):
    """The numbers ``draws`` (drawn one after another) as an array of ``shape`` whose elements
    take them in the order they lie in memory, as PyTorch's loops fill a tensor laid out with
    ``strides`` (a transpose: column after column); row-major when ``strides`` is None."""
    # axes from the slowest-changing in memory to the fastest
    axes = list(range(len(shape))) if strides is None else sorted(
        range(len(shape)), key=lambda axis: -abs(strides[axis]))
    return np.asarray(draws).reshape([shape[axis] for axis in axes]).transpose(np.argsort(axes))


def exponential(shape, lambd=1.0, dtype=np.float64, generator=None, strides=None):
    """A numpy array of exponential numbers with rate ``lambd``, as ``exponential_`` draws them.

    ``strides``: those of a tensor not in row-major order, filled (as PyTorch fills it) in
    the order its elements lie in memory (see ``bernoulli_scalar``)."""
    n = math.prod(shape)
    u = _uniform01(_pick(generator), n, np.float64)
    values = (-1.0 / lambd) * np.log1p(-u)
    axes = list(range(len(shape))) if strides is None else sorted(
        range(len(shape)), key=lambda axis: -abs(strides[axis]))
    values = values.reshape([shape[axis] for axis in axes]).transpose(np.argsort(axes))
    return values.astype(dtype)


def generator():
    """A numpy Generator seeded from the default stream (for code written before the streams
    matched PyTorch's; new code should draw with ``uniform``/``normal``/``integers`` above)."""
    return np.random.default_rng(int(default_generator.random64(1)[0]))
