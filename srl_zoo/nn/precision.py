"""`--precision {auto,float32,bfloat16}`: which arithmetic the model predicts in."""

import functools

import torch

PRECISIONS = ("auto", "float32", "bfloat16")


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


def uses_bfloat16(precision: str, cuda_device: int = -1) -> bool:
    """Whether `precision` means bfloat16 autocast on this machine: `auto` takes it on a GPU and on a
    CPU with native bfloat16, `float32` never, `bfloat16` always."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision == "auto":
        return (cuda_device >= 0 and torch.cuda.is_available()) or (cuda_device < 0 and cpu_has_fast_bfloat16())
    return precision == "bfloat16"


def chosen_precision(precision: str, cuda_device: int = -1) -> str:
    """`float32` or `bfloat16`: what `precision` (`auto`, `float32`, `bfloat16`) means on this machine."""
    return "bfloat16" if uses_bfloat16(precision, cuda_device) else "float32"


def add_precision_argument(parser, default: str = "auto") -> None:
    """The `--precision` option every srl_zoo command shares."""
    parser.add_argument(
        "--precision",
        choices=PRECISIONS,
        default=default,
        help=f"{default} (default): "
        + (
            "bfloat16 autocast on a GPU or a CPU with AVX-512 BF16/AMX, float32 elsewhere"
            if default == "auto"
            else "the model's own float32 arithmetic"
        ),
    )
