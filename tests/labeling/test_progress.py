"""Progress records: one written before the torchrun parts were retired still resumes a one-process run; a part
of a torchrun run is refused with what to do instead."""

import json

import pytest

from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.progress import PROGRESS_VERSION, progress_path, read_progress

RECORD = {
    "input_file": "/data/corpus.txt", "input_format": "text", "output_format": "json", "lines_consumed": 256,
    "consumed_sha256": "0" * 64, "output_bytes": 1000, "complete": False, "input_size": 5000,
    "version": PROGRESS_VERSION, "chunks_consumed": 1,
}  # fmt: skip


def test_a_one_process_record_with_the_retired_fields_resumes(tmp_path):
    output = str(tmp_path / "out.jsonl")
    with open(progress_path(output), "w", encoding="utf-8") as handle:
        json.dump({**RECORD, "index_bytes": 0, "share": "", "chunk_lines": 0}, handle)
    record = read_progress(output)
    assert record is not None and record.lines_consumed == 256 and record.output_bytes == 1000


def test_a_part_of_a_torchrun_run_is_refused(tmp_path):
    output = str(tmp_path / "out.jsonl.part1-of-2")
    with open(progress_path(output), "w", encoding="utf-8") as handle:
        json.dump({**RECORD, "index_bytes": 12, "share": "1-of-2", "chunk_lines": 256}, handle)
    with pytest.raises(LabelRunError, match=r"a part of a torchrun run, .*--ray.*pass --overwrite"):
        read_progress(output)
