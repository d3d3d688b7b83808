"""Request scheduling: one worker thread labels the sentences of every request in bounded model calls.

Concurrent small requests share one model call (a bounded wait, a bounded batch). A large request is cut into
calls of bounded cost (`ServiceLimits.max_call_cells` and `max_call_row_words`: one sentence of
`max_sentence_words` words at most; a sentence given more predicates is cut into parts of fewer predicates), and
the calls of small requests run between them, so a small request waits behind at most one such call (a large
request stays large to its last call: that call too waits its turn). A bounded
queue refuses instead of growing, a request not answered within `max_request_seconds` is answered 503, and
after `begin_drain` (SIGTERM) what is not labeled within `drain_seconds` is answered 503 too."""

import asyncio
import math
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from srl_zoo.front.batch_budget import BatchBudget
from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.front.text import Offsets
from srl_zoo.serving.limits import ServiceLimits
from srl_zoo.serving.metrics import ServiceMetrics


class Overloaded(Exception):
    """The queue is full: the request was not taken (answer 503 with Retry-After)."""


class Unfinished(Exception):
    """The request was taken but not labeled: past its deadline, or the service is stopping (answer 503)."""


@dataclass
class SentenceItem:
    """One sentence to label: its words, their character offsets in `text`, and its predicates (token
    indices) when the client gave them."""

    words: list[str]
    offsets: Offsets
    text: str
    predicates: Optional[list[int]] = None

    @property
    def rows(self) -> int:
        """The (sentence, predicate) rows the model runs for it: its given predicates, or, where the model finds
        them, `ROWS_PER_WORD_FOUND` of its words."""
        if self.predicates is not None:
            return len(self.predicates)
        return max(1, math.ceil(len(self.words) * ROWS_PER_WORD_FOUND))

    @property
    def row_words(self) -> int:
        """Its cost in the model's per-predicate layers: rows x words."""
        return self.rows * len(self.words)


#: predicate rows counted per word of a sentence whose predicates the model finds (EWT has 0.19, rounded up)
ROWS_PER_WORD_FOUND = 0.25


