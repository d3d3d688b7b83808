"""The shared `srl` Model with each DeepAtt sub-layer, both decodings, and the BiLSTM baseline."""

import os

import pytest
import torch
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch

from srl_zoo.data.formats import bio_to_spans
from srl_zoo.data.sentence_metadata import SentenceMetadata, metadata_of
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


class SrlModelTestCase(ModelTestCase):
    def set_up(self, monkeypatch, config: str, decoding: str = "argmax") -> None:
        monkeypatch.chdir(REPO_ROOT)
        monkeypatch.setenv("SRL_ZOO_TEST_DECODING", decoding)
        self.set_up_model(os.path.join(FIXTURES, config), os.path.join(FIXTURES, "conll2005", "sample.txt"))


class TestDeepAtt(SrlModelTestCase):
    @pytest.mark.parametrize("sublayer", ["ffn", "glu", "bilstm"])
    @pytest.mark.parametrize("decoding", ["argmax", "viterbi"])
    def test_train_save_load_and_batch_consistency(self, monkeypatch, sublayer, decoding):
        self.set_up(monkeypatch, f"deepatt/{sublayer}.jsonnet", decoding)
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()


class TestBiLstmBaseline(SrlModelTestCase):
    def test_train_save_load_and_batch_consistency(self, monkeypatch):
        self.set_up(monkeypatch, "deepatt/bilstm_baseline.jsonnet")
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()


class TestOutputs(SrlModelTestCase):
    def test_human_readable_frames_and_viterbi_validity(self, monkeypatch):
        self.set_up(monkeypatch, "deepatt/ffn.jsonnet", "viterbi")
        batch = Batch(self.instances[:5])
        batch.index_instances(self.vocab)
        self.model.eval()
        output = self.model.make_output_human_readable(self.model(**batch.as_tensor_dict()))
        assert len(output["frames"]) == 5
        for instance, frames in zip(self.instances[:5], output["frames"], strict=False):
            assert [f["predicate"]["index"] for f in frames] == instance["frames"].predicate_indices
            words = metadata_of(instance).words
            for frame in frames:
                assert len(frame["tags"]) == len(words)
                # exact BIO constraints: every I-X continues an X
                for previous, tag in zip(["O"] + frame["tags"], frame["tags"], strict=False):
                    if tag.startswith("I-"):
                        assert previous[2:] == tag[2:] and previous[:1] in ("B", "I")
                assert [(a["role"], a["start"], a["end"]) for a in frame["arguments"]] == [
                    (s.label, s.start, s.end) for s in bio_to_spans(frame["tags"])
                ]
                for argument in frame["arguments"]:
                    assert f"[{argument['role']}: {argument['text']}]" in frame["description"]

    def test_a_batch_without_predicates_has_a_zero_loss_with_a_graph(self, monkeypatch):
        self.set_up(monkeypatch, "deepatt/ffn.jsonnet")
        no_frames = [i for i in self.instances if len(i["frames"]) == 0]
        assert no_frames, "the sample has sentences without verbal predicates"
        batch = Batch(no_frames)
        batch.index_instances(self.vocab)
        output = self.model(**batch.as_tensor_dict())
        assert output["loss"].item() == 0.0 and output["loss"].requires_grad
        self.model.eval()
        assert self.model(**batch.as_tensor_dict())["class_probabilities"].shape[1] == 0

    def test_metrics_are_python_floats_with_per_label_scores_at_reset(self, monkeypatch):
        self.set_up(monkeypatch, "deepatt/ffn.jsonnet")
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        self.model.eval()
        self.model(**batch.as_tensor_dict())
        metrics = self.model.get_metrics(reset=True)
        assert all(isinstance(v, float) for v in metrics.values())
        assert "f1-measure-A1" in metrics and "f1-measure-V" not in metrics

    def test_training_batches_are_measured_only_with_training_metrics(self, monkeypatch):
        self.set_up(monkeypatch, "deepatt/ffn.jsonnet")
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        self.model.train()
        output = self.model(**batch.as_tensor_dict())
        assert "predicted_tags" not in output and self.model.get_metrics(reset=True) == {}
        self.model.training_metrics = True
        output = self.model(**batch.as_tensor_dict())
        assert "predicted_tags" in output
        assert self.model.get_metrics(reset=True)["f1-measure-overall"] >= 0.0

    def test_encoder_width_mismatch_is_a_clear_error(self, monkeypatch):
        from allennlp.common import Params
        from allennlp.common.checks import ConfigurationError
        from allennlp.models import Model

        self.set_up(monkeypatch, "deepatt/ffn.jsonnet")
        params = Params.from_file(self.param_file).pop("model")
        params["frame_scorer"]["encoder"]["input_dim"] = 99
        with pytest.raises(
            ConfigurationError,
            match=r"^model.frame_scorer.encoder.input_dim: 99, but the frame scorer "
            r"feeds it 16 \(words \d+ \+ predicate embedding \d+\); leave input_dim out",
        ):
            Model.from_params(vocab=self.vocab, params=params)


