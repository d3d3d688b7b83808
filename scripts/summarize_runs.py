"""A markdown table of finished training runs: epochs, time and dev scores (a report, not a test).

Usage:
  python scripts/summarize_runs.py runs/sc_ablation [--eval-dir dev]

Reads, for each run directory under the given folder, allennlp's `metrics.json` (epochs, best
epoch, training time, best validation F1) and, when present, `<run>/<eval-dir>/metrics.json`
written by `allennlp srl-evaluate` (srl-eval.pl precision, recall, F1 and complete propositions),
and the validation F1 after every epoch from `metrics_epoch_<n>.json` (to compare at equal epochs).
"""

import argparse
import glob
import json
import os
import re
from typing import Optional


def _load(path: str) -> Optional[dict]:
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _percent(value: Optional[float]) -> str:
    return "" if value is None else f"{100 * value:.2f}"


def epoch_curve(run: str) -> str:
    """Validation F1 after each epoch of a run, e.g. `36.4 43.8 51.6`."""
    by_epoch = {}
    for path in glob.glob(os.path.join(run, "metrics_epoch_*.json")):
        epoch = int(re.search(r"metrics_epoch_(\d+)\.json$", path).group(1))
        by_epoch[epoch] = (_load(path) or {}).get("validation_f1-measure-overall")
    return " ".join("?" if by_epoch[e] is None else f"{100 * by_epoch[e]:.1f}" for e in sorted(by_epoch))


def summarize(folder: str, eval_dir: str) -> list[str]:
    """One markdown row per run directory of `folder` that has a metrics.json."""
    rows = [
        "| run | epochs | best epoch | training time | model F1 (best epoch) "
        "| srl-eval P | srl-eval R | srl-eval F1 | Comp. | F1 after each epoch |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in sorted(os.listdir(folder)):
        training = _load(os.path.join(folder, name, "metrics.json"))
        if training is None:
            continue
        official = (_load(os.path.join(folder, name, eval_dir, "metrics.json")) or {}).get("srl_eval", {})
        scores = [
            f"{official[key]:.2f}" if key in official else ""
            for key in ("precision", "recall", "f1", "perfect_propositions")
        ]
        rows.append(
            f"| {name} | {training.get('epoch', -1) + 1} | {training.get('best_epoch', -1) + 1} "
            f"| {str(training.get('training_duration', '')).split('.')[0]} "
            f"| {_percent(training.get('best_validation_f1-measure-overall'))} | "
            + " | ".join(scores)
            + f" | {epoch_curve(os.path.join(folder, name))} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="a folder of `allennlp train -s` output directories")
    parser.add_argument(
        "--eval-dir", default="dev", help="the srl-evaluate --output-dir inside each run (default: dev)"
    )
    args = parser.parse_args()
    print("\n".join(summarize(args.folder, args.eval_dir)))


if __name__ == "__main__":
    main()
