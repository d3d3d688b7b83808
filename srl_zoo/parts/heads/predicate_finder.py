"""What the network asks of a predicate head: each token's predicate label and score (with the head's loss where
gold labels are given), and the label of an id. The `tagger` and LISA's `joint_pos_predicate` heads give it; the
network calls it and never asks which."""

from dataclasses import dataclass
from typing import Any, Optional, Protocol

import torch

from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences


@dataclass
class PredicateOutput:
    """What a predicate head found in one batch.

    # Parameters

    label_ids : `(batch, seq_len)` predicted labels in the `predicate_senses` namespace (`-`, a sense suffix such
        as `01`, or `Y`); `-` on padding.
    loss : the weighted loss, when gold labels were given to a head that trains.
    pos_ids : `(batch, seq_len)` predicted POS ids (namespace `pos`), from heads that tag POS.
    scores : `(batch, seq_len)` how sure the head is that each token is a predicate with its label.
    """

    label_ids: torch.Tensor
    loss: Optional[torch.Tensor] = None
    pos_ids: Optional[torch.Tensor] = None
    scores: Optional[torch.Tensor] = None


class PredicateFinder(Protocol):
    """A predicate head as the network reads it."""

    #: the id of `-` (not a predicate)
    not_a_predicate: int

    def __call__(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = False
    ) -> PredicateOutput:
        """The head's labels and scores for a batch (`mask (batch, seq_len)`; `inputs`: each sentence's words and,
        in training data, the gold labels), with its loss where gold labels are given and it trains."""
        ...

    def label_of(self, label_id: int) -> str:
        """The predicate label (`-`, `01`, `Y`, ...) of `label_id`."""
        ...

    def graph_logits(self, sentences: EncodedSentences) -> torch.Tensor:
        """`(batch, seq_len, num_labels)` what an inference graph of the head computes; `NotImplementedError` for a
        head without one (its archive labels through torch)."""
        ...

    def graph_settings(self) -> dict[str, Any]:
        """What decodes `graph_logits` outside torch (`srl_zoo.graphs.predicates`), as JSON values."""
        ...
