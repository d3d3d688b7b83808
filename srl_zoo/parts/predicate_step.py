"""The network's predicate step: the predicate head's labels, scores and loss, and the predicates each sentence's
frames are scored for (the data's or the request's, or the head's when not training and asked for or not given)."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

import torch

from srl_zoo.data.formats.labels import NO_PREDICATE_HEAD
from srl_zoo.data.sentence_metadata import SentenceMetadata
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.heads.predicate_finder import PredicateFinder
from srl_zoo.parts.predicate_sources import choose_predicates


@dataclass
class FramePredicates:
    """The predicates a batch's frames are scored for.

    # Parameters

    indices : `(batch, num_frames)` the predicates to score, padded with -1.
    uses_predicted : whether any sentence's are the head's (then no gold tags fit them).
    pos_ids : `(batch, seq_len)` the head's POS, if it tags them.
    outputs : the head's entries of the output (`predicate_label_ids`, `predicate_scores`).
    loss : the head's loss, with gold labels.
    """

    indices: torch.Tensor
    uses_predicted: bool = False
    pos_ids: Optional[torch.Tensor] = None
    outputs: dict[str, Any] = field(default_factory=dict)
    loss: Optional[torch.Tensor] = None


def frame_predicates(
    head: Optional[PredicateFinder],
    source: str,
    training: bool,
    given_indices: torch.Tensor,
    batch: tuple[Optional[EncodedSentences], torch.Tensor, BatchInputs, Optional[Sequence[SentenceMetadata]]],
    update_metrics: bool,
) -> FramePredicates:
    """Run the predicate head (if any) and choose the predicates to score.

    # Parameters

    head : the predicate head, or None (then every sentence must come with its predicates).
    source : `"gold"` or `"predicted"`: where predicates come from when not training.
    given_indices : `(batch, num_frames)` the data's or the request's predicates, padded with -1.
    batch : the sentence encodings, `mask (batch, seq_len)`, the side inputs and the metadata.
    update_metrics : whether the head scores this batch.
    """
    sentences, mask, inputs, metadata = batch
    if head is None:
        if metadata is not None and not all(sentence.predicates_given for sentence in metadata):
            raise ValueError(NO_PREDICATE_HEAD)
        return FramePredicates(given_indices)
    found = head(sentences, mask, inputs, update_metrics=update_metrics)  # type: ignore[arg-type]
    outputs: dict[str, Any] = {"predicate_label_ids": found.label_ids}
    if found.scores is not None:
        outputs["predicate_scores"] = found.scores
    chosen = FramePredicates(given_indices, False, found.pos_ids, outputs, found.loss)
    if not training:
        is_predicate = found.label_ids != head.not_a_predicate
        chosen.indices, chosen.uses_predicted = choose_predicates(source, given_indices, is_predicate, metadata)
    return chosen
