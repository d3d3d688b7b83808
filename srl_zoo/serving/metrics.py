"""The service's counters in the Prometheus text format (`GET /metrics`): requests by status, errors,
queue length, sentences per model call and request latency."""

import threading
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)


class Histogram:
    """A cumulative Prometheus histogram over fixed bucket bounds."""

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last one is +Inf
        self.total = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value
        self.count += 1

    def lines(self, name: str) -> list[str]:
        """The `_bucket`, `_sum` and `_count` lines of this histogram."""
        lines, cumulative = [], 0
        for bound, count in zip(list(self.bounds) + ["+Inf"], self.counts, strict=False):
            cumulative += count
            lines.append(f'{name}_bucket{{le="{bound}"}} {cumulative}')
        return lines + [f"{name}_sum {self.total:.6f}", f"{name}_count {self.count}"]


class ServiceMetrics:
    """What `/metrics` reports; updated from the event loop and the model thread (under a lock)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.responses: Counter = Counter()  # by HTTP status
        self.queue_sentences = 0
        self.latency = Histogram(LATENCY_BUCKETS)
        self.batch_sentences = Histogram(BATCH_BUCKETS)

    def observe_response(self, status: int, seconds: float) -> None:
        with self._lock:
            self.responses[status] += 1
            self.latency.observe(seconds)

    def observe_batch(self, sentences: int) -> None:
        with self._lock:
            self.batch_sentences.observe(sentences)

    def render(self) -> str:
        """The Prometheus text exposition of every metric."""
        with self._lock:
            lines = ["# HELP srl_zoo_requests_total Labeling requests answered, by HTTP status."]
            lines.append("# TYPE srl_zoo_requests_total counter")
            lines += [f'srl_zoo_requests_total{{status="{s}"}} {n}' for s, n in sorted(self.responses.items())]
            errors = sum(n for s, n in self.responses.items() if s >= 400)
            lines += ["# HELP srl_zoo_request_errors_total Requests answered with a 4xx or 5xx status."]
            lines += ["# TYPE srl_zoo_request_errors_total counter", f"srl_zoo_request_errors_total {errors}"]
            lines += ["# HELP srl_zoo_queue_sentences Sentences waiting for the model."]
            lines += ["# TYPE srl_zoo_queue_sentences gauge", f"srl_zoo_queue_sentences {self.queue_sentences}"]
            lines += ["# HELP srl_zoo_batch_sentences Sentences per model call."]
            lines += ["# TYPE srl_zoo_batch_sentences histogram"]
            lines += self.batch_sentences.lines("srl_zoo_batch_sentences")
            lines += ["# HELP srl_zoo_request_seconds Time from a request's arrival to its answer."]
            lines += ["# TYPE srl_zoo_request_seconds histogram"]
            lines += self.latency.lines("srl_zoo_request_seconds")
        return "\n".join(lines) + "\n"
