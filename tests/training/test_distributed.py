"""allennlp's distributed trainer with two gloo (CPU) workers: the validation metrics of the span,
predicate and parse heads, computed while each worker sees half of the data, equal a one-process
evaluation of the same model on the whole file."""

import json
import os

import pytest
from allennlp.commands.evaluate import evaluate_from_args
from allennlp.commands.train import train_model_from_file

from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

COMPARED = (
    "f1-measure-overall",
    "precision-overall",
    "perfect-propositions",
    "predicate-f1",
    "pos-accuracy",
    "parse-uas",
    "parse-las",
)


class EvaluateArgs:
    """The arguments `allennlp evaluate` would parse."""

    def __init__(self, archive: str, data: str, output: str) -> None:
        self.archive_file, self.input_file, self.output_file = archive, data, output
        self.predictions_output_file = None
        self.weights_file = None
        self.cuda_device = -1
        self.overrides = ""
        self.batch_size = None
        self.batch_weight_key = ""
        self.extend_vocab = False
        self.embedding_sources_mapping = None
        self.file_friendly_logging = True
        self.auto_names = "NONE"


def test_two_gloo_workers_give_the_metrics_of_one(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("SRL_ZOO_TEST_LISA_FORMAT", "conll2012")
    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    monkeypatch.setenv("SRL_ZOO_TEST_LISA_PARSE_LAYER", "1")
    data = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")  # 20 sentences, so both workers see some
    overrides = {"distributed": {"cuda_devices": [-1, -1]}, "trainer.num_epochs": 40, "validation_data_path": data}
    train_model_from_file(
        os.path.join(FIXTURES, "lisa", "tiny.jsonnet"),
        str(tmp_path / "run"),
        overrides=json.dumps(overrides),
        include_package=["srl_zoo"],
    )
    trained = json.loads((tmp_path / "run" / "metrics.json").read_text())
    evaluated = evaluate_from_args(
        EvaluateArgs(str(tmp_path / "run" / "model.tar.gz"), data, str(tmp_path / "eval.json"))
    )
    for name in COMPARED:  # the archive holds the best epoch's weights
        assert trained[f"best_validation_{name}"] == evaluated[name], name
    assert 0 < evaluated["predicate-f1"] < 1 and 0 < evaluated["parse-uas"] < 1  # not trivially equal


def test_srl_zoo_train_runs_two_workers_from_another_folder(tmp_path):
    """`srl-zoo train` from outside the repository (no `.allennlp_plugins` there): the spawned workers import
    srl_zoo too (they failed on "conll2009 not in acceptable choices" before)."""
    import subprocess
    import sys

    data = os.path.join(FIXTURES, "conll2009", "sample.txt")  # its own trees: no path relative to the repository
    overrides = {
        "distributed": {"cuda_devices": [-1, -1]},
        "trainer.num_epochs": 1,
        "train_data_path": data,
        "validation_data_path": data,
    }
    command = [os.path.join(os.path.dirname(sys.executable), "srl-zoo"), "train"]
    command += [
        os.path.join(FIXTURES, "lisa", "tiny.jsonnet"),
        "-s",
        str(tmp_path / "run"),
        "-o",
        json.dumps(overrides),
    ]
    environment = {
        **os.environ,
        "SRL_ZOO_TEST_LISA_FORMAT": "conll2009",
        "SRL_ZOO_TEST_PREDICATE_SOURCE": "gold",
        "SRL_ZOO_TEST_LISA_PARSE_LAYER": "1",
    }
    completed = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert (tmp_path / "run" / "model.tar.gz").is_file()
