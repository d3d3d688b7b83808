"""The leaderboard end to end on two tiny rows: each row trained and scored in its own processes, the
table and the JSON agree, a finished row is never retrained, and a killed row resumes."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from srl_zoo.leaderboard.machine import processor_name
from srl_zoo.leaderboard.spec import SpecError, load_spec
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

CONLL2012 = ["fixtures/conll2012/sample.gold_conll", "fixtures/conll2012/edge_cases.gold_conll"]
SPEC = {
    "title": "Tiny leaderboard",
    "notes": ["Measured in a test."],
    "budget": {"epochs": 2, "train": CONLL2012[0], "dev": CONLL2012[1], "format": "conll2012", "speed_sentences": 8},
    "rows": [
        {
            "name": "ffn predicates",
            "config": "fixtures/deepatt/ffn_predicate_identification.jsonnet",
            "group": "tiny",
            "idea": "DeepAtt FFN, finds its predicates",
        },
        {
            "name": "ffn argmax",
            "config": "fixtures/deepatt/ffn_predicate_identification.jsonnet",
            "group": "tiny",
            "idea": "the same, argmax decoding",
            "overrides": {"model.frame_scorer.output.decoding": "argmax"},
        },
    ],
    "claims": [
        {
            "paper": "Tiny (2026)",
            "idea": "Viterbi against argmax",
            "reported": "+0.5 F1",
            "on": "ffn predicates",
            "off": "ffn argmax",
        }
    ],
}


KILLED_AFTER_FIRST_CHECKPOINT = """
import os, sys
from srl_zoo.training import AtomicCheckpointer
save = AtomicCheckpointer.save_checkpoint
def save_then_die(self, trainer):
    save(self, trainer)
    os._exit(137)
