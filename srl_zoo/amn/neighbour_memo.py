"""The associated memory's neighbours, memoised per query: the training queries' all at once (from the neighbour
cache file when it matches the bank, selector and m), any other query's when first asked."""

from typing import Optional

from srl_zoo.amn.memory_bank import MemoryBank, MemoryQuery
from srl_zoo.amn.neighbour_cache import fingerprint, read_cache, training_neighbours, write_cache
from srl_zoo.amn.selectors import NeighbourSelector


class NeighbourMemo:
    """Bank entries per query, nearest first.

    # Parameters

    selector : chooses the neighbours (built on the bank).
    num_neighbours : m, the most neighbours per query.
    cache_path : a JSON file for the training queries' neighbours (written if absent or stale), or None.
    """

    def __init__(self, selector: NeighbourSelector, num_neighbours: int, cache_path: Optional[str] = None) -> None:
        self.selector = selector
        self.num_neighbours = num_neighbours
        self.cache_path = cache_path
        self.found: dict[str, list[int]] = {}
        self.training_ready = False

    def forget(self) -> None:
        """Drop what was found (a new bank was installed)."""
        self.found = {}
        self.training_ready = False

    def neighbours(self, queries: list[MemoryQuery]) -> list[list[int]]:
        """Bank entries per query, nearest first."""
        keys = [q.key() for q in queries]
        missing = {key: q for key, q in zip(keys, queries, strict=False) if key not in self.found}
        if missing:
            chosen = self.selector.select(list(missing.values()), self.num_neighbours)
            self.found.update(zip(missing, chosen, strict=False))
        return [self.found[key] for key in keys]

    def prepare_training(self, bank: MemoryBank) -> None:
        """All training queries' neighbours in one pass, from the cache file when it matches; once."""
        if self.training_ready:
            return
        expected = fingerprint(bank, self.selector, self.num_neighbours)
        cached = read_cache(self.cache_path, expected)
        if cached is None:
            cached = training_neighbours(bank, self.selector, self.num_neighbours)
            if self.cache_path:
                write_cache(self.cache_path, expected, cached)
        self.found.update(cached)
        self.training_ready = True
