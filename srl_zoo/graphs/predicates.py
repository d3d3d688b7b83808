"""The predicate head's decoding in numpy (as `srl_zoo.parts.heads.predicate_tagger` decodes in torch): each
token's label, senses restricted to those its word may take, its score, and the predicates each sentence's frames
are labeled for."""

from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

from srl_zoo.data.formats.labels import NO_PREDICATE_HEAD
from srl_zoo.frames.readable_frames import frame_file_senses
from srl_zoo.parts.heads.sense_table import SenseTable


def softmax(logits: np.ndarray) -> np.ndarray:
    """The softmax over the last axis, float32."""
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return (shifted / shifted.sum(axis=-1, keepdims=True)).astype(np.float32)


class PredicateDecoder:
    """A `tagger` head's decoding from its logits (the manifest's `predicate_head`).

    # Parameters

    settings : `labels`, `not_a_predicate`, `senses` (word → labels, or None) and `frame_file_senses`.
    """

    def __init__(self, settings: dict[str, Any]) -> None:
        self.labels: list[str] = list(settings["labels"])
        self.not_a_predicate = int(settings["not_a_predicate"])
        self.senses: Optional[SenseTable] = None
        if settings.get("senses") is not None:
            index_to_label = dict(enumerate(self.labels))
            unseen = frame_file_senses if settings.get("frame_file_senses") else None
            self.senses = SenseTable(index_to_label, self.not_a_predicate, unseen_senses=unseen)
            self.senses.load_json(settings["senses"])

    def label_of(self, label_id: int) -> str:
        """The predicate label (`-`, `01`, `Y`, ...) of `label_id`."""
        return self.labels[label_id]

    def decode(
        self, logits: np.ndarray, word_mask: np.ndarray, words: Sequence[Sequence[str]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each token's label id `(batch, num_words)` (`-` on padding) and its score `(batch, num_words)`.

        # Parameters

        logits : `(batch, num_words, num_labels)`; word_mask : `(batch, num_words)` bool; words : per sentence.
        """
        label_ids = np.where(word_mask, logits.argmax(-1), self.not_a_predicate)
        if self.senses is not None:
            label_ids = self.senses.restrict(logits, label_ids, words)
        probabilities = softmax(logits.astype(np.float32))
        chosen = np.take_along_axis(probabilities, label_ids[..., None], axis=-1)[..., 0]
        scores = np.where(label_ids != self.not_a_predicate, chosen, 1.0 - probabilities[..., self.not_a_predicate])
        return label_ids, scores.astype(np.float32)


def chosen_predicates(given: Sequence[Optional[list[int]]], is_predicate: Optional[np.ndarray]) -> np.ndarray:
    """`(batch, num_frames)` int64 the predicates to label, -1 padded: each sentence's given ones, else the head's.

    # Parameters

    given : per sentence its predicate indices, None where the head is to find them.
    is_predicate : `(batch, num_words)` bool the head's predicates (None without a head: all must be given).
    """
    chosen = []
    for row, indices in enumerate(given):
        if indices is not None:
            chosen.append(list(indices))
        elif is_predicate is None:
            raise ValueError(NO_PREDICATE_HEAD)
        else:
            chosen.append(np.flatnonzero(is_predicate[row]).tolist())
    width = max((len(indices) for indices in chosen), default=0)
    table = np.full((len(chosen), width), -1, dtype=np.int64)
    for row, indices in enumerate(chosen):
        table[row, : len(indices)] = indices
    return table
