"""A kill while a checkpoint is written leaves the previous checkpoint usable: `--recover` resumes and finishes."""

import glob
import json
import os

import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.training.checkpointer import Checkpointer

from srl_zoo.training import AtomicCheckpointer
from tests.conftest import REPO_ROOT, fixture_path

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

CONFIG = fixture_path("deepatt", "ffn.jsonnet")


class Killed(BaseException):
    """Stands for SIGKILL: not an Exception, so nothing on the way catches it."""


def kill_during_model_save(monkeypatch, epoch: int) -> None:
    """torch.save writes half of epoch `epoch`'s model state, then the process 'dies'."""
    real_save = torch.save

    def dying_save(value, target, *args, **kwargs):
        name = getattr(target, "name", str(target))
        if f"model_state_e{epoch}_" in os.path.basename(name):
            real_save(value, target, *args, **kwargs)
            target.truncate(target.tell() // 2)
            target.flush()
            raise Killed()
        return real_save(value, target, *args, **kwargs)

    monkeypatch.setattr(torch, "save", dying_save)


def train(serialization_dir, epochs: int, recover: bool = False) -> None:
    overrides = json.dumps({"trainer.num_epochs": epochs})
    train_model_from_file(CONFIG, str(serialization_dir), overrides=overrides, recover=recover)


def test_srl_zoo_makes_the_atomic_checkpointer_the_default():
    assert Checkpointer.by_name(Checkpointer.default_implementation) is AtomicCheckpointer


def test_recover_after_a_kill_during_a_checkpoint_write(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    serialization_dir = tmp_path / "run"
    with monkeypatch.context() as patch:
        kill_during_model_save(patch, epoch=2)
        with pytest.raises(Killed):
            train(serialization_dir, epochs=3)
    checkpoints = sorted(os.path.basename(p) for p in glob.glob(str(serialization_dir / "model_state_*.th")))
    assert checkpoints == ["model_state_e1_b0.th"], "only whole checkpoints may carry a checkpoint's name"
    for path in glob.glob(str(serialization_dir / "*.th")):
        assert os.path.getsize(path) > 0
    train(serialization_dir, epochs=3, recover=True)
    metrics = json.loads((serialization_dir / "metrics.json").read_text())
    assert metrics["epoch"] == 2  # the last of the 3 epochs (0-based), after resuming from epoch 1
    assert (serialization_dir / "model.tar.gz").exists()
