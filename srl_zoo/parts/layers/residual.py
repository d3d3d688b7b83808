"""Post-norm residual wrapper `LayerNorm(x + Dropout(f(x)))` used by every self-attention stack here."""

import torch
from torch import nn


class PostNormResidual(nn.Module):
    """Wraps a sub-layer `f(inputs, mask)` as `LayerNorm(x + Dropout(f(x)))`."""

    def __init__(self, sublayer: nn.Module, dim: int, residual_dropout: float) -> None:
        super().__init__()
        self.sublayer = sublayer
        self.dropout = nn.Dropout(residual_dropout)
        self.norm = nn.LayerNorm(dim)

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.norm(inputs + self.dropout(self.sublayer(inputs, mask)))
