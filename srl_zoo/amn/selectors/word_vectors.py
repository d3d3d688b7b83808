"""AMN's selectors over word vectors: SIF sentence embeddings (Arora et al. 2017) and the relaxed word
mover's distance (Kusner et al. 2015). Both compare sentences, so a neighbour sentence's predicate is
the one at the most similar relative position."""

from collections import Counter
from typing import Optional

import numpy as np
import torch

from srl_zoo.amn.memory_bank import MemoryBank, MemoryQuery
from srl_zoo.amn.neighbour_index import words_key
from srl_zoo.amn.selectors.selector import NeighbourSelector, WordVectors, closest_predicate, entries_by_sentence

QUERY_CHUNK = 512


class _SentenceSelector(NeighbourSelector):
    """Shared parts: the bank's sentences, their word-sequence keys and entries."""

    needs_word_vectors = True

    def build(self, bank: MemoryBank, word_vectors: Optional[WordVectors] = None) -> None:
        if word_vectors is None:
            raise ValueError(f"the {type(self).__name__} needs word vectors")
        self.bank = bank
        self.word_vectors = word_vectors
        self.entries = entries_by_sentence(bank)
        self.keys = np.array(bank.words_keys)

    def _excluded(self, queries: list[MemoryQuery]) -> torch.Tensor:
        """`(queries, sentences)` bool: sentences a query may not take (its own words)."""
        own = np.array([words_key(q.words) if q.exclude_same_words else "" for q in queries])
        return torch.from_numpy(own[:, None] == self.keys[None, :])

    def _entries(self, queries: list[MemoryQuery], sentences: torch.Tensor, allowed: torch.Tensor) -> list[list[int]]:
        """Map the chosen sentences `(queries, m)` (with `allowed` flags) to entries."""
        return [
            [closest_predicate(self.bank, self.entries[s], query) for s, ok in zip(row, flags, strict=False) if ok]
            for query, row, flags in zip(queries, sentences.tolist(), allowed.tolist(), strict=False)
        ]


@NeighbourSelector.register("sif")
class SifSelector(_SentenceSelector):
    """Nearest sentences by cosine similarity of SIF embeddings: word vectors weighted by
    `a / (a + p(word))` (p: the bank's unigram frequencies), averaged, with the projection on the
    bank's first singular vector removed.

    # Parameters

    a : the SIF smoothing constant (Arora et al.: 1e-3).
    """

    def __init__(self, a: float = 1e-3) -> None:
        self.a = a

    def build(self, bank: MemoryBank, word_vectors: Optional[WordVectors] = None) -> None:
        super().build(bank, word_vectors)
        counts = Counter(w for words in bank.words for w in words)
        total = max(sum(counts.values()), 1)
        self.frequency = {w: c / total for w, c in counts.items()}
        raw = torch.stack([self._average(words) for words in bank.words])  # (sentences, dim)
        self.component = torch.linalg.svd(raw, full_matrices=False).Vh[0]  # (dim,)
        self.embeddings = self._finish(raw)

    def _average(self, words: list[str]) -> torch.Tensor:
        weights = torch.tensor([self.a / (self.a + self.frequency.get(w, 0.0)) for w in words])
        return (weights.unsqueeze(1) * self.word_vectors.of(words).float()).mean(0)

    def _finish(self, raw: torch.Tensor) -> torch.Tensor:
        """Remove the common component and normalise `(n, dim)`."""
        projected = raw - (raw @ self.component).unsqueeze(1) * self.component
        return torch.nn.functional.normalize(projected, dim=-1)

    def select(self, queries: list[MemoryQuery], m: int) -> list[list[int]]:
        chosen: list[list[int]] = []
        for start in range(0, len(queries), QUERY_CHUNK):
            chunk = queries[start : start + QUERY_CHUNK]
            vectors = self._finish(torch.stack([self._average(list(q.words)) for q in chunk]))
            similarity = (vectors @ self.embeddings.T).masked_fill(self._excluded(chunk), -float("inf"))
            best = similarity.topk(min(m, similarity.size(1)), dim=1)  # (chunk, m)
            chosen.extend(self._entries(chunk, best.indices, best.values > -float("inf")))
        return chosen


@NeighbourSelector.register("relaxed_wmd")
class RelaxedWordMoversSelector(_SentenceSelector):
    """Nearest sentences by the relaxed word mover's distance (each word travels to its nearest word
    in the other sentence; the larger of the two directions), re-ranking the `candidates` sentences
    with the nearest word centroids (an approximation: the centroid distance prunes, it does not bound
    the relaxed distance).

    # Parameters

    candidates : how many sentences per query are re-ranked.
    """

    def __init__(self, candidates: int = 32) -> None:
        self.candidates = candidates

    def build(self, bank: MemoryBank, word_vectors: Optional[WordVectors] = None) -> None:
        super().build(bank, word_vectors)
        self.sentence_vectors = [self.word_vectors.of(words).float() for words in bank.words]
        self.centroids = torch.stack([v.mean(0) for v in self.sentence_vectors])  # (sentences, dim)

    def select(self, queries: list[MemoryQuery], m: int) -> list[list[int]]:
        chosen: list[list[int]] = []
        for start in range(0, len(queries), QUERY_CHUNK):
            chunk = queries[start : start + QUERY_CHUNK]
            query_vectors = [self.word_vectors.of(list(q.words)).float() for q in chunk]
            centroids = torch.stack([v.mean(0) for v in query_vectors])
            distance = torch.cdist(centroids, self.centroids).masked_fill(self._excluded(chunk), float("inf"))
            candidates = distance.topk(min(self.candidates, distance.size(1)), dim=1, largest=False)
            for query, vectors, rows, reachable in zip(
                chunk,
                query_vectors,
                candidates.indices.tolist(),
                (candidates.values < float("inf")).tolist(),
                strict=False,
            ):
                rows = [r for r, ok in zip(rows, reachable, strict=False) if ok]
                scores = [self._relaxed_distance(vectors, self.sentence_vectors[r]) for r in rows]
                ranked = [rows[i] for i in np.argsort(scores, kind="stable")[:m]]
                chosen.append([closest_predicate(self.bank, self.entries[s], query) for s in ranked])
        return chosen

    @staticmethod
    def _relaxed_distance(left: torch.Tensor, right: torch.Tensor) -> float:
        """`max(mean_i min_j |l_i - r_j|, mean_j min_i |l_i - r_j|)` for `(n, dim)` and `(k, dim)`."""
        distances = torch.cdist(left, right)  # (n, k)
        return float(torch.maximum(distances.min(1).values.mean(), distances.min(0).values.mean()))
