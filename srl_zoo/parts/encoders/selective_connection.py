"""Selectively connected self-attentions (Applied Sciences 2019): attention modules joined by a gated state."""

import torch
from torch import nn

from srl_zoo.parts.encoders.self_attention import SelfAttentionEncoder
from srl_zoo.parts.layers.attention import MultiHeadSelfAttention
from srl_zoo.parts.layers.residual import PostNormResidual
from srl_zoo.parts.layers.sublayers import FeedForward, SummedBiLstm

INITIAL_STATES = ("zero", "learned", "random")
NEXT_INPUTS = ("state", "output")


class SelectiveConnection(nn.Module):
    """The GRU-like update of the selective-connection state from a module's output.

    `z = σ(W_z X + U_z S)`, `g = σ(W_g X + U_g S)`, `Ŝ = tanh(W X + U (g ⊙ S))`,
    `S' = (1 − z) ⊙ S + z ⊙ Ŝ`; all tensors `(batch, seq_len, dim)`.
    """

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.from_output = nn.Linear(dim, 3 * dim)  # W_z, W_g, W stacked
        self.gates_from_state = nn.Linear(dim, 2 * dim, bias=False)  # U_z, U_g
        self.candidate_from_state = nn.Linear(dim, dim, bias=False)  # U

    def forward(self, output: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        x_z, x_g, x_s = self.from_output(output).chunk(3, dim=-1)
        s_z, s_g = self.gates_from_state(state).chunk(2, dim=-1)
        update = torch.sigmoid(x_z + s_z)
        reset = torch.sigmoid(x_g + s_g)
        candidate = torch.tanh(x_s + self.candidate_from_state(reset * state))
        return (1 - update) * state + update * candidate


class SelectiveConnectionEncoder(SelfAttentionEncoder):
    """N attentive representation modules (self-attention + feed-forward, post-norm residuals)
    whose outputs update a selective-connection state `S_i` after every module.

    `forward` returns the last state `S_N`; `forward_layers` returns every `S_i`, for the
    Model's per-layer loss (`per_layer_loss: true`: a loss at every layer and the average of
    all layers' label distributions at inference).

    # Parameters

    input_dim : width of the incoming embeddings (word ⊕ predicate mask).
    hidden_dim : model width.
    num_layers : number of attentive representation modules.
    num_heads : attention heads per module.
    ffn_hidden_dim : width of each module's feed-forward hidden layer.
    residual_dropout : dropout on the input and on each sub-layer's output before its residual sum.
    attention_dropout : dropout on the attention weights.
    relu_dropout : dropout after the feed-forward's ReLU.
    input_bilstm : a BiLSTM input layer whose two directions are summed back to `hidden_dim`.
    next_input : what module i+1 reads: `"output"` (X_i) or `"state"` (S_i); the paper is unclear.
    initial_state : `S_0`: `"zero"`, `"learned"` (a trained vector), or `"random"` (N(0, 1/d)
        noise while training as in the paper, zero at inference so predictions are deterministic).
    selective : `false` removes the selective connection (the paper's ablation): plain stacked
        attentive modules whose outputs `X_i` are the layer outputs.
    scale_input : multiply the projected input by √hidden_dim.
    use_timing_signal : add the sinusoidal timing signal to the input.
    """

    def __init__(
        self,
        input_dim: int,
        hidden_dim: int = 200,
        num_layers: int = 8,
        num_heads: int = 8,
        ffn_hidden_dim: int = 800,
        residual_dropout: float = 0.1,
        attention_dropout: float = 0.1,
        relu_dropout: float = 0.1,
        input_bilstm: bool = False,
        next_input: str = "output",
        initial_state: str = "zero",
        selective: bool = True,
        scale_input: bool = True,
        use_timing_signal: bool = True,
    ) -> None:
        super().__init__(input_dim, hidden_dim, scale_input, use_timing_signal, residual_dropout)
        if next_input not in NEXT_INPUTS:
            raise ValueError(f"next_input must be one of {NEXT_INPUTS}, got {next_input!r}")
        if initial_state not in INITIAL_STATES:
            raise ValueError(f"initial_state must be one of {INITIAL_STATES}, got {initial_state!r}")
        self.next_input, self.initial_state = next_input, initial_state
        self.input_bilstm = SummedBiLstm(hidden_dim) if input_bilstm else None
        self.modules_ = nn.ModuleList(
            nn.ModuleList(
                [
                    PostNormResidual(
                        MultiHeadSelfAttention(hidden_dim, num_heads, attention_dropout), hidden_dim, residual_dropout
                    ),
                    PostNormResidual(
                        FeedForward(hidden_dim, ffn_hidden_dim, relu_dropout), hidden_dim, residual_dropout
                    ),
                ]
            )
            for _ in range(num_layers)
        )
        self.selective = selective
        self.connections = (
            nn.ModuleList(SelectiveConnection(hidden_dim) for _ in range(num_layers)) if selective else None
        )
        self.learned_state = nn.Parameter(torch.zeros(hidden_dim)) if selective and initial_state == "learned" else None

    def _initial_state(self, like: torch.Tensor) -> torch.Tensor:
        if self.learned_state is not None:
            return self.learned_state.expand_as(like)
        if self.initial_state == "random" and self.training:
            return torch.randn_like(like) * self._hidden_dim**-0.5
        return torch.zeros_like(like)

    def forward_layers(self, inputs: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
        """Every module's state `S_i` (or output `X_i` without the selective connection),
        each `(batch, seq_len, hidden_dim)`."""
        mask = mask.bool()
        keep = mask.unsqueeze(-1).to(inputs.dtype)
        hidden = self.input(inputs)
        if self.input_bilstm is not None:
            hidden = self.input_bilstm(hidden, mask)
        if not self.selective:
            outputs = []
            for attention, feed_forward in self.modules_:  # type: ignore[misc]  # ModuleList of pairs
                hidden = feed_forward(attention(hidden, mask), mask) * keep  # type: ignore[has-type]
                outputs.append(hidden)
            return outputs
        state = self._initial_state(hidden)
        states = []
        assert self.connections is not None  # selective
        for (attention, feed_forward), connection in zip(self.modules_, self.connections, strict=True):  # type: ignore[misc]
            output = feed_forward(attention(hidden, mask), mask)  # type: ignore[has-type]
            state = connection(output, state) * keep
            states.append(state)
            hidden = state if self.next_input == "state" else output
        return states

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(batch, seq_len, input_dim)` -> the last state `(batch, seq_len, hidden_dim)`."""
        return self.forward_layers(inputs, mask)[-1]
