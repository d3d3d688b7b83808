"""allennlp's `train_model`, checked and cleaned up after: the config is checked before anything is read or made,
and a run that fails before it saved any weights leaves no serialization folder (allennlp makes the folder, its
config, vocabulary and log before the first batch, and then refuses the corrected command with "Specify
--recover", which has nothing to recover)."""

import functools
import os
import shutil
from typing import Any


def remove_unstarted_training(serialization_dir: str) -> None:
    """Remove `serialization_dir` if it holds no weights (no `.th` checkpoint, no archive)."""
    if not os.path.isdir(serialization_dir):
        return
    if not any(name.endswith((".th", ".tar.gz")) for name in os.listdir(serialization_dir)):
        shutil.rmtree(serialization_dir, ignore_errors=True)


def use_checked_training() -> None:
    """allennlp's `train_model` (`allennlp train`, `srl-zoo train`, `train_model_from_file`) checks the config
    first (`srl_zoo.training.config_check`), before it reads data or builds anything, and removes the folder it
    made when the run fails before any weights were saved (a folder that was there before, `--recover` or
    `--force`, is left as it is). Once only."""
    from allennlp.commands import train

    from srl_zoo.training.config_check import check_training_config

    if getattr(train.train_model, "srl_zoo_checked", False):
        return
    original = train.train_model

    @functools.wraps(original)
    def train_model(params: Any, serialization_dir: Any, *args: Any, **kwargs: Any) -> Any:
        check_training_config(params.as_dict(quiet=True))
        fresh = not os.path.exists(serialization_dir)
        try:
            return original(params, serialization_dir, *args, **kwargs)
        except BaseException:
            if fresh:
                remove_unstarted_training(str(serialization_dir))
            raise

    train_model.srl_zoo_checked = True  # type: ignore[attr-defined]
    train.train_model = train_model
