"""The rate the service measures at start-up (a slow fake model: its time per row x word is known) and the
request it refuses at once because it would not be labeled within max_request_seconds."""

import time

import pytest

from srl_zoo.front.batch_budget import BatchBudget
from srl_zoo.serving.batcher import SentenceItem
from srl_zoo.serving.limits import ServiceLimits
from srl_zoo.serving.machine_rate import MeasuredRate, measure_rate
from srl_zoo.serving.requests import RequestError

SECONDS_PER_ROW_WORD = 2e-6


class _SlowLabeler:
    """Takes SECONDS_PER_ROW_WORD for each given predicate row x word of a call; its first call takes longer."""

    budget = BatchBudget()

    def __init__(self) -> None:
        self.calls = 0

    def label_sentences(self, sentences, texts, budget, predicates=None):
        self.calls += 1
        row_words = sum(len(p) * len(words) for (words, _), p in zip(sentences, predicates, strict=True))
        time.sleep(row_words * SECONDS_PER_ROW_WORD * (5 if self.calls == 1 else 1))
        return [{"words": words, "frames": []} for words, _ in sentences]


def test_the_rate_is_measured_after_a_warm_up_on_the_longest_sentence():
    labeler = _SlowLabeler()
    rate = measure_rate(labeler, ServiceLimits())  # type: ignore[arg-type]
    assert labeler.calls == 2
    assert rate.row_words_per_second == pytest.approx(1 / SECONDS_PER_ROW_WORD, rel=0.5)


def test_a_request_that_would_outlast_max_request_seconds_is_refused_naming_the_rate():
    rate = MeasuredRate(row_words_per_second=10_000)
    words = ["word"] * 100
    item = SentenceItem(words, [(0, 4)] * 100, "text", list(range(100)))  # 10,000 rows x words: 1 s here
    rate.check([item], ServiceLimits(max_request_seconds=1.0))  # fits
    with pytest.raises(RequestError) as refused:
        rate.check([item, item], ServiceLimits(max_request_seconds=1.0))
    assert refused.value.status == 413
    assert refused.value.message == (
        "the request would take about 2 s here: it costs 20000 predicate rows x words and this machine labels "
        "about 10000 a second (measured at start-up), over max_request_seconds (1): send fewer or shorter sentences"
    )
