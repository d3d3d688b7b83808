"""`allennlp srl-evaluate` end to end: a tiny trained model, props files, Python metric == srl-eval.pl."""

import json
import os
import subprocess
import sys

import pytest
from allennlp.commands.train import train_model_from_file

from srl_zoo.analysis.report import FILES as REPORT_FILES
from srl_zoo.data.formats import read_conll2005
from tests.conftest import FIXTURES, REPO_ROOT, train_fixture_model

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def run_evaluate(archive, data, out, *options):
    """`allennlp srl-evaluate ARCHIVE DATA --output-dir OUT [options]` from the repository root."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "srl-evaluate",
            archive,
            data,
            "--output-dir",
            str(out),
            "--include-package",
            "srl_zoo",
            *options,
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
    )


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return train_fixture_model(
        tmp_path_factory, "deepatt/ffn.jsonnet", [("SRL_ZOO_TEST_DECODING", "viterbi")], '{"trainer.num_epochs": 4}'
    )


@pytest.mark.parametrize("decoding", ["argmax", "viterbi"])
def test_cli_writes_props_and_matches_srl_eval(archive, tmp_path, decoding):
    out = tmp_path / "eval"
    completed = run_evaluate(archive, os.path.join(FIXTURES, "conll2005", "sample.txt"), out, "--decoding", decoding)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "srl-eval.pl P" in completed.stdout
    metrics = json.loads((out / "metrics.json").read_text())
    python, official = metrics["python"], metrics["srl_eval"]
    assert abs(100 * python["f1-measure-overall"] - official["f1"]) <= 0.01
    assert abs(100 * python["precision-overall"] - official["precision"]) <= 0.01
    assert abs(100 * python["recall-overall"] - official["recall"]) <= 0.01
    assert abs(100 * python["perfect-propositions"] - official["perfect_propositions"]) <= 0.01
    gold_lines = (out / "gold.props").read_text().splitlines()
    assert len(gold_lines) == len((out / "predicted.props").read_text().splitlines())
    assert gold_lines[0].split() == ["-", "(A2*"]


@pytest.fixture(scope="module")
def archive_with_head(tmp_path_factory):
    return train_fixture_model(
        tmp_path_factory,
        "deepatt/ffn_predicate_identification.jsonnet",
        [("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")],
        '{"trainer.num_epochs": 6}',
    )


@pytest.mark.parametrize("source", ["gold", "predicted"])
def test_predicate_source_option(archive_with_head, tmp_path, source):
    out = tmp_path / source
    completed = run_evaluate(
        archive_with_head, os.path.join(FIXTURES, "conll2012", "sample.gold_conll"), out, "--predicate-source", source
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    python = json.loads((out / "metrics.json").read_text())["python"]
    if source == "gold":
        assert python["predicate-f1"] == 1.0
    else:
        assert 0.0 <= python["predicate-f1"] <= 1.0
    assert "predicates P" in completed.stdout


def test_report_writes_the_error_analysis_for_a_fixture_model(archive_with_head, tmp_path):
    out, report = tmp_path / "eval", tmp_path / "report"
    data = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    completed = run_evaluate(archive_with_head, data, out, "--predicate-source", "predicted", "--report", str(report))
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert f"error analysis: {report / 'report.md'}" in completed.stdout
    names = {p.name for p in report.iterdir()}
    assert names == {"report.md", "report.json"} | set(REPORT_FILES.values())
    markdown = (report / "report.md").read_text()
    assert all(f"]({name})" in markdown for name in REPORT_FILES.values())
    analysis = json.loads((report / "report.json").read_text())
    metrics = json.loads((out / "metrics.json").read_text())
    # the report scores the same predictions as srl_zoo's metric, missed and spurious predicates included
    assert analysis["overall"]["f1"] == pytest.approx(100 * metrics["python"]["f1-measure-overall"])
    assert analysis["oracle"][-1]["f1"] >= analysis["oracle"][0]["f1"]


def test_predicted_source_without_a_head_is_a_clear_error(archive, tmp_path):
    completed = run_evaluate(
        archive, os.path.join(FIXTURES, "conll2005", "sample.txt"), tmp_path, "--predicate-source", "predicted"
    )
    assert completed.returncode != 0 and "needs a model with a predicate head" in completed.stderr


@pytest.fixture(scope="module")
def lisa_archive(tmp_path_factory):
    environment = [("SRL_ZOO_TEST_LISA_FORMAT", "conll2012"), ("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")]
    return train_fixture_model(
        tmp_path_factory, "lisa/tiny.jsonnet", environment + [("SRL_ZOO_TEST_LISA_PARSE_LAYER", "1")]
    )


def test_lisa_reports_its_heads_and_takes_an_injected_parse(lisa_archive, tmp_path):
    data = os.path.join(FIXTURES, "conll2012", "edge_cases.gold_conll")
    own = run_evaluate(lisa_archive, data, tmp_path / "own")
    assert own.returncode == 0, own.stderr[-3000:]
    assert "parse-uas" in own.stdout and "pos-accuracy" in own.stdout
    injected = run_evaluate(
        lisa_archive, data, tmp_path / "gold", "--parse-file", os.path.join(FIXTURES, "conll2009", "edge_cases.txt")
    )
    assert injected.returncode == 0, injected.stderr[-3000:]
    own_metrics = json.loads((tmp_path / "own" / "metrics.json").read_text())["model"]
    injected_metrics = json.loads((tmp_path / "gold" / "metrics.json").read_text())["model"]
    assert "parse-uas" in injected_metrics and "parse-uas" in own_metrics


def test_a_misaligned_parse_file_is_a_clear_error(lisa_archive, tmp_path):
    data = os.path.join(FIXTURES, "conll2012", "edge_cases.gold_conll")
    wrong = run_evaluate(
        lisa_archive, data, tmp_path / "x", "--parse-file", os.path.join(FIXTURES, "conll2009", "sample.txt")
    )
    assert wrong.returncode != 0
    assert "sample.txt, line 1: does not align with sentence 1" in wrong.stderr


def test_parse_options_need_a_syntax_head(archive, tmp_path):
    completed = run_evaluate(
        archive, os.path.join(FIXTURES, "conll2005", "sample.txt"), tmp_path / "x", "--parse-source", "given"
    )
    assert completed.returncode != 0 and "no syntax head" in completed.stderr


def test_conll2009_data_gets_eval09_layout_and_scores(tmp_path, monkeypatch):
    from srl_zoo.data.formats import read_conll2009
    from srl_zoo.metrics import Conll2009F1

    monkeypatch.chdir(REPO_ROOT)
    train_model_from_file(  # long enough for the predicate head to name senses
        os.path.join(FIXTURES, "deepatt", "dependency.jsonnet"), str(tmp_path / "model"), '{"trainer.num_epochs": 30}'
    )
    data = os.path.join(FIXTURES, "conll2009", "sample.txt")
    report = tmp_path / "report"
    completed = run_evaluate(str(tmp_path / "model" / "model.tar.gz"), data, tmp_path / "out", "--report", str(report))
    assert completed.returncode == 0, completed.stderr
    assert "eval09 (srl_zoo) labeled" in completed.stdout
    gold = list(read_conll2009(str(tmp_path / "out" / "gold.txt")))
    predicted = list(read_conll2009(str(tmp_path / "out" / "predicted.txt")))
    assert [s.tokens for s in gold] == [s.tokens for s in read_conll2009(data)] == [s.tokens for s in predicted]
    senses = [f.sense for s in predicted for f in s.frames if f.sense not in (None, "_")]
    assert senses and all(sense.split(".")[0] for sense in senses)  # PRED filled with lemma.sense
    rescored = Conll2009F1()
    rescored([s.frames for s in gold], [s.frames for s in predicted])  # the files give the printed numbers
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert metrics["python"]["f1-measure-overall"] == rescored.get_metric()["f1-measure-overall"]
    # the report scores arguments on head words without senses: eval09's labeled argument F1
    analysis = json.loads((report / "report.json").read_text())
    assert analysis["overall"]["f1"] == pytest.approx(100 * metrics["python"]["argument-f1"])


def test_lisa_on_conll2009_prints_eval09_scores_and_its_heads(tmp_path, monkeypatch):
    """LISA on CoNLL-2009 reports eval09's scores (as AMN does), and `evaluate` prints its heads line there too
    (it returned before that line for CoNLL-2009 data)."""
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("SRL_ZOO_TEST_LISA_FORMAT", "conll2009")
    monkeypatch.setenv("SRL_ZOO_TEST_LISA_PARSE_LAYER", "1")
    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    train_model_from_file(os.path.join(FIXTURES, "lisa", "tiny.jsonnet"), str(tmp_path / "model"))
    data = os.path.join(FIXTURES, "conll2009", "sample.txt")
    completed = run_evaluate(str(tmp_path / "model" / "model.tar.gz"), data, tmp_path / "out")
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "eval09 (srl_zoo) labeled" in completed.stdout
    heads = [line for line in completed.stdout.splitlines() if line.startswith("heads ")]
    assert len(heads) == 1 and "parse-uas" in heads[0] and "pos-accuracy" in heads[0]


@pytest.fixture(scope="module")
def archive_trained_on_3_sentences(tmp_path_factory):
    return train_fixture_model(
        tmp_path_factory,
        "deepatt/ffn.jsonnet",
        [("SRL_ZOO_TEST_DECODING", "argmax")],
        '{"trainer.num_epochs": 1, "dataset_reader.max_instances": 3}',
    )


def test_a_training_instance_limit_does_not_limit_evaluation(archive_trained_on_3_sentences, tmp_path):
    """`dataset_reader.max_instances` travels in the archive's config; scoring reads the whole file and
    says how much it scored."""
    data = os.path.join(FIXTURES, "conll2005", "sample.txt")
    sentences = list(read_conll2005(data))
    predicates = sum(len(sentence.frames) for sentence in sentences)
    assert len(sentences) > 3
    completed = run_evaluate(archive_trained_on_3_sentences, data, tmp_path / "eval")
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert f"scored      {len(sentences)} sentences, {predicates} gold predicates of {data}" in completed.stdout
    metrics = json.loads((tmp_path / "eval" / "metrics.json").read_text())
    assert (metrics["sentences"], metrics["predicates"]) == (len(sentences), predicates)
    assert len((tmp_path / "eval" / "gold.props").read_text().strip().split("\n\n")) == len(sentences)


def test_evaluate_without_an_output_dir_prints_the_scores_and_writes_nothing(archive, tmp_path):
    data = os.path.join(FIXTURES, "conll2005", "sample.txt")
    command = [sys.executable, "-m", "srl_zoo.cli", "evaluate", archive, data]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "srl_zoo     P " in completed.stdout and "srl-eval.pl P " in completed.stdout
    assert os.listdir(tmp_path) == []
