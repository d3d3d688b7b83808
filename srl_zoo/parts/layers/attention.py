"""Multi-head self-attention through `torch.nn.functional.scaled_dot_product_attention`."""

from typing import Optional

import torch
from torch import nn
from torch.nn import functional as F


class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention with a key-padding mask.

    # Parameters

    dim : model width; `dim % num_heads == 0`.
    num_heads : number of heads.
    attention_dropout : dropout on the attention weights (training only).
    """

    def __init__(self, dim: int, num_heads: int = 8, attention_dropout: float = 0.1) -> None:
        super().__init__()
        if dim % num_heads:
            raise ValueError(f"model width {dim} is not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.attention_dropout = attention_dropout
        self.qkv = nn.Linear(dim, 3 * dim)
        self.output = nn.Linear(dim, dim)

    def forward(
        self,
        inputs: torch.Tensor,
        mask: torch.Tensor,
        attention_bias: Optional[torch.Tensor] = None,
        last_head_weights: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        """
        # Parameters

        inputs : `(batch, seq_len, dim)`
        mask : `(batch, seq_len)` bool, True for real tokens (keys outside it get no weight).
        attention_bias : optional additive `(batch, num_heads, seq_len, seq_len)` scores.
        last_head_weights : optional `(batch, seq_len, seq_len)` attention weights (rows: queries) that
            replace the last head's own, e.g. LISA's parse attention (a dependency parse, gold one-hot
            or the parser's softmax).

        # Returns

        `(batch, seq_len, dim)`
        """
        batch, length, dim = inputs.shape
        q, k, v = self.qkv(inputs).view(batch, length, 3, self.num_heads, dim // self.num_heads).permute(2, 0, 3, 1, 4)
        key_mask = mask[:, None, None, :]
        if last_head_weights is not None:  # the other heads attend as usual
            q, k = q[:, :-1], k[:, :-1]
            fixed_value, v = v[:, -1], v[:, :-1]
        if attention_bias is not None:
            bias = attention_bias[:, : q.size(1)].masked_fill(~key_mask, float("-inf"))
        else:
            bias = key_mask
        attended = F.scaled_dot_product_attention(
            q, k, v, attn_mask=bias, dropout_p=self.attention_dropout if self.training else 0.0
        )  # (batch, heads, seq_len, head_dim)
        if last_head_weights is not None:
            fixed = torch.matmul(last_head_weights.to(fixed_value.dtype), fixed_value)  # (batch, seq_len, head_dim)
            attended = torch.cat([attended, fixed.unsqueeze(1)], dim=1)
        return self.output(attended.transpose(1, 2).reshape(batch, length, dim))
