"""`srl-zoo serve` under many clients against `srl-zoo label` on the same sentences (a benchmark).

Usage:
  python -m benchmarks serve models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz
      [--format conll2012] [--sentences 1000] [--clients 64] [--precision float32]

The first `--sentences` dev sentences become text lines. Offline: `srl-zoo label` labels them (its own
sentences/s, model loading excluded). Service: `srl-zoo serve` on a free loopback port, then `--clients`
threads in this process each send one-sentence `{"text": ...}` requests until every sentence is done;
requests/s and sentences/s over the whole run, and the p50/p99 latency; the ratio is of sentences/s.
Both processes run torch on one thread (OMP_NUM_THREADS=1); the clients run in this process, on the
other core.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from benchmarks.arguments import archive_parser
from srl_zoo.data.formats import READERS
from srl_zoo.serving.local_server import start_local_server


def one_thread_env() -> dict:
    return {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def offline(args: argparse.Namespace, lines: list[str]) -> dict:
    """`srl-zoo label`'s own summary on the lines (sentences/s without model loading)."""
    with tempfile.TemporaryDirectory() as directory:
        source, target = os.path.join(directory, "input.txt"), os.path.join(directory, "output.jsonl")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        command = [sys.executable, "-m", "srl_zoo.cli", "label", args.archive, source, "-o", target, "--no-progress"]
        if args.precision == "bfloat16":
            command += ["--precision", "bfloat16"]
        finished = subprocess.run(command, capture_output=True, text=True, env=one_thread_env(), check=True)
        return json.loads(finished.stdout.strip().splitlines()[-1])


def serve(args: argparse.Namespace, lines: list[str]) -> dict:
    """Requests/s and latency percentiles of `--clients` concurrent one-sentence clients."""
    server, url = start_local_server(args.archive, "--precision", args.precision, env=one_thread_env())
    try:
        latencies: list[float] = []
        failures: list[str] = []
        sentence_counts: list[int] = []
        work = iter(range(len(lines)))
        lock = threading.Lock()

        def client() -> None:
            while True:
                with lock:
                    index = next(work, None)
                if index is None:
                    return
                body = json.dumps({"text": lines[index]}).encode("utf-8")
                request = urllib.request.Request(url + "/api/label", body, {"Content-Type": "application/json"})
                started = time.perf_counter()
                try:
                    with urllib.request.urlopen(request, timeout=120) as response:
                        answered = len(json.loads(response.read())["sentences"])
                except OSError as error:
                    failures.append(str(error))
                    continue
                with lock:
                    latencies.append(time.perf_counter() - started)
                    sentence_counts.append(answered)

        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=60)
    latencies.sort()
    return {
        "requests": len(latencies),
        "failed": len(failures),
        "seconds": round(seconds, 1),
        "requests_per_s": round(len(latencies) / seconds, 1),
        "sentences": sum(sentence_counts),
        "sentences_per_s": round(sum(sentence_counts) / seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p99_ms": round(1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 1),
    }


def main() -> None:
    parser = archive_parser(__doc__)
    parser.add_argument("--format", default="conll2012", choices=sorted(READERS))
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--precision", choices=("float32", "bfloat16"), default="float32")
    args = parser.parse_args()
    sentences = [" ".join(s.tokens) for s in READERS[args.format](args.data)][: args.sentences]
    label = offline(args, sentences)
    service = serve(args, sentences)
    ratio = service["sentences_per_s"] / label["sentences_per_s"]
    print(json.dumps({"srl-zoo label": label, "srl-zoo serve": service, "serve/label": round(ratio, 2)}, indent=1))


if __name__ == "__main__":
    main()
