"""LISA through the shared Model: the bilinear frame scorer, the joint POS/predicate head and the parse task."""

import os

import pytest
import torch
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch

from srl_zoo.data.sentence_metadata import metadata_of
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


class LisaTestCase(ModelTestCase):
    def set_up_lisa(self, monkeypatch, format="conll2012", source="gold", parse_layer="1"):
        monkeypatch.chdir(REPO_ROOT)
        monkeypatch.setenv("SRL_ZOO_TEST_LISA_FORMAT", format)
        monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", source)
        monkeypatch.setenv("SRL_ZOO_TEST_LISA_PARSE_LAYER", parse_layer)
        data = {"conll2012": "conll2012/sample.gold_conll", "conll2009": "conll2009/sample.txt"}[format]
        self.set_up_model(os.path.join(FIXTURES, "lisa", "tiny.jsonnet"), os.path.join(FIXTURES, data))


class TestLisaModel(LisaTestCase):
    @pytest.mark.parametrize(
        "format, source, parse_layer",
        [
            ("conll2012", "gold", "1"),
            ("conll2012", "predicted", "1"),
            ("conll2009", "gold", "2"),
            ("conll2012", "gold", "null"),
        ],
    )
    def test_train_save_load_and_batch_consistency(self, monkeypatch, format, source, parse_layer):
        self.set_up_lisa(monkeypatch, format, source, parse_layer)
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()

    def test_metrics_cover_every_task(self, monkeypatch):
        self.set_up_lisa(monkeypatch)
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        self.model.eval()
        output = self.model(**batch.as_tensor_dict())
        assert output["class_probabilities"].shape[:2] == batch.as_tensor_dict()["frames"]["predicate_indices"].shape
        metrics = self.model.get_metrics(reset=True)
        for name in ("f1-measure-overall", "predicate-f1", "pos-accuracy", "parse-uas", "parse-las"):
            assert 0.0 <= metrics[name] <= 1.0, name

    def test_one_encoder_pass_scores_all_predicates(self, monkeypatch):
        self.set_up_lisa(monkeypatch)
        calls = []
        encoder = self.model.frame_scorer.encoder
        handle = encoder.layers[0].register_forward_hook(lambda module, args, out: calls.append(args[0].shape[0]))
        batch = Batch(self.instances[:6])
        batch.index_instances(self.vocab)
        self.model.eval()
        self.model(**batch.as_tensor_dict())
        handle.remove()
        assert calls == [6]  # one row per sentence, whatever the number of predicates

    def test_an_injected_parse_changes_the_frames_without_retraining(self, monkeypatch):
        self.set_up_lisa(monkeypatch)
        batch = Batch(self.instances[:5])
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        self.model.eval()
        encoder = self.model.frame_scorer.encoder
        with torch.no_grad():
            own = self.model(**tensors)["class_probabilities"]
            encoder.parse_source = "given"
            given = self.model(**tensors)["class_probabilities"]
        assert not torch.allclose(own, given)

    def test_the_predictor_injects_heads_from_the_request(self, monkeypatch):
        from allennlp.common import Params
        from allennlp.data import DatasetReader
        from allennlp.predictors import Predictor

        self.set_up_lisa(monkeypatch)
        self.model.eval()
        reader = DatasetReader.from_params(Params.from_file(self.param_file)["dataset_reader"])
        predictor = Predictor.by_name("srl")(self.model, reader)
        words = metadata_of(self.instances[0]).words
        heads = self.instances[0]["dependency_heads"].labels
        request = {"tokens": words, "predicates": [2]}
        plain = predictor._json_to_instance(request)
        injected = predictor._json_to_instance({**request, "heads": list(heads)})
        assert metadata_of(injected).heads_given and not metadata_of(plain).heads_given
        plain_output = self.model.forward_on_instance(plain)
        injected_output = self.model.forward_on_instance(injected)
        assert not torch.allclose(
            torch.tensor(plain_output["class_probabilities"]), torch.tensor(injected_output["class_probabilities"])
        )
        mixed = predictor.predict_batch_json(
            [request, {**request, "heads": list(heads)}]
        )  # some with heads, some without
        assert len(mixed) == 2 and all(len(result["frames"]) == 1 for result in mixed)
        with pytest.raises(ValueError, match="'heads' must be one 1-based head index"):
            predictor.predict_json({**request, "heads": [0] * (len(words) - 1)})
