"""Peak resident memory of training configs on the CPU (a benchmark): each config trains one epoch on
the first `--sentences` sentences of its bundled EWT data (batches as the config builds them), in its
own process, watched every 0.2 s and stopped past `--limit-gib`. With `--longest`, on the
`--sentences` longest sentences of its training file instead (written in the file's format to a
temporary file, training and validation both): the batches that need the most memory in a full epoch
(`--full-vocabulary`: validation on the whole training file, for AMN, whose memory reads all its labels).

Usage:
  python -m benchmarks config_memory training_configs/lisa/lisa_conll2012.jsonnet ... \
      [--sentences 400] [--longest] [--limit-gib 16] [--threads 1]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def resident_mib(pid: int) -> float:
    """VmRSS of `pid` and its children (allennlp may start data-loader workers), in MiB."""
    total = 0.0
    for process in [str(pid)] + _children(pid):
        try:
            with open(f"/proc/{process}/status", encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) / 1024
        except FileNotFoundError:
            continue
    return total


def _children(pid: int) -> list:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="utf-8") as handle:
            return handle.read().split()
    except FileNotFoundError:
        return []


def longest_sentences(config: str, count: int, directory: str) -> str:
    """A file of the `count` longest sentences of `config`'s training file, in its format."""
    from allennlp.common import Params

    import srl_zoo.plugin  # noqa: F401  (the configs' default variables)
    from srl_zoo.data.format_detection import detect_format
    from srl_zoo.data.formats import READERS, WRITERS

    train = Params.from_file(config)["train_data_path"]
    kind = detect_format(train)
    sentences = sorted(READERS[kind](train), key=lambda sentence: len(sentence.tokens), reverse=True)[:count]
    path = os.path.join(directory, "longest.gold_conll" if kind == "conll2012" else "longest.txt")
    WRITERS[kind](sentences, path)
    return path


def measure(
    config: str, sentences: int, limit_mib: float, threads: int, longest: bool = False, full_vocabulary: bool = False
) -> dict:
    overrides = {"dataset_reader.max_instances": sentences, "trainer.num_epochs": 1}
    with tempfile.TemporaryDirectory() as directory:
        if longest:
            data = longest_sentences(config, sentences, directory)
            overrides = {"train_data_path": data, "validation_data_path": data, "trainer.num_epochs": 1}
            if full_vocabulary:  # validate on the whole training file, so that its labels are in the vocabulary
                from allennlp.common import Params

                overrides["validation_data_path"] = Params.from_file(config)["train_data_path"]
        command = [sys.executable, "-m", "allennlp", "train", config, "-s", os.path.join(directory, "run")]
        command += ["-o", json.dumps(overrides), "--include-package", "srl_zoo"]
        environment = {**os.environ, "OMP_NUM_THREADS": str(threads), "ALLENNLP_LOG_LEVEL": "WARNING"}
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
        peak, status = 0.0, "finished"
        while process.poll() is None:
            peak = max(peak, resident_mib(process.pid))
            if peak > limit_mib:
                process.kill()
                status = f"stopped at {peak / 1024:.1f} GiB"
                break
            time.sleep(0.2)
        _, error = process.communicate()
        if status == "finished" and process.returncode != 0:
            status = f"failed: {error.decode(errors='replace').strip().splitlines()[-1:]}"
    return {
        "config": config,
        "peak_gib": round(peak / 1024, 2),
        "seconds": round(time.perf_counter() - started),
        "status": status,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="+")
    parser.add_argument("--sentences", type=int, default=400)
    parser.add_argument("--limit-gib", type=float, default=16.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--longest", action="store_true", help="the longest sentences, not the first")
    parser.add_argument(
        "--full-vocabulary", action="store_true", help="with --longest: validate on the whole training file (AMN)"
    )
    args = parser.parse_args()
    print(f"{'config':<60} {'peak RSS GiB':>12} {'seconds':>8}  status", flush=True)
    for config in args.configs:
        result = measure(
            config, args.sentences, args.limit_gib * 1024, args.threads, args.longest, args.full_vocabulary
        )
        print(f"{result['config']:<60} {result['peak_gib']:>12} {result['seconds']:>8}  {result['status']}", flush=True)


if __name__ == "__main__":
    main()
