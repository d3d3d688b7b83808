"""The associated memory's queries: one per (sentence, predicate) row of a batch, with the POS its `pos_source`
says (the data's, the model's tagger's, or the data's where given)."""

from collections.abc import Sequence
from typing import Optional

from srl_zoo.amn.memory_bank import MemoryQuery
from srl_zoo.data.sentence_metadata import SentenceMetadata

#: where the POS of sentences to label comes from
POS_SOURCES = ("auto", "data", "tagger")


def memory_queries(
    rows: list[list[int]],
    metadata: Sequence[SentenceMetadata],
    predicted_pos: Optional[list[list[str]]],
    needs_pos: bool,
    pos_source: str,
    training: bool,
) -> list[MemoryQuery]:
    """One query per `[sentence, predicate]` row (in training, a sentence's own bank entries left out).

    # Parameters

    rows : `[sentence index, predicate index]` per frame.
    metadata : per sentence its words and, when given, its POS.
    predicted_pos : per sentence the model's tagger's POS, or None.
    needs_pos : whether the selector reads POS (else queries carry none).
    pos_source : one of `POS_SOURCES`.
    training : whether the model is training (the data's POS is then always read).
    """
    queries = []
    for sentence, predicate in rows:
        meta = metadata[sentence]
        predicted = predicted_pos[sentence] if predicted_pos is not None else None
        pos = pos_of(meta, predicted, pos_source, training) if needs_pos else None
        queries.append(MemoryQuery(meta.words, pos, predicate, exclude_same_words=training))
    return queries


def pos_of(meta: SentenceMetadata, predicted: Optional[list[str]], pos_source: str, training: bool) -> list[str]:
    """The POS of one sentence as `pos_source` says; a `ValueError` saying what to give where there is none."""
    given = meta.pos
    if training or pos_source == "data" or (pos_source == "auto" and given is not None):
        if given is None:
            raise ValueError(
                "the associated memory (edit_distance selector) needs POS tags: give 'pos' with each sentence "
                f"(pos_source: {pos_source!r}); sentence: {' '.join(meta.words[:12])} ..."
            )
        return list(given)
    if predicted is None:
        raise ValueError(
            "the associated memory needs POS tags and this model has no POS tagger: give 'pos' with each "
            "sentence, or train with a POS-predicting head (e.g. 'joint_pos_predicate')"
        )
    return predicted
