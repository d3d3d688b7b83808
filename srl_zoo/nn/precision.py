"""`--precision {auto,float32,bfloat16}`: which arithmetic the model predicts in. `auto` takes bfloat16
autocast only on a GPU, and only where the model's archive records that it keeps the F1: within
`F1_TOLERANCE` of float32 on the data it was measured on (`srl-zoo export --measure-precision GOLD_FILE`
records it). On a CPU `auto` is float32, whatever the CPU offers and however busy it is: there a sentence's
bfloat16 labels depend on the other sentences of its batch. `bfloat16` asks for it anyway (faster on CPUs
with AMX or AVX-512 BF16)."""

import functools
from collections.abc import Mapping
from typing import NamedTuple, Optional

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


def bfloat16_keeps_f1(measured: Optional[Mapping[str, float]]) -> bool:
    """Whether an archive's F1 per precision (`{"float32": F1, "bfloat16": F1, ...}`) shows bfloat16 within
    `F1_TOLERANCE` of float32; False without a record."""
    float32, bfloat16 = (measured or {}).get("float32"), (measured or {}).get("bfloat16")
    if not isinstance(float32, int | float) or not isinstance(bfloat16, int | float):
        return False  # not measured, or bfloat16 could not run where it was measured
    return bfloat16 >= float32 - F1_TOLERANCE


class PrecisionChoice(NamedTuple):
    """What `--precision` means on this machine for one model: `name` (`float32` or `bfloat16`) and why."""

    name: str
    reason: str


#: why `auto` keeps float32 on every CPU
CPU_REASON = (
    "auto on a CPU: float32, the same labels whatever the batch (in bfloat16 the rounding depends on the shapes "
    "of the batch, so a sentence's labels would depend on the sentences batched with it)"
)


def precision_choice(
    precision: str, cuda_device: int = -1, measured: Optional[Mapping[str, float]] = None
) -> PrecisionChoice:
    """What `precision` (`auto`, `float32`, `bfloat16`) means for a model whose archive recorded `measured`
    (F1 per precision), and why. `auto` decides from what does not change with the machine's load: bfloat16
    autocast on a GPU when the record shows it keeps the F1 (`bfloat16_keeps_f1`), float32 on every CPU
    (`CPU_REASON`); `float32` and `bfloat16` are kept as asked."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision != "auto":
        return PrecisionChoice(precision, f"{precision} as asked")
    if cuda_device < 0 or not torch.cuda.is_available():
        return PrecisionChoice("float32", CPU_REASON)
    if not bfloat16_keeps_f1(measured):
        return PrecisionChoice(
            "float32", f"auto on a GPU: the archive records no bfloat16 F1 within {F1_TOLERANCE} of float32"
        )
    return PrecisionChoice(
        "bfloat16", f"auto on a GPU: the archive records bfloat16 within {F1_TOLERANCE} F1 of float32"
    )


def uses_bfloat16(precision: str, cuda_device: int = -1, measured: Optional[Mapping[str, float]] = None) -> bool:
    """Whether `precision` means bfloat16 autocast on this machine for a model whose archive recorded
    `measured` (see `precision_choice`)."""
    return precision_choice(precision, cuda_device, measured).name == "bfloat16"


def chosen_precision(precision: str, cuda_device: int = -1, measured: Optional[Mapping[str, float]] = None) -> str:
    """`float32` or `bfloat16`: what `precision` means on this machine (see `precision_choice`)."""
    return precision_choice(precision, cuda_device, measured).name


def add_precision_argument(parser, default: str = "auto") -> None:
    """The `--precision` option every srl_zoo command shares."""
    parser.add_argument(
        "--precision",
        choices=PRECISIONS,
        default=default,
        help=f"{default} (default): "
        + (
            "bfloat16 autocast on a GPU where the archive records that it keeps the F1, float32 on a CPU"
            if default == "auto"
            else "the model's own float32 arithmetic"
        ),
    )
