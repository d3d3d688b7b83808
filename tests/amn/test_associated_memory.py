"""AMN's associated memory in the shared Model: reads its bank when the model is built (not when an
archive is loaded), trains, saves and reloads with its bank inside the archive (also one saved under
the old `memory` name), works under the indicator and the bilinear (LISA) scorers and on span data,
caches the training neighbours, and says clearly when POS tags are missing."""

import json
import os

import pytest
from allennlp.common import Params
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from srl_zoo.amn.memory_bank import MemoryBank
from srl_zoo.amn.selectors import EditDistanceSelector
from tests.archive_rewriting import rewritten_archive
from tests.conftest import FIXTURES, REPO_ROOT, train_fixture_model

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


class TestMemoryModels(ModelTestCase):
    def set_up(self, monkeypatch, config, data):
        monkeypatch.chdir(REPO_ROOT)
        self.set_up_model(os.path.join(FIXTURES, "amn", config), os.path.join(FIXTURES, *data))

    @pytest.mark.parametrize("merge", ["average", "concat", "weighted", "flat"])
    def test_dependency_memory_trains_saves_loads_per_merge(self, monkeypatch, merge):
        monkeypatch.setenv("SRL_ZOO_TEST_AMN_MERGE", merge)
        self.set_up(monkeypatch, "selector.jsonnet", ("conll2009", "sample.txt"))
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()

    @pytest.mark.parametrize("selector", ["sif", "relaxed_wmd", "random"])
    def test_dependency_memory_trains_per_selector(self, monkeypatch, selector):
        monkeypatch.setenv("SRL_ZOO_TEST_AMN_SELECTOR", selector)
        self.set_up(monkeypatch, "selector.jsonnet", ("conll2009", "sample.txt"))
        self.ensure_model_can_train_save_and_load(self.param_file)

    def test_span_format_memory(self, monkeypatch):
        self.set_up(monkeypatch, "span_memory.jsonnet", ("conll2012", "sample.gold_conll"))
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()

    def test_lisa_with_memory(self, monkeypatch):
        self.set_up(monkeypatch, "lisa_memory.jsonnet", ("conll2012", "sample.gold_conll"))
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()


def test_memory_features_change_the_scores(monkeypatch):
    """The frame scorer really reads the memory: other neighbour labels, other logits."""
    monkeypatch.chdir(REPO_ROOT)
    case = ModelTestCase()
    case.set_up_model(
        os.path.join(FIXTURES, "amn", "memory.jsonnet"), os.path.join(FIXTURES, "conll2009", "sample.txt")
    )

    batch = Batch(case.instances[:4])
    batch.index_instances(case.vocab)
    tensors = batch.as_tensor_dict()
    model = case.model.eval()
    before = model(**tensors)["class_probabilities"]
    model.frame_features.label_embedding.weight.data.normal_()
    after = model(**tensors)["class_probabilities"]
    assert not (before - after).abs().max() < 1e-6


@pytest.fixture(scope="module")
def memory_archive(tmp_path_factory):
    return train_fixture_model(tmp_path_factory, "amn/memory.jsonnet")


def test_archive_predicts_without_the_training_file(memory_archive, monkeypatch, tmp_path):
    """The bank lives in the weights: the config's train_data_path may be gone on the user's machine."""
    monkeypatch.chdir(tmp_path)  # the fixture's relative path no longer resolves
    predictor = Predictor.from_archive(load_archive(memory_archive), "srl")
    words = ["The", "company", "sold", "its", "shares", "."]
    pos = ["DT", "NN", "VBD", "PRP$", "NNS", "."]
    output = predictor.predict_json({"tokens": words, "predicates": [2], "pos": pos})
    assert output["frames"][0]["predicate"]["index"] == 2
    assert predictor.model.frame_features.bank is not None and len(predictor.model.frame_features.bank) == 80


