"""AMN's neighbour selection (Guan et al. 2019): for every (sentence, predicate), the m training
(sentence, predicate) pairs whose POS sequences are nearest by edit distance, found exactly and fast.

The paper's authors computed all pairs offline (tens of CPU-hours for CoNLL-2009 English). Here:
- each (sentence, predicate) is a string of POS symbols with the predicate's tag marked (so that the
  distance also sees where and what the predicate is); edit distances come from rapidfuzz (C++);
- candidates are grouped by length, and a query scans lengths outward from its own: since the edit
  distance is at least the length difference, the scan stops as soon as the length difference
  exceeds the m-th best distance found, which makes the pruning exact (no neighbour is lost);
- for a training query, pairs with the same word sequence (the sentence itself, its other
  predicates, duplicate sentences) are excluded.
"""

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

from srl_zoo.data.formats import SrlSentence
from srl_zoo.data.formats.io_utils import atomic_write

NO_NEIGHBOUR = -1
EXCLUDED = np.iinfo(np.int32).max  # the distance of a candidate that may not be chosen


@dataclass
class IndexEntry:
    """One (sentence, predicate) of the training file."""

    sentence: int  # position of the sentence in the file
    predicate: int  # token index of the predicate
    symbols: str  # the POS sequence, one character per tag, the predicate's marked
    words_key: str  # identifies the word sequence (for excluding the same sentence)


