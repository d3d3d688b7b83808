"""AMN's control: random associated sentences (reproducible per query)."""

import zlib
from typing import Optional

import numpy as np

from srl_zoo.amn.memory_bank import MemoryBank, MemoryQuery
from srl_zoo.amn.neighbour_index import words_key
from srl_zoo.amn.selectors.selector import NeighbourSelector, WordVectors


@NeighbourSelector.register("random")
class RandomSelector(NeighbourSelector):
    """m distinct random entries per query, drawn from a generator seeded by the query itself (the same
    query always gets the same entries), skipping the query's own word sequence when asked.

    # Parameters

    seed : mixed into every query's seed.
    """

    def __init__(self, seed: int = 13) -> None:
        self.seed = seed
        self.bank: Optional[MemoryBank] = None

    def build(self, bank: MemoryBank, word_vectors: Optional[WordVectors] = None) -> None:
        self.bank = bank

    def select(self, queries: list[MemoryQuery], m: int) -> list[list[int]]:
        assert self.bank is not None, "build() first"
        bank = self.bank
        chosen = []
        for query in queries:
            generator = np.random.default_rng([self.seed, zlib.crc32(query.key().encode("utf-8"))])
            own = words_key(query.words) if query.exclude_same_words else None
            picked: list[int] = []
            for _ in range(100):  # draws with replacement; repeats and the own sentence are skipped
                for entry in generator.integers(0, len(bank), size=2 * m).tolist():
                    own_sentence = own is not None and bank.words_keys[bank.sentence_of[entry]] == own
                    if len(picked) < m and entry not in picked and not own_sentence:
                        picked.append(entry)
                if len(picked) == m:
                    break
            chosen.append(picked)
        return chosen
