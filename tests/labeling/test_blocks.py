"""The blocks of a Ray run, without Ray: a file cut into blocks gives back every line once, numbered as the whole
file numbers it (any line ends); the manifest refuses another run's folder; a block's output is written once."""

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.data.formats.io_utils import numbered_raw_lines
from srl_zoo.labeling.blocks import (
    ATTEMPTS,
    DIED_IN,
    MANIFEST,
    RunSettings,
    label_block,
    manifest_of,
    plan_blocks,
    prepare_output,
    read_block,
)
from srl_zoo.labeling.chunks import BadLine, line_items
from srl_zoo.labeling.corpus import label_corpus
from srl_zoo.labeling.errors import LabelRunError
from tests.commands.conftest import write_corpus

LINE = st.binary(max_size=12).map(lambda raw: raw.replace(b"\r", b"").replace(b"\n", b""))
ENDING = st.sampled_from([b"\n", b"\r\n", b"\r"])


@settings(max_examples=80, deadline=None)
@given(lines=st.lists(st.tuples(LINE, ENDING), max_size=30), last=LINE, block_lines=st.integers(1, 7))
def test_blocks_give_every_line_once_as_the_whole_file_numbers_it(tmp_path_factory, lines, last, block_lines):
    path = tmp_path_factory.mktemp("blocks") / "corpus.txt"
    path.write_bytes(b"".join(line + ending for line, ending in lines) + last)
    blocks = plan_blocks(str(path), "text", block_lines)
    found = [item for block in blocks for item in read_block(block, "text").lines]
    expected = line_items(numbered_raw_lines(str(path)), str(path))
    as_values = [(number, str(line) if isinstance(line, BadLine) else line) for number, line in found]
    assert as_values == [(number, str(line) if isinstance(line, BadLine) else line) for number, line in expected]
    assert [block.start for block in blocks[1:]] == [block.end for block in blocks[:-1]]
    assert all(block.end - block.start >= 0 for block in blocks)


def test_a_folder_is_its_files_in_name_order_without_hidden_ones(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "b").mkdir(parents=True)
    write_corpus(folder / "b" / "two.txt", ["x", "y", "z"])
    write_corpus(folder / "a.txt", ["w"])
    write_corpus(folder / "_SUCCESS", ["not input"])
    write_corpus(folder / ".hidden.txt", ["not input"])
    blocks = plan_blocks(str(folder), "text", 2)
    assert [(block.name, block.first_line) for block in blocks] == [
        ("a.txt.00000", 1),
        ("b/two.txt.00000", 1),
        ("b/two.txt.00001", 3),
    ]
    with pytest.raises(LabelRunError, match="no such file or folder"):
        plan_blocks(str(tmp_path / "missing"), "text", 2)


def test_parquet_row_groups_are_blocks_of_jsonl_lines(tmp_path):
    table = pa.table({"id": [7, 8, 9], "text": ["Dogs bark.", None, "Cats sleep."]})
    pq.write_table(table, tmp_path / "rows.parquet", row_group_size=2)
    blocks = plan_blocks(str(tmp_path / "rows.parquet"), "parquet", 100)
    assert [(block.start, block.first_line) for block in blocks] == [(0, 1), (1, 3)]
    lines = [read_block(block, "parquet").lines for block in blocks]
    assert lines == [[(1, '{"text": "Dogs bark."}'), (2, "{}")], [(3, '{"text": "Cats sleep."}')]]


def test_a_folder_of_another_run_or_other_files_is_refused(tmp_path):
    corpus = write_corpus(tmp_path / "corpus.txt", ["a", "b", "c"])
    settings_ = RunSettings("text", "json")
    output = str(tmp_path / "out")
    first = manifest_of(plan_blocks(corpus, "text", 2), settings_, "model.tar.gz", corpus)
    assert prepare_output(output, first, overwrite=False) == []
    assert json.loads((tmp_path / "out" / MANIFEST).read_text()) == first
    (tmp_path / "out" / "corpus.txt.00000.jsonl").write_text("{}\n")
    assert prepare_output(output, first, overwrite=False) == ["corpus.txt.00000"]  # the same run: resumed
    other = manifest_of(plan_blocks(corpus, "text", 1), settings_, "model.tar.gz", corpus)
    with pytest.raises(
        LabelRunError, match=r"another input \(its lines or bytes differ\); nothing was labeled: pass --restart"
    ):
        prepare_output(output, other, overwrite=False)
    assert prepare_output(output, other, overwrite=True) == []  # the earlier run's outputs removed
    assert not (tmp_path / "out" / "corpus.txt.00000.jsonl").exists()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "notes.txt").write_text("mine")
    with pytest.raises(LabelRunError, match="a folder of other files"):
        prepare_output(str(tmp_path / "elsewhere"), first, overwrite=False)


