"""Shares of a multi-process `srl-label` run, in one process: each share labels every W-th chunk
into its part, the merge gives byte for byte the one-process output, and a share killed at any
write resumes on its own."""

import os

import pytest

from srl_zoo.commands.srl_label import label_corpus
from srl_zoo.labeling import part_writer, shares
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.shares import Share, index_path, merge_parts, part_path
from tests.commands.conftest import write_corpus
from tests.commands.test_srl_label_robustness import Killed, kill_at

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

DOCUMENTS = [
    "Dogs bark.",
    "Birds sing and fly.",
    "",
    "The Senate confirmed them. It rained.",
    "Cats sleep.",
    "The old man repaired the fence.",
    "Bush nominated two judges.",
]


def one_process(labeler, source, tmp_path, output_format="json"):
    out = tmp_path / f"one-process.{output_format}"
    label_corpus(labeler, source, str(out), output_format=output_format, chunk_lines=2, progress=False)
    return out.read_bytes()


def test_share_owns_every_world_th_chunk():
    assert [n for n in range(7) if Share(1, 3).owns(n)] == [1, 4]
    assert all(Share().owns(n) for n in range(5)) and Share().name == "" and Share(1, 3).name == "1-of-3"


@pytest.mark.parametrize("world", [2, 3])
@pytest.mark.parametrize("output_format", ["json", "conll2005"])
def test_merged_shares_equal_one_process(labeler, tmp_path, world, output_format):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    out = str(tmp_path / "out")
    counts = [
        label_corpus(
            labeler, source, out, output_format=output_format, chunk_lines=2, progress=False, share=Share(rank, world)
        )
        for rank in range(world)
    ]
    assert sum(c["lines"] for c in counts) == 6  # 4 chunks of 2 non-blank lines (the last holds 0)
    for rank in range(world):
        assert os.path.exists(part_path(out, Share(rank, world)))
    assert merge_parts(out, world).complete
    with open(out, "rb") as merged:
        assert merged.read() == one_process(labeler, source, tmp_path, output_format)
    assert not any(os.path.exists(part_path(out, Share(rank, world))) for rank in range(world))
    # a finished merge is left alone by every share
    assert label_corpus(labeler, source, out, output_format=output_format, chunk_lines=2, share=Share(1, world))[
        "complete"
    ]


def test_merge_refuses_an_unfinished_part(labeler, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    out = str(tmp_path / "out.jsonl")
    label_corpus(labeler, source, out, chunk_lines=2, progress=False, share=Share(0, 2))
    with pytest.raises(LabelRunError, match=r"out.jsonl.part1-of-2 is not complete"):
        merge_parts(out, 2)
    assert not os.path.exists(out)


def test_resuming_a_share_with_other_chunking_or_world_is_refused(labeler, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    out = str(tmp_path / "out.jsonl")
    with pytest.MonkeyPatch.context() as patch:
        kill_at(patch, 3, half=False)  # share 0 dies after its first chunk
        with pytest.raises(Killed):
            label_corpus(labeler, source, out, chunk_lines=2, progress=False, share=Share(0, 2))
    with pytest.raises(LabelRunError, match="lines per chunk"):
        label_corpus(labeler, source, out, chunk_lines=3, progress=False, share=Share(0, 2))


def test_a_one_process_run_left_unfinished_is_not_taken_over(labeler, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    out = str(tmp_path / "out.jsonl")
    with pytest.MonkeyPatch.context() as patch:
        kill_at(patch, 3, half=False)
        with pytest.raises(Killed):
            label_corpus(labeler, source, out, chunk_lines=2, progress=False)
    with pytest.raises(LabelRunError, match="unfinished one-process run"):
        label_corpus(labeler, source, out, chunk_lines=2, progress=False, share=Share(0, 2))


def kill_index_at(monkeypatch, event: int) -> None:
    """Kill the share at its `event`-th index write (0-based), after writing half of the entry."""
    seen = []
    real = shares.append_index

    def append(index, number, size):
        seen.append(1)
        if len(seen) - 1 == event:
            index.write(f"{number} {size}\n".encode()[:3])
            index.flush()
            raise Killed()
        real(index, number, size)

    monkeypatch.setattr(part_writer, "append_index", append)


@pytest.mark.parametrize("half", [False, True], ids=["before-write", "mid-write"])
def test_a_share_killed_at_any_write_resumes_to_the_one_process_output(labeler, tmp_path, half):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    expected = one_process(labeler, source, tmp_path)
    # share 1 of 2 holds chunks 1 and 3 (the last, empty): progress(start), then per chunk append, progress
    kills = [("write", event) for event in range(5)] + [("index", event) for event in range(2)]
    for kind, event in kills:
        out = str(tmp_path / f"out-{kind}{event}")
        with pytest.MonkeyPatch.context() as patch:
            if kind == "write":
                kill_at(patch, event, half)
            else:
                kill_index_at(patch, event)
            with pytest.raises(Killed):
                label_corpus(labeler, source, out, chunk_lines=2, progress=False, share=Share(1, 2))
        for rank in range(2):
            label_corpus(labeler, source, out, chunk_lines=2, progress=False, share=Share(rank, 2))
        merge_parts(out, 2)
        with open(out, "rb") as merged:
            assert merged.read() == expected, f"killed at {kind} {event}"
        assert not os.path.exists(index_path(part_path(out, Share(1, 2))))