AtomicCheckpointer.save_checkpoint = save_then_die
from srl_zoo.leaderboard.__main__ import main
main(sys.argv[1:])
"""


def leaderboard(spec_path, output_dir, docs, *extra):
    command = [sys.executable, os.path.join(REPO_ROOT, "scripts", "leaderboard.py"), str(spec_path)]
    command += ["--output-dir", str(output_dir), "--docs", str(docs), *extra]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)


def table_rows(markdown: str):
    """{row name: its cells} of the Markdown table."""
    rows = {}
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| tiny |"):
            rows[cells[1]] = cells
    return rows


def test_two_rows_end_to_end_and_a_rerun_trains_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(SPEC))
    output_dir, docs = tmp_path / "runs", tmp_path / "docs" / "leaderboard"
    finished = leaderboard(spec_path, output_dir, docs)
    assert finished.returncode == 0, finished.stderr[-3000:]

    summary = json.loads((tmp_path / "docs" / "leaderboard.json").read_text())
    markdown = (tmp_path / "docs" / "leaderboard.md").read_text()
    assert (tmp_path / "docs" / "leaderboard.png").stat().st_size > 1000
    assert "One budget for every row:** 2 epochs on all of" in markdown and "\nMeasured in a test.\n" in markdown
    cells = table_rows(markdown)
    assert sorted(cells) == ["ffn argmax", "ffn predicates"]
    for row in summary["rows"]:
        (result,) = row["results"]
        assert result["epochs"] == 2 and row["epochs"] == 2
        assert result["dev_f1"]["srl_eval"] == result["dev_f1"]["srl_zoo"]  # the official scorer agrees
        assert result["dev_f1_end_to_end"] is not None
        assert result["tokens_per_s_float32"] > 0 and result["tokens_per_s_bfloat16"] > 0
        assert result["peak_rss_mib"] > 100 and result["parameters"] > 1000
        assert result["processor"] == processor_name()
        table = cells[row["name"]]
        assert table[3] == f"{row['dev_f1']:,.2f}" and table[4] == f"{row['dev_f1_end_to_end']:,.2f}"
        assert table[7] == f"{row['tokens_per_s_float32']:,.0f}" and table[9] == f"{row['peak_rss_mib']:,.0f}"
        assert table[10] == f"{row['parameters'] / 1e6:.1f}" and table[11] == f"{row['archive_mib']:,.1f}"
    assert f"Speeds measured on:\n- {processor_name()}: `ffn predicates`, `ffn argmax`\n" in markdown
    (claim,) = summary["claims"]
    by_name = {row["name"]: row for row in summary["rows"]}
    assert claim["measured_gain"] == round(by_name["ffn predicates"]["dev_f1"] - by_name["ffn argmax"]["dev_f1"], 2)
    assert re.search(r"reported \+0\.5 F1; here `ffn predicates` − `ffn argmax` = [+-]\d+\.\d\d F1", markdown)

    archives = sorted(output_dir.glob("rows/*/seed-*/train/model.tar.gz"))
    times = [path.stat().st_mtime_ns for path in archives]
    again = leaderboard(spec_path, output_dir, docs)
    assert again.returncode == 0
    assert again.stdout.count("finished before") == 2 and ": train" not in again.stdout
    assert [path.stat().st_mtime_ns for path in archives] == times
    assert json.loads((tmp_path / "docs" / "leaderboard.json").read_text()) == summary

    rescored = leaderboard(spec_path, output_dir, docs, "--rescore", "--only", "ffn argmax")
    assert rescored.returncode == 0 and "ffn argmax (seed 13370): score done" in rescored.stdout
    assert [path.stat().st_mtime_ns for path in archives] == times  # measured again, not retrained
    rescored_summary = json.loads((tmp_path / "docs" / "leaderboard.json").read_text())

    # another machine: only the committed record (docs/leaderboard.json) is there; nothing is retrained
    shutil.rmtree(output_dir)
    elsewhere = leaderboard(spec_path, output_dir, docs)
    assert elsewhere.returncode == 0 and elsewhere.stdout.count("finished before") == 2
    assert not output_dir.joinpath("rows").exists()
    assert json.loads((tmp_path / "docs" / "leaderboard.json").read_text()) == rescored_summary


def test_a_row_killed_after_a_checkpoint_resumes_and_a_missing_row_is_listed(tmp_path, monkeypatch):
    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    spec = {**SPEC, "rows": SPEC["rows"][:1] + [{**SPEC["rows"][1], "name": "later"}], "claims": []}
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(spec))
    output_dir, docs = tmp_path / "runs", tmp_path / "leaderboard"
    serialization = output_dir / "rows" / "ffn_predicates" / "seed-13370" / "train"
    # the row's training process dies (os._exit) right after its first checkpoint
    command = [sys.executable, "-c", KILLED_AFTER_FIRST_CHECKPOINT, str(spec_path), "--output-dir", str(output_dir)]
    command += ["--step", "train", "--row", "ffn predicates", "--seed", "13370"]
    assert subprocess.run(command, cwd=REPO_ROOT, capture_output=True).returncode == 137
    assert (serialization / "model_state_e1_b0.th").exists() and not (serialization / "model.tar.gz").exists()
    first_epoch = (serialization / "model_state_e1_b0.th").stat().st_mtime_ns
    finished = leaderboard(spec_path, output_dir, docs, "--only", "ffn predicates")
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert (serialization / "model_state_e1_b0.th").stat().st_mtime_ns == first_epoch  # resumed, not redone
    assert json.loads((serialization / "metrics.json").read_text())["epoch"] == 1  # the 2 epochs of the budget
    (result,) = json.loads((tmp_path / "leaderboard.json").read_text())["rows"][0]["results"]
    assert result["epochs"] == 2
    markdown = (tmp_path / "leaderboard.md").read_text()
    assert "Not run yet (1): later." in markdown


def test_a_spec_naming_an_unknown_row_is_refused(tmp_path):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({**SPEC, "claims": [{**SPEC["claims"][0], "off": "nope"}]}))
    with pytest.raises(SpecError, match="claim 'Viterbi against argmax' names row 'nope'"):
        load_spec(str(path))


def test_a_precision_the_model_cannot_run_is_a_dash_with_its_reason():
    """oneDNN has no bfloat16 LSTM on a CPU without AVX-512 BF16: the row keeps its float32 speed."""
    from srl_zoo.leaderboard.spec import Budget, Row, Spec
    from srl_zoo.leaderboard.table import markdown, summarize

    spec = Spec("t", Budget(epochs=1, train="train", dev="dev"), [Row("lstm", "c", group="g")], [])
    result = {
        "row": "lstm",
        "seed": 13370,
        "dev_f1": {"srl_zoo": 50.0, "srl_eval": 50.0},
        "dev_f1_end_to_end": None,
        "training_minutes": 1.0,
        "epochs": 1,
        "parameters": 2_000_000,
        "archive_mib": 8.0,
        "peak_rss_mib": 900,
        "tokens_per_s_float32": 1500,
        "tokens_per_s_bfloat16": None,
        "speed_failures": {"bfloat16": "RuntimeError: could not create a primitive descriptor"},
    }
    table = markdown(summarize(spec, [result]), None)
    assert "| g | lstm |  | 50.00 | — | 1.0 | 1 | 1,500 | — | 900 | 2.0 | 8.0 |" in table
    assert (
        "- `lstm` (seed 13370) could not predict in bfloat16 on its machine: RuntimeError: could not create a "
        "primitive descriptor" in table
    )
    assert "Speeds measured on:\n- not recorded (scored before the processor was): `lstm`\n" in table


def test_the_processor_of_each_seed_is_listed_under_the_table():
    from srl_zoo.leaderboard.spec import Budget, Row, Spec
    from srl_zoo.leaderboard.table import markdown, summarize

    spec = Spec(
        "t", Budget(epochs=1, train="train", dev="dev"), [Row("a", "c", group="g", seeds=[1, 2]), Row("b", "c")], []
    )
    result = {"dev_f1": {"srl_zoo": 50.0, "srl_eval": 50.0}, "dev_f1_end_to_end": None, "training_minutes": 1.0}
    result |= {"epochs": 1, "parameters": 10, "archive_mib": 1.0, "peak_rss_mib": 9, "tokens_per_s_float32": 15}
    results = [
        {**result, "row": "a", "seed": 1},
        {**result, "row": "a", "seed": 2, "processor": "CPU X"},
        {**result, "row": "b", "seed": 13370, "processor": "CPU X"},
    ]
    table = markdown(summarize(spec, results), None)
    assert "- not recorded (scored before the processor was): `a` (seed 1)\n- CPU X: `a` (seed 2), `b`\n" in table
