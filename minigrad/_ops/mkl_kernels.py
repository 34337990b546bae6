"""Which of MKL's kernels PyTorch's CPU build runs on this processor.

PyTorch takes its LU factorization (so ``det``, ``slogdet``, ``solve``, ``inv``) from Intel's
MKL, which chooses its code when it starts, by the processor and two settings:

* on an Intel processor with AVX2, it runs kernels that update a matrix with fused
  multiply-adds: ``c - a * b`` computed exactly and rounded once;
* elsewhere (AMD's processors), or when ``MKL_ENABLE_INSTRUCTIONS`` or ``MKL_CBWR`` asks for
  older instructions (``SSE4_2``, ``AVX``, ``COMPATIBLE``...), it multiplies, rounds,
  subtracts and rounds again.

The two give factors that differ in the last bits (and, for a singular matrix, a 0 or a tiny
number where the other gives the other), so minigrad asks the same question to give
PyTorch's bits on either kind of processor. Measured with PyTorch 2.13's MKL on both.
"""
import os
import platform

# (MKL's names for instruction sets older than AVX2, as the two settings spell them)
_OLDER_THAN_AVX2 = {"COMPATIBLE", "SSE2", "SSE3", "SSSE3", "SSE4_1", "SSE4_2", "AVX"}


def _processor_is_intel_with_avx2():
    """True on an Intel processor with AVX2 and FMA (read from /proc/cpuinfo on Linux; on
    other systems from the processor's name, which says the vendor but not the features)."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            text = cpuinfo.read(65536)
    except OSError:
        return "GenuineIntel" in platform.processor()
    first_processor = text.split("\n\n", 1)[0]
    fields = {}
    for line in first_processor.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value
    vendor = fields.get("vendor_id", "").strip()
    flags = fields.get("flags", "").split()
    return vendor == "GenuineIntel" and "avx2" in flags and "fma" in flags


def _setting_asks_for_older_instructions():
    """True when MKL_ENABLE_INSTRUCTIONS or MKL_CBWR (e.g. ``COMPATIBLE,STRICT``) names an
    instruction set older than AVX2."""
    for name in ("MKL_ENABLE_INSTRUCTIONS", "MKL_CBWR"):
        setting = os.environ.get(name, "").split(",")[0].strip().upper()
        if setting in _OLDER_THAN_AVX2:
            return True
    return False


# (MKL decides once, when PyTorch loads it; so does minigrad, when it is imported)
MKL_FUSES_MULTIPLY_ADDS = _processor_is_intel_with_avx2() and not _setting_asks_for_older_instructions()
