"""The `srl` Predictor on raw text: edge cases, batching, JSON and CoNLL-2005 output, the CLI."""

import json
import subprocess
import sys

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from srl_zoo.data.formats.io_utils import parse_bracket_column
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


@pytest.fixture(scope="module")
def archive(predicate_model_archive):
    return predicate_model_archive


@pytest.fixture(scope="module")
def predictor(archive):
    return Predictor.from_archive(load_archive(archive))  # the model's default_predictor


def assert_well_formed(result, words=None):
    assert set(result) == {"words", "frames"}
    if words is not None:
        assert result["words"] == words
    n = len(result["words"])
    for frame in result["frames"]:
        predicate = frame["predicate"]
        assert 0 <= predicate["index"] < n and predicate["word"] == result["words"][predicate["index"]]
        assert len(frame["tags"]) == n
        for argument in frame["arguments"]:
            assert 0 <= argument["start"] <= argument["end"] < n
            assert argument["text"] == " ".join(result["words"][argument["start"] : argument["end"] + 1])
        assert isinstance(frame["description"], str)


def test_default_predictor_is_srl(predictor):
    assert type(predictor).__name__ == "SrlPredictor"


def test_raw_sentence_is_tokenized_offline_and_labeled(predictor):
    result = predictor.predict_json({"sentence": "The cat sat on the mat, didn't it?"})
    assert_well_formed(result, ["The", "cat", "sat", "on", "the", "mat", ",", "did", "n't", "it", "?"])


def test_a_sentence_request_is_tokenized_as_every_labeler_splits_text(predictor):
    from srl_zoo.front.text_labeling import TextLabeling

    class English(TextLabeling):
        language = "en"

    text = "He left.  She stayed \u200b behind!\nDid n't they?"
    words = ["He", "left", ".", "She", "stayed", "behind", "!", "Did", "n't", "they", "?"]
    assert predictor.tokenize(text) == English().tokenize(text) == words


def test_given_predicates_are_used(predictor):
    result = predictor.predict_json(
        {"tokens": ["President", "Bush", "nominated", "two", "individuals"], "predicates": [2]}
    )
    assert [f["predicate"]["index"] for f in result["frames"]] == [2]
    assert_well_formed(result)


@pytest.mark.parametrize("inputs", [{"sentence": ""}, {"sentence": "   \n\t "}, {"tokens": []}])
def test_empty_input_gives_an_empty_result(predictor, inputs):
    assert predictor.predict_json(inputs) == {"words": [], "frames": []}


def test_sentence_without_predicates(predictor):
    result = predictor.predict_json({"sentence": "Hello there .", "predicates": []})
    assert result["frames"] == [] and result["words"] == ["Hello", "there", "."]


def test_long_and_non_ascii_and_mixed_batch(predictor):
    long_sentence = " ".join(["comes"] * 1000)
    batch = [
        {"sentence": long_sentence},
        {"sentence": "Zoë’s café in Zürich serves crème brûlée — 美味しい!"},
        {"sentence": ""},
        {"tokens": ["Bush", "nominated", "Anderson"]},
    ]
    results = predictor.predict_batch_json(batch)
    assert len(results) == 4
    assert len(results[0]["words"]) == 1000
    assert "Zürich" in results[1]["words"]
    assert results[2] == {"words": [], "frames": []}
    for result in results:
        assert_well_formed(result)
    # batching gives the same labels as one at a time; scores within float32 rounding (a padded batch sums in
    # another order on some CPUs: 0.8862336 against 0.8862335 on an AMD EPYC with AVX-512 BF16)
    for alone, batched in (
        (predictor.predict_json(batch[3]), results[3]),
        (predictor.predict_json(batch[1]), results[1]),
    ):
        assert without_scores(alone) == without_scores(batched)
        assert scores_of(alone) == pytest.approx(scores_of(batched), abs=1e-5)


def without_scores(node):
    """`node` (a prediction as JSON values) without its `score` fields."""
    if isinstance(node, dict):
        return {key: without_scores(value) for key, value in node.items() if key != "score"}
    if isinstance(node, list):
        return [without_scores(value) for value in node]
    return node