def test_missing_pos_is_a_clear_error(memory_archive, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    predictor = Predictor.from_archive(load_archive(memory_archive), "srl")
    with pytest.raises(ValueError, match="needs POS tags"):
        predictor.predict_json({"tokens": ["Prices", "rose", "."], "predicates": [1]})
    with pytest.raises(ValueError, match="'pos' must be one"):
        predictor.predict_json({"tokens": ["Prices", "rose", "."], "predicates": [1], "pos": ["NNS"]})


def test_lisa_memory_takes_pos_from_its_tagger(tmp_path_factory, monkeypatch, tmp_path):
    archive = train_fixture_model(tmp_path_factory, "amn/lisa_memory.jsonnet")
    monkeypatch.chdir(tmp_path)
    predictor = Predictor.from_archive(load_archive(archive), "srl")
    output = predictor.predict_json({"sentence": "The company sold its shares to investors ."})
    assert output["words"][0] == "The"


def test_training_neighbours_are_cached_and_reused(monkeypatch, tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache") / "neighbours.json"
    override = json.dumps({"model.frame_features.neighbour_cache": str(cache), "trainer.num_epochs": 1})
    train_fixture_model(tmp_path_factory, "amn/memory.jsonnet", overrides=override)
    stored = json.loads(cache.read_text())
    assert len(stored["neighbours"]) == 80 and all(len(found) == 2 for found in stored["neighbours"].values())

    calls = []
    original = EditDistanceSelector.select
    monkeypatch.setattr(EditDistanceSelector, "select", lambda self, q, m: calls.append(len(q)) or original(self, q, m))
    train_fixture_model(tmp_path_factory, "amn/memory.jsonnet", overrides=override)
    assert sum(calls) < 80  # only the validation sentences were searched; training ones came from the cache


def test_the_bank_is_read_when_first_needed(monkeypatch):
    """Not when the model is built (an archive's weights bring the bank; nothing tells the memory that they
    follow): on the first forward pass, and a missing training file fails there, with its name."""
    monkeypatch.chdir(REPO_ROOT)
    case = ModelTestCase()
    case.set_up_model(
        os.path.join(FIXTURES, "amn", "memory.jsonnet"), os.path.join(FIXTURES, "conll2009", "sample.txt")
    )
    batch = Batch(case.instances[:2])
    batch.index_instances(case.vocab)
    assert case.model.frame_features.bank is None
    case.model.eval()(**batch.as_tensor_dict())
    assert case.model.frame_features.bank is not None and len(case.model.frame_features.bank) == 80

    params = Params.from_file(os.path.join(FIXTURES, "amn", "memory.jsonnet"))
    model_params = params.pop("model")
    model_params["frame_features"]["train_data_path"] = "no/such/train.txt"
    model = Model.from_params(vocab=case.vocab, params=model_params)
    with pytest.raises(Exception, match="no/such/train.txt"):
        model.eval()(**batch.as_tensor_dict())


def _rename_in_archive(archive: str, target: str) -> str:
    """A copy of `archive` as an srl_zoo before the rename saved it: `memory` in config and weights."""

    def rename_memory(config: dict) -> None:
        config["model"]["memory"] = config["model"].pop("frame_features")

    return rewritten_archive(archive, target, rename_memory, lambda key: key.replace("frame_features.", "memory.", 1))


def test_an_archive_saved_under_the_old_memory_name_predicts_the_same(memory_archive, monkeypatch, tmp_path):
    old_archive = _rename_in_archive(memory_archive, str(tmp_path / "old.tar.gz"))
    monkeypatch.chdir(tmp_path)
    request = {"tokens": ["The", "company", "sold", "its", "shares", "."], "predicates": [2]}
    request["pos"] = ["DT", "NN", "VBD", "PRP$", "NNS", "."]
    new = Predictor.from_archive(load_archive(memory_archive), "srl").predict_json(request)
    old = Predictor.from_archive(load_archive(old_archive), "srl").predict_json(request)
    assert old["frames"] == new["frames"]


def test_loading_an_archive_does_not_read_the_training_file(memory_archive, monkeypatch, tmp_path):
    calls = []
    original = MemoryBank.read
    monkeypatch.setattr(MemoryBank, "read", lambda *args: calls.append(args) or original(*args))
    monkeypatch.chdir(REPO_ROOT)  # where the config's train_data_path resolves
    load_archive(memory_archive)
    assert calls == []


def test_a_model_trained_on_fewer_sentences_than_its_memory_holds_trains(tmp_path_factory):
    """The memory reads the whole training file; a reader's max_instances gives the model fewer labels than the
    bank's tags have: those are remembered as outside any argument instead of stopping the training."""
    override = json.dumps({"dataset_reader.max_instances": 2, "trainer.num_epochs": 1})
    archive = train_fixture_model(tmp_path_factory, "amn/memory.jsonnet", overrides=override)
    model = load_archive(archive).model
    labels = model.vocab.get_token_to_index_vocabulary("labels")
    bank_tags = {tag for tags in model.frame_features.bank.tags for tag in tags}
    assert bank_tags - set(labels)  # the bank has tags the two sentences did not
