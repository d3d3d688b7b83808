"""`allennlp srl-evaluate` end to end: a tiny trained model, props files, Python metric == srl-eval.pl."""
import json
import os
import subprocess
import sys

import pytest
from allennlp.commands.train import train_model_from_file

from tests.conftest import FIXTURES, REPO_ROOT


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    os.chdir(REPO_ROOT)
    os.environ["SRL_ZOO_TEST_DECODING"] = "viterbi"
    serialization_dir = tmp_path_factory.mktemp("model")
    train_model_from_file(
        os.path.join(FIXTURES, "deepatt", "ffn.jsonnet"), str(serialization_dir), overrides='{"trainer.num_epochs": 4}'
    )
    return str(serialization_dir / "model.tar.gz")


def test_cli_writes_props_and_matches_srl_eval(archive, tmp_path):
    out = tmp_path / "eval"
    completed = subprocess.run(
        [sys.executable, "-m", "allennlp", "srl-evaluate", archive, os.path.join(FIXTURES, "conll2005", "sample.txt"),
         "--output-dir", str(out), "--include-package", "srl_zoo"],
        capture_output=True, text=True, cwd=REPO_ROOT,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "srl-eval.pl P" in completed.stdout
    metrics = json.loads((out / "metrics.json").read_text())
    python, official = metrics["python"], metrics["srl_eval"]
    assert abs(100 * python["f1-measure-overall"] - official["f1"]) <= 0.01
    assert abs(100 * python["precision-overall"] - official["precision"]) <= 0.01
    assert abs(100 * python["recall-overall"] - official["recall"]) <= 0.01
    assert abs(100 * python["perfect-propositions"] - official["perfect_propositions"]) <= 0.01
    gold_lines = (out / "gold.props").read_text().splitlines()
    assert len(gold_lines) == len((out / "predicted.props").read_text().splitlines())
    assert gold_lines[0].split() == ["-", "(A2*"]
