"""`--precision {auto,float32,bfloat16}`: which arithmetic the model predicts in. `auto` takes bfloat16
autocast only where it is fast (a GPU, or a CPU with AVX-512 BF16 or AMX whose bfloat16 matrix products are
measured faster than float32 ones) and where the model's archive records that it keeps the F1: within
`F1_TOLERANCE` of float32 on the data it was measured on (`srl-zoo export --measure-precision GOLD_FILE`
records it)."""

import functools
import time
from collections.abc import Mapping
from typing import Optional

import torch

PRECISIONS = ("auto", "float32", "bfloat16")

#: how much lower bfloat16's F1 may be than float32's for `auto` to take it
F1_TOLERANCE = 0.1
#: the key of the archive's config.json that holds the F1 per precision measured when it was made
F1_PER_PRECISION_KEY = "srl_zoo_f1_per_precision"


@functools.lru_cache(maxsize=1)
def cpu_has_fast_bfloat16() -> bool:
    """Whether this CPU computes bfloat16 natively (AVX-512 BF16 or AMX), read from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


#: bfloat16 must take at most this share of float32's time in the probe for `auto` to take it on a CPU
PROBE_SPEED_UP = 0.8


def _linear_seconds(dtype: Optional[torch.dtype], repeats: int = 3) -> float:
    """The best of `repeats` timings of a feed-forward-sized linear layer (512 x 384 -> 1536, a small BERT's),
    in float32 (`dtype` None) or under CPU autocast to `dtype`, after a warm-up call."""
    generator = torch.Generator().manual_seed(0)
    inputs, weight = torch.randn(512, 384, generator=generator), torch.randn(1536, 384, generator=generator)
    best = float("inf")
    with torch.no_grad(), torch.autocast("cpu", dtype=dtype or torch.bfloat16, enabled=dtype is not None):
        for _ in range(repeats + 1):
            started = time.perf_counter()
            torch.nn.functional.linear(inputs, weight)
            best = min(best, time.perf_counter() - started)
    return best


@functools.lru_cache(maxsize=1)
def cpu_bfloat16_is_faster() -> bool:
    """Whether bfloat16 pays on this CPU: it computes bfloat16 natively (`cpu_has_fast_bfloat16`) and a
    bfloat16 matrix product of a small encoder's size runs in at most `PROBE_SPEED_UP` of float32's time here
    (measured once per process, some milliseconds). Some CPUs report AVX-512 BF16 and still multiply bfloat16
    more slowly than float32 (e.g. without AMX under a hypervisor: 0.6x in srl_zoo's prediction benchmark)."""
    if not cpu_has_fast_bfloat16():
        return False
    return _linear_seconds(torch.bfloat16) <= PROBE_SPEED_UP * _linear_seconds(None)


def bfloat16_keeps_f1(measured: Optional[Mapping[str, float]]) -> bool:
    """Whether an archive's F1 per precision (`{"float32": F1, "bfloat16": F1, ...}`) shows bfloat16 within
    `F1_TOLERANCE` of float32; False without a record."""
    float32, bfloat16 = (measured or {}).get("float32"), (measured or {}).get("bfloat16")
    if not isinstance(float32, int | float) or not isinstance(bfloat16, int | float):
        return False  # not measured, or bfloat16 could not run where it was measured
    return bfloat16 >= float32 - F1_TOLERANCE


def uses_bfloat16(precision: str, cuda_device: int = -1, measured: Optional[Mapping[str, float]] = None) -> bool:
    """Whether `precision` means bfloat16 autocast on this machine for a model whose archive recorded
    `measured` (F1 per precision): `auto` takes it on a GPU, or a CPU where it is measured faster
    (`cpu_bfloat16_is_faster`), when the record shows it keeps the F1; `float32` never, `bfloat16` always."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision == "auto":
        if not bfloat16_keeps_f1(measured):
            return False
        return (cuda_device >= 0 and torch.cuda.is_available()) or (cuda_device < 0 and cpu_bfloat16_is_faster())
    return precision == "bfloat16"


def chosen_precision(precision: str, cuda_device: int = -1, measured: Optional[Mapping[str, float]] = None) -> str:
    """`float32` or `bfloat16`: what `precision` (`auto`, `float32`, `bfloat16`) means on this machine for
    a model with the F1 per precision `measured` (see `uses_bfloat16`)."""
    return "bfloat16" if uses_bfloat16(precision, cuda_device, measured) else "float32"


def add_precision_argument(parser, default: str = "auto") -> None:
    """The `--precision` option every srl_zoo command shares."""
    parser.add_argument(
        "--precision",
        choices=PRECISIONS,
        default=default,
        help=f"{default} (default): "
        + (
            "bfloat16 autocast on a GPU or a CPU with AVX-512 BF16/AMX where it measures faster, float32 elsewhere"
            if default == "auto"
            else "the model's own float32 arithmetic"
        ),
    )
