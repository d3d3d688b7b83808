"""A transformer layer (self-attention, then feed-forward) with pre- or post-LayerNorm residuals."""

from typing import Optional

import torch
from torch import nn

from srl_zoo.parts.layers.attention import MultiHeadSelfAttention
from srl_zoo.parts.layers.sublayers import FeedForward


class TransformerLayer(nn.Module):
    """`x + Dropout(Attention(LN(x)))`, then `x + Dropout(FFN(LN(x)))` (pre-norm, LISA's code), or
    `LN(x + Dropout(f(x)))` for each sub-layer (post-norm). Input and output `(batch, seq_len, dim)`.

    # Parameters

    dim, num_heads, ffn_hidden_dim : widths; `ffn_hidden_layers` hidden layers with `activation`.
    residual_dropout, attention_dropout, relu_dropout : dropouts.
    pre_norm : pre-LayerNorm (true) or post-LayerNorm (false).
    """

    def __init__(
        self,
        dim: int,
        num_heads: int,
        ffn_hidden_dim: int,
        residual_dropout: float,
        attention_dropout: float,
        relu_dropout: float,
        pre_norm: bool = True,
        activation: str = "leaky_relu",
        ffn_hidden_layers: int = 1,
    ) -> None:
        super().__init__()
        self.attention = MultiHeadSelfAttention(dim, num_heads, attention_dropout)
        self.feed_forward = FeedForward(dim, ffn_hidden_dim, relu_dropout, activation, ffn_hidden_layers)
        self.attention_norm = nn.LayerNorm(dim)
        self.feed_forward_norm = nn.LayerNorm(dim)
        self.dropout = nn.Dropout(residual_dropout)
        self.pre_norm = pre_norm

    def forward(
        self, inputs: torch.Tensor, mask: torch.Tensor, last_head_weights: Optional[torch.Tensor] = None
    ) -> torch.Tensor:
        """`last_head_weights (batch, seq_len, seq_len)`: fixed attention of the last head (see
        `MultiHeadSelfAttention`)."""
        if self.pre_norm:
            hidden = inputs + self.dropout(
                self.attention(self.attention_norm(inputs), mask, last_head_weights=last_head_weights)
            )
            return hidden + self.dropout(self.feed_forward(self.feed_forward_norm(hidden), mask))
        hidden = self.attention_norm(
            inputs + self.dropout(self.attention(inputs, mask, last_head_weights=last_head_weights))
        )
        return self.feed_forward_norm(hidden + self.dropout(self.feed_forward(hidden, mask)))
