"""Small requests behind a big one in `srl-zoo serve`: their latency while a request at the documented limits is
labeled (a benchmark).

Usage:
  python -m benchmarks serve_fairness models/ewt-english.tar.gz [--small 40] [--predicates] [--max-request-seconds S]

The service runs torch on one thread. A big request at the documented limits (10,000 tokens: 40 sentences of 250
words as raw text; with --predicates, 6 sentences of 250 words each given every word as a predicate) is sent
first; once it is in the model, one-sentence requests are sent one after another until `--small` are answered or
the big one is. Reports the big request's status and seconds, and the small ones' p50/p90/max latency (the
issue's aim: 90% within 2 s on an idle 2-core machine), with the machine named.
"""

import argparse
import json
import statistics
import threading
import time
import urllib.error
import urllib.request

from benchmarks.serve import one_thread_env
from benchmarks.timing import device_name
from srl_zoo.serving.local_server import start_local_server

WORDS = ["the", "old", "man", "saw", "a", "dog", "near", "the", "river", "and"] * 25


def post(url: str, value: dict) -> tuple[int, float]:
    """(status, seconds) of one request."""
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(url + "/api/label", json.dumps(value).encode(), headers)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive")
    parser.add_argument("--small", type=int, default=40, help="one-sentence requests to send behind the big one")
    parser.add_argument("--predicates", action="store_true", help="the big request gives every word as a predicate")
    parser.add_argument("--max-request-seconds", type=float, default=None, help="the service's (default: its own)")
    args = parser.parse_args()
    big = (
        {"sentences": [WORDS] * 6, "predicates": [list(range(250))] * 6}
        if args.predicates
        else {"sentences": [WORDS] * 40}
    )
    options = ["--precision", "float32"]
    if args.max_request_seconds is not None:
        options += ["--max-request-seconds", str(args.max_request_seconds)]
    server, url = start_local_server(args.archive, *options, env=one_thread_env())
    try:
        big_result: dict = {}

        def send_big() -> None:
            big_result["status"], big_result["seconds"] = post(url, big)

        sender = threading.Thread(target=send_big)
        sender.start()
        time.sleep(1.0)  # the big request is parsed and in the model
        latencies, statuses = [], []
        while len(latencies) < args.small and sender.is_alive():
            status, seconds = post(url, {"text": "She left the room early."})
            latencies.append(seconds)
            statuses.append(status)
        sender.join()
        with urllib.request.urlopen(url + "/health") as response:
            measured = json.loads(response.read())["measured"]
    finally:
        server.terminate()
        server.wait(timeout=60)
    latencies.sort()
    print(
        json.dumps(
            {
                "device": device_name(False),
                "service_threads": 1,
                "big": "6 x 250 words, every word a predicate" if args.predicates else "40 x 250 words, raw",
                "big_status": big_result.get("status"),
                "big_seconds": round(big_result.get("seconds", 0.0), 1),
                "measured_row_words_per_s": measured["row_words_per_second"],
                "small_requests": len(latencies),
                "small_not_200": sum(status != 200 for status in statuses),
                "small_p50_s": round(statistics.median(latencies), 2) if latencies else None,
                "small_p90_s": round(latencies[int(0.9 * (len(latencies) - 1))], 2) if latencies else None,
                "small_max_s": round(latencies[-1], 2) if latencies else None,
            }
        )
    )


if __name__ == "__main__":
    main()
