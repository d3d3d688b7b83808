"""What the network hands a frame-feature source (AMN's memory, a marked-predicate transformer) for one batch."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import torch

from srl_zoo.data.sentence_metadata import SentenceMetadata


@dataclass
class FrameFeatureInputs:
    """One batch as a frame-feature source reads it.

    # Parameters

    embedded : `(batch, seq_len, dim)` the word embeddings.
    mask : `(batch, seq_len)` bool.
    predicate_indices : `(batch, num_frames)`, -1 for padding (gold or predicted predicates).
    metadata : per sentence its `SentenceMetadata` (`words`, and `pos` when given), or `None`.
    predicted_pos : `(batch, seq_len)` ids in the `pos` namespace from a POS-tagging head, if any.
    tokens : what the embedder read (allennlp's `tokens` field as the indexers made it: word pieces and their
        offsets), or None.
    """

    embedded: torch.Tensor
    mask: torch.Tensor
    predicate_indices: torch.Tensor
    metadata: Optional[Sequence[SentenceMetadata]] = None
    predicted_pos: Optional[torch.Tensor] = None
    tokens: Optional[Any] = None
