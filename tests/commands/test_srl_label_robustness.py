"""`srl-label` on hostile input and interrupted or concurrent runs: poison lines are skipped with
FILE:LINE, a resume that does not match is refused, a second run on one output fails at once, and a
kill at any point resumes to byte-identical output."""

import json
import logging
import os

import pytest

from srl_zoo.commands.srl_label import label_corpus
from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.labeling import corpus, part_writer
from srl_zoo.labeling import progress as corpus_progress
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.progress import OutputLock, progress_path
from tests.commands.conftest import write_corpus

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

DOCUMENTS = ["Dogs bark.", "Birds sing and fly.", "", "The Senate confirmed them.", "It rained.", "Cats sleep."]


def test_poison_lines_are_skipped_with_file_and_line(labeler, tmp_path, caplog):
    source = write_corpus(
        tmp_path / "in.jsonl",
        [
            json.dumps({"text": "Dogs bark."}),
            '{"text": "\\ud800 lone surrogate"}',
            "[" * 100_000 + "]" * 100_000,
            json.dumps({"tokens": ["Cats", "sleep"], "predicates": [True]}),
            json.dumps({"tokens": ["Cats", "sleep"], "heads": [False, 1]}),
            json.dumps({"tokens": ["Cats", "sleep"], "predicates": [1]}),
        ],
    )
    out = tmp_path / "out.jsonl"
    with caplog.at_level(logging.WARNING):
        counts = label_corpus(labeler, source, str(out), progress=False)
    assert counts["skipped"] == 4 and counts["lines"] == 2
    assert f"{source}:2: not valid Unicode text (surrogates not allowed" in caplog.text
    assert f"{source}:3: " in caplog.text
    assert f"{source}:4: 'predicates' must be" in caplog.text
    assert f"{source}:5: 'heads' must be" in caplog.text
    assert [json.loads(line)["line"] for line in out.read_text(encoding="utf-8").splitlines()] == [1, 6]
    # the run finished (and tidied its progress record) in spite of them
    assert not os.path.exists(str(out) + ".progress")


def test_any_error_while_labeling_one_line_skips_only_that_line(labeler, tmp_path, monkeypatch, caplog):
    source = write_corpus(tmp_path / "corpus.txt", ["Dogs bark.", "Birds explode here.", "Cats sleep."])
    real = labeler.label_batch

    def fragile(batch):  # the model fails on any batch holding "explode"
        if any("explode" in words for words in batch.words):
            raise RuntimeError("the model broke")
        return real(batch)

    monkeypatch.setattr(labeler, "label_batch", fragile)
    out = tmp_path / "out.jsonl"
    with caplog.at_level(logging.WARNING):
        counts = label_corpus(labeler, source, str(out), progress=False)
    assert counts["skipped"] == 1
    assert f"{source}:2: RuntimeError: the model broke" in caplog.text
    assert [json.loads(line)["line"] for line in out.read_text().splitlines()] == [1, 3]


def reference_output(labeler, tmp_path, source, output_format="json"):
    reference = tmp_path / f"reference.{output_format}"
    label_corpus(labeler, source, str(reference), output_format=output_format, chunk_lines=2, progress=False)
    return reference.read_bytes()


def test_resume_with_another_input_or_format_is_refused(labeler, tmp_path, monkeypatch):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    other = write_corpus(tmp_path / "other.txt", DOCUMENTS)
    out = tmp_path / "out.jsonl"
    with monkeypatch.context() as patch:
        kill_at(patch, 3, half=False)  # killed before its second chunk: an unfinished run of 4 lines (3 not blank)
        with pytest.raises(Killed):
            label_corpus(labeler, source, str(out), chunk_lines=3, progress=False)
    before = out.read_bytes()
    with pytest.raises(LabelRunError, match="it was made from .*corpus.txt"):
        label_corpus(labeler, other, str(out), chunk_lines=2, progress=False)
    with pytest.raises(LabelRunError, match="it wrote 'json' output, not 'conll2005'"):
        label_corpus(labeler, source, str(out), output_format="conll2005", progress=False)
    write_corpus(tmp_path / "corpus.txt", ["Cows moo."] + DOCUMENTS[1:])
    with pytest.raises(LabelRunError, match="first 4 lines changed"):
        label_corpus(labeler, source, str(out), chunk_lines=3, progress=False)
    assert out.read_bytes() == before
    # --overwrite starts over
    label_corpus(labeler, source, str(out), chunk_lines=2, overwrite=True, progress=False)
    assert json.loads(out.read_text().splitlines()[0])["sentences"][0]["text"] == "Cows moo."


