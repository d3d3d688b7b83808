"""`python -m srl_zoo.leaderboard SPEC` (= `python scripts/leaderboard.py SPEC`): train and score every
row of a leaderboard spec at its one budget, each (row, seed) in processes of its own, and write the
table, the JSON and the plot.

A finished row (its `result.json`) is never retrained; a row killed while training resumes from its
last checkpoint (srl_zoo's trainer resumes exactly); a row killed while scoring is scored again.
Rerunning the command after a kill, or with rows added to the spec, runs only what is missing.

    python scripts/leaderboard.py leaderboards/minilm.jsonnet --output-dir runs/leaderboard --docs docs/leaderboard
    python scripts/leaderboard.py SPEC --only "bilinear" "crf"      # some rows
    python scripts/leaderboard.py SPEC --table-only                 # only rewrite the table from finished rows
    python scripts/leaderboard.py SPEC --rescore                    # measure finished rows again, no training
"""

import argparse
import importlib
import os
import subprocess
import sys
import time
from typing import Optional

from srl_zoo.leaderboard.rows import finished_results, row_dir, score_row, train_row
from srl_zoo.leaderboard.spec import SpecError, load_spec
from srl_zoo.leaderboard.table import summarize, write_outputs


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        prog="scripts/leaderboard.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("spec", help="the leaderboard spec (.json or .jsonnet)")
    parser.add_argument("--output-dir", default="runs/leaderboard", help="where rows train (default runs/leaderboard)")
    parser.add_argument("--docs", default="docs/leaderboard", help="PREFIX of PREFIX.md, .json, .png")
    parser.add_argument("--only", nargs="+", metavar="ROW", help="run only these rows")
    parser.add_argument("--table-only", action="store_true", help="write the outputs from the finished rows only")
    parser.add_argument(
        "--rescore", action="store_true", help="score finished rows again (e.g. speed on an idle machine); no training"
    )
    parser.add_argument("--step", choices=("train", "score"), help=argparse.SUPPRESS)  # a row's own process
    parser.add_argument("--row", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        spec = load_spec(args.spec)
        for name in args.only or []:
            spec.row(name)
    except SpecError as error:
        sys.exit(f"leaderboard: {error}")
    if args.step:
        _run_step(spec, args)
        return
    published = args.docs + ".json"  # the committed record: rows finished elsewhere are not retrained
    if not args.table_only:
        for row in spec.rows:
            if args.only and row.name not in args.only:
                continue
            for seed in spec.seeds(row):
                results = finished_results(spec, args.output_dir, published)
                finished = (row.name, seed) in {(result["row"], result["seed"]) for result in results}
                archive = os.path.join(row_dir(args.output_dir, row, seed), "train", "model.tar.gz")
                if args.rescore and finished and not os.path.exists(archive):
                    print(f"leaderboard: {row.name} (seed {seed}): no archive here to rescore; result kept", flush=True)
                    continue
                _run_row(args, row.name, seed, finished and not args.rescore)
                # the table after every row: a kill loses no finished row
                write_outputs(summarize(spec, finished_results(spec, args.output_dir, published)), args.docs)
    for path in write_outputs(summarize(spec, finished_results(spec, args.output_dir, published)), args.docs):
        print(path)


def _run_row(args: argparse.Namespace, name: str, seed: int, finished: bool) -> None:
    if finished:
        print(f"leaderboard: {name} (seed {seed}) finished before", flush=True)
        return
    for step in ("train", "score"):
        started = time.perf_counter()
        print(f"leaderboard: {name} (seed {seed}): {step}", flush=True)
        command = [sys.executable, "-m", "srl_zoo.leaderboard", args.spec, "--output-dir", args.output_dir]
        command += ["--docs", args.docs, "--step", step, "--row", name, "--seed", str(seed)]
        completed = subprocess.run(command, env=_row_env(args.spec, name))
        if completed.returncode != 0:
            sys.exit(
                f"leaderboard: {name} (seed {seed}) failed in {step} (exit {completed.returncode}); rerun to resume"
            )
        print(f"leaderboard: {name} (seed {seed}): {step} done in {time.perf_counter() - started:.0f} s", flush=True)


def _row_env(spec_path: str, name: str) -> dict:
    """The budget's threads; a peer's directory on PYTHONPATH (beside the venv, never in it)."""
    spec = load_spec(spec_path)
    threads = str(spec.budget.threads)
    # a row trains for its epochs, not for the configs' wall-clock budget
    env = {**os.environ, "OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads, "SRL_BUDGET_MINUTES": "100000"}
    peer = spec.row(name).peer
    if peer is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.abspath(peer["path"]), env.get("PYTHONPATH")]))
    return env


def _run_step(spec, args: argparse.Namespace) -> None:
    import torch

    import srl_zoo.plugin  # noqa: F401  (registers every component)

    torch.set_num_threads(spec.budget.threads)
    row = spec.row(args.row)
    if row.peer is not None:
        importlib.import_module(row.peer["package"])  # registers the peer's model and reader
    if args.step == "train":
        train_row(spec, row, args.seed, args.output_dir)
    else:
        score_row(spec, row, args.seed, args.output_dir)


if __name__ == "__main__":
    main()
