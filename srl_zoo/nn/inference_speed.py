"""What a CPU or GPU offers for prediction: int8 dynamic quantization of linear layers (CPU) and bfloat16 autocast."""

import contextlib
from collections.abc import Iterator

import torch
from torch import nn

from srl_zoo.nn.fixed_row_linear import FixedRowLinear


def quantize_linear_layers(model: nn.Module) -> nn.Module:
    """Replace every `nn.Linear` of `model` (in place) by its int8 dynamically quantized form: weights
    stored as int8, activations quantized per batch. CPU only; measure the F1 change before relying on it."""
    return torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8, inplace=True)


@contextlib.contextmanager
def bfloat16_autocast(enabled: bool = True, device: str = "cpu") -> Iterator[None]:
    """`torch.autocast` to bfloat16 on `device` while enabled; on a CPU its linear layers see one input shape
    each (`FixedRowLinear`), so oneDNN's kernels for new shapes do not pile up in memory."""
    with torch.autocast(device, dtype=torch.bfloat16, enabled=enabled):
        if enabled and device == "cpu":
            with FixedRowLinear():
                yield
        else:
            yield
