"""Where the errors are: per-label scores, role confusions on matching spans, F1 by sentence length
and by distance to the predicate, and F1 after each oracle transformation. All counts follow
srl-eval.pl (a `C-X` piece joins its `X`; `V`/`C-V` are not scored)."""

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Optional

from srl_zoo.analysis.oracle_transformations import ORACLE_TRANSFORMATIONS
from srl_zoo.data.formats import SrlSentence, SrlSpan
from srl_zoo.metrics.srl_span_f1 import ArgumentUnit, argument_units, match_units, precision_recall_f1

NOT_SCORED = ("V", "C-V")
OTHER_LABEL = "other"
Bucket = tuple[int, Optional[int]]  # inclusive bounds; None: no upper bound
SENTENCE_LENGTH_BUCKETS: list[Bucket] = [(1, 10), (11, 20), (21, 30), (31, 40), (41, None)]
DISTANCE_BUCKETS: list[Bucket] = [(0, 0), (1, 2), (3, 6), (7, None)]  # He et al. (2017), Figure 6


@dataclass
class FramePair:
    """One predicate's gold and predicted arguments (a predicate on one side only has none on the other).

    # Parameters

    sentence_length : tokens in the sentence.
    predicate : 0-based token index of the predicate.
    gold, predicted : labeled spans without `V`/`C-V`.
    """

    sentence_length: int
    predicate: int
    gold: list[SrlSpan]
    predicted: list[SrlSpan]


@dataclass
class Counts:
    """Correct (`ok`), excess (`op`) and missed (`ms`) arguments, as srl-eval.pl counts them."""

    ok: int = 0
    op: int = 0
    ms: int = 0

    def count(self, kind: str) -> None:
        """One more argument of `kind`: "ok", "op" or "ms"."""
        setattr(self, kind, getattr(self, kind) + 1)

    @property
    def scores(self) -> dict[str, float]:
        """Precision, recall and F1 in percent, and the number of gold arguments."""
        precision, recall, f1 = precision_recall_f1(self.ok, self.op, self.ms)
        return {"precision": 100 * precision, "recall": 100 * recall, "f1": 100 * f1, "gold": self.ok + self.ms}


@dataclass
class OracleStep:
    """The scores after one oracle transformation (and all before it) and how often it applied."""

    name: str
    applied: int
    counts: Counts = field(default_factory=Counts)


def frame_pairs(gold_sentences: Sequence[SrlSentence], predicted_sentences: Sequence[SrlSentence]) -> list[FramePair]:
    """The frames of each sentence paired by predicate position."""
    pairs: list[FramePair] = []
    for gold, predicted in zip(gold_sentences, predicted_sentences, strict=False):
        gold_frames = {frame.index: frame.arguments for frame in gold.frames}
        predicted_frames = {frame.index: frame.arguments for frame in predicted.frames}
        for index in sorted(gold_frames.keys() | predicted_frames.keys()):
            pairs.append(
                FramePair(
                    len(gold),
                    index,
                    [span for span in gold_frames.get(index, []) if span.label not in NOT_SCORED],
                    [span for span in predicted_frames.get(index, []) if span.label not in NOT_SCORED],
                )
            )
    return pairs


def _tally(
    pairs: Sequence[FramePair], key: Callable[[FramePair, ArgumentUnit], str], counts: MutableMapping[str, Counts]
) -> MutableMapping[str, Counts]:
    """Count every argument of `pairs` (correct, excess or missed, matched like srl-eval.pl) in
    `counts[key(pair, argument)]`; the breakdowns differ only in `key`."""
    for pair in pairs:
        for kind, units in zip(("ok", "op", "ms"), match_units(pair.gold, pair.predicted), strict=False):
            for unit in units:
                counts[key(pair, unit)].count(kind)
    return counts


def label_counts(pairs: Sequence[FramePair]) -> dict[str, Counts]:
    """Counts per argument label."""
    return dict(_tally(pairs, lambda pair, unit: unit.label, defaultdict(Counts)))


def role_confusion(pairs: Sequence[FramePair]) -> Counter:
    """`{(gold label, predicted label): count}` over gold and predicted arguments with the same pieces."""
    confusion: Counter = Counter()
    for pair in pairs:
        gold_labels = {tuple(unit.pieces): unit.label for unit in argument_units(pair.gold)}
        for unit in argument_units(pair.predicted):
            gold_label = gold_labels.get(tuple(unit.pieces))
            if gold_label is not None:
                confusion[(gold_label, unit.label)] += 1
    return confusion


def confusion_matrix(confusion: Mapping[tuple[str, str], int], labels: Sequence[str]) -> list[list[int]]:
    """`(len(labels), len(labels))` counts, rows gold and columns predicted, from `{(gold, predicted): count}`;
    a label not in `labels` counts as `OTHER_LABEL` if that is one of them, else it is left out."""
    index = {label: i for i, label in enumerate(labels)}
    other = index.get(OTHER_LABEL)
    matrix = [[0] * len(labels) for _ in labels]
    for (gold, predicted), count in confusion.items():
        row, column = index.get(gold, other), index.get(predicted, other)
        if row is not None and column is not None:
            matrix[row][column] += count
    return matrix


def bucket_name(bucket: Bucket) -> str:
    low, high = bucket
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


def _bucket_of(value: int, buckets: Sequence[Bucket]) -> str:
    for bucket in buckets:
        if value >= bucket[0] and (bucket[1] is None or value <= bucket[1]):
            return bucket_name(bucket)
    raise ValueError(f"{value} is in none of the buckets {buckets}")


def counts_by_sentence_length(
    pairs: Sequence[FramePair], buckets: Sequence[Bucket] = SENTENCE_LENGTH_BUCKETS
) -> dict[str, Counts]:
    """Counts per bucket of sentence length (in tokens)."""
    counts = {bucket_name(bucket): Counts() for bucket in buckets}
    return dict(_tally(pairs, lambda pair, unit: _bucket_of(pair.sentence_length, buckets), counts))


def distance_to_predicate(unit: ArgumentUnit, predicate: int) -> int:
    """Words between the predicate and the nearest word of the argument (0: adjacent or covering it)."""
    start, end = unit.pieces[0][0], max(piece[1] for piece in unit.pieces)
    if predicate < start:
        return start - predicate - 1
    if predicate > end:
        return predicate - end - 1
    return 0


def counts_by_distance(pairs: Sequence[FramePair], buckets: Sequence[Bucket] = DISTANCE_BUCKETS) -> dict[str, Counts]:
    """Counts per bucket of argument-predicate distance: precision by the predicted arguments'
    distances, recall by the gold arguments' (a correct argument has the same distance in both)."""
    counts = {bucket_name(bucket): Counts() for bucket in buckets}
    return dict(
        _tally(pairs, lambda pair, unit: _bucket_of(distance_to_predicate(unit, pair.predicate), buckets), counts)
    )


def total_counts(pairs: Sequence[FramePair]) -> Counts:
    """Counts over all arguments."""
    return _tally(pairs, lambda pair, unit: "all", {"all": Counts()})["all"]


def oracle_steps(pairs: Sequence[FramePair]) -> list[OracleStep]:
    """The original scores, then the scores after each oracle transformation applied on top of the previous ones."""
    steps = [OracleStep("original", 0, total_counts(pairs))]
    current = [dataclasses.replace(pair, predicted=list(pair.predicted)) for pair in pairs]
    for name, transformation in ORACLE_TRANSFORMATIONS:
        applied = 0
        for pair in current:
            pair.predicted, times = transformation(pair.gold, pair.predicted)
            applied += times
        steps.append(OracleStep(name, applied, total_counts(current)))
    return steps
