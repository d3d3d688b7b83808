"""A trainer callback that ends training at an epoch boundary before a wall-clock budget runs out."""

import logging
import time
from typing import Any, Optional

from allennlp.training.callbacks import TrainerCallback

logger = logging.getLogger(__name__)


@TrainerCallback.register("time_budget")
class TimeBudgetCallback(TrainerCallback):
    """Stops after the last epoch that fits in `minutes` (projected from the mean epoch time).

    # Parameters

    serialization_dir : the run's folder (the trainer gives it).
    minutes : the training time allowed, in minutes, from the start of training in this process.

    Validation, best-model selection and archiving still happen as after a normal last epoch.
    AllenNLP 2.10 has no public "stop now" hook, so this uses the metric tracker's early-stopping
    check, which the trainer consults right after `on_epoch`.
    """

    def __init__(self, serialization_dir: str, minutes: float) -> None:
        super().__init__(serialization_dir)
        self.seconds = minutes * 60.0
        self._start: Optional[float] = None

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        self._start = time.monotonic()

    def on_epoch(
        self, trainer: Any, metrics: dict[str, Any], epoch: int, is_primary: bool = True, **kwargs: Any
    ) -> None:
        elapsed = time.monotonic() - (self._start or time.monotonic())
        per_epoch = elapsed / (epoch + 1)
        if elapsed + per_epoch > self.seconds:
            logger.info(
                "Time budget: %.1f of %.1f min used, another epoch would overrun; stopping.",
                elapsed / 60,
                self.seconds / 60,
            )
            trainer._metric_tracker._patience = 0
