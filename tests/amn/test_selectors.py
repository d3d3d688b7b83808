"""Neighbour selectors against brute force: the nearest entries by each distance, exclusions, determinism."""

import os

import pytest
import torch
from rapidfuzz.distance import Levenshtein

from srl_zoo.amn.memory_bank import MemoryBank, MemoryQuery
from srl_zoo.amn.neighbour_index import encode
from srl_zoo.amn.selectors import (
    EditDistanceSelector,
    RandomSelector,
    RelaxedWordMoversSelector,
    SifSelector,
    WordVectors,
)
from srl_zoo.data.formats import read_conll2009
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def bank():
    sentences = list(read_conll2009(os.path.join(FIXTURES, "conll2009", "sample.txt")))
    return MemoryBank.from_sentences(sentences + sentences[:1])  # a duplicate sentence too


@pytest.fixture(scope="module")
def vectors(bank):
    vocabulary = sorted({w for words in bank.words for w in words})
    index = {w: i + 1 for i, w in enumerate(vocabulary)}  # row 0: unknown words
    table = torch.randn(len(vocabulary) + 1, 6, generator=torch.Generator().manual_seed(3))
    return WordVectors(table, lambda w: index.get(w, 0))


def own_sentence_excluded(bank, query, entries):
    return all(bank.entry_words(e) != list(query.words) for e in entries)


def test_edit_distance_gives_the_nearest_pos_sequences(bank):
    selector = EditDistanceSelector()
    selector.build(bank)
    queries = bank.training_queries()
    for query, entries in zip(queries, selector.select(queries, 3), strict=False):
        assert len(entries) == 3 and own_sentence_excluded(bank, query, entries)
        alphabet = selector.index.alphabet
        target = encode(query.pos, query.predicate, alphabet)
        distance = [
            Levenshtein.distance(target, encode(bank.entry_pos(e), bank.predicates[e], alphabet))
            for e in range(len(bank))
            if bank.entry_words(e) != list(query.words)
        ]
        got = [Levenshtein.distance(target, encode(bank.entry_pos(e), bank.predicates[e], alphabet)) for e in entries]
        assert got == sorted(distance)[:3]


def test_edit_distance_needs_pos(bank):
    without = MemoryBank(bank.words, [None] * len(bank.words), bank.sentence_of, bank.predicates, bank.tags)
    with pytest.raises(ValueError, match="needs POS tags"):
        EditDistanceSelector().build(without)


def brute_force_sentences(bank, query, distance):
    """Bank sentences with predicates, not the query's words, sorted by `distance(sentence)`."""
    candidates = [
        s
        for s, words in enumerate(bank.words)
        if words != list(query.words) and any(bank.sentence_of[e] == s for e in range(len(bank)))
    ]
    return sorted(candidates, key=distance)


def test_sif_gives_the_most_similar_sentence_embeddings(bank, vectors):
    selector = SifSelector()
    selector.build(bank, vectors)
    counts = {}
    for words in bank.words:
        for w in words:
            counts[w] = counts.get(w, 0) + 1
    total = sum(counts.values())

    def embed(words):
        weights = torch.tensor([1e-3 / (1e-3 + counts.get(w, 0) / total) for w in words])
        raw = (weights[:, None] * vectors.of(words)).mean(0)
        raw = raw - (raw @ selector.component) * selector.component
        return raw / raw.norm()

    for query in bank.training_queries()[:12]:
        entries = selector.select([query], 3)[0]
        target = embed(list(query.words))
        ranked = brute_force_sentences(bank, query, lambda s, target=target: -float(target @ embed(bank.words[s])))
        assert [bank.sentence_of[e] for e in entries] == ranked[:3]
        assert own_sentence_excluded(bank, query, entries)


def test_relaxed_wmd_reranks_exactly_when_every_sentence_is_a_candidate(bank, vectors):
    selector = RelaxedWordMoversSelector(candidates=len(bank.words))
    selector.build(bank, vectors)

    def relaxed(a, b):
        d = torch.cdist(vectors.of(a), vectors.of(b))
        return max(float(d.min(1).values.mean()), float(d.min(0).values.mean()))

    for query in bank.training_queries()[:12]:
        entries = selector.select([query], 3)[0]
        ranked = brute_force_sentences(bank, query, lambda s, query=query: relaxed(list(query.words), bank.words[s]))
        got = [relaxed(list(query.words), bank.entry_words(e)) for e in entries]
        want = [relaxed(list(query.words), bank.words[s]) for s in ranked[:3]]
        assert got == pytest.approx(want)


def test_sentence_selectors_take_the_predicate_at_the_closest_relative_position(bank, vectors):
    selector = SifSelector()
    selector.build(bank, vectors)
    query = MemoryQuery(["A", "new", "sentence", "runs"], None, 3)
    for entry in selector.select([query], 4)[0]:
        siblings = [e for e in range(len(bank)) if bank.sentence_of[e] == bank.sentence_of[entry]]
        where = lambda e: abs(bank.predicates[e] / len(bank.entry_words(e)) - 3 / 4)  # noqa: E731
        assert where(entry) == min(where(e) for e in siblings)


def test_random_is_reproducible_distinct_and_excludes_the_own_sentence(bank):
    selector = RandomSelector(seed=5)
    selector.build(bank)
    queries = bank.training_queries()
    first = selector.select(queries, 4)
    assert first == selector.select(queries, 4)
    for query, entries in zip(queries, first, strict=False):
        assert len(set(entries)) == 4 and own_sentence_excluded(bank, query, entries)
    assert len({tuple(e) for e in first}) > len(first) // 2  # not one fixed draw for everybody
