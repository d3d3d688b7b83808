"""The batcher's turns between a large request's calls and small requests, on planned jobs (no model): a small
request waits behind at most one call of a large one, its last call included."""

import asyncio
import threading

from srl_zoo.front.batch_budget import BatchBudget
from srl_zoo.serving.batcher import Batcher, SentenceItem, _Job
from srl_zoo.serving.limits import ServiceLimits
from srl_zoo.serving.metrics import ServiceMetrics


class _BudgetOnly:
    """A labeler stand-in: the batcher reads only its budget when planning."""

    budget = BatchBudget()


def planned(batcher: Batcher, sentences: int, words: int) -> _Job:
    loop = asyncio.new_event_loop()
    items = [SentenceItem(["word"] * words, [(0, 4)] * words, "text") for _ in range(sentences)]
    job = _Job(items, loop, loop.create_future())
    batcher._plan(job)
    return job


def test_a_small_request_waits_behind_one_call_of_a_large_one_even_its_last():
    limits = ServiceLimits(max_batch_sentences=8, max_call_cells=4 * 50**2)
    batcher = Batcher(_BudgetOnly(), limits, ServiceMetrics())  # type: ignore[arg-type]
    large = planned(batcher, sentences=8, words=50)  # 2 calls of 4 sentences at the cell bound
    assert len(large.calls) == 2 and large.large
    active = [large]
    first = batcher._next_call(active)
    assert [job for job, _ in first] == [large]
    large.calls.pop(0)  # its first call ran; one left, and a small request arrives
    small = planned(batcher, sentences=1, words=5)
    active.append(small)
    assert [job for job, _ in batcher._next_call(active)] == [small]  # before the large request's last call
    small.calls.pop(0)
    active.remove(small)
    assert [job for job, _ in batcher._next_call(active)] == [large]


class _RecordingLabeler:
    """A slow fake model: records each call's sentences and predicate rows, and holds its first call until told
    to go on (so a request can arrive while it runs). A sentence's frames are its predicates, in order."""

    budget = BatchBudget()

    def __init__(self) -> None:
        self.calls: list[list[tuple[int, int]]] = []
        self.first_call_started = threading.Event()
        self.go_on = threading.Event()

    def label_sentences(self, sentences, texts, budget, predicates=None):
        given = predicates or [None] * len(sentences)
        self.calls.append(
            [(len(words), len(p) if p is not None else -1) for (words, _), p in zip(sentences, given, strict=True)]
        )
        if len(self.calls) == 1:
            self.first_call_started.set()
            self.go_on.wait(timeout=30)
        return [
            {"words": words, "frames": [{"predicate": {"index": i}} for i in p or []]}
            for (words, _), p in zip(sentences, given, strict=True)
        ]


def test_every_word_a_predicate_is_cut_into_calls_of_bounded_rows_and_a_small_request_waits_one():
    """6 sentences of 250 words, each word given as a predicate (375,000 rows x words), are labeled in parts of
    at most 40 predicates (10,000 rows x words a call); a small request arriving during the first part goes next;
    the large answer holds every predicate's frame in order."""
    labeler = _RecordingLabeler()
    limits = ServiceLimits()
    batcher = Batcher(labeler, limits, ServiceMetrics())  # type: ignore[arg-type]
    batcher.start()
    words = [f"w{i}" for i in range(250)]
    large = [SentenceItem(words, [(0, 1)] * 250, "text", list(range(250))) for _ in range(6)]
    small = [SentenceItem(["Dogs", "bark", "."], [(0, 4), (5, 9), (9, 10)], "Dogs bark.", [1])]

    async def both():
        large_answer = asyncio.ensure_future(batcher.label(large))
        await asyncio.get_running_loop().run_in_executor(None, labeler.first_call_started.wait, 30)
        small_answer = asyncio.ensure_future(batcher.label(small))
        await asyncio.sleep(0.05)  # queued before the first call ends
        labeler.go_on.set()
        return await large_answer, await small_answer

    try:
        large_answer, small_answer = asyncio.run(both())
    finally:
        batcher.stop()
    assert labeler.calls[1] == [(3, 1)]  # the small request, right after the first part
    rows = [sum(given for _, given in call) * max(length for length, _ in call) for call in labeler.calls]
    assert max(rows) <= limits.max_call_row_words and len(labeler.calls) == 1 + 6 * 7
    assert all([frame["predicate"]["index"] for frame in s["frames"]] == list(range(250)) for s in large_answer)
    assert [frame["predicate"]["index"] for frame in small_answer[0]["frames"]] == [1]
    assert batcher.waiting_sentences == 0
