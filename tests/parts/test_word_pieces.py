"""Pooling word pieces into words, against a loop over the words (brute force)."""

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.parts.embedders.word_pieces import mean_of_pieces


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=20), st.integers(min_value=0, max_value=9))
def test_each_word_is_the_mean_of_its_pieces_and_a_word_without_pieces_is_zero(slots, seed):
    torch.manual_seed(seed)
    vectors = torch.randn(len(slots), 3)
    pooled = mean_of_pieces(vectors, torch.tensor(slots), 6)
    for slot in range(6):
        mine = [vectors[i] for i, s in enumerate(slots) if s == slot]
        expected = torch.stack(mine).mean(0) if mine else torch.zeros(3)
        assert torch.allclose(pooled[slot], expected, atol=1e-6)
