"""DeepAtt (Tan et al. 2018): a stack of [nonlinear sub-layer, multi-head self-attention] layers (plain torch;
`srl_zoo.modules.deep_att` registers it as the `deep_att` encoder)."""

import torch
from torch import nn

from srl_zoo.parts.encoders.self_attention import SelfAttentionEncoder
from srl_zoo.parts.layers.attention import MultiHeadSelfAttention
from srl_zoo.parts.layers.residual import PostNormResidual
from srl_zoo.parts.layers.sublayers import build_sublayer


class DeepAttEncoder(SelfAttentionEncoder):
    """The DeepAtt encoder; every sub-layer is post-norm `LayerNorm(x + Dropout(f(x)))`.

    Input `(batch, seq_len, input_dim)` (word ⊕ predicate-mask embeddings), output
    `(batch, seq_len, hidden_dim)`. Defaults are the paper's.

    # Parameters

    input_dim : width of the incoming embeddings (DeepAtt: 100 + 100).
    hidden_dim : model width d (200).
    num_layers : number of layers (10).
    num_heads : attention heads (8).
    sublayer : `"ffn"` (ReLU, `ffn_hidden_dim` 800), `"glu"` (gated convolution, width 3) or
        `"bilstm"` (directions summed).
    ffn_hidden_dim : width of the hidden layer of the `"ffn"` sub-layer (800).
    sublayer_first : the nonlinear sub-layer before attention in each layer (paper: true).
    residual_dropout : dropout on the input and on each sub-layer's output before its residual sum (0.2).
    attention_dropout : dropout on the attention weights (0.1).
    relu_dropout : dropout after the `"ffn"` sub-layer's ReLU (0.1).
    scale_input : multiply the projected input by √hidden_dim, as the authors' code does (true).
    use_timing_signal : add the sinusoidal timing signal to the input (true; without it the paper loses 20 F1).
    orthogonal_init : orthogonal initialisation of the layers' weight matrices (paper: true).
    """

    def __init__(
        self,
        input_dim: int,
        hidden_dim: int = 200,
        num_layers: int = 10,
        num_heads: int = 8,
        sublayer: str = "ffn",
        ffn_hidden_dim: int = 800,
        sublayer_first: bool = True,
        residual_dropout: float = 0.2,
        attention_dropout: float = 0.1,
        relu_dropout: float = 0.1,
        scale_input: bool = True,
        use_timing_signal: bool = True,
        orthogonal_init: bool = True,
    ) -> None:
        super().__init__(input_dim, hidden_dim, scale_input, use_timing_signal, residual_dropout)
        self.layers = nn.ModuleList()
        for _ in range(num_layers):
            nonlinear = PostNormResidual(
                build_sublayer(sublayer, hidden_dim, ffn_hidden_dim, relu_dropout), hidden_dim, residual_dropout
            )
            attention = PostNormResidual(
                MultiHeadSelfAttention(hidden_dim, num_heads, attention_dropout), hidden_dim, residual_dropout
            )
            self.layers.append(nn.ModuleList([nonlinear, attention] if sublayer_first else [attention, nonlinear]))
        if orthogonal_init:
            for name, parameter in self.layers.named_parameters():
                if parameter.dim() >= 2 and "norm" not in name:
                    nn.init.orthogonal_(parameter)

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`inputs (batch, seq_len, input_dim)`, `mask (batch, seq_len)` -> `(batch, seq_len, hidden_dim)`."""
        mask = mask.bool()
        hidden = self.input(inputs)
        for layer in self.layers:
            for sublayer in layer:  # type: ignore[attr-defined]  # a ModuleList of sub-layers
                hidden = sublayer(hidden, mask)
        return hidden * mask.unsqueeze(-1).to(hidden.dtype)
