"""What a CPU offers for prediction: int8 dynamic quantization of linear layers and bfloat16 autocast."""

import contextlib
from typing import Iterator

import torch
from torch import nn


def quantize_linear_layers(model: nn.Module) -> nn.Module:
    """Replace every `nn.Linear` of `model` (in place) by its int8 dynamically quantized form: weights
    stored as int8, activations quantized per batch. CPU only; measure the F1 change before relying on it."""
    return torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8, inplace=True)


def cpu_supports_bfloat16() -> bool:
    """Whether this CPU has native bfloat16 arithmetic (AVX-512 BF16 or AMX); without it bf16 autocast
    is emulated and slower."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            flags = handle.read()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


@contextlib.contextmanager
def bfloat16_autocast(enabled: bool = True, device: str = "cpu") -> Iterator[None]:
    """`torch.autocast` to bfloat16 on `device` while enabled."""
    with torch.autocast(device, dtype=torch.bfloat16, enabled=enabled):
        yield
