"""AMN neighbour search against brute force: exact distances, exclusions, save/load."""

import os

import numpy as np
from rapidfuzz.distance import Levenshtein

from srl_zoo.amn import NeighbourIndex
from srl_zoo.amn.neighbour_index import NO_NEIGHBOUR
from srl_zoo.data.formats import read_conll2009
from tests.conftest import FIXTURES


def sentences():
    return list(read_conll2009(os.path.join(FIXTURES, "conll2009", "sample.txt")))


def brute_force(index, symbols, excluded_key, m):
    distances = sorted(
        Levenshtein.distance(symbols, entry.symbols)
        for entry in index.entries
        if excluded_key is None or entry.words_key != excluded_key
    )
    return distances[:m]


def test_training_neighbours_are_the_exact_nearest_excluding_the_same_sentence():
    data = sentences()
    data = data + [data[0]]  # a duplicate sentence: its entries must not be each other's neighbours
    index = NeighbourIndex.from_sentences(data)
    table = index.training_neighbours(m=4)
    assert table.shape == (len(index), 4)
    for row, entry in enumerate(index.entries):
        chosen = [int(i) for i in table[row] if i != NO_NEIGHBOUR]
        assert all(index.entries[i].words_key != entry.words_key for i in chosen)
        got = [Levenshtein.distance(entry.symbols, index.entries[i].symbols) for i in chosen]
        assert got == brute_force(index, entry.symbols, entry.words_key, 4)


def test_query_for_new_text_and_save_load(tmp_path):
    index = NeighbourIndex.from_sentences(sentences())
    pos = ["DT", "NN", "VBD", "DT", "NN", "."]
    found = index.query(pos, predicate=2, m=3)
    assert [d for _, d in found] == sorted(d for _, d in found)
    symbols = "".join(index.alphabet.get(t + ("*" if i == 2 else ""), "?") for i, t in enumerate(pos))
    assert [d for _, d in found] == brute_force(index, symbols, None, 3)
    index.save(str(tmp_path / "index.json"))
    loaded = NeighbourIndex.load(str(tmp_path / "index.json"))
    assert loaded.query(pos, predicate=2, m=3) == found
    assert np.array_equal(loaded.training_neighbours(2), index.training_neighbours(2))