class TestPredicateIdentification(SrlModelTestCase):
    def set_up_head(self, monkeypatch, source: str) -> None:
        monkeypatch.chdir(REPO_ROOT)
        monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", source)
        self.set_up_model(
            os.path.join(FIXTURES, "deepatt", "ffn_predicate_identification.jsonnet"),
            os.path.join(FIXTURES, "conll2012", "sample.gold_conll"),
        )

    @pytest.mark.parametrize("source", ["gold", "predicted"])
    def test_train_save_load_and_batch_consistency(self, monkeypatch, source):
        self.set_up_head(monkeypatch, source)
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()

    def test_predicted_predicates_are_used_and_scored(self, monkeypatch):
        self.set_up_head(monkeypatch, "predicted")
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        self.model.eval()
        output = self.model(**batch.as_tensor_dict())
        labels = output["predicate_label_ids"]
        not_a_predicate = self.vocab.get_token_index("-", "predicate_senses")
        for b in range(len(self.instances)):
            used = [i for i in output["predicate_indices"][b].tolist() if i >= 0]
            assert used == (labels[b] != not_a_predicate).nonzero().squeeze(1).tolist()
        metrics = self.model.get_metrics(reset=True)
        assert {"predicate-precision", "predicate-recall", "predicate-f1", "sense-accuracy"} <= metrics.keys()

    def test_missed_and_spurious_predicates_count_as_errors(self, monkeypatch):
        self.set_up_head(monkeypatch, "gold")
        sentence = metadata_of(self.instances[0]).sentence
        gold_index = sentence.frames[0].index
        spurious = (gold_index + 1) % len(sentence.tokens)
        self.model.srl_metric.reset()
        mask = torch.ones(1, len(sentence.tokens), dtype=torch.bool)
        v = self.vocab.get_token_index("B-V", "labels")
        b_arg = self.vocab.get_token_index("B-ARG1", "labels")
        tags = torch.full((1, 1, len(sentence.tokens)), self.vocab.get_token_index("O", "labels"))
        tags[0, 0, spurious] = v
        tags[0, 0, gold_index] = b_arg
        metadata = [SentenceMetadata(sentence.tokens, sentence=sentence)]
        output = {"predicted_tags": tags, "predicate_indices": torch.tensor([[spurious]]), "mask": mask}
        self.model.readout.score(self.model.srl_metric, output, metadata)
        gold_arguments = sum(1 for f in sentence.frames if f.index == gold_index for a in f.arguments if a.label != "V")
        ok, excess, missed = self.model.srl_metric.totals()
        assert (ok, excess, missed) == (0, 1, gold_arguments)

    def test_no_head_and_no_predicates_is_a_clear_error(self, monkeypatch):
        self.set_up(monkeypatch, "deepatt/ffn.jsonnet")
        from allennlp.common import Params
        from allennlp.data import DatasetReader

        instance = self.instances[0]
        reader = DatasetReader.from_params(Params({"type": "conll2005"}))
        raw = reader.text_to_instance(["Cats", "sleep", "."])
        reader.apply_token_indexers(raw)
        with pytest.raises(ValueError, match="no predicate identification head"):
            self.model.forward_on_instance(raw)
        assert instance["frames"].predicate_indices  # the gold instance itself still works
        self.model.forward_on_instance(instance)
