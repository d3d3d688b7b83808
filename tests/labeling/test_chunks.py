"""The input as chunks: lines or (CoNLL) sentence blocks, hashes that match the prefix they cover,
and a resumed reading that gives the same chunks as an uninterrupted one (hypothesis)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.commands.srl_label import label_corpus
from srl_zoo.data.formats.io_utils import iter_lines
from srl_zoo.labeling.chunks import BadLine, read_chunks
from srl_zoo.labeling.progress import prefix_sha256
from tests.conftest import fixture_path
from tests.data.test_format_detection import the_same_frames_in_conll2012

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

LINES = st.lists(st.sampled_from(["", "  ", "a b", "c", "#begin document (x); part 000", "#end document", "d e f"]))


def expected_items(lines, blocks):
    items, block = [], []
    for number, text in enumerate(lines, start=1):
        separator = not text.strip() or (blocks and text.startswith(("#begin document", "#end document")))
        if blocks and not separator:
            block.append((number, text))
        elif blocks and block:
            items.append((block[0][0], "\n".join(t for _, t in block)))
            block = []
        elif not blocks and not separator:
            items.append((number, text))
    if block:
        items.append((block[0][0], "\n".join(t for _, t in block)))
    return items


@settings(max_examples=150, deadline=None)
@given(lines=LINES, size=st.integers(1, 4), blocks=st.booleans(), cut=st.integers(0, 10))
def test_chunks_cover_the_input_and_resume_anywhere_a_chunk_ends(tmp_path_factory, lines, size, blocks, cut):
    path = str(tmp_path_factory.mktemp("chunks") / "input.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in lines))
    chunks = list(read_chunks(path, 0, size, blocks=blocks))
    assert [item for chunk in chunks for item in chunk.lines] == expected_items(lines, blocks)
    assert chunks[-1].at_end and not any(chunk.at_end for chunk in chunks[:-1])
    assert [chunk.number for chunk in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert len(chunk.lines) == size or chunk.at_end
        assert chunk.sha256 == prefix_sha256(path, chunk.consumed)
    resume_after = chunks[min(cut, len(chunks) - 1)]
    if not resume_after.at_end:  # resuming after it gives the rest, numbered on
        rest = list(read_chunks(path, resume_after.consumed, size, resume_after.number + 1, blocks))
        assert rest == chunks[resume_after.number + 1 :]


def test_a_sentence_with_bad_utf8_is_one_bad_item(tmp_path):
    path = tmp_path / "in.conll"
    path.write_bytes(b"a 1\nb \xff\n\nc 2\n")
    (chunk,) = list(read_chunks(str(path), 0, 5, blocks=True))
    assert isinstance(chunk.lines[0][1], BadLine) and "in.conll:2: invalid UTF-8" in str(chunk.lines[0][1])
    assert chunk.lines[1] == (4, "c 2")


def test_a_conll_file_is_labeled_at_its_predicates_whatever_its_format(labeler, tmp_path):
    sources = {
        "conll2005": fixture_path("conll2005", "sample.txt"),
        "conll2012": the_same_frames_in_conll2012(tmp_path),
    }
    labeled = {}
    for name, source in sources.items():
        out = tmp_path / f"{name}.jsonl"
        label_corpus(labeler, source, str(out), input_format="conll", chunk_lines=2, progress=False)
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        labeled[name] = [sentence for record in records for sentence in record["sentences"]]
    assert labeled["conll2005"] == labeled["conll2012"]
    from srl_zoo.data.formats import read_conll2005

    gold = list(read_conll2005(sources["conll2005"]))
    assert len(labeled["conll2005"]) == len(gold)
    for sentence, expected in zip(labeled["conll2005"], gold, strict=False):
        assert sentence["words"] == expected.tokens
        assert [frame["predicate"]["index"] for frame in sentence["frames"]] == [f.index for f in expected.frames]


def test_a_lone_carriage_return_ends_a_line_in_the_corpus_labeler_as_in_the_readers(tmp_path):
    path = tmp_path / "old_mac.txt"
    path.write_bytes(b"first line\rsecond line\r\nthird line\n")
    assert [text for _, text in iter_lines(str(path))] == ["first line", "second line", "third line"]
    (chunk,) = read_chunks(str(path), skip=0, size=10)
    assert chunk.lines == [(1, "first line"), (2, "second line"), (3, "third line")]
