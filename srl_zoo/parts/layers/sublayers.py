"""DeepAtt's nonlinear sub-layers: feed-forward (ReLU), gated linear convolution, summed BiLSTM."""

from collections.abc import Callable

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

ACTIVATIONS: dict[str, Callable[[], nn.Module]] = {"relu": nn.ReLU, "leaky_relu": lambda: nn.LeakyReLU(0.1)}


class FeedForward(nn.Module):
    """`W2 · dropout(act(W1 x))`, hidden width 800 in DeepAtt. Input and output `(batch, seq_len, dim)`.

    `activation`: `"relu"` (DeepAtt) or `"leaky_relu"` (LISA); `hidden_layers`: how many hidden
    layers of `hidden_dim` (LISA's code: two, 200→800→800→200).
    """

    def __init__(
        self,
        dim: int,
        hidden_dim: int = 800,
        relu_dropout: float = 0.1,
        activation: str = "relu",
        hidden_layers: int = 1,
    ) -> None:
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
        self.inner = nn.Linear(dim, hidden_dim)
        self.hidden = nn.ModuleList(nn.Linear(hidden_dim, hidden_dim) for _ in range(hidden_layers - 1))
        self.outer = nn.Linear(hidden_dim, dim)
        self.activation = ACTIVATIONS[activation]()
        self.dropout = nn.Dropout(relu_dropout)

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        hidden = self.dropout(self.activation(self.inner(inputs)))
        for layer in self.hidden:
            hidden = self.dropout(self.activation(layer(hidden)))
        return self.outer(hidden)


class GatedConvolution(nn.Module):
    """Gated linear unit over a width-3 convolution: `(X*W + b) ⊙ σ(X*V + c)`.

    Padding positions are zeroed first so they never leak into real tokens.
    """

    def __init__(self, dim: int, kernel_size: int = 3) -> None:
        super().__init__()
        if kernel_size % 2 == 0:
            raise ValueError("kernel_size must be odd to keep the sequence length")
        self.convolution = nn.Conv1d(dim, 2 * dim, kernel_size, padding=kernel_size // 2)

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        masked = inputs * mask.unsqueeze(-1).to(inputs.dtype)
        value, gate = self.convolution(masked.transpose(1, 2)).chunk(2, dim=1)
        return (value * torch.sigmoid(gate)).transpose(1, 2)


class SummedBiLstm(nn.Module):
    """A bidirectional LSTM of width `dim` per direction whose two directions are summed. It runs in
    float32 under autocast too: a packed LSTM multiplies each time step's live sequences together, so in
    bfloat16 (oneDNN's RNN) a sentence's states depended on the other sentences of its batch, and every new
    batch shape compiled and kept a new kernel (hundreds of MiB over a long text)."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """# Parameters

        inputs : `(batch, seq_len, dim)`; mask : `(batch, seq_len)`. Returns `(batch, seq_len, dim)`, float32.
        """
        lengths = mask.sum(-1).clamp(min=1).cpu()
        packed = pack_padded_sequence(inputs.float(), lengths, batch_first=True, enforce_sorted=False)
        with torch.autocast(inputs.device.type, enabled=False):
            outputs, _ = self.lstm(packed)
        outputs, _ = pad_packed_sequence(outputs, batch_first=True, total_length=inputs.size(1))
        forward, backward = outputs.chunk(2, dim=-1)
        return forward + backward


SUBLAYERS = ("ffn", "glu", "bilstm")


def build_sublayer(kind: str, dim: int, ffn_hidden_dim: int, relu_dropout: float) -> nn.Module:
    """The sub-layer named `kind` (`"ffn"`, `"glu"` or `"bilstm"`)."""
    if kind == "ffn":
        return FeedForward(dim, ffn_hidden_dim, relu_dropout)
    if kind == "glu":
        return GatedConvolution(dim)
    if kind == "bilstm":
        return SummedBiLstm(dim)
    raise ValueError(f"sublayer must be one of {SUBLAYERS}, got {kind!r}")
