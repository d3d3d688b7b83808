"""allennlp's trainer whose `--recover` ends exactly where an uninterrupted training does.

allennlp's recovery replays the data loader over the epochs (and batches) a checkpoint already
covers, so that the data order comes out right, but it runs no forward pass there, so dropout draws
nothing; and the checkpoint holds no random-number state at all. The weights after a resume therefore
differ from a straight run's. Here each checkpoint carries the states at its own moment ("now") and at
the start of its epoch; a resumed training puts the epoch-start states back just before the epoch it
resumes in reads its data (so it shuffles as the straight run did) and the states of the moment just
before its first batch that trains (so dropout and everything after draw what the straight run drew).
"""

import contextlib
import os
import shutil
from collections.abc import Iterator
from typing import Any, Optional

import torch
from allennlp.training.checkpointer import Checkpointer
from allennlp.training.gradient_descent_trainer import GradientDescentTrainer
from allennlp.training.trainer import Trainer, TrainerCheckpoint

from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.training.epoch_summary import EpochSummaryCallback
from srl_zoo.training.random_states import RandomStates, capture_random_states, restore_random_states

#: the training-state key of the random states: `{"now": ..., "epoch_start": ...}`
RANDOM_STATES = "srl_zoo_random_states"


@Trainer.register("srl_zoo_gradient_descent", constructor="from_partial_objects")
class ExactResumeTrainer(GradientDescentTrainer):
    """`gradient_descent` (same options) with random states in its checkpoints and an exact resume.

    Importing srl_zoo makes it what `allennlp train` uses when the config names no trainer type. It
    prints one summary line per epoch (`EpochSummaryCallback`) unless the config lists that callback.

    # Parameters

    no_grad : regexes of parameter names that are not trained (their `requires_grad` is turned off).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not any(isinstance(callback, EpochSummaryCallback) for callback in self._callbacks):
            self._callbacks.append(EpochSummaryCallback(self._serialization_dir))  # one line per epoch

    _epoch_start_states: Optional[RandomStates] = None
    _resume_epoch_start: Optional[RandomStates] = None  # put back when the resumed epoch starts
    _resume_now: Optional[RandomStates] = None  # put back before the first batch that trains

    def get_checkpoint_state(self) -> Optional[TrainerCheckpoint]:
        state = super().get_checkpoint_state()
        if state is not None:
            now = capture_random_states()
            # a checkpoint at an epoch's end is where the next epoch starts
            epoch_start = self._epoch_start_states if self._batches_in_epoch_completed else now
            state.trainer_state[RANDOM_STATES] = {"now": now, "epoch_start": epoch_start}
        return state

    def _maybe_restore_checkpoint(self) -> None:
        if self._checkpointer is None:
            super()._maybe_restore_checkpoint()
            return
        state = self._checkpointer.load_checkpoint()
        saved = state.trainer_state.get(RANDOM_STATES) if state is not None else None
        if saved is not None:
            self._resume_epoch_start = saved["epoch_start"]
            if state.trainer_state["batches_in_epoch_completed"]:  # type: ignore[union-attr]
                self._resume_now = saved["now"]  # a checkpoint inside an epoch
        with _loaded_once(self._checkpointer, state):
            super()._maybe_restore_checkpoint()
        if state is not None:
            self._restore_best_model(state)

    def _restore_best_model(self, state: TrainerCheckpoint) -> None:
        """Write `best.th` if the checkpoint's epoch is the best so far: allennlp copies it there only
        after the checkpoint is written, so a kill in between would leave `best.th` stale or missing."""
        epochs, batches = state.trainer_state["epochs_completed"], state.trainer_state["batches_in_epoch_completed"]
        if (
            batches
            or self._serialization_dir is None
            or self._moving_average is not None
            or self._metric_tracker.best_epoch != epochs - 1
        ):
            return
        latest = self._checkpointer.find_latest_checkpoint()  # type: ignore[union-attr]
        if latest is None:
            return
        self._best_model_filename = os.path.join(self._serialization_dir, "best.th")
        with open(latest[0], "rb") as source, atomic_write(self._best_model_filename, "wb") as target:
            shutil.copyfileobj(source, target)

    def _train_epoch(self, epoch: int) -> dict[str, float]:
        if self._resume_epoch_start is not None and self._epochs_completed == self._start_after_epochs_completed:
            restore_random_states(self._resume_epoch_start)
            self._resume_epoch_start = None
        self._epoch_start_states = capture_random_states()
        return super()._train_epoch(epoch)

    def batch_outputs(self, batch: dict[str, torch.Tensor], for_training: bool) -> dict[str, torch.Tensor]:
        if for_training and self._resume_now is not None:
            restore_random_states(self._resume_now)
            self._resume_now = None
        return super().batch_outputs(batch, for_training)


@contextlib.contextmanager
def _loaded_once(checkpointer: Checkpointer, state: Optional[TrainerCheckpoint]) -> Iterator[None]:
    """Within the block, `checkpointer.load_checkpoint()` returns `state` (already loaded) instead of
    reading the files a second time."""
    checkpointer.load_checkpoint = lambda: state  # type: ignore[method-assign]
    try:
        yield
    finally:
        del checkpointer.load_checkpoint  # the class's method again
