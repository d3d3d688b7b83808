"""Request batching: the sentences of concurrent requests are gathered into one model call on one
worker thread (a bounded wait, a bounded batch), and a bounded queue refuses instead of growing."""

import asyncio
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from srl_zoo.api import Labeler, Offsets
from srl_zoo.serving.limits import ServiceLimits
from srl_zoo.serving.metrics import ServiceMetrics


class Overloaded(Exception):
    """The queue is full: the request was not taken (answer 503 with Retry-After)."""


@dataclass
class SentenceItem:
    """One sentence to label: its words, their character offsets in `text`, and its predicates (token
    indices) when the client gave them."""

    words: list[str]
    offsets: Offsets
    text: str
    predicates: Optional[list[int]] = None


@dataclass
class _Job:
    """One request's sentences and where its answer goes."""

    items: list[SentenceItem]
    loop: asyncio.AbstractEventLoop
    future: "asyncio.Future[list[dict[str, Any]]]"
    queued_at: float = field(default_factory=time.perf_counter)


class Batcher:
    """Labels requests' sentences with `labeler`, gathering concurrent requests into one model call.

    The first waiting request holds the call open for `limits.max_wait_seconds` or until
    `limits.max_batch_sentences` sentences wait; the Labeler then sorts them by length in bounded
    batches. At most `limits.max_queue_sentences` sentences wait at once (`Overloaded` past that).

    # Parameters

    labeler : the `Labeler` of the served model.
    limits : the service's bounds.
    metrics : counters, gauges and histograms to update.
    """

    def __init__(self, labeler: Labeler, limits: ServiceLimits, metrics: ServiceMetrics) -> None:
        self.labeler = labeler
        self.limits = limits
        self.metrics = metrics
        self._queue: queue.Queue[Optional[_Job]] = queue.Queue()
        self._lock = threading.Lock()
        self._waiting = 0  # sentences queued, not yet taken by the worker
        self._thread: Optional[threading.Thread] = None

    @property
    def waiting_sentences(self) -> int:
        """Sentences queued and not yet in a model call."""
        return self._waiting

    def start(self) -> None:
        """Start the worker thread."""
        self._thread = threading.Thread(target=self._work, name="srl-zoo-model", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Finish every queued request, then stop the worker thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    async def label(self, items: list[SentenceItem]) -> list[dict[str, Any]]:
        """The Labeler's output for each sentence (`with_char_offsets` form), in order; `Overloaded`
        if they do not fit in the queue."""
        if not items:
            return []
        with self._lock:
            if self._waiting + len(items) > self.limits.max_queue_sentences:
                raise Overloaded(
                    f"{self._waiting} sentences are waiting; at most {self.limits.max_queue_sentences} may"
                )
            self._waiting += len(items)
            self.metrics.queue_sentences = self._waiting
        loop = asyncio.get_running_loop()
        job = _Job(items, loop, loop.create_future())
        self._queue.put(job)
        return await job.future

    def _work(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            jobs = [first]
            count = len(first.items)
            deadline = time.perf_counter() + self.limits.max_wait_seconds
            stopping = False
            while count < self.limits.max_batch_sentences:
                remaining = deadline - time.perf_counter()
                try:
                    job = self._queue.get(timeout=remaining) if remaining > 0 else self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stopping = True
                    break
                jobs.append(job)
                count += len(job.items)
            with self._lock:
                self._waiting -= count
                self.metrics.queue_sentences = self._waiting
            self._label_jobs(jobs)
            if stopping:
                self._queue.put(None)  # finish what is still queued first

    def _label_jobs(self, jobs: list[_Job]) -> None:
        """One model call for every sentence of `jobs`; each job's future gets its own sentences' output
        (or the error)."""
        items = [item for job in jobs for item in job.items]
        try:
            outputs = label_items(self.labeler, items, self.limits.max_batch_sentences)
        except Exception as error:  # the requests get a 500 answer; the worker keeps serving
            for job in jobs:
                job.loop.call_soon_threadsafe(_set_exception, job.future, error)
            return
        self.metrics.observe_batch(len(items))
        start = 0
        for job in jobs:
            answer = outputs[start : start + len(job.items)]
            start += len(job.items)
            job.loop.call_soon_threadsafe(_set_result, job.future, answer)


def label_items(labeler: Labeler, items: list[SentenceItem], batch_size: int) -> list[dict[str, Any]]:
    """The Labeler's output for each item, in order: sentences with and without given predicates are
    labelled in separate calls (one batch holds one kind of instance)."""
    outputs: list[dict[str, Any]] = [{} for _ in items]
    for given in (False, True):
        chosen = [i for i, item in enumerate(items) if (item.predicates is not None) == given]
        if not chosen:
            continue
        labeled = labeler.label_sentences(
            [(items[i].words, items[i].offsets) for i in chosen],
            [items[i].text for i in chosen],
            batch_size,
            predicates=[items[i].predicates or [] for i in chosen] if given else None,
        )
        for i, output in zip(chosen, labeled, strict=False):
            outputs[i] = output
    return outputs


def _set_result(future: "asyncio.Future[Any]", value: Any) -> None:
    if not future.done():  # the client may have gone away
        future.set_result(value)


def _set_exception(future: "asyncio.Future[Any]", error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
