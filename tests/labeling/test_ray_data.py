"""Corpus labeling on Ray Data, on a local Ray of 2 CPUs (one for the module): the Ray labeler's sentences equal
`srl_zoo.load`'s for text and tokens rows, a bad row becomes a record with its error, and the typed columns go
to Parquet and JSON as they are."""

import json
import math
import os

import pyarrow.parquet as pq
import pytest
import ray
import ray.data

import srl_zoo
from srl_zoo.labeling.arrow_types import SENTENCE_TYPE
from srl_zoo.labeling.ray_data import label_dataset
from tests.labeling.conftest import ray_in_this_process

pytestmark = pytest.mark.slow  # starts a local Ray and loads a model in each actor

TEXTS = ["President Bush nominated two individuals.  The Senate confirmed them on Tuesday.", "", "Dogs bark.", "A b."]


@pytest.fixture(scope="module")
def local_ray():
    with ray_in_this_process(num_cpus=2):
        yield


def without_nulls(node):
    """`node` (labeled sentences as JSON values) without null fields: Arrow gives every struct all its fields."""
    if isinstance(node, dict):
        return {key: without_nulls(value) for key, value in node.items() if value is not None}
    if isinstance(node, list):
        return [without_nulls(value) for value in node]
    return node


def close(found, expected) -> bool:
    """Equal JSON values, floats within float32 rounding (scores cross Arrow as float64, as JSON writes them)."""
    if isinstance(expected, float):
        return math.isclose(found, expected, rel_tol=1e-6)
    if isinstance(expected, dict):
        return found.keys() == expected.keys() and all(close(found[k], expected[k]) for k in expected)
    if isinstance(expected, list):
        return len(found) == len(expected) and all(close(f, e) for f, e in zip(found, expected, strict=True))
    return found == expected


def test_text_rows_are_labeled_as_srl_zoo_load_labels_them(local_ray, predicate_model_archive, tmp_path):
    rows = [{"id": i, "text": text} for i, text in enumerate(TEXTS)] + [{"id": len(TEXTS), "text": None}]
    dataset = ray.data.from_items(rows, override_num_blocks=2)
    labeled = label_dataset(dataset, predicate_model_archive, actors=2, rows_per_call=2)
    found = sorted(labeled.take_all(), key=lambda row: row["id"])
    expected = list(srl_zoo.load(predicate_model_archive).pipe(TEXTS))
    assert [row["id"] for row in found] == list(range(len(rows)))
    for row, sentences in zip(found, expected, strict=False):
        assert row["error"] is None
        assert close(without_nulls(row["sentences"]), without_nulls(sentences)), row["id"]
    assert found[-1]["sentences"] == [] and found[-1]["error"] == "TypeError: row 0: the text is NoneType, not a string"
    assert any(frame["arguments"] for row in found for sentence in row["sentences"] for frame in sentence["frames"])

    labeled.write_parquet(str(tmp_path / "parquet"))
    table = pq.read_table(str(tmp_path / "parquet"))
    assert table.schema.field("sentences").type.value_type == SENTENCE_TYPE and table.num_rows == len(rows)
    labeled.write_json(str(tmp_path / "json"))
    folder = tmp_path / "json"
    written = [json.loads(line) for name in os.listdir(folder) for line in (folder / name).read_text().splitlines()]
    assert sorted(row["id"] for row in written) == list(range(len(rows)))


def test_tokens_rows_with_given_predicates(local_ray, predicate_model_archive):
    requests = [
        {"tokens": ["The", "dog", "chased", "the", "cat", "."], "predicates": [2]},
        {"tokens": ["Cats", "sleep", "."], "predicates": None},
        {"tokens": ["Cats", "sleep"], "predicates": [7]},  # no word 7: that row's error, not the job's
    ]
    rows = [{"id": i, **request} for i, request in enumerate(requests)]
    labeled = label_dataset(
        ray.data.from_items(rows), predicate_model_archive, tokens_column="tokens", predicates_column="predicates"
    )
    found = sorted(labeled.take_all(), key=lambda row: row["id"])
    labeler = srl_zoo.load(predicate_model_archive)
    given = [{"tokens": r["tokens"], **({"predicates": r["predicates"]} if r["predicates"] else {})} for r in requests]
    expected = labeler.label_tokenized(given[:2])
    for row, sentence in zip(found[:2], expected, strict=True):
        assert row["error"] is None and close(without_nulls(row["sentences"]), [without_nulls(sentence)])
    assert [frame["predicate"]["index"] for frame in found[0]["sentences"][0]["frames"]] == [2]
    assert found[2]["sentences"] == [] and "'predicates' must be a list of token indices" in found[2]["error"]


def test_an_over_long_row_and_an_unwritable_one_are_error_records_in_the_actor(predicate_model_archive):
    """In the actor itself (no Ray needed): a row over the line limit is never labeled (one such row once drove an
    actor to 18 GB), and a row whose text cannot be written as UTF-8 becomes its error, the others labeled."""
    import pyarrow as pa

    from srl_zoo.labeling.ray_data import RayLabeler

    actor = RayLabeler(predicate_model_archive, max_characters=1_000)
    batch = pa.table({"text": ["Dogs bark.", "word " * 400_000, "Cats sleep."]})
    errors = actor(batch).column("error").to_pylist()
    assert errors[0] is None and errors[2] is None
    assert errors[1] == "ValueError: row 0: 2,000,000 characters, over the limit of 1,000"
    by_tokens = RayLabeler(predicate_model_archive, tokens_column="tokens", max_characters=1_000)
    tokens = pa.table({"tokens": [["Dogs", "bark", "."], ["word"] * 400_000]})
    assert by_tokens(tokens).column("error").to_pylist() == [
        None, "ValueError: row 0: 2,000,000 characters, over the limit of 1,000"
    ]  # fmt: skip
    from srl_zoo.labeling.ray_data import _writable

    assert _writable([{"words": ["a\ud800"]}], None) == (
        [], "UnicodeEncodeError: the row's text cannot be written as UTF-8 (surrogates not allowed)"
    )  # fmt: skip