class NeighbourIndex:
    """Exact m-nearest (sentence, predicate) pairs by edit distance over marked POS sequences.

    # Parameters

    entries : the training pairs.
    alphabet : POS tag -> symbol (predicate-marked tags are separate symbols); extended by queries
        with unseen tags (which then match nothing).
    """

    def __init__(self, entries: list[IndexEntry], alphabet: dict[str, str]) -> None:
        self.entries = entries
        self.alphabet = alphabet
        self._by_length: dict[int, np.ndarray] = {}
        lengths = np.array([len(e.symbols) for e in entries], dtype=np.int64)
        for length in np.unique(lengths):
            self._by_length[int(length)] = np.flatnonzero(lengths == length)
        self._symbols = [e.symbols for e in entries]
        self._words_keys = np.array([e.words_key for e in entries])
        self._max_length = int(lengths.max()) if len(entries) else 0

    @classmethod
    def from_sentences(cls, sentences: Iterable[SrlSentence]) -> "NeighbourIndex":
        """One entry per predicate of every sentence (POS tags from the file: `SrlSentence.pos`)."""
        pos: list[Sequence[str]] = []
        predicates: list[int] = []
        keys: list[str] = []
        sentence_of: list[int] = []
        for number, sentence in enumerate(sentences):
            if sentence.pos is None:
                raise ValueError(f"{sentence.source or f'sentence {number}'}: neighbour search needs POS tags")
            key = words_key(sentence.tokens)
            for frame in sentence.frames:
                pos.append(sentence.pos)
                predicates.append(frame.index)
                keys.append(key)
                sentence_of.append(number)
        return cls.from_parts(pos, predicates, keys, sentence_of)

    @classmethod
    def from_parts(
        cls, pos: Sequence[Sequence[str]], predicates: Sequence[int], keys: Sequence[str], sentence_of: Sequence[int]
    ) -> "NeighbourIndex":
        """One entry per (POS sequence, predicate), in the given order (e.g. a `MemoryBank`'s entries)."""
        alphabet: dict[str, str] = {}
        entries = [
            IndexEntry(sentence, predicate, encode(tags, predicate, alphabet), key)
            for tags, predicate, key, sentence in zip(pos, predicates, keys, sentence_of, strict=False)
        ]
        return cls(entries, alphabet)

    def __len__(self) -> int:
        return len(self.entries)

    def query_many(
        self, queries: Sequence[tuple[Sequence[str], int, Optional[str]]], m: int = 4
    ) -> list[list[tuple[int, int]]]:
        """`query` for many `(pos, predicate, excluded words key or None)` at once (searched together by length)."""
        symbols = [encode(pos, predicate, self.alphabet) for pos, predicate, _ in queries]
        return self._search(symbols, [excluded for _, _, excluded in queries], m)

    def query(
        self, pos: Sequence[str], predicate: int, m: int = 4, exclude_words: Optional[Sequence[str]] = None
    ) -> list[tuple[int, int]]:
        """The m nearest entries `(entry index, distance)` for one (sentence, predicate), nearest first;
        entries with the word sequence `exclude_words` are skipped."""
        symbols = encode(pos, predicate, self.alphabet)
        excluded = words_key(exclude_words) if exclude_words is not None else None
        return self._search([symbols], [excluded], m)[0]

    def training_neighbours(self, m: int = 4) -> np.ndarray:
        """`(len(self), m)` entry indices (nearest first, `NO_NEIGHBOUR` where fewer exist) for every
        training pair, its own sentence and duplicates of it excluded."""
        table = np.full((len(self), m), NO_NEIGHBOUR, dtype=np.int64)
        for members in self._by_length.values():
            found = self._search([self._symbols[i] for i in members], [self._words_keys[i] for i in members], m)
            for row, neighbours in zip(members, found, strict=False):
                table[row, : len(neighbours)] = [index for index, _ in neighbours]
        return table

    def _search(self, queries: list[str], excluded: list[Optional[str]], m: int) -> list[list[tuple[int, int]]]:
        """Exact m-nearest search: per query length, candidate lengths are scanned outward (gap 0, 1,
        ...) and a query stops once its m-th best distance is at most the gap (every candidate
        further out is at least the gap away). Distances, exclusions and the running top-m are
        computed for all active queries of a length at once."""
        # imported here, where it is used: importing srl_zoo (to label text) does not need rapidfuzz
        from rapidfuzz.distance import Levenshtein
        from rapidfuzz.process import cdist

        best_distance = np.full((len(queries), m), EXCLUDED, dtype=np.int64)
        best_index = np.full((len(queries), m), NO_NEIGHBOUR, dtype=np.int64)
        excluded_keys = np.array([key if key is not None else "" for key in excluded])
        by_query_length: dict[int, list[int]] = {}
        for q, symbols in enumerate(queries):
            by_query_length.setdefault(len(symbols), []).append(q)
        for length, members in by_query_length.items():
            active = np.array(members)
            for gap in range(0, max(self._max_length, length) + 1):
                active = active[best_distance[active, m - 1] > gap]
                if not len(active):
                    break
                for candidate_length in {length - gap, length + gap}:
                    candidates = self._by_length.get(candidate_length)
                    if candidates is None:
                        continue
                    distances = cdist(
                        [queries[q] for q in active],
                        [self._symbols[i] for i in candidates],
                        scorer=Levenshtein.distance,
                        dtype=np.int64,
                    )  # (active, candidates)
                    same_words = self._words_keys[candidates][None, :] == excluded_keys[active][:, None]
                    distances[same_words] = EXCLUDED
                    merged_distance = np.concatenate([best_distance[active], distances], axis=1)
                    merged_index = np.concatenate([best_index[active], np.broadcast_to(candidates, distances.shape)], 1)
                    order = np.lexsort((merged_index, merged_distance), axis=1)[:, :m]  # by distance, then index
                    best_distance[active] = np.take_along_axis(merged_distance, order, axis=1)
                    best_index[active] = np.take_along_axis(merged_index, order, axis=1)
        return [
            [(int(i), int(d)) for i, d in zip(indices, distances, strict=False) if d != EXCLUDED]
            for indices, distances in zip(best_index, best_distance, strict=False)
        ]

    def save(self, path: str) -> None:
        """Write the index as JSON (atomically)."""
        data = {
            "alphabet": self.alphabet,
            "entries": [[e.sentence, e.predicate, e.symbols, e.words_key] for e in self.entries],
        }
        with atomic_write(path) as handle:
            json.dump(data, handle, ensure_ascii=False)

    @classmethod
    def load(cls, path: str) -> "NeighbourIndex":
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        return cls([IndexEntry(*entry) for entry in data["entries"]], data["alphabet"])


def encode(pos: Sequence[str], predicate: int, alphabet: dict[str, str]) -> str:
    """One character per POS tag; the predicate's tag is its own symbol (`VBD*`)."""
    symbols = []
    for i, tag in enumerate(pos):
        name = tag + "*" if i == predicate else tag
        if name not in alphabet:
            alphabet[name] = chr(0x100 + len(alphabet))
        symbols.append(alphabet[name])
    return "".join(symbols)


def words_key(words: Sequence[str]) -> str:
    """A short fingerprint of a word sequence."""
    return hashlib.sha1("\u0001".join(words).encode("utf-8")).hexdigest()[:16]
