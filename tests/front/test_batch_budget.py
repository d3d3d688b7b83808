"""The one batching policy: sentences sorted by size and cut into calls within one `BatchBudget`, each bound
checked on the call's padded shape by brute force."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.front.batch_budget import BatchBudget, SentenceShape, by_size


def cut_by_words(lengths: list[int], batch_size: int, cells: int) -> list[list[int]]:
    """Calls of sentences of these word counts (no character bound), in this order."""
    budget = BatchBudget(batch_size, cells, characters=None)
    return list(budget.cut(list(range(len(lengths))), [SentenceShape(length) for length in lengths]))


def test_calls_respect_the_sentence_and_cell_bounds():
    lengths = [3, 5, 5, 8, 40, 40, 200, 1000]
    for batch_size in (1, 2, 3, 64):
        for cells in (1, 100, 10_000, 1_000_000):
            batches = cut_by_words(lengths, batch_size, cells)
            assert [i for batch in batches for i in batch] == list(range(len(lengths)))
            for batch in batches:
                longest = max(lengths[i] for i in batch)
                assert len(batch) == 1 or (len(batch) <= batch_size and len(batch) * longest**2 <= cells)
    # a 1,000-word sentence goes alone under the default budget, short ones share batches
    batches = cut_by_words(lengths, 64, 1_000_000)
    assert batches == [[0, 1, 2, 3, 4, 5, 6], [7]]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.text("ab=", min_size=1, max_size=60), min_size=1, max_size=40), min_size=1, max_size=30),
    st.integers(1, 8),
    st.sampled_from([50, 2_000, 1_000_000]),
    st.sampled_from([None, 100, 1_000, 12_000]),
)
def test_calls_keep_every_bound(sentences, batch_size, cells, characters):
    """Each batch (but a sentence alone) within the sentences, cells, characters and word-piece-pooling
    limits, counted on the batch's padded shape by brute force; every sentence once, in order."""
    shapes = [SentenceShape.of(words) for words in sentences]
    budget = BatchBudget(batch_size, cells, characters)
    batches = list(budget.calls(sentences))
    assert [i for batch in batches for i in batch] == by_size(shapes)
    for batch in batches:
        if len(batch) == 1:
            continue
        words = max(len(sentences[i]) for i in batch)
        letters = max(sum(len(w) for w in sentences[i]) for i in batch)
        longest_word = max(len(w) for i in batch for w in sentences[i])
        assert len(batch) <= batch_size and len(batch) * words**2 <= cells
        if characters is not None:
            assert len(batch) * letters <= characters and len(batch) * words * longest_word <= characters


def test_a_sentence_with_a_long_word_does_not_pad_a_full_batch():
    """63 short sentences and one of 89 '=' signs and a 48-letter word (EWT web text): under the
    default limits the long one no longer shares a 64-sentence batch (400 MB to pool word pieces)."""
    sentences = [["Dogs", "bark", "."]] * 63 + [["="] * 88 + ["x" * 48]]
    shapes = [SentenceShape.of(words) for words in sentences]
    batches = list(BatchBudget().cut(list(range(64)), shapes))
    assert [len(batch) for batch in batches] == [63, 1]
    assert len(list(BatchBudget(characters=None).cut(list(range(64)), shapes))) == 1


@pytest.mark.parametrize("batch_size", [0, -1, 2.5, True, "64"])
def test_a_budget_of_no_whole_sentences_is_refused(batch_size):
    with pytest.raises(ValueError, match="batch_size must be a whole number of sentences"):
        BatchBudget(batch_size)
