"""The Python span metric against the official srl-eval.pl (perl) on the same props files."""

import random

import pytest

from srl_zoo.data.formats import SrlFrame, SrlSentence, SrlSpan, read_conll2005, write_conll2005
from srl_zoo.metrics import SrlSpanF1, argument_units, compare_frame, find_srl_eval, run_srl_eval
from tests.conftest import fixture_path


def test_continuation_pieces_join_their_argument_and_v_is_not_scored():
    gold = [SrlSpan("A1", 0, 1), SrlSpan("V", 2, 2), SrlSpan("C-A1", 4, 5), SrlSpan("C-V", 3, 3), SrlSpan("R-A0", 6, 6)]
    units = argument_units(gold)
    assert [(u.label, u.pieces) for u in units] == [
        ("A1", [(0, 1), (4, 5)]),
        ("V", [(2, 2), (3, 3)]),
        ("R-A0", [(6, 6)]),
    ]
    # predicting only the first piece of a discontinuous argument is wrong (excess) and misses it
    counts = compare_frame(gold, [SrlSpan("A1", 0, 1), SrlSpan("V", 2, 2), SrlSpan("R-A0", 6, 6)])
    assert counts["A1"] == {"ok": 0, "op": 1, "ms": 1}
    assert counts["R-A0"] == {"ok": 1, "op": 0, "ms": 0}
    metric = SrlSpanF1()
    metric([gold, gold], [gold, [SrlSpan("V", 2, 3)] + gold[:1] + gold[2:3] + gold[4:]])
    values = metric.get_metric(reset=True)
    assert values["perfect-propositions"] == 1.0  # a wrong V does not make a proposition imperfect
    assert values["f1-measure-overall"] == 1.0


def perturb(spans, rng):
    """A plausible wrong prediction: drop, relabel, shift or keep each span."""
    out = []
    for span in spans:
        roll = rng.random()
        if roll < 0.15:
            continue
        if roll < 0.3:
            span = SrlSpan(rng.choice(["A0", "A1", "A2", "AM-TMP", "C-A1", "R-A0"]), span.start, span.end)
        elif roll < 0.45 and span.end > span.start:
            span = SrlSpan(span.label, span.start + 1, span.end)
        out.append(span)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_python_metric_equals_srl_eval_pl(tmp_path, seed):
    find_srl_eval()  # fails loudly if `make scorer` was not run
    rng = random.Random(seed)
    gold = list(read_conll2005(fixture_path("conll2005", "sample.txt"))) + list(
        read_conll2005(fixture_path("conll2005", "edge_cases.txt"))
    )
    predicted = [
        SrlSentence(
            tokens=s.tokens, frames=[SrlFrame(f.index, f.lemma, None, perturb(f.arguments, rng)) for f in s.frames]
        )
        for s in gold
    ]
    write_conll2005(gold, str(tmp_path / "gold.props"), props_only=True)
    write_conll2005(predicted, str(tmp_path / "pred.props"), props_only=True)
    official = run_srl_eval(str(tmp_path / "gold.props"), str(tmp_path / "pred.props"))
    metric = SrlSpanF1()
    metric([f.arguments for s in gold for f in s.frames], [f.arguments for s in predicted for f in s.frames])
    ours = metric.get_metric(reset=True)
    assert 0 < official.f1 < 100
    assert ours["f1-measure-overall"] * 100 == pytest.approx(official.f1, abs=0.01)
    assert ours["precision-overall"] * 100 == pytest.approx(official.precision, abs=0.01)
    assert ours["recall-overall"] * 100 == pytest.approx(official.recall, abs=0.01)
    assert ours["perfect-propositions"] * 100 == pytest.approx(official.perfect_propositions, abs=0.01)
    scored = {label: prf for label, prf in official.per_label.items() if label != "V"}  # V is printed apart
    assert len(scored) > 5
    for label, (_p, _r, f) in scored.items():
        assert ours[f"f1-measure-{label}"] * 100 == pytest.approx(f, abs=0.01), label
