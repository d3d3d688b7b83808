"""Peer rows: allennlp-models' reader takes the leaderboard's parse-less copies (the same words and frames
as srl_zoo reads, where the original's `:)` breaks it), and a peer trained by the leaderboard command is
scored by srl-eval.pl exactly as allennlp-models' own validation scored it."""

import json
import os
import subprocess
import sys

import pytest

from srl_zoo.data.formats import READERS
from srl_zoo.leaderboard.peers import truncated_transformer, without_parse
from tests.conftest import REPO_ROOT, fixture_path
from tests.leaderboard.test_leaderboard import leaderboard

ALLENNLP_MODELS = os.path.join(REPO_ROOT, ".cache", "allennlp-models")
SMILEY_ROW = "doc 0 {index} {word} {pos} {parse} - - - - * {frame} -\n"


def a_file_with_a_smiley(path) -> str:
    """A CoNLL-2012 sentence whose last token is `:)` (as in EWT), its parse bit closing after it."""
    words = [
        ("I", "PRP", "(TOP(S(NP*)", "(ARG0*)"),
        ("like", "VBP", "(VP*", "(V*)"),
        ("it", "PRP", "(NP*))", "(ARG1*)"),
        (":)", "NFP", "*))", "*"),
    ]
    rows = [SMILEY_ROW.format(index=i, word=w, pos=p, parse=b, frame=f) for i, (w, p, b, f) in enumerate(words)]
    rows[1] = rows[1].replace("- - - - *", "like like.01 - - *")
    path.write_text("#begin document (doc); part 000\n" + "".join(rows) + "\n#end document\n")
    return str(path)


def read_with_allennlp_models(directory: str) -> str:
    """What allennlp-models' SRL reader reads from `directory`: one line of words and tags per instance."""
    code = (
        "import sys\nfrom allennlp_models.structured_prediction.dataset_readers.srl import SrlReader\n"
        "for instance in SrlReader().read(sys.argv[1]):\n"
        "    print(' '.join(t.text for t in instance['tokens']), '|', ' '.join(instance['tags'].labels))\n"
    )
    assert os.path.isdir(os.path.join(ALLENNLP_MODELS, "allennlp_models")), "run `make install` first"
    env = {**os.environ, "PYTHONPATH": ALLENNLP_MODELS}
    completed = subprocess.run([sys.executable, "-c", code, directory], capture_output=True, text=True, env=env)
    assert completed.returncode == 0 or "ValueError" in completed.stderr, completed.stderr
    return completed.stdout if completed.returncode == 0 else "failed: " + completed.stderr.strip().splitlines()[-1]


@pytest.mark.slow
def test_allennlp_models_reads_the_parse_less_copy_with_srl_zoo_s_words_and_frames(tmp_path):
    original = a_file_with_a_smiley(tmp_path / "ewt.gold_conll")
    (tmp_path / "original").mkdir()
    os.rename(original, tmp_path / "original" / "ewt.gold_conll")
    original = str(tmp_path / "original" / "ewt.gold_conll")
    assert read_with_allennlp_models(str(tmp_path / "original")).startswith("failed: ")  # the tree breaks

    copy = without_parse(original, str(tmp_path / "copy"))
    assert read_with_allennlp_models(copy).splitlines() == ["I like it :) | B-ARG0 B-V B-ARG1 O"]
    (ours,) = READERS["conll2012"](original)
    (theirs,) = READERS["conll2012"](os.path.join(copy, "ewt.gold_conll"))
    assert (theirs.tokens, theirs.frames) == (ours.tokens, ours.frames)
    assert theirs.pos == ["XX"] * 4


