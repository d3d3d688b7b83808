"""Inference in frame groups of bounded size gives what one pass over all frames gives: tags,
probabilities and the validation loss; the predictor leaves the probabilities out."""

import pytest
import torch
from allennlp.data import Batch
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.api import (
    MAX_BATCH_CELLS,
    MAX_BATCH_CHARACTERS,
    BatchLimits,
    SentenceShape,
    length_batches,
    shaped_batches,
)
from tests.models import test_lisa_model
from tests.models.test_srl_model import SrlModelTestCase

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


class TestFrameGroups(SrlModelTestCase):
    @pytest.mark.parametrize(
        "config, decoding",
        [
            ("deepatt/ffn.jsonnet", "viterbi"),
            ("selective_connection/tiny.jsonnet", "argmax"),
            ("lisa/tiny.jsonnet", "argmax"),
        ],
    )
    def test_groups_of_one_frame_equal_one_pass(self, monkeypatch, config, decoding):
        if config.startswith("lisa"):
            test_lisa_model.TestLisaModel.set_up_lisa(
                self, monkeypatch
            )  # one pass per sentence, a bilinear frame scorer
        else:
            self.set_up(monkeypatch, config, decoding)
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        assert tensors["frames"]["predicate_indices"].size(1) > 1, "the fixture batch must have several frames"
        self.model.eval()
        with torch.no_grad():
            whole = self.model(**tensors)
            self.model.inference_row_tokens = 1  # every frame its own group
            grouped = self.model(**tensors)
        assert torch.equal(whole["predicted_tags"], grouped["predicted_tags"])
        assert torch.allclose(whole["class_probabilities"], grouped["class_probabilities"], atol=1e-6)
        assert torch.allclose(whole["loss"], grouped["loss"], atol=1e-6)

    def test_without_class_probabilities_keeps_the_tags(self, monkeypatch):
        self.set_up(monkeypatch, "deepatt/ffn.jsonnet", "viterbi")
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        self.model.eval()
        with torch.no_grad():
            whole = self.model(**tensors)
            with self.model.without_class_probabilities():
                lean = self.model(**tensors)
            again = self.model(**tensors)
        assert "class_probabilities" not in lean and "class_probabilities" in again
        assert torch.equal(whole["predicted_tags"], lean["predicted_tags"])


def test_length_batches_respect_both_limits():
    lengths = [3, 5, 5, 8, 40, 40, 200, 1000]
    for batch_size in (1, 2, 3, 64):
        for cells in (1, 100, 10_000, 1_000_000):
            batches = list(length_batches(list(range(len(lengths))), lengths, batch_size, cells))
            assert [i for batch in batches for i in batch] == list(range(len(lengths)))
            for batch in batches:
                longest = max(lengths[i] for i in batch)
                assert len(batch) == 1 or (len(batch) <= batch_size and len(batch) * longest**2 <= cells)
    # a 1,000-word sentence goes alone under the default budget, short ones share batches
    batches = list(length_batches(list(range(len(lengths))), lengths, 64, 1_000_000))
    assert batches == [[0, 1, 2, 3, 4, 5, 6], [7]]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.text("ab=", min_size=1, max_size=60), min_size=1, max_size=40), min_size=1, max_size=30),
    st.integers(1, 8),
    st.sampled_from([50, 2_000, 1_000_000]),
    st.sampled_from([None, 100, 1_000, 12_000]),
)
def test_shaped_batches_keep_every_limit(sentences, batch_size, cells, characters):
    """Each batch (but a sentence alone) within the sentences, cells, characters and word-piece-pooling
    limits, counted on the batch's padded shape by brute force; every sentence once, in order."""
    shapes = [SentenceShape.of(words) for words in sentences]
    order = sorted(range(len(sentences)), key=lambda i: shapes[i].characters)
    batches = list(shaped_batches(order, shapes, BatchLimits(batch_size, cells, characters)))
    assert [i for batch in batches for i in batch] == order
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
    limits = BatchLimits(64, MAX_BATCH_CELLS, MAX_BATCH_CHARACTERS)
    batches = list(shaped_batches(list(range(64)), shapes, limits))
    assert [len(batch) for batch in batches] == [63, 1]
    assert len(list(shaped_batches(list(range(64)), shapes, BatchLimits(64, MAX_BATCH_CELLS)))) == 1
