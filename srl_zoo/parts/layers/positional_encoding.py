"""The sinusoidal timing signal of "Attention is all you need" (sin half, cos half)."""

import math
from typing import Optional

import torch


def timing_signal(
    length: int,
    channels: int,
    min_timescale: float = 1.0,
    max_timescale: float = 1.0e4,
    device: Optional[torch.device] = None,
    dtype: torch.dtype = torch.float32,
) -> torch.Tensor:
    """Sinusoids at geometrically spaced timescales, shape `(length, channels)`.

    The first `channels // 2` channels are sines, the next ones cosines (an odd channel is zero).
    """
    positions = torch.arange(length, device=device, dtype=torch.float32)
    num_timescales = channels // 2
    log_increment = math.log(max_timescale / min_timescale) / max(num_timescales - 1, 1)
    inverse = min_timescale * torch.exp(
        torch.arange(num_timescales, device=device, dtype=torch.float32) * -log_increment
    )
    scaled = positions[:, None] * inverse[None, :]
    signal = torch.cat([torch.sin(scaled), torch.cos(scaled)], dim=1)
    if channels % 2:
        signal = torch.nn.functional.pad(signal, (0, 1))
    return signal.to(dtype)
