"""`srl-label` under torchrun: 2 gloo processes write byte for byte what one process writes, and a
process killed mid-run resumes, with the other, to the same output."""

import json
import os
import subprocess
import sys

import pytest

from srl_zoo.commands.srl_label import label_corpus
from srl_zoo.labeling.shares import Share, part_path
from tests.commands.conftest import write_corpus
from tests.commands.test_srl_label_robustness import Killed, kill_at

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

DOCUMENTS = [f"Dog {i} barks loudly. The cat sleeps." if i % 2 else "Birds sing and fly." for i in range(11)]


def torchrun_label(archive: str, source: str, out: str, cwd) -> dict:
    """Run `srl-zoo label` on 2 gloo processes (from `cwd`); rank 0's summary."""
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2"]
    command += ["-m", "srl_zoo.cli", "label", archive, source, "-o", out, "--chunk-lines", "2", "--no-progress"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    finished = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr[-3000:]
    summaries = [json.loads(line) for line in finished.stdout.splitlines() if line.startswith("{")]
    assert len(summaries) == 1, finished.stdout  # rank 0 prints the summary of all processes
    return summaries[0]


def test_two_gloo_processes_equal_one_and_resume_after_a_kill(labeler, predicate_model_archive, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    reference = tmp_path / "one.jsonl"
    label_corpus(labeler, source, str(reference), chunk_lines=2, progress=False)

    out = str(tmp_path / "two.jsonl")
    summary = torchrun_label(predicate_model_archive, source, out, cwd=tmp_path)
    assert summary["processes"] == 2 and summary["lines"] == len(DOCUMENTS)
    assert summary["resumed_from_line"] == [None, None]
    with open(out, "rb") as merged:
        assert merged.read() == reference.read_bytes()
    assert not os.path.exists(part_path(out, Share(0, 2)))

    # process 1 of a second run is killed in the middle of writing its second chunk; process 0 never ran
    killed = str(tmp_path / "killed.jsonl")
    with pytest.MonkeyPatch.context() as patch:
        kill_at(patch, 3, half=True)
        with pytest.raises(Killed):
            label_corpus(labeler, source, killed, chunk_lines=2, progress=False, share=Share(1, 2))
    summary = torchrun_label(predicate_model_archive, source, killed, cwd=tmp_path)
    assert summary["resumed_from_line"] == [None, 5]  # process 1 went on after its first chunk (lines 3-4)
    with open(killed, "rb") as merged:
        assert merged.read() == reference.read_bytes()
