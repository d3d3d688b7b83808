"""Input preparation of DeepAtt-style encoders: project, scale by √d, add a bias and the timing signal."""

import math

import torch
from torch import nn

from srl_zoo.parts.layers.positional_encoding import timing_signal


class TransformerInput(nn.Module):
    """`dropout(√d · W x + b + timing)` as in the DeepAtt authors' code.

    # Parameters

    input_dim : width of the incoming embeddings; projected to `dim` when different.
    dim : model width.
    scale_input : multiply by √dim (authors' code).
    use_timing_signal : add the sinusoidal timing signal (paper Table 3: without it, 20 F1).
    dropout : dropout after the sum (DeepAtt: the residual dropout, 0.2).
    use_bias : add the learned bias `b` (DeepAtt's code; LISA's has none).
    """

    def __init__(
        self,
        input_dim: int,
        dim: int,
        scale_input: bool = True,
        use_timing_signal: bool = True,
        dropout: float = 0.2,
        use_bias: bool = True,
    ) -> None:
        super().__init__()
        self.projection = nn.Linear(input_dim, dim, bias=False) if input_dim != dim else None
        self.scale = math.sqrt(dim) if scale_input else 1.0
        self.bias = nn.Parameter(torch.zeros(dim)) if use_bias else None
        self.use_timing_signal = use_timing_signal
        self.dropout = nn.Dropout(dropout)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        """`(batch, seq_len, input_dim)` -> `(batch, seq_len, dim)`."""
        if self.projection is not None:
            inputs = self.projection(inputs)
        outputs = inputs * self.scale
        if self.bias is not None:
            outputs = outputs + self.bias
        if self.use_timing_signal:
            outputs = outputs + timing_signal(inputs.size(1), inputs.size(2), device=inputs.device, dtype=outputs.dtype)
        return self.dropout(outputs)
