"""`--precision {auto,float32,bfloat16,int8}`: which arithmetic the model predicts in. `auto` takes a faster precision
only where the model's archive records that it keeps the F1 (within `F1_TOLERANCE` of float32 on the data it was
measured on: `srl-zoo export --measure-precision GOLD_FILE` records it) and where this machine runs it natively: on
a GPU bfloat16 autocast; on a CPU int8 (the transformer's graph with int8 weights, run by OpenVINO or ONNX Runtime:
the runtime, with srl_zoo's `openvino` or `onnx` extra installed; each engine's F1 is recorded apart; the rest of
the model in bfloat16 where the CPU has it natively), else bfloat16 where the CPU has it (AVX-512 BF16 or AMX), else
float32. The choice reads no clock: the same archive, CPU kind and packages give the same precision however busy the
machine is. In bfloat16 and int8 a sentence's labels may depend on the sentences batched with it (the rounding
follows the batch's shapes; int8 quantizes each call's activations together); float32 keeps them apart. `float32`,
`bfloat16` and `int8` ask for one by name."""

import argparse
import functools
from collections.abc import Mapping
from typing import NamedTuple, Optional

import torch

from srl_zoo.archive_settings import F1_KEY
from srl_zoo.archive_settings import F1_TOLERANCE as F1_TOLERANCE  # the rule, where the graphs read it without torch
from srl_zoo.archive_settings import keeps_f1 as keeps_f1

PRECISIONS = ("auto", "float32", "bfloat16", "int8")
#: the precisions of allennlp's side (its predictor and `srl-zoo evaluate`): int8 is the runtime's
ALLENNLP_PRECISIONS = ("auto", "float32", "bfloat16")

#: the key of the archive's config.json that holds the F1 per precision measured when it was made (its values are
#: checked at extraction: `srl_zoo.archive_settings`)
F1_PER_PRECISION_KEY = F1_KEY


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


#: the runtime's int8: weights (and activations) share one scale per block of this many values along a product's input
INT8_BLOCK = 128
#: the key of OpenVINO's int8 F1, named by its activation blocks (`INT8_BLOCK`, as ONNX Runtime's): archives that
#: recorded `int8 openvino` measured OpenVINO's default blocks of 32, which are not read
OPENVINO_INT8_KEY = f"int8 openvino {INT8_BLOCK}"


def int8_key(engine: str) -> str:
    """The key of the F1 per precision that holds int8's F1 through `engine` (`onnxruntime`: plain `int8`, as
    archives recorded it before other engines ran it; `openvino`: `OPENVINO_INT8_KEY`)."""
    return "int8" if engine == "onnxruntime" else OPENVINO_INT8_KEY


def bfloat16_keeps_f1(measured: Optional[Mapping[str, float]]) -> bool:
    """Whether an archive's F1 per precision shows bfloat16 within `F1_TOLERANCE` of float32 (`keeps_f1`)."""
    return keeps_f1(measured, "bfloat16")


class PrecisionChoice(NamedTuple):
    """What `--precision` means on this machine for one model: `name` (`float32`, `bfloat16` or `int8`) and why."""

    name: str
    reason: str


#: why `auto` keeps float32 on a CPU
CPU_REASON = (
    "auto on a CPU: float32 (the archive records no faster precision within "
    f"{F1_TOLERANCE} F1 of float32 that this CPU runs natively)"
)
#: why a precision other than float32 may change a sentence's labels with its batch
BATCH_NOTE = "a sentence's labels may then depend on the sentences batched with it"


def precision_choice(
    precision: str,
    cuda_device: int = -1,
    measured: Optional[Mapping[str, float]] = None,
    int8_engine: Optional[str] = None,
) -> PrecisionChoice:
    """What `precision` (`auto`, `float32`, `bfloat16`, `int8`) means for a model whose archive recorded `measured`
    (F1 per precision), and why; `int8_engine`: the engine that would run the model in int8 here (None: the
    labeler cannot; its F1 is read under `int8_key(int8_engine)`). `auto` decides from what does not change with
    the machine's load: on a GPU bfloat16 autocast where the record shows it keeps the F1; on a CPU the first of
    int8 (where available) and bfloat16 (where the CPU has it natively) that the record shows keeps the F1, else
    float32. Names are kept as asked (int8 on a GPU is a `ValueError`)."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    on_gpu = cuda_device >= 0 and torch.cuda.is_available()
    if precision == "int8" and cuda_device >= 0:
        raise ValueError("precision int8 runs on a CPU only (OpenVINO or ONNX Runtime); on a GPU use auto or bfloat16")
    if precision != "auto":
        return PrecisionChoice(precision, f"{precision} as asked")
    if on_gpu:
        if keeps_f1(measured, "bfloat16"):
            return PrecisionChoice(
                "bfloat16", f"auto on a GPU: the archive records bfloat16 within {F1_TOLERANCE} F1 of float32"
            )
        return PrecisionChoice(
            "float32", f"auto on a GPU: the archive records no bfloat16 F1 within {F1_TOLERANCE} of float32"
        )
    if int8_engine is not None and keeps_f1(measured, int8_key(int8_engine)):
        return PrecisionChoice(
            "int8",
            f"auto on a CPU: the archive records int8 through {int8_engine} within {F1_TOLERANCE} F1 of float32 "
            f"({BATCH_NOTE})",
        )
    if cpu_has_fast_bfloat16() and keeps_f1(measured, "bfloat16"):
        return PrecisionChoice(
            "bfloat16",
            f"auto on a CPU with native bfloat16: the archive records bfloat16 within {F1_TOLERANCE} F1 of float32 "
            f"({BATCH_NOTE})",
        )
    return PrecisionChoice("float32", CPU_REASON)


def uses_bfloat16(precision: str, cuda_device: int = -1, measured: Optional[Mapping[str, float]] = None) -> bool:
    """Whether `precision` means bfloat16 autocast on this machine for a model whose archive recorded
    `measured` (see `precision_choice`)."""
    return precision_choice(precision, cuda_device, measured).name == "bfloat16"


def chosen_precision(precision: str, cuda_device: int = -1, measured: Optional[Mapping[str, float]] = None) -> str:
    """`float32` or `bfloat16`: what `precision` means on this machine (see `precision_choice`)."""
    return precision_choice(precision, cuda_device, measured).name


def add_precision_argument(
    parser, default: str = "auto", names: tuple[str, ...] = PRECISIONS, old_bfloat16_flag: Optional[str] = None
) -> None:
    """The `--precision` option every srl_zoo command shares (`names`: those the command offers;
    `old_bfloat16_flag`: a command's older spelling of `--precision bfloat16`, still read, left out of its help)."""
    parser.add_argument(
        "--precision",
        choices=names,
        default=default,
        help=f"{default} (default): "
        + (
            "the fastest precision this machine runs natively that the archive records within 0.1 F1 of float32 "
            + ("(int8 with OpenVINO or ONNX Runtime, then bfloat16)" if "int8" in names else "(bfloat16)")
            + ", else float32"
            if default == "auto"
            else "the model's own float32 arithmetic"
        ),
    )
    if old_bfloat16_flag:  # added after --precision, whose default it must not replace
        parser.add_argument(
            old_bfloat16_flag, action="store_const", const="bfloat16", dest="precision", help=argparse.SUPPRESS
        )
