"""Quiet training: `srl-zoo train` prints one summary line per epoch and progress bars, and allennlp's
INFO log only with --verbose."""

import json
import os
import subprocess
import sys

import pytest

from srl_zoo.training.epoch_summary import summary_line
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

SRL_ZOO = os.path.join(os.path.dirname(sys.executable), "srl-zoo")


def test_the_summary_line_says_loss_f1_best_and_time():
    metrics = {
        "training_loss": 1.23456,
        "validation_f1-measure-overall": 0.6432,
        "best_validation_f1-measure-overall": 0.65,
        "best_epoch": 1,
    }
    assert summary_line(metrics, 2, 18, 330) == "epoch 3/18: loss 1.235, dev F1 64.32 (best 65.00, epoch 2), 5.5 min"
    assert summary_line({}, 0, 1, 6) == "epoch 1/1: 0.1 min"


def train(tmp_path, monkeypatch, *extra):
    monkeypatch.setenv("SRL_ZOO_TEST_DECODING", "argmax")
    overrides = {
        "trainer.num_epochs": 3,
        "train_data_path": os.path.join(FIXTURES, "conll2005", "sample.txt"),
        "validation_data_path": os.path.join(FIXTURES, "conll2005", "edge_cases.txt"),
    }
    command = [SRL_ZOO, "train", os.path.join(FIXTURES, "deepatt", "ffn.jsonnet"), "-s", str(tmp_path / "run")]
    return subprocess.run(command + ["-o", json.dumps(overrides), *extra], capture_output=True, text=True, cwd=tmp_path)


def lines_besides_progress_bars(text: str):
    """The lines of `text` that are not tqdm progress-bar updates."""
    return [
        line
        for line in text.replace("\r", "\n").splitlines()
        if line.strip() and "it/s]" not in line and "s/it]" not in line
    ]


def test_train_prints_one_line_per_epoch(tmp_path, monkeypatch):
    completed = train(tmp_path, monkeypatch)
    assert completed.returncode == 0, completed.stderr[-3000:]
    printed = lines_besides_progress_bars(completed.stdout + completed.stderr)
    assert len(printed) == 3 and all(
        line.startswith(f"epoch {i}/3: loss ") for i, line in zip((1, 2, 3), printed, strict=False)
    )


def test_verbose_brings_back_allennlps_log(tmp_path, monkeypatch):
    completed = train(tmp_path, monkeypatch, "--verbose")
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert sum(" - INFO - " in line for line in (completed.stdout + completed.stderr).splitlines()) > 50
