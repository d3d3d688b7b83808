"""`allennlp srl-label`: corpus labeling, resuming after an interruption, malformed lines."""

import json
import logging
import os
from pathlib import Path

import pytest

from srl_zoo.commands.srl_label import label_corpus
from srl_zoo.labeling import corpus
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.progress import progress_path
from tests.commands.conftest import write_corpus
from tests.conftest import fixture_path

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

DOCUMENTS = [
    "President Bush nominated two individuals.  The Senate confirmed them.",
    "Dogs bark.",
    "",
    "Café owners in Zürich cheered the decision of the council on Tuesday.",
    "The old man who lives next door repaired the fence. It rained.",
    "Birds sing and fly.",
]


def test_text_corpus_to_json(labeler, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    out = tmp_path / "out.jsonl"
    counts = label_corpus(labeler, source, str(out), chunk_lines=2, progress=False)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in records] == [1, 2, 4, 5, 6]  # the blank line 3 has no record
    assert records[0]["sentences"] == labeler(DOCUMENTS[0])  # the same as the Python API
    assert counts == {"lines": 5, "sentences": 7, "skipped": 0, "resumed_from_line": None}


def test_resuming_after_an_interruption_gives_the_same_output(labeler, tmp_path, monkeypatch):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    reference = tmp_path / "reference.jsonl"
    label_corpus(labeler, source, str(reference), chunk_lines=2, progress=False)

    out = tmp_path / "out.jsonl"
    real = corpus.label_prepared
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the second chunk never gets written
        return real(*args, **kwargs)

    monkeypatch.setattr(corpus, "label_prepared", interrupted)
    with pytest.raises(KeyboardInterrupt):
        label_corpus(labeler, source, str(out), chunk_lines=2, progress=False)
    monkeypatch.setattr(corpus, "label_prepared", real)
    with open(out, "a", encoding="utf-8") as partial:
        partial.write('{"line": 4, "senten')  # a record cut off mid-write
    counts = label_corpus(labeler, source, str(out), chunk_lines=2, progress=False)
    assert counts["resumed_from_line"] == 3
    assert out.read_bytes() == reference.read_bytes()
    # a finished run tidies its progress record; its output is then left alone
    assert not os.path.exists(progress_path(str(out)))
    with pytest.raises(LabelRunError, match=r"out.jsonl exists and no unfinished run .* pass --overwrite"):
        label_corpus(labeler, source, str(out), progress=False)
    assert out.read_bytes() == reference.read_bytes()


def test_a_run_killed_after_its_last_chunk_is_tidied_by_the_rerun(labeler, tmp_path, monkeypatch):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    out = tmp_path / "out.jsonl"
    monkeypatch.setattr(corpus, "remove_progress", lambda path: None)  # killed before tidying up
    label_corpus(labeler, source, str(out), progress=False)
    assert os.path.exists(progress_path(str(out)))
    monkeypatch.undo()
    assert label_corpus(labeler, source, str(out), progress=False)["complete"] is True
    assert not os.path.exists(progress_path(str(out)))


def test_malformed_jsonl_line_is_reported_with_its_number_and_skipped(labeler, tmp_path, caplog):
    source = write_corpus(
        tmp_path / "in.jsonl",
        [
            json.dumps({"text": "Dogs bark."}),
            '{"text": "unterminated',
            json.dumps({"tokens": ["Cats", "sleep"], "predicates": [1]}),
            json.dumps({"tokens": ["Cats", "sleep"], "predicates": [7]}),
            json.dumps(["not", "an", "object"]),
        ],
    )
    out = tmp_path / "out.jsonl"
    with caplog.at_level(logging.WARNING):
        counts = label_corpus(labeler, source, str(out), progress=False)
    assert counts["skipped"] == 3
    assert f"{source}:2: not valid JSON" in caplog.text
    assert f"{source}:4: 'predicates' must be" in caplog.text
    assert f"{source}:5: expected a JSON object" in caplog.text
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in records] == [1, 3]
    assert records[1]["sentences"][0]["frames"][0]["predicate"]["word"] == "sleep"


def test_stop_on_error_keeps_what_was_written(labeler, tmp_path):
    source = tmp_path / "corpus.txt"
    source.write_bytes("Dogs bark.\nBirds sing.\nbad \xff byte\nCats sleep.\n".encode("latin-1"))
    out = tmp_path / "out.jsonl"
    with pytest.raises(ValueError, match=r"corpus.txt:3: invalid UTF-8"):
        label_corpus(labeler, str(source), str(out), on_error="stop", progress=False)
    assert [json.loads(line)["line"] for line in out.read_text().splitlines()] == [1, 2]
    # fixing the input and running again goes on from line 3
    source.write_text("Dogs bark.\nBirds sing.\nGood bytes.\nCats sleep.\n", encoding="utf-8")
    assert label_corpus(labeler, str(source), str(out), progress=False)["resumed_from_line"] == 3
    assert [json.loads(line)["line"] for line in out.read_text().splitlines()] == [1, 2, 3, 4]


def test_existing_output_without_progress_is_not_overwritten(labeler, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", ["Dogs bark."])
    out = tmp_path / "out.jsonl"
    out.write_text("precious\n")
    with pytest.raises(LabelRunError, match="--overwrite"):
        label_corpus(labeler, source, str(out), progress=False)
    assert out.read_text() == "precious\n"


@pytest.mark.parametrize("output_format", ["allennlp_models", "conll2005"])
def test_other_output_formats(labeler, tmp_path, output_format):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS[:2])
    out = tmp_path / "out.txt"
    label_corpus(labeler, source, str(out), output_format=output_format, progress=False)
    text = out.read_text(encoding="utf-8")
    if output_format == "allennlp_models":
        records = [json.loads(line) for line in text.splitlines()]
        assert all(set(s) == {"verbs", "words"} for r in records for s in r["sentences"])
    else:
        blocks = [b for b in text.split("\n\n") if b.strip()]
        assert len(blocks) == 3 and blocks[2].split("\n")[0].split()[0] == "Dogs"


def test_conll_rows_in_a_txt_file_are_refused_as_text(labeler, tmp_path):
    """A CoNLL-2012 file named `.txt` was labeled as lines of English (frames in column junk), exit 0."""
    source = tmp_path / "dev.txt"
    source.write_bytes(Path(fixture_path("conll2012", "sample.gold_conll")).read_bytes())
    with pytest.raises(LabelRunError, match=r"dev.txt looks like conll2012 rows, not text: pass --format conll"):
        label_corpus(labeler, str(source), str(tmp_path / "out.jsonl"), progress=False)
    assert not (tmp_path / "out.jsonl").exists()
    # asked for explicitly, the lines are text
    label_corpus(labeler, str(source), str(tmp_path / "out.jsonl"), input_format="text", progress=False)


def test_text_read_as_conll_is_refused_with_what_it_looks_like(labeler, tmp_path):
    """`--input-format conll2012` on plain text labeled nothing and left an empty output, exit 0."""
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    with pytest.raises(LabelRunError, match=r"does not look like conll2012: its first lines are not CoNLL rows"):
        label_corpus(labeler, source, str(tmp_path / "out.jsonl"), input_format="conll2012", progress=False)
    conll2005 = fixture_path("conll2005", "sample.txt")
    with pytest.raises(LabelRunError, match=r"does not look like conll2012: its first lines fit conll2005; pass "):
        label_corpus(labeler, conll2005, str(tmp_path / "out.jsonl"), input_format="conll2012", progress=False)
    assert not (tmp_path / "out.jsonl").exists()
