"""What one encoder pass over each sentence (no predicate marked) gives the heads and scorers."""

from dataclasses import dataclass, field

import torch


@dataclass
class EncodedSentences:
    """One encoder pass per sentence, without any predicate marked.

    layers : every layer's output the encoder exposes, each `(batch, seq_len, dim)`; the last is the top.
    extras : named intermediate results that auxiliary tasks read, e.g. LISA's arc scores
        `(batch, seq_len, seq_len)`.
    """

    layers: list[torch.Tensor]
    extras: dict[str, torch.Tensor] = field(default_factory=dict)

    @property
    def top(self) -> torch.Tensor:
        return self.layers[-1]
