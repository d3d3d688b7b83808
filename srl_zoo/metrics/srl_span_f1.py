"""Span SRL precision/recall/F1 with the semantics of the official CoNLL-2005 scorer srl-eval.pl."""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from allennlp.training.metrics import Metric

from srl_zoo.data.formats import SrlFrame, SrlSpan
from srl_zoo.metrics.distributed import sum_over_workers

EXCLUDED = ("V",)


@dataclass
class ArgumentUnit:
    """An argument as srl-eval.pl scores it: a label and one or more `(start, end)` pieces."""

    label: str
    pieces: list[tuple[int, int]] = field(default_factory=list)

    @property
    def key(self) -> tuple[int, int]:
        return self.pieces[0][0], self.pieces[-1][1]


def argument_units(spans: Sequence[SrlSpan]) -> list[ArgumentUnit]:
    """Group spans like srl-eval.pl: a `C-X` piece joins the latest `X` (or becomes an `X`)."""
    units: list[ArgumentUnit] = []
    latest: dict[str, ArgumentUnit] = {}
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        label = span.label
        if label.startswith("C-"):
            label = label[2:]
            if label in latest:
                latest[label].pieces.append((span.start, span.end))
                continue
        unit = ArgumentUnit(label, [(span.start, span.end)])
        units.append(unit)
        latest[label] = unit
    return units


def match_units(
    gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]
) -> tuple[list[ArgumentUnit], list[ArgumentUnit], list[ArgumentUnit]]:
    """The correct, excess and missed argument units of one predicate, matched like srl-eval.pl: a
    predicted unit is correct when a gold unit has its label and all its pieces."""
    correct: list[ArgumentUnit] = []
    excess: list[ArgumentUnit] = []
    remaining = {unit.key: unit for unit in argument_units(gold)}
    for unit in argument_units(predicted):
        match = remaining.get(unit.key)
        if match is not None and match.label == unit.label and sorted(match.pieces) == sorted(unit.pieces):
            correct.append(unit)
            del remaining[unit.key]
        else:
            excess.append(unit)
    return correct, excess, list(remaining.values())


def compare_frame(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> dict[str, dict[str, int]]:
    """Per-label counts `{label: {"ok", "op", "ms"}}` for one predicate (srl-eval.pl's discriminate_args)."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"ok": 0, "op": 0, "ms": 0})
    for key, units in zip(("ok", "op", "ms"), match_units(gold, predicted), strict=False):
        for unit in units:
            counts[unit.label][key] += 1
    return counts


def frames_by_position(
    gold: Mapping[int, Sequence[SrlSpan]], predicted: Mapping[int, Sequence[SrlSpan]]
) -> tuple[list[Sequence[SrlSpan]], list[Sequence[SrlSpan]]]:
    """Argument lists of one sentence's gold and predicted frames, keyed by predicate position and
    paired up; a predicate on one side only gets an empty list on the other (missed or spurious)."""
    positions = sorted(gold.keys() | predicted.keys())
    return [gold.get(i, []) for i in positions], [predicted.get(i, []) for i in positions]


def precision_recall_f1(ok: int, op: int, ms: int) -> tuple[float, float, float]:
    precision = ok / (ok + op) if ok + op else 0.0
    recall = ok / (ok + ms) if ok + ms else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def totals(counts: Mapping[str, Mapping[str, int]]) -> tuple[int, int, int]:
    """Correct, excess and missed arguments summed over the scored labels of `{label: counts}`."""
    scored = [c for label, c in counts.items() if label not in EXCLUDED]
    return sum(c["ok"] for c in scored), sum(c["op"] for c in scored), sum(c["ms"] for c in scored)


@Metric.register("srl_span_f1")
class SrlSpanF1(Metric):
    """Overall and per-label span P/R/F1 and the share of perfect propositions ("Comp.").

    Matches srl-eval.pl: `V` (and `C-V`, which joins it) is not scored, a discontinuous argument
    (`X` + `C-X` pieces) is one unit that must match in all of its pieces, `R-X` is its own label.
    Values are fractions (srl-eval.pl prints percentages). Per-label values are returned only when
    `reset=True` (end of an epoch or of `allennlp evaluate`), to keep progress bars short.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._counts: dict[str, dict[str, int]] = defaultdict(lambda: {"ok": 0, "op": 0, "ms": 0})
        self._propositions = 0
        self._perfect = 0

    def __call__(self, gold_frames: Sequence[Sequence[SrlSpan]], predicted_frames: Sequence[Sequence[SrlSpan]]) -> None:  # type: ignore[override]
        """One entry per predicate: its gold and predicted labeled spans."""
        for gold, predicted in zip(gold_frames, predicted_frames, strict=False):
            errors = 0
            for label, counts in compare_frame(gold, predicted).items():
                for key, value in counts.items():
                    self._counts[label][key] += value
                if label not in EXCLUDED:
                    errors += counts["op"] + counts["ms"]
            self._propositions += 1
            self._perfect += errors == 0

    def score_sentences(
        self, gold: Sequence[Mapping[int, SrlFrame]], predicted: Sequence[Mapping[int, SrlFrame]]
    ) -> None:
        """Per sentence, gold and predicted frames by predicate position, paired up (a frame on one
        side only has all its arguments missed or in excess). The Model's interface to its metric."""
        for gold_sentence, predicted_sentence in zip(gold, predicted, strict=False):
            gold_frames, predicted_frames = frames_by_position(
                {i: f.arguments for i, f in gold_sentence.items()},
                {i: f.arguments for i, f in predicted_sentence.items()},
            )
            self(gold_frames, predicted_frames)

    def totals(self) -> tuple[int, int, int]:
        """Correct, excess and missed arguments over all scored labels (this worker's)."""
        return totals(self._counts)

    def get_metric(self, reset: bool = False) -> dict[str, float]:
        """Scores from every worker's counts (exact under allennlp's distributed trainer)."""
        flat = {f"{label}\t{key}": value for label, counts in self._counts.items() for key, value in counts.items()}
        flat.update(propositions=self._propositions, perfect=self._perfect)
        flat = sum_over_workers(flat)
        propositions, perfect = flat.pop("propositions"), flat.pop("perfect")
        counts: dict[str, dict[str, int]] = defaultdict(lambda: {"ok": 0, "op": 0, "ms": 0})
        for name, value in flat.items():
            label, key = name.split("\t")
            counts[label][key] = value
        precision, recall, f1 = precision_recall_f1(*totals(counts))
        metrics = {
            "precision-overall": precision,
            "recall-overall": recall,
            "f1-measure-overall": f1,
            "perfect-propositions": perfect / propositions if propositions else 0.0,
        }
        if reset:
            for label in sorted(counts):
                if label in EXCLUDED:
                    continue
                p, r, f = precision_recall_f1(*(counts[label][k] for k in ("ok", "op", "ms")))
                metrics[f"precision-{label}"], metrics[f"recall-{label}"], metrics[f"f1-measure-{label}"] = p, r, f
            self.reset()
        return metrics
