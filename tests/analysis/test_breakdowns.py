"""The breakdowns against srl_zoo's srl-eval.pl-equivalent metric and against brute force, on random frames."""

import random

import pytest

from srl_zoo.analysis import breakdowns
from srl_zoo.data.formats import SrlFrame, SrlSentence
from srl_zoo.data.formats import SrlSpan as S
from srl_zoo.metrics import SrlSpanF1
from srl_zoo.metrics.srl_span_f1 import ArgumentUnit

LABELS = ["A0", "A1", "A2", "AM-TMP", "C-A1", "R-A0"]


def random_spans(rng: random.Random, length: int, predicate: int):
    spans, position = [], 0
    while position < length:
        start = position + rng.randint(0, 3)
        end = min(length - 1, start + rng.randint(0, 3))
        if start >= length:
            break
        if not start <= predicate <= end:
            spans.append(S(rng.choice(LABELS), start, end))
        position = end + 1
    return spans


def random_sentences(seed: int, count: int = 30):
    rng = random.Random(seed)
    gold, predicted = [], []
    for _ in range(count):
        length = rng.randint(1, 45)
        tokens = ["w"] * length
        gold_frames, predicted_frames = [], []
        for index in sorted(rng.sample(range(length), rng.randint(0, min(3, length)))):
            gold_spans = random_spans(rng, length, index)
            gold_frames.append(SrlFrame(index, arguments=gold_spans + [S("V", index, index)]))
            if rng.random() < 0.9:  # sometimes a missed predicate
                kept = [s for s in gold_spans if rng.random() < 0.6]
                predicted_frames.append(SrlFrame(index, arguments=kept + random_spans(rng, length, index)[:2]))
        if length > 3 and rng.random() < 0.2:  # a spurious predicate
            predicted_frames.append(SrlFrame(length - 1, arguments=[S("A1", 0, 1)]))
        gold.append(SrlSentence(tokens, frames=gold_frames))
        predicted.append(SrlSentence(tokens, frames=sorted(predicted_frames, key=lambda f: f.index)))
    return gold, predicted


@pytest.mark.parametrize("seed", range(5))
def test_totals_and_every_breakdown_add_up_to_the_metric(seed):
    gold, predicted = random_sentences(seed)
    pairs = breakdowns.frame_pairs(gold, predicted)
    metric = SrlSpanF1()
    metric.score_sentences(
        [{f.index: f for f in s.frames} for s in gold], [{f.index: f for f in s.frames} for s in predicted]
    )
    expected = metric.totals()
    total = breakdowns.total_counts(pairs)
    assert (total.ok, total.op, total.ms) == expected
    assert total.scores["f1"] == pytest.approx(100 * metric.get_metric()["f1-measure-overall"])
    for split in (
        breakdowns.label_counts(pairs),
        breakdowns.counts_by_sentence_length(pairs),
        breakdowns.counts_by_distance(pairs),
    ):
        assert tuple(sum(getattr(c, k) for c in split.values()) for k in ("ok", "op", "ms")) == expected


def brute_force_distance(pieces, predicate):
    tokens = [t for start, end in pieces for t in range(start, end + 1)]
    return 0 if predicate in tokens else min(abs(t - predicate) for t in tokens) - 1


@pytest.mark.parametrize("seed", range(3))
def test_distance_and_confusion_against_brute_force(seed):
    gold, predicted = random_sentences(seed)
    pairs = breakdowns.frame_pairs(gold, predicted)
    rng = random.Random(seed)
    for _ in range(200):
        start = rng.randint(0, 30)
        pieces = [(start, start + rng.randint(0, 3))]
        if rng.random() < 0.3:
            pieces.append((pieces[0][1] + 2, pieces[0][1] + 2 + rng.randint(0, 2)))
        predicate = rng.randint(0, 40)
        if any(s <= predicate <= e for s, e in pieces) or (
            len(pieces) == 2 and pieces[0][1] < predicate < pieces[1][0]
        ):
            continue  # the predicate is never inside (or between the pieces of) its own argument
        unit = ArgumentUnit("A1", pieces)
        assert breakdowns.distance_to_predicate(unit, predicate) == brute_force_distance(pieces, predicate)
    expected = {}
    for pair in pairs:
        gold_units = breakdowns.argument_units(pair.gold)
        for unit in breakdowns.argument_units(pair.predicted):
            for other in gold_units:
                if other.pieces == unit.pieces:
                    expected[(other.label, unit.label)] = expected.get((other.label, unit.label), 0) + 1
    assert dict(breakdowns.role_confusion(pairs)) == expected


def test_confusion_matrix_folds_rare_labels_into_other():
    confusion = {("A0", "A0"): 5, ("A0", "A1"): 2, ("A3", "A1"): 1, ("A3", "A4"): 4}
    assert breakdowns.confusion_matrix(confusion, ["A0", "A1", "other"]) == [[5, 2, 0], [0, 0, 0], [0, 1, 4]]
    assert breakdowns.confusion_matrix(confusion, ["A0", "A1"]) == [[5, 2], [0, 0]]


def test_oracle_steps_start_at_the_original_scores_and_end_higher():
    gold, predicted = random_sentences(7)
    pairs = breakdowns.frame_pairs(gold, predicted)
    steps = breakdowns.oracle_steps(pairs)
    assert [s.name for s in steps][:2] == ["original", "fix labels"] and len(steps) == 8
    assert steps[0].counts == breakdowns.total_counts(pairs)
    assert steps[-1].counts.scores["f1"] > steps[0].counts.scores["f1"]
    assert breakdowns.total_counts(pairs) == steps[0].counts  # the input frames are not changed
