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
    with pytest.raises(LabelRunError, match="an earlier run with another blocks: pass --overwrite"):
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
