"""Inference in frame groups of bounded size gives what one pass over all frames gives: tags,
probabilities and the validation loss; the predictor leaves the probabilities out."""

import pytest
import torch
from allennlp.data import Batch

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
