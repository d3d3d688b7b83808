"""What one encoder pass over each sentence (no predicate marked) gives the heads and scorers."""

from dataclasses import dataclass
from typing import Optional

import torch


@dataclass(frozen=True)
class SyntaxOutputs:
    """What an encoder's syntax head (LISA's) computed, for the parse task that trains it.

    # Parameters

    arc_scores : `(batch, seq_len, seq_len)` float32 head scores, rows dependents.
    states : `(batch, seq_len, dim)` the syntax head's input (the parse layer's output), for relation labels.
    attention : `(batch, seq_len, seq_len)` the parse the next layer's head attended to (gold, given or predicted).
    """

    arc_scores: torch.Tensor
    states: torch.Tensor
    attention: torch.Tensor


@dataclass
class EncodedSentences:
    """One encoder pass per sentence, without any predicate marked.

    # Parameters

    layers : every layer's output the encoder exposes, each `(batch, seq_len, dim)`; the last is the top.
    syntax : what the encoder's syntax head computed (`SyntaxOutputs`); None: the encoder has none.
    """

    layers: list[torch.Tensor]
    syntax: Optional[SyntaxOutputs] = None

    @property
    def top(self) -> torch.Tensor:
        return self.layers[-1]
