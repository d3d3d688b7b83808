"""`srl-zoo predict` without allennlp: where the runtime builds the archive and no flag asks for allennlp, the command
runs in a process where importing allennlp fails and writes the lines allennlp's predict writes with srl_zoo's
predictor (the same predicates, tags and roles; scores within 1e-4)."""

import json
import os

import pytest

import srl_zoo.api
from srl_zoo.commands.runtime_prediction import predict_arguments
from tests.commands.test_label_without_allennlp import srl_zoo_without_allennlp
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

REQUESTS = [
    {"tokens": ["The", "cat", "sat", "on", "the", "mat", "."], "predicates": [2]},
    {"sentence": "Bush nominated two judges on Monday."},
    {"tokens": []},
    {"tokens": ["Rain", "fell", "."]},
]


def assert_same_lines(mine: list[dict], theirs: list[dict]) -> None:
    """Equal but for scores, which differ by at most 1e-4."""

    def scores(value, found):
        if isinstance(value, dict):
            found.extend([value["score"]] if "score" in value else [])
            return {key: scores(item, found) for key, item in value.items() if key != "score"}
        if isinstance(value, list):
            return [scores(item, found) for item in value]
        return value

    mine_scores: list[float] = []
    their_scores: list[float] = []
    assert scores(mine, mine_scores) == scores(theirs, their_scores)
    assert len(mine_scores) == len(their_scores) > 0
    assert max(abs(a - b) for a, b in zip(mine_scores, their_scores, strict=True)) < 1e-4


def test_predict_writes_allennlps_lines_without_allennlp(predicate_model_archive, tmp_path):
    (tmp_path / "in.jsonl").write_text("\n".join(json.dumps(r) for r in REQUESTS) + "\n\n", encoding="utf-8")
    arguments = ["predict", predicate_model_archive, "in.jsonl", "--output-file", "out.jsonl", "--batch-size", "2"]
    done = srl_zoo_without_allennlp(*arguments, "--silent", "--precision", "float32", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "allennlp imported: False" in done.stderr
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    expected = srl_zoo.api.load(predicate_model_archive, precision="float32").label_tokenized(REQUESTS)
    assert_same_lines(lines, expected)
    assert lines[2] == {"words": [], "frames": []}
    printed = srl_zoo_without_allennlp(*arguments[:3], "--batch-size", "3", cwd=tmp_path)  # no output file: printed
    assert printed.returncode == 0, printed.stderr[-3000:]
    assert printed.stdout.splitlines()[0] == f"input 0:  {json.dumps(REQUESTS[0])}"
    assert json.loads(printed.stdout.splitlines()[1].removeprefix("prediction:  ")) == lines[0]


def test_predict_with_the_dataset_reader_labels_a_conll_file_at_its_predicates(predicate_model_archive, tmp_path):
    source = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    arguments = ["predict", predicate_model_archive, source, "--output-file", "out.jsonl", "--use-dataset-reader"]
    done = srl_zoo_without_allennlp(*arguments, "--silent", "--batch-size", "7", "--precision", "float32", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    expected = list(srl_zoo.api.load(predicate_model_archive, precision="float32").label_file(source))
    assert len(lines) == 20
    assert_same_lines(lines, expected)


def test_a_bad_request_is_one_line_naming_the_file_and_line_and_nothing_is_written(predicate_model_archive, tmp_path):
    (tmp_path / "in.jsonl").write_text(json.dumps(REQUESTS[0]) + '\n{"tokens": ["Dogs"], "predicates": [3]}\n')
    arguments = ["predict", predicate_model_archive, "in.jsonl", "--output-file", "out.jsonl", "--silent"]
    done = srl_zoo_without_allennlp(*arguments, cwd=tmp_path)
    assert done.returncode == 1
    message = done.stderr.replace("allennlp imported: False", "").strip()
    assert len(message.splitlines()) == 1 and message.startswith("srl-zoo predict: in.jsonl:2: "), message
    assert message.endswith("(nothing was written)")
    assert not (tmp_path / "out.jsonl").exists() and os.listdir(tmp_path) == ["in.jsonl"]


@pytest.mark.parametrize(
    "flags",
    [
        ["-o", '{"model.predicate_source": "predicted"}'],
        ["--weights-file", "other.th"],
        ["--predictor", "semantic_role_labeling"],
        ["--predictor-args", '{"output_format": "conll2005"}'],
        ["--include-package", "my_package"],
        ["--silent"],  # without --output-file: allennlp says why it stops
    ],
)
def test_flags_only_allennlp_serves_leave_the_command_to_allennlp(flags):
    assert predict_arguments(["predict", "model.tar.gz", "in.jsonl", *flags]) is None
    assert predict_arguments(["predict", "model.tar.gz", "in.jsonl", "--predictor-args", '{"min_score": 0.5}']).options
