"""`make demo`: the training loop on the bundled sample, then the shipped English model labels raw text
and is scored on the bundled EWT dev set by srl_zoo's metric and by the official srl-eval.pl.

The screen shows the results; everything the tools log goes to runs/demo/*.log.
"""

import json
import logging
import os
import shlex
import subprocess
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN_DIR = os.path.join(ROOT, "runs", "demo")
SHIPPED_MODEL = os.path.join(ROOT, "models", "ewt-english.tar.gz")
SAMPLE = os.path.join(ROOT, "fixtures", "conll2005", "sample.txt")
DEV = os.path.join(ROOT, "data", "ewt", "conll2012", "dev.gold_conll.gz")
SENTENCES = [  # the README's examples
    "President Bush nominated two individuals to replace retiring jurists on Tuesday.",
    "The Senate confirmed two judges on Tuesday. They start in May.",
    "I bought this laptop from a small shop downtown because my old one broke last week.",
]


def relative(path: str) -> str:
    return os.path.relpath(path, ROOT)


def read_json(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def allennlp(arguments, log: str, environment=None) -> None:
    """Run `allennlp ARGUMENTS --include-package srl_zoo` from the repository root, its output into `log`."""
    command = [sys.executable, "-m", "allennlp", *arguments, "--include-package", "srl_zoo"]
    print("$ allennlp " + shlex.join(relative(a) if a.startswith(ROOT) else a for a in arguments), flush=True)
    with open(log, "w", encoding="utf-8") as handle:
        completed = subprocess.run(
            command, cwd=ROOT, env={**os.environ, **(environment or {})}, stdout=handle, stderr=subprocess.STDOUT
        )
    if completed.returncode != 0:
        sys.exit(f"failed (exit {completed.returncode}); the log is {relative(log)}")


def train_on_the_sample() -> None:
    print("\n== 1. The training loop: a small DeepAtt-FFN, 10 epochs on the 20-sentence sample")
    started = time.time()
    allennlp(
        [
            "train",
            "training_configs/deepatt/ffn_small_conll2005.jsonnet",
            "-s",
            os.path.join(RUN_DIR, "sample_model"),
            "-f",
            "-o",
            '{"trainer.num_epochs": 10}',
        ],
        os.path.join(RUN_DIR, "train.log"),
        {"SRL_TRAIN_DATA": SAMPLE, "SRL_DEV_DATA": SAMPLE},
    )
    final = read_json(os.path.join(RUN_DIR, "sample_model", "metrics.json"))  # the last epoch's metrics
    first = read_json(os.path.join(RUN_DIR, "sample_model", "metrics_epoch_0.json"))
    print(
        f"{final['epoch'] + 1} epochs in {time.time() - started:.0f} s; "
        f"training loss {first['training_loss']:.2f} -> {final['training_loss']:.2f} "
        f"(a smoke run: 20 sentences teach it little; the shipped model below is the real one)"
    )


def label_sentences() -> None:
    print(f"\n== 2. The shipped model ({relative(SHIPPED_MODEL)}) labels raw text")
    import srl_zoo.plugin  # noqa: F401  (imported here: the training above runs in its own process)

    labeler = srl_zoo.load(SHIPPED_MODEL, cuda_device=-1)
    for text in SENTENCES:
        for sentence in labeler(text):
            print(sentence["text"])
            for frame in sentence["frames"]:
                predicate = frame["predicate"]
                sense = f".{predicate['sense']}" if predicate.get("sense") else ""
                print(f"  {predicate['word']}{sense}: {frame['description']}")


def evaluate_on_dev() -> None:
    print(f"\n== 3. The shipped model on the bundled EWT dev set ({relative(DEV)}, gold predicates)")
    output = os.path.join(RUN_DIR, "ewt_dev")
    allennlp(["srl-evaluate", SHIPPED_MODEL, DEV, "--output-dir", output], os.path.join(RUN_DIR, "evaluate.log"))
    result = read_json(os.path.join(output, "metrics.json"))
    python = result["python"]
    print(
        f"srl_zoo's metric   P {100 * python['precision-overall']:.2f}  R {100 * python['recall-overall']:.2f}  "
        f"F1 {100 * python['f1-measure-overall']:.2f}"
    )
    if "srl_eval" in result:
        official = result["srl_eval"]
        print(f"srl-eval.pl        P {official['precision']:.2f}  R {official['recall']:.2f}  F1 {official['f1']:.2f}")
    else:
        print("srl-eval.pl        not run (no perl or no scorer; see the log)")
    print(f"gold/predicted props and srl-eval.pl's full report: {relative(output)}")


def main() -> None:
    os.makedirs(RUN_DIR, exist_ok=True)
    log = os.path.join(RUN_DIR, "demo.log")
    logging.basicConfig(filename=log, level=logging.INFO, force=True)  # in-process logs off the screen
    started = time.time()
    print(f"srl_zoo demo (logs: {relative(RUN_DIR)}/*.log)")
    train_on_the_sample()
    label_sentences()
    evaluate_on_dev()
    print(f"\ndone in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
