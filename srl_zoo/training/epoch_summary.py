"""One line per epoch (loss, dev F1, time) printed by srl_zoo's trainer, so that a quiet `srl-zoo train`
still says how training goes: allennlp's INFO log comes only with `--verbose`."""

import time
from typing import Any, Optional

from allennlp.training.callbacks import TrainerCallback
from tqdm import tqdm


def summary_line(metrics: dict[str, Any], epoch: int, num_epochs: int, seconds: float) -> str:
    """`epoch 3/18: loss 1.234, dev F1 64.32 (best 64.32, epoch 3), 5.5 min`; what the metrics hold."""
    parts = [f"epoch {epoch + 1}/{num_epochs}:"]
    if "training_loss" in metrics:
        parts.append(f"loss {metrics['training_loss']:.3f},")
    f1 = metrics.get("validation_f1-measure-overall")
    if f1 is not None:
        best = metrics.get("best_validation_f1-measure-overall", f1)
        best_epoch = metrics.get("best_epoch", epoch)
        parts.append(f"dev F1 {100 * f1:.2f} (best {100 * best:.2f}, epoch {best_epoch + 1}),")
    parts.append(f"{seconds / 60:.1f} min")
    return " ".join(parts)


@TrainerCallback.register("epoch_summary")
class EpochSummaryCallback(TrainerCallback):
    """Writes `summary_line` after each epoch (through tqdm, so that progress bars stay whole)."""

    def __init__(self, serialization_dir: str) -> None:
        super().__init__(serialization_dir)
        self._started: Optional[float] = None

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        self._started = time.monotonic()

    def on_epoch(
        self, trainer: Any, metrics: dict[str, Any], epoch: int, is_primary: bool = True, **kwargs: Any
    ) -> None:
        if is_primary:
            now = time.monotonic()
            tqdm.write(summary_line(metrics, epoch, trainer._num_epochs, now - (self._started or now)))
            self._started = now
