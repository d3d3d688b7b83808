"""The transformer-embedder configs (training_configs/transformer/) train on fixtures with a tiny,
randomly initialised BERT-style model written to a temporary directory (nothing is downloaded), and
their archives label a sentence far longer than the model's 512-piece limit (windowed) after that directory
is deleted: the archive carries the transformer's files, though these configs name no callback for it. The same
archive as earlier versions saved it (allennlp's `pretrained_transformer_mismatched` indexer) reads its words with
srl_zoo's `word_pieces` indexer and labels the same."""

import json
import os
import shutil

import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from srl_zoo.pretrained.word_piece_indexer import WordPieceIndexer
from tests.archive_rewriting import rewritten_archive
from tests.conftest import FIXTURES, REPO_ROOT
from tests.tiny_bert import write_tiny_bert

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

CONFIGS = ["deepatt_glu_conll2012", "sc_bilstm_conll2012", "lisa_conll2012", "bilstm_conll2012"]
HIDDEN = 16


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    """A 2-layer BERT (hidden 16, 512 positions) whose word-piece vocabulary is the fixture's words plus
    single characters, so that any word can be split."""
    words = set()
    with open(os.path.join(FIXTURES, "conll2012", "sample.gold_conll"), encoding="utf-8") as data:
        for line in data:
            fields = line.split()
            if len(fields) > 3 and not line.startswith("#"):
                words.add(fields[3])
    characters = sorted({c for word in words for c in word} | set("abcdefghijklmnopqrstuvwxyz"))
    pieces = sorted(words)[:300] + characters + [f"##{c}" for c in characters]
    directory = str(tmp_path_factory.mktemp("tiny_bert"))
    return write_tiny_bert(directory, pieces, hidden=HIDDEN, layers=2, lowercase=False)


@pytest.mark.parametrize("name", CONFIGS)
def test_transformer_config_trains_and_predicts_long_sentences(name, tiny_bert, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    bert = shutil.copytree(tiny_bert, tmp_path / "bert")  # deleted once trained: the archive must not need it
    monkeypatch.setenv("SRL_TRANSFORMER", str(bert))
    for split in ("TRAIN", "DEV"):
        monkeypatch.setenv(f"SRL_{split}_DATA", os.path.join(FIXTURES, "conll2012", "sample.gold_conll"))
        monkeypatch.setenv(f"SRL_{split}_TREES", os.path.join(FIXTURES, "conll2009", "sample.txt"))
    overrides = {"trainer.num_epochs": 1}  # the schedule follows (it was fixed at 15 epochs)
    config = os.path.join(REPO_ROOT, "training_configs", "transformer", f"{name}.jsonnet")
    train_model_from_file(config, str(tmp_path / "run"), overrides=json.dumps(overrides))

    shutil.rmtree(bert)
    (state_file,) = (tmp_path / "run").glob("training_state_*.th")
    state = torch.load(state_file, weights_only=False)  # the run's own training state
    assert state["learning_rate_scheduler"]["num_epochs"] == 1
    archive = load_archive(str(tmp_path / "run" / "model.tar.gz"))
    predictor = Predictor.from_archive(archive)  # the model's default predictor
    long_sentence = ["antidisestablishmentarianism"] * 40 + ["The", "cat", "sat", "."] * 10  # > 1000 word pieces
    short = ["The", "cat", "sat", "on", "the", "mat", "."]
    outputs = predictor.predict_batch_json(
        [{"tokens": long_sentence, "predicates": [42]}, {"tokens": short, "predicates": [2]}]
    )
    assert [len(o["words"]) for o in outputs] == [80, 7]
    assert len(outputs[0]["frames"]) == 1 and len(outputs[0]["frames"][0]["tags"]) == 80
    assert outputs[1]["frames"][0]["predicate"]["word"] == "sat"

    def as_allennlp_indexed(config: dict) -> None:
        indexer = config["dataset_reader"]["token_indexers"]["tokens"]
        assert indexer["type"] == "word_pieces"
        indexer["type"] = "pretrained_transformer_mismatched"

    old = rewritten_archive(str(tmp_path / "run" / "model.tar.gz"), str(tmp_path / "old.tar.gz"), as_allennlp_indexed)
    old_archive = load_archive(old)
    assert isinstance(old_archive.dataset_reader.token_indexers["tokens"], WordPieceIndexer)
    old_outputs = Predictor.from_archive(old_archive).predict_batch_json(
        [{"tokens": long_sentence, "predicates": [42]}, {"tokens": short, "predicates": [2]}]
    )
    assert old_outputs == outputs
