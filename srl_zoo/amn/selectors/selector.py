"""The registrable neighbour selector: the m memory entries nearest to each (sentence, predicate)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Optional

import torch
from allennlp.common import Registrable

from srl_zoo.amn.memory_bank import MemoryBank, MemoryQuery


@dataclass
class WordVectors:
    """vectors : `(vocab_size, dim)`; index : word -> row (unknown words -> an OOV row)."""

    vectors: torch.Tensor
    index: Callable[[str], int]

    def of(self, words: Sequence[str]) -> torch.Tensor:
        """`(len(words), dim)`."""
        return self.vectors[torch.tensor([self.index(w) for w in words], dtype=torch.long)]


class NeighbourSelector(Registrable):
    """Finds, for each query, up to m entries of a `MemoryBank`, nearest first; a query with
    `exclude_same_words` never gets an entry with its own word sequence.

    Implementations: `"edit_distance"` (Levenshtein over POS sequences, the paper's best), `"sif"`,
    `"relaxed_wmd"` (over word vectors) and `"random"`.
    """

    default_implementation = "edit_distance"
    #: whether queries and the bank need POS tags
    needs_pos: bool = False
    #: whether `build` needs `WordVectors`
    needs_word_vectors: bool = False

    def build(self, bank: MemoryBank, word_vectors: Optional[WordVectors] = None) -> None:
        """Prepare the search over `bank` (called once per bank)."""
        raise NotImplementedError

    def select(self, queries: list[MemoryQuery], m: int) -> list[list[int]]:
        """Entry indices per query, nearest first (fewer than m where the bank has fewer candidates)."""
        raise NotImplementedError


def entries_by_sentence(bank: MemoryBank) -> list[list[int]]:
    """The entries (predicates) of each bank sentence."""
    by_sentence: list[list[int]] = [[] for _ in bank.words]
    for entry, sentence in enumerate(bank.sentence_of):
        by_sentence[sentence].append(entry)
    return by_sentence


def closest_predicate(bank: MemoryBank, entries: list[int], query: MemoryQuery) -> int:
    """Of one sentence's entries, the one whose predicate sits at the most similar relative position
    (sentence-level distances cannot tell a sentence's predicates apart)."""
    where = query.predicate / max(len(query.words), 1)
    return min(entries, key=lambda e: abs(bank.predicates[e] / max(len(bank.entry_words(e)), 1) - where))
