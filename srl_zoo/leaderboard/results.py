"""What every leaderboard row writes and reads, whoever trained it (srl_zoo's rows, `rows.py`, and the peers,
`peers.py`): the budget's training file, the run's training minutes and archive facts, the best speeds of two
precisions, and the row's `result.json`."""

import glob
import json
import os
import time
from collections.abc import Callable
from typing import Any

from srl_zoo.data.formats import READERS, WRITERS, SrlSentence
from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.leaderboard.machine import processor_name
from srl_zoo.leaderboard.spec import Spec
from srl_zoo.nn.peak_memory import peak_rss_mib

RESULT = "result.json"


def read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def train_data(spec: Spec, output_dir: str) -> str:
    """The training file of the budget: the first `train_sentences` sentences of `train`, written once."""
    budget = spec.budget
    if budget.train_sentences is None:
        return budget.train
    path = os.path.join(output_dir, "data", f"train-first-{budget.train_sentences}.{budget.format}.txt")
    if not os.path.exists(path):
        sentences: list[SrlSentence] = []
        for sentence in READERS[budget.format](budget.train):
            if len(sentences) == budget.train_sentences:
                break
            sentences.append(sentence)
        WRITERS[budget.format](sentences, path)
    return path


def training_minutes(serialization: str) -> float:
    """Minutes spent training the epochs the archive holds, from allennlp's per-epoch metrics: its
    `training_duration` restarts at a resume, so each run's last value is summed (an epoch cut short
    by a kill is not counted: its work was thrown away, not part of the recipe)."""
    epochs = sorted(
        glob.glob(os.path.join(serialization, "metrics_epoch_*.json")),
        key=lambda path: int(path.rsplit("_", 1)[1].split(".")[0]),
    )
    seconds, previous = 0.0, 0.0
    for path in epochs:
        elapsed = _seconds(read_json(path)["training_duration"])
        if elapsed < previous:  # a resumed run started counting again
            seconds += previous
        previous = elapsed
    return round((seconds + previous) / 60, 1)


def _seconds(duration: str) -> float:
    """Seconds of allennlp's `H:MM:SS.ffffff` (or `N days, H:MM:SS`)."""
    days = 0
    if "day" in duration:
        count, duration = duration.split(",", 1)
        days = int(count.split()[0])
    hours, minutes, seconds = duration.strip().split(":")
    return days * 86400 + int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def archive_facts(serialization: str, model) -> dict[str, Any]:
    """Training minutes and epochs of the run in `serialization`, the model's parameters, its archive's MiB."""
    metrics = read_json(os.path.join(serialization, "metrics.json"))
    return {
        "training_minutes": training_minutes(serialization),
        "epochs": int(metrics["epoch"]) + 1,  # the last epoch trained, 0-based (also after a resume)
        "parameters": sum(p.numel() for p in model.parameters()),
        "archive_mib": round(os.path.getsize(os.path.join(serialization, "model.tar.gz")) / 2**20, 1),
    }


def write_result(directory: str, result: dict[str, Any]) -> dict[str, Any]:
    """`result` with this process's peak memory and processor, written as the row's `result.json` (the mark
    of a finished row)."""
    result["peak_rss_mib"] = round(peak_rss_mib())
    result["processor"] = processor_name()  # speeds depend on it
    with atomic_write(os.path.join(directory, RESULT)) as handle:
        json.dump(result, handle, indent=2)
    return result


def best_speeds(label: Callable[[str, Any], Any], batches: list[Any], tokens: int) -> dict[str, Any]:
    """`tokens_per_s_float32` and `tokens_per_s_bfloat16`: `tokens` over the time `label(precision, batch)`
    takes for every batch (after one warm-up batch), the two precisions measured alternately, the best of
    two each; a precision the model cannot run in here is None, its error under `speed_failures`."""
    names = ("float32", "bfloat16")
    best: dict[str, float] = {}
    failed: dict[str, str] = {}
    for _ in range(2):
        for name in names:
            if name in failed:
                continue
            try:
                label(name, batches[0])  # warm-up
                started = time.perf_counter()
                for batch in batches:
                    label(name, batch)
            except RuntimeError as error:  # e.g. oneDNN has no bfloat16 LSTM on a CPU without AVX-512 BF16
                failed[name] = f"{type(error).__name__}: {str(error).splitlines()[0][:200]}"
                continue
            best[name] = max(best.get(name, 0.0), tokens / (time.perf_counter() - started))
    result: dict[str, Any] = {f"tokens_per_s_{name}": round(best[name]) if name in best else None for name in names}
    if failed:
        result["speed_failures"] = failed
    return result