def test_a_block_labeled_as_the_one_process_run_labels_its_lines(labeler, tmp_path):
    lines = ["Dogs bark loudly.", "", "The cat sleeps. Birds sing.", "x" * 50, "Dogs bark."]
    corpus = write_corpus(tmp_path / "corpus.txt", lines)
    reference = tmp_path / "one.jsonl"
    label_corpus(labeler, corpus, str(reference), chunk_lines=5, progress=False, max_line_characters=40)
    (block,) = plan_blocks(corpus, "text", 10)
    settings_ = RunSettings("text", "json", batch_size=labeler.batch_size, max_line_characters=40)
    counts = label_block(labeler, block, settings_, str(tmp_path / "out"))
    assert counts == {
        "block": "corpus.txt.00000", "lines": 3, "sentences": 4, "tokens": 14, "errors": 1, "written": True,
    }  # fmt: skip
    written = (tmp_path / "out" / "corpus.txt.00000.jsonl").read_bytes().splitlines(keepends=True)
    error = json.loads(written.pop(2))
    assert error == {"line": 4, "error": error["error"]} and "50 characters, more than the 40" in error["error"]
    assert b"".join(written) == reference.read_bytes()
    os.utime(tmp_path / "out" / "corpus.txt.00000.jsonl", (0, 0))
    again = label_block(labeler, block, settings_, str(tmp_path / "out"))
    assert again["written"] is False and os.path.getmtime(tmp_path / "out" / "corpus.txt.00000.jsonl") == 0


def _two_models(tmp_path) -> tuple[str, str]:
    """Two files standing for two model archives at one path's turn: their bytes differ."""
    first, second = tmp_path / "first.tar.gz", tmp_path / "second.tar.gz"
    first.write_bytes(b"one model")
    second.write_bytes(b"another model")
    return str(first), str(second)


def test_a_rerun_with_another_model_at_the_same_path_is_refused(tmp_path):
    corpus = write_corpus(tmp_path / "corpus.txt", ["a", "b", "c"])
    first, second = _two_models(tmp_path)
    model = str(tmp_path / "model.tar.gz")
    os.replace(_copy(first, tmp_path), model)
    settings_ = RunSettings("text", "json")
    output = str(tmp_path / "out")
    prepare_output(output, manifest_of(plan_blocks(corpus, "text", 2), settings_, model, corpus), overwrite=False)
    os.replace(_copy(second, tmp_path), model)  # another model copied to the archive's path
    again = manifest_of(plan_blocks(corpus, "text", 2), settings_, model, corpus)
    with pytest.raises(LabelRunError, match=r"another model \(its bytes differ\); nothing was labeled"):
        prepare_output(output, again, overwrite=False)
    other_precision = manifest_of(plan_blocks(corpus, "text", 2), settings_, model, corpus, {"precision": "int8"})
    assert prepare_output(output, again, overwrite=True) == []
    with pytest.raises(LabelRunError, match="another precision or scores"):
        prepare_output(output, other_precision, overwrite=False)


def _copy(source: str, folder) -> str:  # type: ignore[no-untyped-def]
    target = folder / f"copy-{os.path.basename(source)}"
    with open(source, "rb") as handle:
        target.write_bytes(handle.read())
    return str(target)


def test_a_rerun_with_a_line_changed_at_the_same_length_is_refused(tmp_path):
    corpus = write_corpus(tmp_path / "corpus.txt", ["line one", "line two", "line six", "line ten", "line end"])
    settings_ = RunSettings("text", "json")
    output = str(tmp_path / "out")
    blocks = plan_blocks(corpus, "text", 2)
    prepare_output(output, manifest_of(blocks, settings_, "model.tar.gz", corpus), overwrite=False)
    write_corpus(tmp_path / "corpus.txt", ["line one", "line two", "line six", "line ten", "LINE END"])
    with pytest.raises(LabelRunError, match="another input"):
        prepare_output(output, manifest_of(plan_blocks(corpus, "text", 2), settings_, "model.tar.gz", corpus), False)
    with pytest.raises(LabelRunError, match=r"corpus.txt: lines 5\.\. changed since this run was planned"):
        read_block(blocks[-1], "text")  # a block planned before the change is not labeled from the new text
    assert read_block(blocks[0], "text").lines == [(1, "line one"), (2, "line two")]


def test_an_actor_given_another_model_than_the_manifests_labels_nothing(tmp_path):
    from srl_zoo.labeling.ray_corpus import BlockLabeler

    first, second = _two_models(tmp_path)
    settings_ = {"input_format": "text", "output_format": "json"}
    actor = BlockLabeler(
        second,
        str(tmp_path / "out"),
        settings_,
        model_sha256=manifest_of([], RunSettings("text", "json"), first, "")["model_sha256"],
    )
    with pytest.raises(LabelRunError, match="the model archive changed since this run began"):
        actor(pa.table({"name": ["b.00000"]}))
    assert not (tmp_path / "out").exists()


