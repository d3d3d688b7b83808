"""What labelling asks of a predicate head: each token's predicate label and score, and the label of an id. The
`tagger` and LISA's `joint_pos_predicate` heads give it; the runtime's model calls it and never asks which."""

from collections.abc import Sequence
from typing import Optional, Protocol

import torch

from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences


class PredicateFinder(Protocol):
    """A predicate head as labelling reads it."""

    #: the id of `-` (not a predicate)
    not_a_predicate: int

    def tag(
        self, sentences: EncodedSentences, mask: torch.Tensor, words: Optional[Sequence[Sequence[str]]]
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The head's logits, each token's predicate label id `(batch, seq_len)` (`-` on padding) and its score
        `(batch, seq_len)`."""
        ...

    def label_of(self, label_id: int) -> str:
        """The predicate label (`-`, `01`, `Y`, ...) of `label_id`."""
        ...