def test_a_second_run_on_the_same_output_fails_at_once(labeler, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    out = tmp_path / "out.jsonl"
    with (
        OutputLock(str(out)),  # another run holds the output
        pytest.raises(LabelRunError, match="another srl-label run is writing this output"),
    ):
        label_corpus(labeler, source, str(out), progress=False)
    assert not out.exists()
    label_corpus(labeler, source, str(out), progress=False)  # free again once that run ends


class Killed(BaseException):
    """Stands for SIGKILL: not an Exception, so nothing on the way catches it."""


def kill_at(monkeypatch, event: int, half: bool) -> None:
    """Kill the run at its `event`-th write (0-based; output appends and progress records counted
    together), after writing half of that write's bytes when `half`, else before it."""
    seen = []
    real_append = part_writer.append_output
    real_progress = corpus_progress.write_progress

    def append(sink, data):
        seen.append("append")
        if len(seen) - 1 == event:
            if half:
                sink.write(data[: len(data) // 2])
                sink.flush()
            raise Killed()
        real_append(sink, data)

    def progress(output_file, record):
        seen.append("progress")
        if len(seen) - 1 == event:
            if half:
                with atomic_write(progress_path(output_file)) as handle:
                    handle.write('{"version": 2, "lines_con')
                    raise Killed()  # before the rename: a real kill leaves the temporary file behind
            raise Killed()
        real_progress(output_file, record)

    monkeypatch.setattr(part_writer, "append_output", append)
    for module in (corpus, part_writer):  # the first record (corpus), then one per chunk (part_writer)
        monkeypatch.setattr(module, "write_progress", progress)


@pytest.mark.parametrize("half", [False, True], ids=["before-write", "mid-write"])
@pytest.mark.parametrize("output_format", ["json", "conll2005"])
def test_a_kill_at_any_point_resumes_to_identical_output(labeler, tmp_path, monkeypatch, half, output_format):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    expected = reference_output(labeler, tmp_path, source, output_format)
    events = 7  # progress(start), then append + progress for each of the 3 chunks
    for event in range(events):
        out = tmp_path / f"out{event}"
        with monkeypatch.context() as patch:
            kill_at(patch, event, half)
            with pytest.raises(Killed):
                label_corpus(labeler, source, str(out), output_format=output_format, chunk_lines=2, progress=False)
        label_corpus(labeler, source, str(out), output_format=output_format, chunk_lines=2, progress=False)
        assert out.read_bytes() == expected, f"kill at write {event}"


def test_a_kill_while_labeling_the_first_chunk_resumes(labeler, tmp_path, monkeypatch):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    expected = reference_output(labeler, tmp_path, source)
    out = tmp_path / "out.jsonl"

    def killed(*args, **kwargs):
        raise Killed()

    with monkeypatch.context() as patch:
        patch.setattr(corpus, "label_prepared", killed)
        with pytest.raises(Killed):
            label_corpus(labeler, source, str(out), chunk_lines=2, progress=False)
    assert label_corpus(labeler, source, str(out), chunk_lines=2, progress=False)["resumed_from_line"] is None
    assert out.read_bytes() == expected


def test_a_full_disk_is_one_line_naming_the_output_and_a_rerun_finishes_it(labeler, tmp_path, monkeypatch):
    """The disk fills while the second chunk is written (half of it reached the file): one `LabelRunError` naming
    the output; run again once there is room, the output is byte-identical to an uninterrupted run."""
    import errno

    from srl_zoo.commands.expected_errors import one_line

    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    reference = reference_output(labeler, tmp_path, source)
    out = tmp_path / "out.jsonl"
    real_append = part_writer.append_output
    appends = []

    def full_disk(sink, data):
        appends.append(len(data))
        if len(appends) == 2:
            sink.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        real_append(sink, data)

    with monkeypatch.context() as patch:
        patch.setattr(part_writer, "append_output", full_disk)
        with pytest.raises(LabelRunError) as stopped:
            label_corpus(labeler, source, str(out), chunk_lines=2, progress=False)
    assert one_line(stopped.value) == str(stopped.value)
    assert str(stopped.value).startswith(f"{out}: cannot write (No space left on device): the output is kept")
    assert os.path.exists(progress_path(str(out)))
    counts = label_corpus(labeler, source, str(out), chunk_lines=2, progress=False)
    assert counts["resumed_from_line"] == 3
    assert out.read_bytes() == reference


def test_a_binary_file_is_refused_before_the_model_loads(tmp_path):
    from srl_zoo.labeling.corpus import checked_input_format

    binary = tmp_path / "model.bin"
    binary.write_bytes(b"first line\nsecond\x00\x01\x02 line\n" + bytes(range(256)) * 10)
    with pytest.raises(LabelRunError, match=rf"^{binary}:2: not a text file \(a NUL byte\)"):
        checked_input_format(str(binary), None, "json")


def test_a_file_no_line_of_which_can_be_labeled_fails_in_one_line_after_a_few(labeler, tmp_path, caplog):
    """Latin-1 text (no NUL byte, no line UTF-8): the first skipped lines are told, the rest counted; the run
    fails naming how many and the first, and leaves no output."""
    source = tmp_path / "latin1.txt"
    source.write_bytes("Caf\u00e9 cr\u00e8me \u00e0 la gare.\n".encode("latin-1") * 45)
    out = tmp_path / "out.jsonl"
    with caplog.at_level(logging.WARNING), pytest.raises(LabelRunError) as failed:
        label_corpus(labeler, str(source), str(out), progress=False)
    assert str(failed.value) == (
        f"{source}: nothing could be labeled: all 45 lines were skipped, the first at {source}:1: invalid UTF-8 at "
        "byte 3 of the line"
    )
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == part_writer.SHOWN_SKIPPED_LINES + 1
    assert not out.exists() and not os.path.exists(progress_path(str(out)))


def test_a_line_over_the_limit_is_told_in_the_runs_words(labeler, tmp_path, caplog):
    long_line = "Dogs bark " * 10
    source = write_corpus(tmp_path / "corpus.txt", ["Cats sleep.", long_line])
    out = tmp_path / "out.jsonl"
    with caplog.at_level(logging.WARNING):
        counts = label_corpus(labeler, source, str(out), progress=False, max_line_characters=50)
    assert counts["skipped"] == 1 and counts["lines"] == 1
    assert (
        f"{source}:2: 100 characters, more than the 50 a line may have (--max-line-characters raises the limit)"
        in caplog.text
    )
    assert label_corpus(labeler, source, str(tmp_path / "all.jsonl"), progress=False)["lines"] == 2


def test_a_text_longer_than_spacys_bound_is_split_all_the_same():
    from srl_zoo.front.text import blank_pipeline, split_sentences

    nlp = blank_pipeline("en")
    nlp.max_length = 30
    assert [words for words, _ in split_sentences(nlp, "Dogs bark. " * 5)] == [["Dogs", "bark", "."]] * 5


def test_unknown_fields_of_a_jsonl_line_are_refused_as_the_service_refuses_them(labeler, tmp_path, caplog):
    source = write_corpus(
        tmp_path / "in.jsonl",
        [
            json.dumps({"tokens": ["Cats", "sleep"], "extra": 1}),
            json.dumps({"text": "Dogs bark.", "predicates": [0]}),
            json.dumps({"tokens": ["Cats", "sleep"], "predicates": [1], "pos": ["NNS", "VBP"]}),
        ],
    )
    with caplog.at_level(logging.WARNING):
        counts = label_corpus(labeler, source, str(tmp_path / "out.jsonl"), progress=False)
    assert counts["skipped"] == 2 and counts["lines"] == 1
    assert f"{source}:1: unknown fields ['extra']: expected 'text' (or 'sentence'), or 'tokens'" in caplog.text
    assert f"{source}:2: unknown fields ['predicates']" in caplog.text
