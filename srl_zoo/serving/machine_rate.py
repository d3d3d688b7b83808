"""How fast this machine labels, measured when the service starts, so that the request limits fit it: a request
that would take longer than `max_request_seconds` here is refused at once (413, naming the rate) instead of being
answered 503 after that long."""

import time
from dataclasses import dataclass

from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.serving.batcher import SentenceItem, label_items
from srl_zoo.serving.limits import ServiceLimits
from srl_zoo.serving.requests import RequestError, joined_offsets

#: the words the measurement's sentence repeats (any words: the cost is the rows and the length)
_WORDS = ("the", "old", "man", "saw", "a", "dog", "near", "the", "river", "and")


@dataclass(frozen=True)
class MeasuredRate:
    """Predicate rows x words the model labels a second on this machine (`SentenceItem.row_words`)."""

    row_words_per_second: float

    def seconds(self, row_words: int) -> float:
        """About how long `row_words` take here."""
        return row_words / self.row_words_per_second

    def check(self, items: list[SentenceItem], limits: ServiceLimits) -> None:
        """`RequestError` 413 when `items` would take longer than `limits.max_request_seconds` here."""
        row_words = sum(item.row_words for item in items)
        seconds = self.seconds(row_words)
        if seconds > limits.max_request_seconds:
            raise RequestError(
                413,
                f"the request would take about {seconds:.0f} s here: it costs {row_words} predicate rows x words and "
                f"this machine labels about {self.row_words_per_second:.0f} a second (measured at start-up), over "
                f"max_request_seconds ({limits.max_request_seconds:g}): send fewer or shorter sentences",
            )


def measure_rate(labeler: TextLabeler, limits: ServiceLimits) -> MeasuredRate:
    """The rate of one model call on a sentence of `limits.max_sentence_words` words with the rows such a
    sentence counts when the model finds its predicates, after one warm-up call of the same."""
    words = [_WORDS[i % len(_WORDS)] for i in range(limits.max_sentence_words)]
    text, offsets = " ".join(words), joined_offsets(words)
    found = SentenceItem(words, offsets, text)
    step = len(words) / found.rows
    item = SentenceItem(words, offsets, text, sorted({int(i * step) for i in range(found.rows)}))
    budget = limits.call_budget(labeler.budget)
    label_items(labeler, [item], budget)  # warm-up: the first call pays for allocations and lazy set-up
    started = time.perf_counter()
    label_items(labeler, [item], budget)
    return MeasuredRate(item.row_words / max(time.perf_counter() - started, 1e-6))
