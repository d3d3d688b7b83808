"""What the Model hands the parts that read more of a batch than its words: the sentence encoder (LISA's
given parse), the predicate heads and the auxiliary tasks. One typed record instead of a dict of fields."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Optional

import torch

from srl_zoo.data.sentence_metadata import SentenceMetadata


@dataclass(frozen=True)
class BatchInputs:
    """One batch's side inputs; a field is None when the batch has none (raw text has no gold labels).

    # Parameters

    training : whether the Model is training (gold parses are then always attended to).
    sentences : per sentence its `SentenceMetadata` (words, what was given with it), or None.
    predicate_labels : `(batch, seq_len)` gold predicate label ids (`predicate_senses` namespace).
    pos_tags : `(batch, seq_len)` gold POS ids (`pos` namespace).
    pos_predicate_labels : `(batch, seq_len)` gold joint `POS/predicate` ids (`pos_predicate` namespace).
    dependency_heads : `(batch, seq_len)` gold or given heads, 1-based (0: the root).
    dependency_labels : `(batch, seq_len)` gold relation ids (`dependency_relations` namespace).
    """

    training: bool = False
    sentences: Optional[Sequence[SentenceMetadata]] = None
    predicate_labels: Optional[torch.Tensor] = None
    pos_tags: Optional[torch.Tensor] = None
    pos_predicate_labels: Optional[torch.Tensor] = None
    dependency_heads: Optional[torch.Tensor] = None
    dependency_labels: Optional[torch.Tensor] = None

    @classmethod
    def of_batch(
        cls, training: bool, sentences: Optional[Sequence[SentenceMetadata]], batch: Mapping[str, Any]
    ) -> "BatchInputs":
        """The side inputs of a batch's fields (`batch`: the Model's other keyword arguments), each taken by
        its name here; a field the batch lacks is None."""
        tensors: dict[str, Any] = {field.name: batch.get(field.name) for field in fields(cls)}
        return cls(**{**tensors, "training": training, "sentences": sentences})

    @property
    def words(self) -> Optional[list[list[str]]]:
        """Each sentence's words, or None without sentences."""
        return None if self.sentences is None else [sentence.words for sentence in self.sentences]

    def heads_given(self, batch: int) -> list[bool]:
        """Per sentence whether its dependency heads came with the request (False without sentences)."""
        return [False] * batch if self.sentences is None else [sentence.heads_given for sentence in self.sentences]
