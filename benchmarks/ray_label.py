"""Corpus labeling on Ray against one plain process: tokens/s of `srl-zoo label` with 1 and 2 Ray actors of one
thread each and of the plain command on one thread, same run (a benchmark).

Usage:
  python -m benchmarks ray_label MODEL.tar.gz --input corpus.txt
      [--make-input-from data/ewt/conll2012/dev.gold_conll.gz] [--block-lines 100] [--repeats 1]
      [--setups plain,ray1,ray2] [--precision float32] [--sentences-for-cost 50000000]

Each setup is `srl-zoo label` as a user runs it, in its own subprocess, timed from start to exit (model load and,
for Ray, the local Ray's start included): `plain` (no `--ray`, OMP_NUM_THREADS=1), `ray1` (`--ray --processes 1
--threads 1`), `ray2` (`--processes 2`). Setups alternate within each repeat, so that a noisy machine hits all
alike; the best of the repeats is kept. Tokens are the words of the labeled sentences. Prints one JSON line: the
CPU, each setup's seconds and tokens/s, `ray2` over `ray1` (the scaling), `ray1` over `plain` (1 - overhead), and
what `--sentences-for-cost` sentences of the input's mean length would take in machine-hours of this machine with
`ray2` (two one-thread actors: this 2-core machine full).
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks.label import write_text
from srl_zoo.leaderboard.machine import processor_name

SETUPS = {
    "plain": [],
    "ray1": ["--ray", "--processes", "1", "--threads", "1"],
    "ray2": ["--ray", "--processes", "2", "--threads", "1"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("--input", required=True, help="plain text, one document per line")
    parser.add_argument("--make-input-from", help="write --input from this CoNLL file's sentences first")
    parser.add_argument("--block-lines", type=int, default=100, help="lines per Ray block")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--setups", default="plain,ray1,ray2", help="of plain, ray1, ray2")
    parser.add_argument("--precision", default="auto", help="--precision of every setup")
    parser.add_argument("--sentences-for-cost", type=int, default=50_000_000)
    args = parser.parse_args()
    setups = {name: SETUPS[name] for name in args.setups.split(",")}
    if args.make_input_from:
        write_text(args.make_input_from, args.input)
    seconds: dict[str, list[float]] = {name: [] for name in setups}
    tokens = sentences = 0
    with tempfile.TemporaryDirectory() as folder:
        for repeat in range(args.repeats):
            for name, options in setups.items():
                output = os.path.join(folder, f"{name}-{repeat}")
                options = options + ["--precision", args.precision]
                if name != "plain":
                    options += ["--block-lines", str(args.block_lines)]
                seconds[name].append(run(args.model, args.input, output, options))
                if not tokens:
                    tokens, sentences = count_words_and_sentences(output)
    best = {name: min(values) for name, values in seconds.items()}
    rates = {name: tokens / value for name, value in best.items()}
    result = {
        "cpu": processor_name(),
        "cores": os.cpu_count(),
        "model": args.model,
        "precision": args.precision,
        "sentences": sentences,
        "tokens": tokens,
        "seconds": {name: round(value, 1) for name, value in best.items()},
        "tokens_per_s": {name: round(rate, 1) for name, rate in rates.items()},
    }
    if "ray1" in rates and "ray2" in rates:
        result["ray2_over_ray1"] = round(rates["ray2"] / rates["ray1"], 3)
    if "ray1" in rates and "plain" in rates:
        result["ray1_over_plain"] = round(rates["ray1"] / rates["plain"], 3)
    if "ray2" in rates:
        hours = args.sentences_for_cost * tokens / sentences / rates["ray2"] / 3600
        result[f"machine_hours_for_{args.sentences_for_cost}_sentences"] = round(hours)
    print(json.dumps(result))


def run(model: str, source: str, output: str, options: list[str]) -> float:
    """Wall seconds of one `srl-zoo label` run."""
    command = [sys.executable, "-m", "srl_zoo.cli", "label", model, source, "-o", output, "--no-progress", *options]
    environment = {**os.environ, "OMP_NUM_THREADS": "1"}
    started = time.perf_counter()
    finished = subprocess.run(command, env=environment, capture_output=True, text=True)
    if finished.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{finished.stderr[-3000:]}")
    return time.perf_counter() - started


def count_words_and_sentences(output: str) -> tuple[int, int]:
    """The words and the sentences of the labeled lines of a JSONL output: a file, or a folder of block files."""
    files = [output] if os.path.isfile(output) else sorted(glob.glob(os.path.join(output, "*.jsonl")))
    words = sentences = 0
    for name in files:
        with open(name, encoding="utf-8") as handle:
            for line in handle:
                for sentence in json.loads(line).get("sentences", []):
                    words += len(sentence["words"])
                    sentences += 1
    return words, sentences


if __name__ == "__main__":
    main()
