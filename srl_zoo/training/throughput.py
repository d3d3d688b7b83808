"""A trainer callback that measures training throughput per epoch and writes it to `throughput.jsonl`."""

import json
import logging
import os
import time
from typing import Any, Optional

import torch
from allennlp.nn.util import get_text_field_mask
from allennlp.training.callbacks import TrainerCallback

logger = logging.getLogger(__name__)


def batch_token_counts(batch: dict[str, Any]) -> torch.Tensor:
    """`[sentence tokens, (sentence, predicate)-row tokens]` of one `srl` batch, on the batch's device."""
    lengths = get_text_field_mask(batch["tokens"]).sum(-1)
    frames = (batch["frames"]["predicate_indices"] >= 0).sum(-1)
    return torch.stack([lengths.sum(), (lengths * frames).sum()])


@TrainerCallback.register("throughput")
class ThroughputCallback(TrainerCallback):
    """Training tokens/s and the training part of each epoch's wall time, logged and appended to
    `<serialization_dir>/throughput.jsonl` (one JSON object per epoch).

    Timing runs from the end of an epoch's first training batch to the end of its last one (so data
    loading start-up and validation are outside it); the epoch's training time is extrapolated to
    all of its batches. Token counts stay on the device until the epoch ends: no host-device
    synchronisation per batch.
    """

    def __init__(self, serialization_dir: str) -> None:
        super().__init__(serialization_dir)
        self._first: Optional[float] = None
        self._last: Optional[float] = None
        self._batches = 0
        self._tokens: Optional[torch.Tensor] = None
        self.epochs: list[dict[str, Any]] = []

    def on_batch(
        self,
        trainer: Any,
        batch_inputs: list[dict[str, Any]],
        batch_outputs: list[dict[str, Any]],
        batch_metrics: dict[str, Any],
        epoch: int,
        batch_number: int,
        is_training: bool,
        is_primary: bool = True,
        **kwargs: Any,
    ) -> None:
        if not is_training:
            return
        now = time.perf_counter()
        self._batches += 1
        if self._first is None:
            self._first = now
            return
        self._last = now
        for batch in batch_inputs:
            counts = batch_token_counts(batch)
            self._tokens = counts if self._tokens is None else self._tokens + counts

    def on_epoch(
        self, trainer: Any, metrics: dict[str, Any], epoch: int, is_primary: bool = True, **kwargs: Any
    ) -> None:
        if self._first is None or self._last is None or self._tokens is None:
            self._reset()
            return
        seconds = self._last - self._first
        sentence_tokens, row_tokens = (int(v) for v in self._tokens.tolist())
        record = {
            "epoch": epoch,
            "batches": self._batches,
            "training_seconds": round(seconds * self._batches / max(self._batches - 1, 1), 2),
            "train_sentence_tokens_per_s": round(sentence_tokens / seconds) if seconds > 0 else None,
            "train_row_tokens_per_s": round(row_tokens / seconds) if seconds > 0 else None,
        }
        if torch.cuda.is_available():
            record["peak_gpu_memory_mib"] = round(torch.cuda.max_memory_allocated() / 2**20)
        self.epochs.append(record)
        logger.info("Throughput: %s", record)
        if is_primary and self.serialization_dir:
            with open(os.path.join(self.serialization_dir, "throughput.jsonl"), "a", encoding="utf-8") as handle:
                handle.write(json.dumps(record) + "\n")
        self._reset()

    def _reset(self) -> None:
        self._first = self._last = None
        self._batches = 0
        self._tokens = None
