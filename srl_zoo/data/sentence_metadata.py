"""What the reader keeps of each sentence beside its tensors (the Instance's `metadata` field): typed, so that
the parts that read it name its fields instead of a dict's keys."""

from dataclasses import dataclass, field
from typing import Any, Optional

from srl_zoo.data.formats.sentence import SrlSentence


@dataclass(frozen=True)
class SentenceMetadata:
    """One sentence's words and what was given with it.

    # Parameters

    words : the sentence's tokens.
    predicates_given : whether the predicates were given (gold data or a request that names them); False:
        the model's predicate head is to find them.
    predicate_indices : the given predicates' token indices, in frame order.
    predicate_lemmas, predicate_senses : per given predicate its lemma and sense (None where the data has none).
    heads_given : whether dependency heads came with a request (LISA then attends to that parse).
    pos : the sentence's POS tags, from the data or a request; None: none given.
    sentence : the gold `SrlSentence` when read from annotated data, for scoring; None for raw text.
    """

    words: list[str]
    predicates_given: bool = True
    predicate_indices: list[int] = field(default_factory=list)
    predicate_lemmas: list[Optional[str]] = field(default_factory=list)
    predicate_senses: list[Optional[str]] = field(default_factory=list)
    heads_given: bool = False
    pos: Optional[list[str]] = None
    sentence: Optional[SrlSentence] = None


def metadata_of(instance: Any) -> SentenceMetadata:
    """The `SentenceMetadata` an srl_zoo reader put in `instance`'s (an allennlp `Instance`) `metadata` field."""
    metadata = instance["metadata"].metadata  # type: ignore[attr-defined]
    if not isinstance(metadata, SentenceMetadata):
        raise TypeError(f"not an srl_zoo reader's instance: its metadata is a {type(metadata).__name__}")
    return metadata
