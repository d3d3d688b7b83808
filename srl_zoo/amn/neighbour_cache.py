"""The training queries' neighbours, computed once per (training file, selector, m) and kept in a JSON
file that later runs reuse (written by the `srl-neighbours` command or by the first training run)."""

import hashlib
import json
import logging
import os
from typing import Optional

from srl_zoo.amn.memory_bank import MemoryBank
from srl_zoo.amn.selectors import NeighbourSelector
from srl_zoo.data.formats.io_utils import atomic_write

logger = logging.getLogger(__name__)


def fingerprint(bank: MemoryBank, selector: NeighbourSelector, m: int) -> str:
    """Identifies the bank's entries, the selector (with its seed) and m: a cache of other ones is stale."""
    digest = hashlib.sha1()
    for sentence, predicate in zip(bank.sentence_of, bank.predicates, strict=False):
        digest.update(f"{bank.words_keys[sentence]}{predicate};".encode())
    digest.update(f"{type(selector).__name__}{vars(selector).get('seed', '')}".encode())
    return f"{digest.hexdigest()}-{m}"


def training_neighbours(bank: MemoryBank, selector: NeighbourSelector, m: int) -> dict[str, list[int]]:
    """Query key -> entries, for every bank entry as a query (its own sentence excluded)."""
    queries = bank.training_queries()
    return {query.key(): found for query, found in zip(queries, selector.select(queries, m), strict=False)}


def read_cache(path: Optional[str], expected_fingerprint: str) -> Optional[dict[str, list[int]]]:
    """The cached neighbours, or `None` when there is no file or it was built for something else."""
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    if data.get("fingerprint") != expected_fingerprint:
        logger.warning("%s was built for other data or settings: not using it", path)
        return None
    return data["neighbours"]


def write_cache(path: str, cache_fingerprint: str, neighbours: dict[str, list[int]]) -> None:
    """Write atomically (a temporary file renamed), so an interrupted run leaves no broken cache."""
    with atomic_write(path) as handle:
        json.dump({"fingerprint": cache_fingerprint, "neighbours": neighbours}, handle)
