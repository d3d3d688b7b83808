"""AMN's best selector: edit distance between POS sequences (exact, pruned search in `NeighbourIndex`)."""

from typing import Optional

from srl_zoo.amn.memory_bank import MemoryBank, MemoryQuery
from srl_zoo.amn.neighbour_index import NeighbourIndex, words_key
from srl_zoo.amn.selectors.selector import NeighbourSelector, WordVectors


@NeighbourSelector.register("edit_distance")
class EditDistanceSelector(NeighbourSelector):
    """The m entries whose predicate-marked POS sequences are nearest by Levenshtein distance (ties by
    entry order); exact (see `NeighbourIndex`)."""

    needs_pos = True

    def __init__(self) -> None:
        self.index: Optional[NeighbourIndex] = None

    def build(self, bank: MemoryBank, word_vectors: Optional[WordVectors] = None) -> None:
        if not bank.has_pos():
            raise ValueError("the edit_distance selector needs POS tags in the memory's training data")
        self.index = NeighbourIndex.from_parts(
            [bank.entry_pos(e) for e in range(len(bank))],  # type: ignore[misc]
            bank.predicates,
            [bank.words_keys[s] for s in bank.sentence_of],
            bank.sentence_of,
        )

    def select(self, queries: list[MemoryQuery], m: int) -> list[list[int]]:
        assert self.index is not None, "build() first"
        # every query has POS tags here: the memory refuses a model without them before it queries
        found = self.index.query_many(
            [(q.pos, q.predicate, words_key(q.words) if q.exclude_same_words else None) for q in queries],  # type: ignore[misc]
            m,
        )
        return [[entry for entry, _ in neighbours] for neighbours in found]
