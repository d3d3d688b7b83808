"""Dependency SRL (CoNLL-2009) through the shared Model: head-word decoding, senses from the predicate
head, the eval09-equivalent metric."""

import os

import pytest
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch

from srl_zoo.data.formats import SrlFrame, bio_to_spans
from srl_zoo.data.sentence_metadata import metadata_of
from srl_zoo.metrics import Conll2009F1
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


class TestDependencySrl(ModelTestCase):
    def set_up(self, monkeypatch):
        monkeypatch.chdir(REPO_ROOT)
        self.set_up_model(
            os.path.join(FIXTURES, "deepatt", "dependency.jsonnet"), os.path.join(FIXTURES, "conll2009", "sample.txt")
        )

    def test_train_save_load_and_batch_consistency(self, monkeypatch):
        self.set_up(monkeypatch)
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()

    def test_roles_on_head_words_and_the_metric_equals_eval09_semantics(self, monkeypatch):
        self.set_up(monkeypatch)
        self.model.eval()
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        self.model.get_metrics(reset=True)
        output = self.model.make_output_human_readable(self.model(**batch.as_tensor_dict()))
        metrics = self.model.get_metrics(reset=True)
        assert {"unlabeled-f1", "proposition-f1", "precision-sense"} <= set(metrics)
        gold, predicted = [], []
        head = self.model.predicate_head
        for instance, frames, label_ids in zip(
            self.instances, output["frames"], output["predicate_label_ids"], strict=False
        ):
            sentence = metadata_of(instance).sentence
            gold.append(sentence.frames)
            predicted.append([])
            for frame in frames:
                assert all(not tag.startswith("I-") for tag in frame["tags"])  # no spans, head words only
                index = frame["predicate"]["index"]
                sense = head.label_of(int(label_ids[index]))
                predicted[-1].append(SrlFrame(index, frame["predicate"]["word"], sense, bio_to_spans(frame["tags"])))
        expected = Conll2009F1()
        expected(gold, predicted)
        assert metrics["f1-measure-overall"] == expected.get_metric()["f1-measure-overall"]
