"""The `indicator` frame scorer: chunked inference equals one-chunk inference and per-row encoding."""

import os

import pytest
import torch
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch

from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


class TestIndicatorChunks(ModelTestCase):
    @pytest.fixture(autouse=True)
    def set_up(self, monkeypatch):
        monkeypatch.chdir(REPO_ROOT)
        monkeypatch.setenv("SRL_ZOO_TEST_DECODING", "viterbi")
        self.set_up_model(
            os.path.join(FIXTURES, "deepatt", "ffn.jsonnet"), os.path.join(FIXTURES, "conll2005", "sample.txt")
        )
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        self.tensors = batch.as_tensor_dict()
        self.model.eval()

    def run_with(self, chunk_tokens: int):
        self.model.frame_scorer.inference_chunk_tokens = chunk_tokens
        with torch.no_grad():
            return self.model(**self.tensors)

    def test_many_small_chunks_give_the_one_chunk_result(self):
        one_chunk = self.run_with(10**9)
        tiny_chunks = self.run_with(1)  # one row per encoder call
        assert torch.allclose(one_chunk["class_probabilities"], tiny_chunks["class_probabilities"], atol=1e-5)
        assert torch.equal(one_chunk["predicted_tags"], tiny_chunks["predicted_tags"])

    def test_chunked_rows_equal_each_row_encoded_alone_at_full_padding(self):
        scorer = self.model.frame_scorer
        embedded = self.model.text_field_embedder(self.tensors["tokens"])
        mask = self.tensors["tokens"]["tokens"]["tokens"] > 0
        indices = self.tensors["frames"]["predicate_indices"]
        with torch.no_grad():
            logits = scorer(embedded, mask, indices)[0]
            for b, f in (indices >= 0).nonzero().tolist()[:6]:
                indicator = (torch.arange(mask.size(1)) == indices[b, f]).long()[None]
                alone = scorer.tag_projection(
                    scorer.encoder(scorer._condition(embedded[b : b + 1], indicator), mask[b : b + 1])
                )
                length = int(mask[b].sum())
                assert torch.allclose(logits[b, f, :length], alone[0, :length], atol=1e-5)
            assert logits[indices < 0].abs().sum() == 0  # padded frames are zeros