def _bad_rows(path) -> str:  # type: ignore[no-untyped-def]
    """A Parquet file of four rows: good text, text that is not UTF-8, good text, a row with a timestamp `pos`."""
    import datetime

    text = pa.array([b"Dogs bark.", b"\xff\xfe bad", b"Cats sleep.", b"Birds sing."], pa.binary()).view(pa.string())
    pos = pa.array([None, None, None, datetime.datetime(2026, 1, 1)], pa.timestamp("s"))
    pq.write_table(pa.table({"text": text, "pos": pos}), path)
    return str(path)


def test_parquet_rows_that_cannot_be_read_are_error_records_not_a_failed_block(labeler, tmp_path):
    source = _bad_rows(tmp_path / "rows.parquet")
    (block,) = plan_blocks(source, "parquet", 100)
    settings_ = RunSettings("parquet", "json", batch_size=labeler.batch_size)
    counts = label_block(labeler, block, settings_, str(tmp_path / "out"))
    assert (counts["lines"], counts["errors"]) == (2, 2)
    records = [json.loads(line) for line in (tmp_path / "out" / "rows.parquet.00000.jsonl").read_text().splitlines()]
    assert [record["line"] for record in records] == [1, 2, 3, 4]
    assert "column 'text': not UTF-8 text" in records[1]["error"]
    assert "row 4" in records[3]["error"] and "sentences" not in records[3]


def test_a_binary_text_column_is_an_error_per_row_and_no_column_is_refused_before_any_work(labeler, tmp_path):
    pq.write_table(pa.table({"text": pa.array([b"Dogs bark."], pa.binary())}), tmp_path / "binary.parquet")
    (block,) = plan_blocks(str(tmp_path / "binary.parquet"), "parquet", 100)
    ((number, line),) = read_block(block, "parquet").lines
    assert number == 1 and isinstance(line, BadLine) and "binary data, not text" in str(line)
    pq.write_table(pa.table({"body": ["Dogs bark."]}), tmp_path / "other.parquet")
    with pytest.raises(LabelRunError, match=r"other.parquet: no 'text' or 'tokens' column \(found \['body'\]\)"):
        plan_blocks(str(tmp_path / "other.parquet"), "parquet", 100)


def test_a_block_retried_after_its_actor_died_is_labeled_line_by_line_the_same(labeler, tmp_path):
    """An attempt that died (its record left behind) makes the next one label the block a line at a time, with the
    same records as the first, batched, attempt."""
    corpus = write_corpus(tmp_path / "corpus.txt", ["Dogs bark loudly.", "The cat sleeps. Birds sing.", "Dogs bark."])
    (block,) = plan_blocks(corpus, "text", 10)
    settings_ = RunSettings("text", "json", batch_size=labeler.batch_size)
    label_block(labeler, block, settings_, str(tmp_path / "first"))
    attempts = tmp_path / "again" / ATTEMPTS
    attempts.mkdir(parents=True)
    (attempts / f"{block.name}.json").write_text(json.dumps({"attempts": 1, "line": None}))
    label_block(labeler, block, settings_, str(tmp_path / "again"))
    first = (tmp_path / "first" / "corpus.txt.00000.jsonl").read_bytes()
    assert (tmp_path / "again" / "corpus.txt.00000.jsonl").read_bytes() == first
    assert os.listdir(attempts) == []  # the block is written: its record is gone


def test_the_line_an_actor_died_in_becomes_its_error_record(labeler, tmp_path):
    """An attempt that died on line 2 (the record names it): the next attempt leaves that line out as an error
    record and labels the others, so a line that kills its actor fails alone, not every retry of the run."""
    corpus = write_corpus(tmp_path / "corpus.txt", ["Dogs bark loudly.", "x " * 50, "Dogs bark."])
    (block,) = plan_blocks(corpus, "text", 10)
    settings_ = RunSettings("text", "json", batch_size=labeler.batch_size)
    attempts = tmp_path / "out" / ATTEMPTS
    attempts.mkdir(parents=True)
    (attempts / f"{block.name}.json").write_text(json.dumps({"attempts": 2, "line": 2}))
    counts = label_block(labeler, block, settings_, str(tmp_path / "out"))
    assert (counts["lines"], counts["errors"]) == (2, 1)
    records = [json.loads(line) for line in (tmp_path / "out" / "corpus.txt.00000.jsonl").read_text().splitlines()]
    assert [record["line"] for record in records] == [1, 2, 3]
    assert records[1] == {"line": 2, "error": f"{corpus}:2: {DIED_IN}"}
