"""Corpus labeling speed of `srl-label` end to end against the model alone (a benchmark).

Usage:
  python -m benchmarks label MODEL.tar.gz [MODEL.tar.gz ...] --input corpus.txt
      [--make-input-from data/ewt/conll2012/dev.gold_conll.gz] [--baseline-checkout DIR]
      [--setups today,w0,w1,w0-bf16] [--threads 1] [--repeats 1] [--cuda-device 0]

For each model, in one run:
- **model alone**: every chunk of the input prepared first (split, instances, tensors, as srl-label's
  input workers do), then only the forward pass, decoding and the frames' readout timed
  (`SrlPredictor.predict_tensors`), in this process with `--threads` threads (fp32, and bf16).
- **end to end**: `srl-zoo label` as a user runs it, one subprocess per setup, timed from the model's
  load to the last byte written (the command's own `seconds`, load excluded) and with its wall time;
  peak RSS of its largest process (GNU time). Setups: `today` (the `srl-zoo label` of another checkout,
  `--baseline-checkout`, e.g. a `git worktree` of the commit before issue 24), `w0`/`w1` (one process,
  0 or 1 input worker; several processes are `ray_label`'s); suffixes `-bf16` for
  `--mixed-precision`, `-tN` for N threads per process (e.g. `today-t2`). Setups alternate within
  each repeat, so that a noisy machine hits all alike.
Sentences/s count the sentences the sentencizer made; tokens/s their words.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import torch

import srl_zoo.plugin
from srl_zoo.labeling.chunks import read_chunks
from srl_zoo.labeling.prepared_chunks import prepare_chunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="+")
    parser.add_argument("--input", required=True, help="plain text, one document per line")
    parser.add_argument("--make-input-from", help="write --input from this CoNLL file's sentences first")
    parser.add_argument("--baseline-checkout", help="a checkout whose srl-zoo label is the 'today' setup")
    parser.add_argument("--setups", default="today,w0,w1")
    parser.add_argument("--threads", type=int, default=1, help="torch threads per process")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cuda-device", type=int, default=-1)
    parser.add_argument("--skip-model-alone", action="store_true")
    args = parser.parse_args()
    if args.make_input_from:
        write_text(args.make_input_from, args.input)
    torch.set_num_threads(args.threads)
    setups = args.setups.split(",")
    for model in args.models:
        results: dict[str, object] = {"model": model, "input": args.input, "device": device_name(args)}
        if not args.skip_model_alone:
            results["model_alone"] = {
                precision: model_alone(model, args, precision == "bf16") for precision in ("fp32", "bf16")
            }
        runs: dict[str, list[dict[str, float]]] = {setup: [] for setup in setups}
        for _ in range(args.repeats):
            for setup in setups:
                runs[setup].append(end_to_end(model, setup, args))
        results["end_to_end"] = runs
        print(json.dumps(results), flush=True)


def write_text(conll_file: str, path: str) -> None:
    """One sentence per line, its words joined by spaces."""
    from srl_zoo.data.format_detection import detect_format
    from srl_zoo.data.formats import READERS

    with open(path, "w", encoding="utf-8") as handle:
        for sentence in READERS[detect_format(conll_file)](conll_file):
            handle.write(" ".join(sentence.tokens) + "\n")


def device_name(args: argparse.Namespace) -> str:
    if args.cuda_device >= 0:
        return torch.cuda.get_device_name(args.cuda_device)
    return f"cpu, {args.threads} thread(s) per process, {os.cpu_count()} cores"


def model_alone(model: str, args: argparse.Namespace, bf16: bool) -> dict[str, float]:
    """Sentences/s and tokens/s of the forward pass alone over the prepared input."""
    precision = "bfloat16" if bf16 else "float32"
    labeler = srl_zoo.load(model, cuda_device=args.cuda_device, batch_size=args.batch_size, precision=precision)
    batches = []
    sentences = tokens = 0
    for chunk in read_chunks(args.input, 0, 256):
        prepared = prepare_chunk(labeler, chunk, "text", args.input, args.batch_size)
        batches.extend(batch.tensors for batch in prepared.batches)
        for _, split in prepared.texts.values():
            sentences += len(split)
            tokens += sum(len(words) for words, _ in split)
    labeler.predictor.predict_tensors(batches[0])  # warm-up
    synchronize(args)
    started = time.perf_counter()
    for tensors in batches:
        labeler.predictor.predict_tensors(tensors)
    synchronize(args)
    seconds = time.perf_counter() - started
    return {
        "sentences": sentences,
        "tokens": tokens,
        "seconds": round(seconds, 2),
        "sentences_per_s": round(sentences / seconds, 1),
        "tokens_per_s": round(tokens / seconds),
    }


def synchronize(args: argparse.Namespace) -> None:
    if args.cuda_device >= 0:
        torch.cuda.synchronize(args.cuda_device)


def end_to_end(model: str, setup: str, args: argparse.Namespace) -> dict[str, float]:
    """One `srl-zoo label` run of `setup` on the input: its summary, wall time and peak RSS."""
    name, *options = setup.split("-")
    precision = "bf16" if "bf16" in options else "fp32"
    threads = next((option[1:] for option in options if option.startswith("t")), str(args.threads))
    with tempfile.TemporaryDirectory() as scratch:
        output = os.path.join(scratch, "out.jsonl")
        label = [args.input, "-o", output, "--no-progress", "--batch-size", str(args.batch_size)]
        label += ["--cuda-device", str(args.cuda_device)] + (["--mixed-precision"] if precision == "bf16" else [])
        if name == "today":
            if not args.baseline_checkout:
                raise SystemExit("the 'today' setup needs --baseline-checkout")
            start = f"import sys; sys.path.insert(0, {os.path.abspath(args.baseline_checkout)!r}); "
            command = [sys.executable, "-c", start + "from srl_zoo.cli import main; main()", "label", model] + label
        elif name in ("w0", "w1"):
            command = [sys.executable, "-m", "srl_zoo.cli", "label", model] + label + ["--workers", name[1]]
        else:
            raise SystemExit(f"unknown setup {setup!r}")
        rss_file = os.path.join(scratch, "rss")
        env = {**os.environ, "OMP_NUM_THREADS": threads, "TOKENIZERS_PARALLELISM": "false"}
        started = time.perf_counter()
        finished = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss_file] + command, env=env, capture_output=True, text=True
        )
        wall = time.perf_counter() - started
        if finished.returncode != 0:
            raise SystemExit(f"{setup} failed:\n{finished.stderr[-3000:]}")
        summary = json.loads([line for line in finished.stdout.splitlines() if line.startswith("{")][-1])
        tokens = count_tokens(output)
        with open(rss_file) as handle:
            peak_kib = int(handle.read().split()[-1])
    return {
        "sentences": summary["sentences"],
        "seconds": summary["seconds"],
        "wall_seconds": round(wall, 1),
        "sentences_per_s": summary["sentences_per_s"],
        "tokens_per_s": round(tokens * summary["sentences_per_s"] / max(summary["sentences"], 1)),
        "peak_rss_mib": round(peak_kib / 1024),
    }


def count_tokens(output: str) -> int:
    with open(output, encoding="utf-8") as handle:
        return sum(len(sentence["words"]) for line in handle for sentence in json.loads(line)["sentences"])


if __name__ == "__main__":
    main()
