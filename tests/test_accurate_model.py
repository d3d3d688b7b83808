"""The accurate English model (MPNet-base frozen under low-rank adapters, `make mpnet`): its archive carries
only what training changed, it labels raw text like the default model's tour sentence, and without MPNet
built a command says in one line what to run."""

import json
import os
import subprocess
import sys
import tarfile

import pytest
import torch

import srl_zoo.plugin
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # loads a 109M-parameter encoder: not in `make test-fast`

ACCURATE = os.path.join(REPO_ROOT, "models", "ewt-english-accurate.tar.gz")


def archived(member: str) -> bytes:
    with tarfile.open(ACCURATE) as archive:
        handle = archive.extractfile(member)
        assert handle is not None
        return handle.read()


def test_the_archive_holds_what_trained_not_mpnets_frozen_weights(tmp_path):
    """The adapters of every layer, the weights of the layers its config trains (`trained_modules`) and the head;
    none of MPNet's frozen weights (its embeddings and other layers come from `make mpnet`)."""
    assert os.path.getsize(ACCURATE) < 60 * 2**20
    (tmp_path / "weights.th").write_bytes(archived("weights.th"))
    weights = torch.load(tmp_path / "weights.th", weights_only=True)
    words = json.loads(archived("config.json"))["model"]["text_field_embedder"]["token_embedders"]["tokens"]
    trained = tuple(f".transformer_model.{module}." for module in words.get("trained_modules", ()))
    transformer = [key for key in weights if ".transformer_model." in key]
    adapters = [key for key in transformer if key.endswith((".up", ".down"))]
    assert len(adapters) == 12 * 6 * 2  # 12 layers × 6 linear layers × (down, up)
    layers = [key for key in transformer if key not in adapters]
    assert bool(layers) == bool(trained) and all(any(module in key for module in trained) for key in layers)
    assert not any("embeddings" in key for key in transformer)
    assert (words["type"], words["frozen_weights"], words["frozen_precision"]) == (
        "pretrained_transformer_adapted",
        "mpnet",
        "bfloat16",
    )


def test_it_labels_raw_text():
    labeler = srl_zoo.load(ACCURATE)
    (sentence,) = labeler("The Senate confirmed two judges on Tuesday.")
    frames = {frame["predicate"]["word"]: frame for frame in sentence["frames"]}
    arguments = [(argument["role"], argument["text"]) for argument in frames["confirmed"]["arguments"]]
    assert arguments == [("ARG0", "The Senate"), ("V", "confirmed"), ("ARG1", "two judges"), ("ARGM-TMP", "on Tuesday")]
    assert frames["confirmed"]["predicate"]["roleset"] == "confirm.01"


def test_without_mpnet_built_a_command_says_what_to_run(tmp_path):
    text = tmp_path / "one.txt"
    text.write_text("The dog barked.\n")
    environment = {**os.environ, "SRL_ZOO_CACHE": str(tmp_path / "empty-cache")}
    command = [sys.executable, "-m", "srl_zoo.cli", "label", ACCURATE, str(text), "-o", str(tmp_path / "out.jsonl")]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=REPO_ROOT, timeout=600)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "`srl-zoo fetch mpnet` builds it" in lines[0], done.stderr
    assert not (tmp_path / "out.jsonl").exists()
