"""The eval09-equivalent CoNLL-2009 metric against hand-computed cases and the bundled EWT dev file."""

import dataclasses
import os

import pytest

from srl_zoo.data.formats import ConllFormatError, SrlFrame, SrlSpan, read_conll2009
from srl_zoo.metrics.conll2009_f1 import Conll2009F1, normalized_sense
from tests.conftest import REPO_ROOT


def frame(index, sense, *arguments):
    return SrlFrame(
        index=index,
        lemma=sense.split(".")[0],
        sense=sense,
        arguments=[SrlSpan(label, head, head) for label, head in arguments],
    )


def test_senses_compare_after_the_dot_and_as_numbers():
    assert normalized_sense("come.03") == normalized_sense("come.3") == normalized_sense("03") == "3"
    assert normalized_sense("be.LV") == "LV" and normalized_sense("") == ""


def test_hand_computed_scores():
    metric = Conll2009F1()
    gold = [
        [frame(3, "come.03", ("A2", 2), ("A1", 5))],  # A: one predicate, two arguments
        [],  # B: no predicate
        [frame(1, "x.01"), frame(4, "y.02", ("A0", 3), ("A1", 5))],  # C: a predicate without arguments, one missed
    ]
    predicted = [
        [frame(3, "come.3", ("A2", 2), ("A0", 5))],  # sense right (3 == 03), A2 right, A0 for A1 wrong
        [],
        [frame(1, "x.01"), frame(0, "z.01", ("A1", 2))],  # y.02 missed, z.01 spurious
    ]
    metric(gold, predicted)
    values = metric.get_metric(reset=True)
    # labeled dependencies: gold 3 + 0 + 4 = 7, predicted 3 + 0 + 3 = 6, correct 2 + 0 + 1 = 3
    assert values["precision-overall"] == pytest.approx(3 / 6)
    assert values["recall-overall"] == pytest.approx(3 / 7)
    assert values["f1-measure-overall"] == pytest.approx(2 * (3 / 6) * (3 / 7) / (3 / 6 + 3 / 7))
    # unlabeled: A all 3 right; C only x's sense
    assert values["unlabeled-precision"] == pytest.approx(4 / 6)
    assert values["unlabeled-recall"] == pytest.approx(4 / 7)
    # propositions: only x.01 (no arguments) is exactly right, of 3 gold and 3 predicted
    assert values["proposition-precision"] == pytest.approx(1 / 3)
    assert values["proposition-recall"] == pytest.approx(1 / 3)
    assert values["precision-A2"] == values["recall-A2"] == 1.0
    assert values["precision-A0"] == values["recall-A0"] == 0.0
    assert values["recall-A1"] == 0.0
    assert values["precision-sense"] == values["recall-sense"] == pytest.approx(2 / 3)
    # arguments only (senses left out): gold 2 + 2, predicted 2 + 1, correct 1 (A2)
    assert values["argument-precision"] == pytest.approx(1 / 3)
    assert values["argument-recall"] == pytest.approx(1 / 4)


def test_a_cell_with_several_labels_counts_each():
    metric = Conll2009F1()
    metric([[frame(1, "go.01", ("A0|A1", 0))]], [[frame(1, "go.01", ("A0", 0))]])
    values = metric.get_metric()
    assert values["precision-overall"] == 1.0  # 2 predicted (sense, A0), both right
    assert values["recall-overall"] == pytest.approx(2 / 3)  # of 3 gold (sense, A0, A1)


def test_last_sentence_without_a_blank_line(tmp_path):
    rows = [
        ["1", "Dogs", "dog", "dog", "NNS", "NNS", "_", "_", "2", "2", "SBJ", "SBJ", "_", "_", "A0"],
        ["2", "bark", "bark", "bark", "VBP", "VBP", "_", "_", "0", "0", "ROOT", "ROOT", "Y", "bark.01", "_"],
    ]
    path = tmp_path / "last.txt"
    text = "\n".join("\t".join(row) for row in rows)
    path.write_text(text, encoding="utf-8")  # no final newline: the last cell could have been cut ("A0" -> "A")
    with pytest.raises(ConllFormatError, match="line 2: the last line has no line end"):
        list(read_conll2009(str(path)))
    path.write_text(text + "\n", encoding="utf-8")  # a final newline, but no blank line after the sentence
    sentences = list(read_conll2009(str(path)))
    assert len(sentences) == 1 and sentences[0].frames[0].arguments == [SrlSpan("A0", 0, 0)]
    metric = Conll2009F1()
    metric([sentences[0].frames], [sentences[0].frames])
    assert metric.get_metric()["f1-measure-overall"] == 1.0


@pytest.fixture(scope="module")
def ewt_dev():
    return [s.frames for s in read_conll2009(os.path.join(REPO_ROOT, "data", "ewt", "conll2009", "dev.txt.gz"))]


def test_ewt_dev_scored_against_itself_and_perturbed(ewt_dev):
    predicates = sum(len(frames) for frames in ewt_dev)
    arguments = sum(len(f.arguments) for frames in ewt_dev for f in frames)
    gold_dependencies = predicates + arguments

    metric = Conll2009F1()
    metric(ewt_dev, ewt_dev)
    assert all(value == 1.0 for value in metric.get_metric(reset=True).values())

    no_senses = [[dataclasses.replace(f, sense="") for f in frames] for frames in ewt_dev]
    metric(ewt_dev, no_senses)
    values = metric.get_metric(reset=True)
    assert values["precision-overall"] == values["recall-overall"] == pytest.approx(arguments / gold_dependencies)
    assert values["unlabeled-f1"] == 1.0 and values["proposition-f1"] == 0.0

    # every predicate loses its first argument, and every sentence gets one spurious predicate (at
    # token 0, if that is no predicate already) with one argument
    perturbed, spurious = [], 0
    for frames in ewt_dev:
        changed = [dataclasses.replace(f, arguments=f.arguments[1:]) for f in frames]
        if 0 not in {f.index for f in frames}:
            changed.append(frame(0, "extra.01", ("A1", 0)))
            spurious += 1
        perturbed.append(changed)
    dropped = sum(1 for frames in ewt_dev for f in frames if f.arguments)
    metric(ewt_dev, perturbed)
    values = metric.get_metric(reset=True)
    correct = gold_dependencies - dropped
    assert values["recall-overall"] == pytest.approx(correct / gold_dependencies)
    assert values["precision-overall"] == pytest.approx(correct / (correct + 2 * spurious))