def scores_of(node) -> list:
    """Every `score` in `node`, depth first."""
    if isinstance(node, dict):
        return ([node["score"]] if "score" in node else []) + [
            s for key, v in node.items() if key != "score" for s in scores_of(v)
        ]
    if isinstance(node, list):
        return [score for value in node for score in scores_of(value)]
    return []


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"text": "x"}, "needs 'sentence'"),
        ({"tokens": ["a b"]}, r"'tokens': token 0 \('a b'\): tokens are non-empty strings without whitespace"),
        ({"tokens": "a b"}, "'tokens' must be a list of strings, got str"),
        ({"tokens": ["a"], "predicates": [3]}, "'predicates' must be"),
    ],
)
def test_bad_inputs_name_the_field(predictor, bad, message):
    with pytest.raises(ValueError, match=message):
        predictor.predict_json(bad)


def run_predict(archive, tmp_path, *extra):
    inputs = tmp_path / "input.jsonl"
    inputs.write_text(
        '{"sentence": "Bush nominated two individuals ."}\n{"sentence": ""}\n'
        '{"tokens": ["Cats", "sleep"], "predicates": [1]}\n'
    )
    out = tmp_path / "out.txt"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "predict",
            archive,
            str(inputs),
            "--output-file",
            str(out),
            "--batch-size",
            "64",
            "--cuda-device",
            "-1",
            "--silent",
            "--include-package",
            "srl_zoo",
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return out.read_text()


def test_allennlp_predict_cli_json(archive, tmp_path):
    lines = run_predict(archive, tmp_path, "--predictor", "srl").splitlines()
    results = [json.loads(line) for line in lines]
    assert len(results) == 3
    assert results[0]["words"] == ["Bush", "nominated", "two", "individuals", "."]
    assert results[1] == {"words": [], "frames": []}
    assert [f["predicate"]["index"] for f in results[2]["frames"]] == [1]


def test_allennlp_predict_cli_conll2005(archive, tmp_path):
    text = run_predict(archive, tmp_path, "--predictor-args", '{"output_format": "conll2005"}')
    blocks = [block.splitlines() for block in text.strip("\n").split("\n\n")]
    last = [line.split() for line in blocks[-1]]
    assert [row[:2] for row in last] == [["Cats", "-"], ["sleep", "sleep"]]
    assert all(len(row) == 3 for row in last)  # word, target, one props column for the one predicate
    parse_bracket_column([row[2] for row in last], [1, 2], "predicted")  # raises if malformed
    first = [line.split() for line in blocks[0]]
    assert [row[0] for row in first] == ["Bush", "nominated", "two", "individuals", "."]


def test_mixed_precision_gives_well_formed_and_mostly_equal_results(archive):
    plain = Predictor.from_archive(load_archive(archive))
    mixed = Predictor.from_archive(load_archive(archive), extra_args={"mixed_precision": True})
    inputs = [{"tokens": ["Bush", "nominated", "two", "individuals", "to", "replace", "jurists"], "predicates": [1, 5]}]
    a, b = plain.predict_batch_json(inputs)[0], mixed.predict_batch_json(inputs)[0]
    assert_well_formed(b)

    def without_score(predicate):
        return {key: value for key, value in predicate.items() if key != "score"}

    assert [without_score(f["predicate"]) for f in a["frames"]] == [without_score(f["predicate"]) for f in b["frames"]]
    same = sum(
        x == y
        for fa, fb in zip(a["frames"], b["frames"], strict=False)
        for x, y in zip(fa["tags"], fb["tags"], strict=False)
    )
    assert same >= 0.8 * sum(len(f["tags"]) for f in a["frames"])


def test_pre_tokenized_input_needs_no_spacy_pipeline(archive, monkeypatch):
    def no_spacy(language):
        raise OSError("spaCy is not installed here (a stand-in package)")

    monkeypatch.setattr("spacy.blank", no_spacy)  # what the blank pipeline of raw text calls
    predictor = Predictor.from_archive(load_archive(archive))
    result = predictor.predict_json({"tokens": ["President", "Bush", "nominated", "two"], "predicates": [2]})
    assert_well_formed(result, ["President", "Bush", "nominated", "two"])
    with pytest.raises(OSError, match="stand-in"):
        predictor.predict_json({"sentence": "Raw text needs the tokenizer."})
