"""A markdown table of the AMN ablation runs (scripts/run_amn_ablation.sh): epochs, training tokens/s and
the best epoch's dev scores from srl_zoo's eval09-equivalent metric (a report, not a test).

Usage: python scripts/summarize_amn_ablation.py runs/amn_ablation
"""

import argparse
import json
import os
from statistics import mean
from typing import Optional

ORDER = [
    "base",
    "ed-average",
    "sif-average",
    "relaxed_wmd-average",
    "random-average",
    "ed-concat",
    "ed-weighted",
    "ed-flat",
]


def _load(path: str) -> Optional[dict]:
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _throughput(run_dir: str) -> list[dict]:
    path = os.path.join(run_dir, "throughput.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir")
    parser.add_argument(
        "--at-epochs", type=int, nargs="*", default=[1, 2], help="also the dev scores after these epochs (from 1)"
    )
    args = parser.parse_args()
    names = [n for n in ORDER if os.path.isdir(os.path.join(args.out_dir, n))]
    print(
        "| run | epochs | best epoch | train sentence tok/s | train row tok/s "
        "| dev labeled F1 (senses) | dev argument F1 | sense accuracy "
        + "".join(f"| labeled / argument F1 after epoch {epoch} " for epoch in args.at_epochs)
        + "|"
    )
    print("|---" * (8 + len(args.at_epochs)) + "|")
    for name in names:
        run_dir = os.path.join(args.out_dir, name)
        metrics = _load(os.path.join(run_dir, "metrics.json"))
        if metrics is None:
            print(f"| {name} | (no metrics.json: failed or still running) |||||||")
            continue
        measured = _throughput(run_dir)
        epochs = measured[1:] or measured  # the first epoch includes warm-up work
        sentence = round(mean(e["train_sentence_tokens_per_s"] for e in epochs)) if epochs else ""
        row = round(mean(e["train_row_tokens_per_s"] for e in epochs)) if epochs else ""
        print(
            f"| {name} | {metrics['epoch'] + 1} | {metrics['best_epoch'] + 1} | {sentence} | {row} "
            f"| {100 * metrics['best_validation_f1-measure-overall']:.2f} "
            f"| {100 * metrics['best_validation_argument-f1']:.2f} "
            f"| {100 * metrics.get('best_validation_sense-accuracy', float('nan')):.2f} "
            + "".join(f"| {_at_epoch(run_dir, epoch)} " for epoch in args.at_epochs)
            + "|"
        )


def _at_epoch(run_dir: str, epoch: int) -> str:
    metrics = _load(os.path.join(run_dir, f"metrics_epoch_{epoch - 1}.json"))
    if metrics is None:
        return ""
    return f"{100 * metrics['validation_f1-measure-overall']:.2f} / {100 * metrics['validation_argument-f1']:.2f}"


if __name__ == "__main__":
    main()
