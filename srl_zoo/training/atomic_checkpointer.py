"""A checkpointer that never leaves a half-written checkpoint: each file is written to a temporary
name and renamed, so `--recover` after a kill at any moment finds only whole checkpoints."""

import glob
import os
from typing import Any, Optional

import torch
from allennlp.training.checkpointer import Checkpointer
from allennlp.training.trainer import Trainer, TrainerCheckpoint

from srl_zoo.archives import load_weights
from srl_zoo.data.formats.io_utils import TEMPORARY_PREFIX, atomic_write
from srl_zoo.training import exact_resume_trainer  # noqa: F401  (registers srl_zoo_gradient_descent)


def atomic_torch_save(value: Any, path: str) -> None:
    """`torch.save(value, path)` through a temporary file renamed onto `path` once complete."""
    with atomic_write(path, "wb") as handle:
        torch.save(value, handle)


class _FixedState:
    """Hands `Checkpointer.save_checkpoint` a state that was already taken (and written)."""

    def __init__(self, state: Optional[TrainerCheckpoint]) -> None:
        self.state = state

    def get_checkpoint_state(self) -> Optional[TrainerCheckpoint]:
        return self.state


@Checkpointer.register("srl_zoo_atomic")
class AtomicCheckpointer(Checkpointer):
    """AllenNLP's checkpointer (same files, options, pruning) with atomic writes and weights-only loading.

    The training state is written first and the model state last: a checkpoint counts as present
    when its model-state file exists, and that file appears, whole, only after both are written.
    Importing srl_zoo makes it the default checkpointer of `allennlp train`.
    """

    def save_checkpoint(self, trainer: Trainer) -> None:
        if self._serialization_dir is None:
            return
        state = trainer.get_checkpoint_state()
        if state is not None:
            epochs = state.trainer_state["epochs_completed"]
            batches = state.trainer_state["batches_in_epoch_completed"]
            atomic_torch_save(state.trainer_state, self._training_state_path(epochs, batches))
            atomic_torch_save(state.model_state, self._model_state_path(epochs, batches))
        # the files exist now, so the parent only does its bookkeeping and pruning
        super().save_checkpoint(_FixedState(state))  # type: ignore[arg-type]

    def load_checkpoint(self) -> Optional[TrainerCheckpoint]:
        self.remove_interrupted_writes()
        latest = self.find_latest_checkpoint()
        if latest is None:
            return None
        model_path, training_state_path = latest
        training_state = torch.load(training_state_path, map_location="cpu", weights_only=True)
        return TrainerCheckpoint(load_weights(model_path), training_state)

    def remove_interrupted_writes(self) -> None:
        """Delete the temporary files (`atomic_write`'s `.tmp-NAME.*`) of writes that a kill interrupted."""
        if self._serialization_dir is None:
            return
        for path in glob.glob(os.path.join(glob.escape(self._serialization_dir), TEMPORARY_PREFIX + "*")):
            if os.path.isfile(path):
                os.unlink(path)


def make_default() -> None:
    """Make `AtomicCheckpointer` and `ExactResumeTrainer` what `allennlp train` uses when the config names
    no checkpointer or trainer type."""
    Checkpointer.default_implementation = "srl_zoo_atomic"
    Trainer.default_implementation = "srl_zoo_gradient_descent"
