"""The labeled (sentence, predicate) pairs that AMN's associated memory retrieves: read once from the
training file, kept inside the model (its state dict), so that an archive predicts without the data."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from allennlp.common import Params
from allennlp.data import DatasetReader

from srl_zoo.amn.neighbour_index import words_key
from srl_zoo.data.formats import SrlSentence


@dataclass
class MemoryQuery:
    """One (sentence, predicate) that needs neighbours.

    words : the sentence's tokens; pos : its POS tags (`None` when unknown); predicate : token index;
    exclude_same_words : skip memory entries with the same word sequence (for training sentences).
    """

    words: Sequence[str]
    pos: Optional[Sequence[str]]
    predicate: int
    exclude_same_words: bool = False

    def key(self) -> str:
        """Identifies the query for caching (the POS sequence is part of it: neighbours depend on it)."""
        pos = words_key(self.pos) if self.pos is not None else "-"
        return f"{words_key(self.words)}|{self.predicate}|{pos}|{int(self.exclude_same_words)}"


class MemoryBank:
    """Sentences (words, POS) and their frames as entries: entry `e` is the predicate
    `predicates[e]` of sentence `sentence_of[e]`, with BIO tags `tags[e]` (one per token). Every
    sentence has at least one entry (`from_sentences` leaves sentences without frames out).

    # Parameters

    words, pos : per sentence.
    sentence_of, predicates, tags : per entry.
    """

    def __init__(
        self,
        words: list[list[str]],
        pos: list[Optional[list[str]]],
        sentence_of: list[int],
        predicates: list[int],
        tags: list[list[str]],
    ) -> None:
        self.words = words
        self.pos = pos
        self.sentence_of = sentence_of
        self.predicates = predicates
        self.tags = tags
        self.words_keys = [words_key(w) for w in words]

    @classmethod
    def from_sentences(cls, sentences: Iterable[SrlSentence]) -> "MemoryBank":
        """One entry per frame of every sentence (sentences without frames are left out)."""
        words: list[list[str]] = []
        pos: list[Optional[list[str]]] = []
        sentence_of, predicates, tags = [], [], []
        for sentence in sentences:
            if not sentence.frames:
                continue
            for frame in sentence.frames:
                sentence_of.append(len(words))
                predicates.append(frame.index)
                tags.append(frame.bio_tags(len(sentence.tokens)))
            words.append(list(sentence.tokens))
            pos.append(list(sentence.pos) if sentence.pos is not None else None)
        return cls(words, pos, sentence_of, predicates, tags)

    @classmethod
    def read(cls, path: str, reader: dict[str, Any]) -> "MemoryBank":
        """The bank of a data file, parsed by the srl_zoo dataset reader these parameters build
        (e.g. `{"type": "conll2009"}`)."""
        dataset_reader = DatasetReader.from_params(Params(dict(reader)))
        return cls.from_sentences(dataset_reader.sentences(path))  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self.predicates)

    def entry_words(self, entry: int) -> list[str]:
        return self.words[self.sentence_of[entry]]

    def entry_pos(self, entry: int) -> Optional[list[str]]:
        return self.pos[self.sentence_of[entry]]

    def has_pos(self) -> bool:
        return all(p is not None for p in self.pos)

    def training_queries(self) -> list[MemoryQuery]:
        """Every entry as a query for its own neighbours (its own sentence excluded)."""
        return [
            MemoryQuery(self.entry_words(e), self.entry_pos(e), self.predicates[e], exclude_same_words=True)
            for e in range(len(self))
        ]

    def to_state(self) -> dict[str, Any]:
        """Plain lists and strings (what `torch.load(weights_only=True)` accepts)."""
        return {
            "words": self.words,
            "pos": self.pos,
            "sentence_of": self.sentence_of,
            "predicates": self.predicates,
            "tags": self.tags,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> "MemoryBank":
        return cls(state["words"], state["pos"], state["sentence_of"], state["predicates"], state["tags"])
