"""`make demo`: read the bundled real sample with the three readers, train the small DeepAtt config
on it, evaluate with srl_zoo's metric and the official srl-eval.pl, and label a raw sentence.

The bundled sample is 20 training sentences (a smoke run of the whole pipeline, not a useful
model); train on real data with the configs in training_configs/ (see README).
"""

import json
import os
import subprocess
import sys
import time
from collections import Counter

from srl_zoo.data.formats import read_conll2005, read_conll2009, read_conll2012

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures")
TRAIN = os.path.join(FIXTURES, "conll2005", "sample.txt")
DEV = os.path.join(FIXTURES, "conll2005", "edge_cases.txt")
RUN_DIR = os.path.join(ROOT, "runs", "demo")
RAW_SENTENCE = "President Bush nominated two individuals to replace retiring jurists on Tuesday."


def summarize() -> None:
    print("== The bundled sample (first 20 EWT dev sentences) in the three formats")
    for name, read, path in (
        ("conll2005", read_conll2005, "conll2005/sample.txt"),
        ("conll2012", read_conll2012, "conll2012/sample.gold_conll"),
        ("conll2009", read_conll2009, "conll2009/sample.txt"),
    ):
        sentences = list(read(os.path.join(FIXTURES, path)))
        frames = [f for s in sentences for f in s.frames]
        labels = Counter(a.label for f in frames for a in f.arguments if a.label not in ("V", "C-V"))
        print(
            f"{name}: {len(sentences)} sentences, {sum(len(s) for s in sentences)} tokens, "
            f"{len(frames)} predicates, {sum(labels.values())} arguments; top labels {labels.most_common(4)}"
        )


def run(command, log: str = None) -> None:
    """Run an allennlp command with the demo's data paths; its output goes to `log` if given."""
    print("$ " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in command), flush=True)
    env = {**os.environ, "SRL_TRAIN_DATA": TRAIN, "SRL_DEV_DATA": DEV}
    if log is None:
        subprocess.run(command, check=True, cwd=ROOT, env=env)
        return
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w", encoding="utf-8") as handle:
        completed = subprocess.run(command, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT)
    if completed.returncode != 0:
        sys.exit(f"failed (exit {completed.returncode}); see {log}")


def main() -> None:
    summarize()
    allennlp = [sys.executable, "-m", "allennlp"]
    print("\n== Training training_configs/deepatt/ffn_small_conll2005.jsonnet on the sample")
    started = time.time()
    run(
        allennlp
        + [
            "train",
            "training_configs/deepatt/ffn_small_conll2005.jsonnet",
            "-s",
            RUN_DIR,
            "-f",
            "--include-package",
            "srl_zoo",
        ],
        log=RUN_DIR + ".train.log",
    )
    with open(os.path.join(RUN_DIR, "metrics.json"), encoding="utf-8") as handle:
        metrics = json.load(handle)
    print(
        f"trained {metrics['epoch'] + 1} epochs in {time.time() - started:.0f} s (log: runs/demo.train.log); "
        f"training loss {metrics['training_loss']:.3f}, "
        f"best dev F1 {100 * metrics['best_validation_f1-measure-overall']:.2f} "
        f"at epoch {metrics['best_epoch']}"
    )
    print("\n== Evaluating on 9 other dev sentences (srl_zoo metric and srl-eval.pl)")
    run(
        allennlp
        + [
            "srl-evaluate",
            os.path.join(RUN_DIR, "model.tar.gz"),
            DEV,
            "--output-dir",
            os.path.join(RUN_DIR, "eval"),
            "--include-package",
            "srl_zoo",
        ]
    )
    print(f"\nProps files and srl-eval.pl's full report: {os.path.relpath(os.path.join(RUN_DIR, 'eval'), ROOT)}")
    print("\n== Labeling raw text (predicates found by the model; spaCy blank tokenizer, no download)")
    inputs = os.path.join(RUN_DIR, "raw_text.jsonl")
    with open(inputs, "w", encoding="utf-8") as handle:
        handle.write(json.dumps({"sentence": RAW_SENTENCE}) + "\n")
    predictions = os.path.join(RUN_DIR, "raw_text.predictions.jsonl")
    run(
        allennlp
        + [
            "predict",
            os.path.join(RUN_DIR, "model.tar.gz"),
            inputs,
            "--output-file",
            predictions,
            "--predictor",
            "srl",
            "--silent",
            "--include-package",
            "srl_zoo",
        ],
        log=RUN_DIR + ".predict.log",
    )
    with open(predictions, encoding="utf-8") as handle:
        result = json.loads(handle.readline())
    print("words:", " ".join(result["words"]))
    for frame in result["frames"]:
        print(f"  {frame['predicate']}: {frame['description']}")
    if result["frames"]:
        first = {k: result["frames"][0][k] for k in ("predicate", "arguments")}
        print("first frame as JSON:", json.dumps(first, ensure_ascii=False))
    print(f"full output: {os.path.relpath(predictions, ROOT)}")


if __name__ == "__main__":
    main()
