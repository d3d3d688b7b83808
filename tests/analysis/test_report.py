import json

import pytest

from srl_zoo.analysis import write_report
from srl_zoo.analysis.report import FILES
from srl_zoo.data.formats import SrlFrame, SrlSentence
from srl_zoo.data.formats import SrlSpan as S


def test_report_writes_plots_json_and_markdown(tmp_path):
    tokens = "The company sold its shares on Monday .".split()
    gold = [
        SrlSentence(
            tokens, frames=[SrlFrame(2, arguments=[S("A0", 0, 1), S("V", 2, 2), S("A1", 3, 4), S("AM-TMP", 5, 6)])]
        )
    ]
    predicted = [SrlSentence(tokens, frames=[SrlFrame(2, arguments=[S("A1", 0, 1), S("V", 2, 2), S("A1", 3, 4)])])]
    analysis = write_report(gold, predicted, str(tmp_path / "report"), "Tiny", {"f1": 40.0})
    directory = tmp_path / "report"
    for name in FILES.values():
        assert (directory / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    markdown = (directory / "report.md").read_text()
    assert markdown.startswith("# Tiny")
    assert all(f"]({name})" in markdown for name in FILES.values())
    assert "srl-eval.pl: F1 40.00" in markdown
    assert json.loads((directory / "report.json").read_text()) == json.loads(json.dumps(analysis))
    assert analysis["overall"] == {"precision": 50.0, "recall": pytest.approx(100 / 3), "f1": 40.0, "gold": 3}
    assert analysis["confusion"]["top"] == [{"gold": "A0", "predicted": "A1", "count": 1}]
    assert [step["f1"] for step in analysis["oracle"]][:2] == [40.0, 80.0]  # fixing A0's label
    assert analysis["oracle"][-1]["f1"] == 100.0  # then adding AM-TMP
    assert not [p for p in directory.iterdir() if p.name.startswith(".tmp")]
