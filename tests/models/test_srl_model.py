"""The shared `srl` Model with each DeepAtt sub-layer, both decodings, and the BiLSTM baseline."""
import os

import pytest
import torch
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch

from srl_zoo.data.formats import bio_to_spans
from tests.conftest import FIXTURES, REPO_ROOT


class SrlModelTestCase(ModelTestCase):
    def set_up(self, config: str, decoding: str = "argmax") -> None:
        os.chdir(REPO_ROOT)
        os.environ["SRL_ZOO_TEST_DECODING"] = decoding
        self.set_up_model(os.path.join(FIXTURES, config), os.path.join(FIXTURES, "conll2005", "sample.txt"))


class TestDeepAtt(SrlModelTestCase):
    @pytest.mark.parametrize("sublayer", ["ffn", "glu", "bilstm"])
    @pytest.mark.parametrize("decoding", ["argmax", "viterbi"])
    def test_train_save_load_and_batch_consistency(self, sublayer, decoding):
        self.set_up(f"deepatt/{sublayer}.jsonnet", decoding)
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()


class TestBiLstmBaseline(SrlModelTestCase):
    def test_train_save_load_and_batch_consistency(self):
        self.set_up("deepatt/bilstm_baseline.jsonnet")
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()


class TestOutputs(SrlModelTestCase):
    def test_human_readable_frames_and_viterbi_validity(self):
        self.set_up("deepatt/ffn.jsonnet", "viterbi")
        batch = Batch(self.instances[:5])
        batch.index_instances(self.vocab)
        self.model.eval()
        output = self.model.make_output_human_readable(self.model(**batch.as_tensor_dict()))
        assert len(output["frames"]) == 5
        for instance, frames in zip(self.instances[:5], output["frames"]):
            assert [f["predicate"]["index"] for f in frames] == instance["frames"].predicate_indices
            words = instance["metadata"]["words"]
            for frame in frames:
                assert len(frame["tags"]) == len(words)
                # exact BIO constraints: every I-X continues an X
                for previous, tag in zip(["O"] + frame["tags"], frame["tags"]):
                    if tag.startswith("I-"):
                        assert previous[2:] == tag[2:] and previous[:1] in ("B", "I")
                assert [(a["role"], a["start"], a["end"]) for a in frame["arguments"]] == [
                    (s.label, s.start, s.end) for s in bio_to_spans(frame["tags"])
                ]
                for argument in frame["arguments"]:
                    assert f"[{argument['role']}: {argument['text']}]" in frame["description"]

    def test_a_batch_without_predicates_has_a_zero_loss_with_a_graph(self):
        self.set_up("deepatt/ffn.jsonnet")
        no_frames = [i for i in self.instances if len(i["frames"]) == 0]
        assert no_frames, "the sample has sentences without verbal predicates"
        batch = Batch(no_frames)
        batch.index_instances(self.vocab)
        output = self.model(**batch.as_tensor_dict())
        assert output["loss"].item() == 0.0 and output["loss"].requires_grad
        assert output["class_probabilities"].shape[1] == 0

    def test_metrics_are_python_floats_with_per_label_scores_at_reset(self):
        self.set_up("deepatt/ffn.jsonnet")
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        self.model(**batch.as_tensor_dict())
        metrics = self.model.get_metrics(reset=True)
        assert all(isinstance(v, float) for v in metrics.values())
        assert "f1-measure-A1" in metrics and "f1-measure-V" not in metrics

    def test_encoder_width_mismatch_is_a_clear_error(self):
        from allennlp.common import Params
        from allennlp.models import Model

        self.set_up("deepatt/ffn.jsonnet")
        params = Params.from_file(self.param_file).pop("model")
        params["encoder"]["input_dim"] = 99
        with pytest.raises(ValueError, match="encoder input_dim is 99 but the model feeds it 16"):
            Model.from_params(vocab=self.vocab, params=params)
