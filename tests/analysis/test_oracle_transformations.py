"""Each oracle transformation on hand-built gold/predicted frames: what it fixes, and what it leaves alone."""

from srl_zoo.analysis.oracle_transformations import (
    ORACLE_TRANSFORMATIONS,
    add_argument,
    drop_argument,
    fix_boundary,
    fix_labels,
    merge_spans,
    move_core_argument,
    split_spans,
)
from srl_zoo.data.formats import SrlSpan as S


def test_fix_labels_relabels_only_spans_with_gold_boundaries():
    gold = [S("A0", 0, 1), S("A1", 3, 5)]
    predicted = [S("A1", 0, 1), S("A1", 3, 4), S("AM-TMP", 7, 7)]
    assert fix_labels(gold, predicted) == ([S("A0", 0, 1), S("A1", 3, 4), S("AM-TMP", 7, 7)], 1)


def test_move_core_argument_moves_a_unique_core_label_to_its_gold_place():
    gold = [S("A0", 0, 1), S("A1", 5, 6)]
    predicted = [S("A0", 3, 3), S("A1", 5, 6)]
    assert move_core_argument(gold, predicted) == ([S("A0", 0, 1), S("A1", 5, 6)], 1)


def test_move_core_argument_leaves_adjuncts_repeated_labels_and_overlaps():
    gold = [S("AM-TMP", 0, 0), S("A1", 2, 3), S("A1", 8, 9), S("A2", 5, 6)]
    predicted = [S("AM-TMP", 4, 4), S("A1", 11, 11), S("A2", 6, 7)]  # adjunct; A1 twice in gold; A2 overlaps
    assert move_core_argument(gold, predicted) == (predicted, 0)


def test_merge_spans_joins_two_pieces_at_most_one_word_apart():
    gold = [S("A1", 2, 6), S("A2", 10, 13)]
    predicted = [S("A1", 2, 3), S("A1", 5, 6), S("A2", 10, 10), S("A2", 12, 12), S("A2", 13, 13)]
    merged, applied = merge_spans(gold, predicted)
    assert applied == 1  # A2 has three pieces inside the gold span: not a merge
    assert merged == [S("A1", 2, 6), S("A2", 10, 10), S("A2", 12, 12), S("A2", 13, 13)]


def test_merge_spans_needs_the_gold_ends_and_a_small_gap():
    gold = [S("A1", 0, 7)]
    assert merge_spans(gold, [S("A1", 0, 2), S("A1", 5, 7)]) == ([S("A1", 0, 2), S("A1", 5, 7)], 0)  # gap of 2
    assert merge_spans(gold, [S("A1", 1, 3), S("A1", 4, 7)]) == ([S("A1", 1, 3), S("A1", 4, 7)], 0)  # wrong start


def test_split_spans_splits_a_span_covering_two_adjacent_gold_spans():
    gold = [S("A1", 0, 2), S("AM-TMP", 4, 5), S("A2", 9, 9), S("A3", 12, 12)]
    predicted = [S("A1", 0, 5), S("A2", 9, 12)]  # the second covers a gap of two words: left alone
    assert split_spans(gold, predicted) == ([S("A1", 0, 2), S("AM-TMP", 4, 5), S("A2", 9, 12)], 1)


def test_fix_boundary_takes_the_most_overlapping_gold_span_of_the_same_label():
    gold = [S("A1", 0, 1), S("A1", 3, 8), S("A0", 10, 12)]
    predicted = [S("A1", 1, 4), S("A0", 11, 12), S("A2", 14, 15)]
    assert fix_boundary(gold, predicted) == ([S("A1", 3, 8), S("A0", 10, 12), S("A2", 14, 15)], 2)


def test_fix_boundary_does_not_claim_a_gold_span_another_prediction_matches():
    gold = [S("A1", 2, 5)]
    predicted = [S("A1", 2, 5), S("A1", 4, 7)]
    assert fix_boundary(gold, predicted) == (predicted, 0)


def test_drop_argument_removes_predictions_that_touch_no_gold_span():
    gold = [S("A0", 0, 1), S("A1", 4, 6)]
    predicted = [S("A0", 0, 0), S("AM-ADV", 2, 3), S("A1", 6, 8), S("A2", 10, 10)]
    assert drop_argument(gold, predicted) == ([S("A0", 0, 0), S("A1", 6, 8)], 2)


def test_add_argument_adds_gold_spans_that_touch_no_prediction():
    gold = [S("A0", 0, 1), S("A1", 4, 6), S("AM-TMP", 8, 8)]
    predicted = [S("A2", 1, 2)]
    assert add_argument(gold, predicted) == ([S("A2", 1, 2), S("A1", 4, 6), S("AM-TMP", 8, 8)], 2)


def test_the_sequence_repairs_a_frame_whose_errors_are_all_of_those_kinds():
    gold = [S("A0", 0, 1), S("A1", 3, 6), S("A2", 8, 8), S("AM-TMP", 10, 11), S("AM-LOC", 13, 13), S("A3", 15, 15)]
    predicted = [
        S("A1", 0, 1),  # fix labels -> A0
        S("A1", 3, 4),
        S("A1", 6, 6),  # merge -> A1 3-6
        S("AM-TMP", 9, 11),  # fix boundary -> 10-11
        S("AM-ADV", 17, 18),  # drop
    ]  # A2, AM-LOC and A3 missing: add
    for _, transformation in ORACLE_TRANSFORMATIONS:
        predicted, _ = transformation(gold, predicted)
    assert sorted(predicted, key=lambda s: s.start) == gold
