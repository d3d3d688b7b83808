"""A training killed after a checkpoint and resumed with `--recover` ends with the weights of the same
training run straight through, tensor for tensor, and leaves no temporary file of the killed write."""

import glob
import json
import os

import pytest
import torch
from allennlp.commands.train import train_model_from_file

from srl_zoo.training import AtomicCheckpointer
from tests.conftest import REPO_ROOT, fixture_path
from tests.training.test_atomic_checkpointer import Killed

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

CONFIG = fixture_path("deepatt", "ffn.jsonnet")  # dropout, shuffled batches of 8 sentences
EPOCHS = 3


def train(serialization_dir, recover: bool = False, **trainer) -> None:
    overrides = json.dumps({"trainer.num_epochs": EPOCHS, **{f"trainer.{k}": v for k, v in trainer.items()}})
    train_model_from_file(CONFIG, str(serialization_dir), overrides=overrides, recover=recover)


def kill_after_checkpoint(monkeypatch, epochs: int, batches: int) -> None:
    """The process 'dies' right after the checkpoint (epochs, batches) is written, leaving behind the
    empty temporary file of the next write it had begun (what SIGKILL leaves)."""
    real_save = AtomicCheckpointer.save_checkpoint

    def save_then_die(self, trainer):
        real_save(self, trainer)
        if (trainer._epochs_completed, trainer._batches_in_epoch_completed) == (epochs, batches):
            open(os.path.join(self._serialization_dir, ".tmp-model_state_next.th.x1y2"), "wb").close()
            raise Killed()

    monkeypatch.setattr(AtomicCheckpointer, "save_checkpoint", save_then_die)


def final_weights(serialization_dir):
    return torch.load(os.path.join(serialization_dir, f"model_state_e{EPOCHS}_b0.th"), weights_only=True)


@pytest.mark.parametrize(
    "killed_at, trainer",
    [((1, 0), {}), ((2, 0), {}), ((1, 2), {"checkpointer": {"save_every_num_batches": 2}})],
    ids=["after-epoch-1", "after-epoch-2", "inside-epoch-2"],
)
def test_kill_and_recover_ends_with_the_weights_of_a_straight_run(tmp_path, monkeypatch, killed_at, trainer):
    monkeypatch.chdir(REPO_ROOT)
    straight, resumed = tmp_path / "straight", tmp_path / "resumed"
    train(straight, **trainer)
    with monkeypatch.context() as patch:
        kill_after_checkpoint(patch, *killed_at)
        with pytest.raises(Killed):
            train(resumed, **trainer)
    assert glob.glob(str(resumed / ".tmp-*")), "the kill left a temporary file"
    train(resumed, recover=True, **trainer)

    expected, got = final_weights(straight), final_weights(resumed)
    assert expected.keys() == got.keys()
    differing = [name for name in expected if not torch.equal(expected[name], got[name])]
    assert differing == []
    assert glob.glob(str(resumed / ".tmp-*")) == []


def test_two_straight_runs_are_identical_and_training_draws_random_numbers(tmp_path, monkeypatch):
    """The comparison above means something: training is deterministic, and it does consume random
    numbers (a resume without the saved states would differ)."""
    monkeypatch.chdir(REPO_ROOT)
    train(tmp_path / "a")
    train(tmp_path / "b")
    first, second = final_weights(tmp_path / "a"), final_weights(tmp_path / "b")
    assert all(torch.equal(first[name], second[name]) for name in first)
    overrides = json.dumps({"trainer.num_epochs": EPOCHS, "random_seed": 1, "numpy_seed": 2, "pytorch_seed": 3})
    train_model_from_file(CONFIG, str(tmp_path / "c"), overrides=overrides)
    other = final_weights(tmp_path / "c")
    assert any(not torch.equal(first[name], other[name]) for name in first)
