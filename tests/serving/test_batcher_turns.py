"""The batcher's turns between a large request's calls and small requests, on planned jobs (no model): a small
request waits behind at most one call of a large one, its last call included."""

import asyncio

from srl_zoo.predictors.batch_budget import BatchBudget
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