def test_the_truncated_transformer_keeps_the_first_layers_and_writes_the_vocabulary(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "config.json").write_text(json.dumps({"model_type": "bert", "num_hidden_layers": 6}))
    (source / "tokenizer.json").write_text(json.dumps({"model": {"vocab": {"[PAD]": 0, "b": 2, "a": 1}}}))
    (source / "pytorch_model.bin").write_bytes(b"weights")
    truncated_transformer(str(source), 3, str(tmp_path / "l3-uncased"))
    assert json.loads((tmp_path / "l3-uncased" / "config.json").read_text())["num_hidden_layers"] == 3
    assert (tmp_path / "l3-uncased" / "vocab.txt").read_text() == "[PAD]\na\nb\n"
    assert (tmp_path / "l3-uncased" / "pytorch_model.bin").read_bytes() == b"weights"


@pytest.mark.slow
def test_a_peer_row_is_trained_by_the_command_and_scored_as_its_own_validation_scored_it(tmp_path):
    config = tmp_path / "tiny_srl.json"
    config.write_text(
        json.dumps(
            {
                "dataset_reader": {"type": "srl"},
                "train_data_path": "set by the leaderboard",
                "validation_data_path": "set by the leaderboard",
                "model": {
                    "type": "srl",
                    "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 16}}},
                    "encoder": {"type": "lstm", "input_size": 24, "hidden_size": 16, "bidirectional": True},
                    "binary_feature_dim": 8,
                },
                "data_loader": {"batch_size": 8, "shuffle": False},
                "trainer": {
                    "optimizer": {"type": "adam", "lr": 0.02},
                    "num_epochs": 1,
                    "validation_metric": "+f1-measure-overall",
                },
            }
        )
    )
    spec = {
        "title": "Peers",
        "budget": {
            "epochs": 15,
            "train": fixture_path("conll2012", "sample.gold_conll"),
            "dev": fixture_path("conll2012", "sample.gold_conll"),
            "format": "conll2012",
            "speed_sentences": 8,
        },
        "rows": [
            {
                "name": "bilstm peer",
                "config": str(config),
                "group": "tiny",
                "peer": {"package": "allennlp_models.structured_prediction", "path": ALLENNLP_MODELS},
            }
        ],
    }
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(spec))
    completed = leaderboard(spec_path, tmp_path / "runs", tmp_path / "board")
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-3000:]
    (entry,) = json.loads((tmp_path / "board.json").read_text())["rows"]
    (result,) = entry["results"]
    train_dir = tmp_path / "runs" / "rows" / "bilstm_peer" / "seed-13370" / "train"
    metrics = json.loads((train_dir / "metrics.json").read_text())
    best = 100 * metrics["best_validation_f1-measure-overall"]
    assert result["dev_f1"]["srl_eval"] == pytest.approx(best, abs=0.01)
    assert result["dev_f1"]["srl_zoo"] == pytest.approx(best, abs=0.01)
    assert result["dev_f1"]["srl_eval"] > 5  # it learned something, so the agreement says something
    assert result["dev_f1_end_to_end"] is None and result["epochs"] == 15
    assert "| tiny | bilstm peer |" in (tmp_path / "board.md").read_text()


def test_the_peer_configs_name_allennlp_models_parts(tmp_path):
    """Each config under training_configs/peers/ reads as a config whose reader and model allennlp-models
    registers (beside the venv), with the leaderboard's data folders as its defaults."""
    code = (
        "import glob, sys\nimport allennlp_models.structured_prediction\n"
        "from allennlp.common import Params\nfrom allennlp.data import DatasetReader\n"
        "from allennlp.models import Model\n"
        "for path in sorted(glob.glob('training_configs/peers/*.jsonnet')):\n"
        "    config = Params.from_file(path).as_dict(quiet=True)\n"
        "    DatasetReader.by_name(config['dataset_reader']['type'])\n"
        "    print(path, Model.by_name(config['model']['type']).__name__, config['train_data_path'])\n"
    )
    env = {**os.environ, "PYTHONPATH": ALLENNLP_MODELS}
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO_ROOT)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert completed.stdout.splitlines() == [
        "training_configs/peers/srl_bert_minilm_l3.jsonnet SrlBert runs/leaderboard/data/peers/train",
        "training_configs/peers/srl_bilstm.jsonnet SemanticRoleLabeler runs/leaderboard/data/peers/train",
    ]
