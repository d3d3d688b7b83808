"""Where each sentence's predicates come from when not training: the data's (gold) or a head's."""

from collections.abc import Sequence
from typing import Optional

import torch

from srl_zoo.data.sentence_metadata import SentenceMetadata

PREDICATE_SOURCES = ("gold", "predicted")


def check_predicate_source(source: str, has_head: bool) -> None:
    """A clear `ValueError` for an unknown source, or `"predicted"` without a predicate head."""
    if source not in PREDICATE_SOURCES:
        raise ValueError(f"predicate_source must be one of {PREDICATE_SOURCES}, got {source!r}")
    if source == "predicted" and not has_head:
        raise ValueError(
            "predicate_source 'predicted' needs a model with a predicate head (predicate_identification: "
            "true, or a predicate_head)"
        )


def sentences_using_predicted(source: str, metadata: Optional[Sequence[SentenceMetadata]], batch: int) -> torch.Tensor:
    """`(batch,)` bool: all sentences with `"predicted"`, else those given without predicates (raw text)."""
    if source == "predicted":
        return torch.ones(batch, dtype=torch.bool)
    given = [sentence.predicates_given for sentence in metadata] if metadata is not None else [True] * batch
    return ~torch.tensor(given, dtype=torch.bool)


def merge_predicted_predicates(
    gold_indices: torch.Tensor, is_predicate: torch.Tensor, uses_predicted: torch.Tensor
) -> torch.Tensor:
    """Predicate indices `(batch, num_frames')`: the predicted ones for the flagged sentences, the gold
    ones for the rest, padded with -1.

    # Parameters

    gold_indices : `(batch, num_frames)` padded with -1.
    is_predicate : `(batch, seq_len)` bool, the head's predicates.
    uses_predicted : `(batch,)` bool.
    """
    is_predicate = is_predicate.cpu()
    per_sentence = []
    for b in range(gold_indices.size(0)):
        if uses_predicted[b]:
            per_sentence.append(is_predicate[b].nonzero(as_tuple=False).squeeze(1).tolist())
        else:
            per_sentence.append([i for i in gold_indices[b].tolist() if i >= 0])
    width = max((len(p) for p in per_sentence), default=0)
    merged = torch.full((gold_indices.size(0), width), -1, dtype=torch.long)
    for b, indices in enumerate(per_sentence):
        merged[b, : len(indices)] = torch.tensor(indices, dtype=torch.long)
    return merged.to(gold_indices.device)


def choose_predicates(
    source: str,
    gold_indices: torch.Tensor,
    is_predicate: torch.Tensor,
    metadata: Optional[Sequence[SentenceMetadata]],
) -> tuple[torch.Tensor, bool]:
    """The predicate indices to label when not training, and whether any sentence uses predicted ones
    (see `sentences_using_predicted` and `merge_predicted_predicates` for the parameters)."""
    uses_predicted = sentences_using_predicted(source, metadata, gold_indices.size(0))
    if not uses_predicted.any():
        return gold_indices, False
    return merge_predicted_predicates(gold_indices, is_predicate, uses_predicted), True