def cut_rows(item: SentenceItem, most_row_words: int) -> list[SentenceItem]:
    """`item`, or, when its given predicates cost more than `most_row_words`, parts of it with consecutive
    predicates of at most that cost each (their frames together are the sentence's)."""
    if item.predicates is None or item.row_words <= most_row_words:
        return [item]
    per_part = max(1, most_row_words // len(item.words))
    return [
        SentenceItem(item.words, item.offsets, item.text, item.predicates[start : start + per_part])
        for start in range(0, len(item.predicates), per_part)
    ]


@dataclass
class _Job:
    """One request's sentences, what the model labels for them (`units`: the sentences, a sentence of more
    predicate rows than a call holds cut into parts; `owners`: each unit's sentence), the model calls still to
    make (unit indices each), what is labeled so far, and where the answer goes."""

    items: list[SentenceItem]
    loop: asyncio.AbstractEventLoop
    future: "asyncio.Future[list[dict[str, Any]]]"
    queued_at: float = field(default_factory=time.perf_counter)
    units: list[SentenceItem] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    calls: list[list[int]] = field(default_factory=list)
    outputs: list[dict[str, Any]] = field(default_factory=list)
    large: bool = False  # planned into more than one call (its last call is still a large request's)

    @property
    def pending(self) -> int:
        """Sentences not labeled yet (a sentence is labeled once all its units are)."""
        return len({self.owners[i] for call in self.calls for i in call})

    def cells(self, indices: list[int]) -> int:
        """Units x the longest one's words² of a call over `indices`."""
        return len(indices) * max(len(self.units[i].words) for i in indices) ** 2

    def row_words(self, indices: list[int]) -> int:
        """Predicate rows x the longest unit's words of a call over `indices`."""
        return sum(self.units[i].rows for i in indices) * max(len(self.units[i].words) for i in indices)

    def answer(self) -> list[dict[str, Any]]:
        """Each sentence's output: its units' frames together, in order."""
        merged: list[dict[str, Any]] = [{} for _ in self.items]
        for owner, output in zip(self.owners, self.outputs, strict=True):
            if merged[owner]:
                merged[owner]["frames"] = merged[owner]["frames"] + output["frames"]
            else:
                merged[owner] = dict(output)
        return merged


class Batcher:
    """Labels requests' sentences with `labeler` on one worker thread (see the module docstring).

    # Parameters

    labeler : the `TextLabeler` of the served model.
    limits : the service's bounds.
    metrics : counters, gauges and histograms to update.
    """

    def __init__(self, labeler: TextLabeler, limits: ServiceLimits, metrics: ServiceMetrics) -> None:
        self.labeler = labeler
        self.limits = limits
        self.budget = limits.call_budget(labeler.budget)
        self.metrics = metrics
        self._queue: queue.Queue[Optional[_Job]] = queue.Queue()
        self._lock = threading.Lock()
        self._waiting = 0  # sentences taken and not labeled yet
        self._thread: Optional[threading.Thread] = None
        self._drain_deadline: Optional[float] = None
        self._stopped = False  # the worker takes no more jobs
        self._large_turn = False  # whether a large request's call goes next when small ones wait too

    @property
    def waiting_sentences(self) -> int:
        """Sentences taken and not yet labeled."""
        return self._waiting

    def start(self) -> None:
        """Start the worker thread."""
        self._thread = threading.Thread(target=self._work, name="srl-zoo-model", daemon=True)
        self._thread.start()

    def begin_drain(self) -> None:
        """Refuse new requests; label the taken ones for at most `limits.drain_seconds` more, then answer the
        rest 503 and stop the worker (safe to call from a signal handler, and more than once)."""
        if self._drain_deadline is None:
            self._drain_deadline = time.perf_counter() + self.limits.drain_seconds
            self._queue.put(None)  # wakes the worker

    def stop(self) -> None:
        """`begin_drain`, then wait for the worker thread (at most the drain time and one model call)."""
        self.begin_drain()
        if self._thread is not None:
            self._thread.join(timeout=self.limits.drain_seconds + 30)
            self._thread = None

    async def label(self, items: list[SentenceItem]) -> list[dict[str, Any]]:
        """The Labeler's output for each sentence (`with_char_offsets` form), in order; `Overloaded` if they
        do not fit in the queue, `Unfinished` if they are not labeled in time."""
        if not items:
            return []
        loop = asyncio.get_running_loop()
        job = _Job(items, loop, loop.create_future())
        with self._lock:  # taken with the worker's decision to stop: a job is queued only while it will answer
            if self._drain_deadline is not None or self._stopped:
                raise Unfinished("the service is stopping")
            if self._waiting + len(items) > self.limits.max_queue_sentences:
                raise Overloaded(
                    f"{self._waiting} sentences are waiting; at most {self.limits.max_queue_sentences} may"
                )
            self._waiting += len(items)
            self.metrics.queue_sentences = self._waiting
            self._queue.put(job)
        return await job.future

    def _work(self) -> None:
        active: list[_Job] = []
        while True:
            # never wait on the queue once draining: the drain's wake-up may have been taken already
            active += self._take(block=not active and self._drain_deadline is None)
            if self._drain_deadline is not None:
                if time.perf_counter() >= self._drain_deadline:
                    self._stop_taking()
                    self._fail(active + self._take(block=False), Unfinished("the service stopped before labeling it"))
                    return
                if not active and self._stop_taking(only_if_idle=True):
                    return
            self._expire(active)
            if active:
                self._run(self._next_call(active), active)

    def _stop_taking(self, only_if_idle: bool = False) -> bool:
        """Take no more jobs (`label` refuses them from now on); with `only_if_idle`, only where none is queued.
        Whether it stopped. Decided under the lock `label` queues under, so no job is queued after the worker
        has left (such a request would wait, unanswered, until uvicorn's shutdown gave up on it)."""
        with self._lock:
            if only_if_idle and not self._queue.empty():
                return False
            self._stopped = True
            return True

    def _take(self, block: bool) -> list[_Job]:
        """The queued jobs, each planned into calls: when `block`, wait for one, then up to
        `limits.max_wait_seconds` for others to share its call."""
        jobs: list[_Job] = []
        if block:
            first = self._queue.get()
            if first is None:
                return jobs
            jobs.append(first)
            count, deadline = len(first.items), time.perf_counter() + self.limits.max_wait_seconds
            while count < self.budget.sentences:
                remaining = deadline - time.perf_counter()
                try:
                    job = self._queue.get(timeout=remaining) if remaining > 0 else self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    break
                jobs.append(job)
                count += len(job.items)
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                jobs.append(job)
        for job in jobs:
            self._plan(job)
        return jobs

    def _plan(self, job: _Job) -> None:
        """Cut `job`'s sentences into units within the row bound, and those, sorted by size, into calls within
        the batch, cell, character and row bounds."""
        most = self.limits.max_call_row_words
        cut = [cut_rows(item, most) for item in job.items]
        job.units = [unit for units in cut for unit in units]
        job.owners = [owner for owner, units in enumerate(cut) for _ in units]
        job.calls = [
            part
            for call in self.budget.calls([unit.words for unit in job.units])
            for part in _within_rows(job, call, most)
        ]
        job.outputs = [{} for _ in job.units]
        job.large = len(job.calls) > 1

    def _next_call(self, active: list[_Job]) -> list[tuple[_Job, list[int]]]:
        """The next model call: small requests, each finished by one call (oldest first, within the bounds),
        taking turns with the next call of the oldest large request."""
        small = [job for job in active if not job.large]
        large = [job for job in active if job.large]
        self._large_turn = bool(large) and (not small or not self._large_turn)
        if self._large_turn:
            return [(large[0], large[0].calls[0])]
        chosen: list[tuple[_Job, list[int]]] = []
        sentences = cells = 0
        rows = 0
        for job in small:
            indices = job.calls[0]
            if chosen and (
                sentences + len(indices) > self.budget.sentences
                or cells + job.cells(indices) > self.budget.cells
                or rows + job.row_words(indices) > self.limits.max_call_row_words
            ):
                break
            chosen.append((job, indices))
            sentences, cells, rows = sentences + len(indices), cells + job.cells(indices), rows + job.row_words(indices)
        return chosen

    def _run(self, call: list[tuple[_Job, list[int]]], active: list[_Job]) -> None:
        """One model call for `call`'s sentences; a job whose last call this was gets its answer (or the
        error, which ends the job: the worker keeps serving)."""
        units = [job.units[i] for job, indices in call for i in indices]
        try:
            outputs = label_items(self.labeler, units, self.budget)
        except Exception as error:  # these requests get a 500 answer
            self._fail([job for job, _ in call], error, active)
            return
        self.metrics.observe_batch(len(units))
        start = 0
        for job, indices in call:
            for i, output in zip(indices, outputs[start : start + len(indices)], strict=True):
                job.outputs[i] = output
            start += len(indices)
            before = job.pending
            job.calls.pop(0)
            self._release(before - job.pending)
            if not job.calls:
                active.remove(job)
                job.loop.call_soon_threadsafe(_set_result, job.future, job.answer())

    def _expire(self, active: list[_Job]) -> None:
        """Answer 503 to the jobs not finished `limits.max_request_seconds` after they arrived."""
        limit = self.limits.max_request_seconds
        late = [job for job in active if time.perf_counter() - job.queued_at > limit]
        if late:
            message = f"not labeled within {limit:g} s (max_request_seconds): send fewer or shorter sentences"
            self._fail(late, Unfinished(message), active)

    def _fail(self, jobs: list[_Job], error: BaseException, active: Optional[list[_Job]] = None) -> None:
        """End `jobs` with `error`, releasing their sentences not yet labeled."""
        for job in jobs:
            self._release(job.pending)
            job.calls = []
            if active is not None and job in active:
                active.remove(job)
            job.loop.call_soon_threadsafe(_set_exception, job.future, error)

    def _release(self, sentences: int) -> None:
        with self._lock:
            self._waiting -= sentences
            self.metrics.queue_sentences = self._waiting


def _within_rows(job: _Job, call: list[int], most_row_words: int) -> list[list[int]]:
    """`call` (unit indices sorted by size) cut into consecutive calls of at most `most_row_words` rows x words."""
    parts: list[list[int]] = [[]]
    for i in call:
        if parts[-1] and job.row_words(parts[-1] + [i]) > most_row_words:
            parts.append([])
        parts[-1].append(i)
    return parts


def label_items(labeler: TextLabeler, items: list[SentenceItem], budget: BatchBudget) -> list[dict[str, Any]]:
    """The Labeler's output for each item, in order: sentences with and without given predicates are
    labeled in separate calls (one batch holds one kind of instance)."""
    outputs: list[dict[str, Any]] = [{} for _ in items]
    for given in (False, True):
        chosen = [i for i, item in enumerate(items) if (item.predicates is not None) == given]
        if not chosen:
            continue
        labeled = labeler.label_sentences(
            [(items[i].words, items[i].offsets) for i in chosen],
            [items[i].text for i in chosen],
            budget,
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
