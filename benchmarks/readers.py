"""Benchmark and verify the three CoNLL readers on full data files (not a test: needs the data).

Usage: python -m benchmarks readers DATA_DIR [--stats DATA_DIR/stats.json]

DATA_DIR holds ewt/conll2005/{train,dev}.txt, ewt/conll2012/{train,dev}.gold_conll and
ewt/conll2009/{train,dev}.txt. For each file: sentence/predicate/argument counts (compared with
stats.json when given), parse speed in sentences/s, and read -> write -> read identity. The
CoNLL-2005 dev file is also written as props and scored against itself with srl-eval.pl.
"""

import argparse
import json
import os
import sys
import tempfile
import time

from srl_zoo.data.formats import READERS, WRITERS, read_conll2005, write_conll2005
from srl_zoo.metrics import run_srl_eval

FILES = [
    ("conll2005", "ewt/conll2005/train.txt"),
    ("conll2005", "ewt/conll2005/dev.txt"),
    ("conll2012", "ewt/conll2012/train.gold_conll"),
    ("conll2012", "ewt/conll2012/dev.gold_conll"),
    ("conll2009", "ewt/conll2009/train.txt"),
    ("conll2009", "ewt/conll2009/dev.txt"),
]


def cut_props_columns(path: str, out: str, first_column: int) -> None:
    """Copy the target and props columns of a srlconll file as plain text (like `cut`)."""
    with open(path, encoding="utf-8") as source, open(out, "w", encoding="utf-8") as target:
        for line in source:
            target.write(" ".join(line.split()[first_column:]) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir")
    parser.add_argument("--stats", help="stats.json to compare counts with (default: DATA_DIR/stats.json if present)")
    args = parser.parse_args()
    stats_path = args.stats or os.path.join(args.data_dir, "stats.json")
    stats = {}
    if os.path.exists(stats_path):
        with open(stats_path, encoding="utf-8") as handle:
            stats = json.load(handle)["files"]
    failures = 0
    print(
        f"{'file':34} {'sentences':>9} {'tokens':>7} {'predicates':>10} {'arguments':>9} {'sent/s':>8}"
        "  counts  round-trip"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name, relative in FILES:
            read, write = READERS[name], WRITERS[name]
            path = os.path.join(args.data_dir, relative)
            start = time.perf_counter()
            sentences = list(read(path))
            seconds = time.perf_counter() - start
            found = {
                "sentences": len(sentences),
                "tokens": sum(len(s) for s in sentences),
                "predicates": sum(len(s.frames) for s in sentences),
                "arguments": sum(
                    1 for s in sentences for f in s.frames for a in f.arguments if a.label not in ("V", "C-V")
                ),
            }
            expected = stats.get(relative)
            counts_ok = (
                "n/a" if expected is None else ("ok" if all(expected[k] == v for k, v in found.items()) else "DIFF")
            )
            out = os.path.join(tmp, os.path.basename(relative))
            write(sentences, out)
            identity = "ok" if list(read(out)) == sentences else "DIFF"
            failures += counts_ok == "DIFF" or identity == "DIFF"
            print(
                f"{relative:34} {found['sentences']:9d} {found['tokens']:7d} {found['predicates']:10d} "
                f"{found['arguments']:9d} {len(sentences) / seconds:8.0f}  {counts_ok:6}  {identity}"
            )
            if counts_ok == "DIFF":
                print(f"    expected {({k: expected[k] for k in found})}")
            if relative == "ewt/conll2005/dev.txt":
                gold, predicted = os.path.join(tmp, "gold.props"), os.path.join(tmp, "pred.props")
                cut_props_columns(path, gold, first_column=4)  # the original text, not re-parsed
                write_conll2005(read_conll2005(out), predicted, props_only=True)
                result = run_srl_eval(gold, predicted)
                print(
                    "    srl-eval.pl, writer output vs original file: "
                    f"P {result.precision:.2f} R {result.recall:.2f} F1 {result.f1:.2f}"
                )
                failures += result.f1 != 100.0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
