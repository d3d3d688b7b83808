"""Predicate identification precision/recall/F1 and sense accuracy."""

from collections.abc import Mapping, Sequence

from allennlp.training.metrics import Metric

from srl_zoo.data.formats.labels import NO_SENSE
from srl_zoo.metrics.distributed import sum_over_workers
from srl_zoo.metrics.srl_span_f1 import precision_recall_f1


@Metric.register("predicate_f1")
class PredicateF1(Metric):
    """Scores predicted predicate positions against gold ones, per sentence.

    Sense accuracy is over correctly identified predicates whose gold label is a sense suffix
    (`01`, `LV`; CoNLL-2005 data has none, label `Y`).
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._ok = self._op = self._ms = 0
        self._senses_right = self._senses_scored = 0

    def __call__(self, gold: Sequence[Mapping[int, str]], predicted: Sequence[Mapping[int, str]]) -> None:  # type: ignore[override]
        """Per sentence, `{token index: predicate label}` of gold and predicted predicates."""
        for gold_sentence, predicted_sentence in zip(gold, predicted, strict=False):
            both = gold_sentence.keys() & predicted_sentence.keys()
            self._ok += len(both)
            self._op += len(predicted_sentence.keys() - both)
            self._ms += len(gold_sentence.keys() - both)
            for index in both:
                if gold_sentence[index] != NO_SENSE:
                    self._senses_scored += 1
                    self._senses_right += gold_sentence[index] == predicted_sentence[index]

    def get_metric(self, reset: bool = False) -> dict[str, float]:
        """Scores from every worker's counts (exact under allennlp's distributed trainer)."""
        c = sum_over_workers(
            {
                "ok": self._ok,
                "op": self._op,
                "ms": self._ms,
                "senses_right": self._senses_right,
                "senses_scored": self._senses_scored,
            }
        )
        precision, recall, f1 = precision_recall_f1(c["ok"], c["op"], c["ms"])
        metrics = {"predicate-precision": precision, "predicate-recall": recall, "predicate-f1": f1}
        if c["senses_scored"]:
            metrics["sense-accuracy"] = c["senses_right"] / c["senses_scored"]
        if reset:
            self.reset()
        return metrics
