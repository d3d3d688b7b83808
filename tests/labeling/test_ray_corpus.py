"""`srl-zoo label --ray` on a local Ray of 2 CPUs (one for the module): its blocks hold the one-process run's
records (text, JSONL and Parquet in; JSONL and Parquet out), a bad row becomes an error record, an actor killed
mid-run costs nothing, and a rerun after the driver is killed labels only what is missing, to the same output."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import ray

from srl_zoo.labeling.blocks import MANIFEST, RunSettings
from srl_zoo.labeling.corpus import label_corpus
from srl_zoo.labeling.ray_corpus import RayRun, label_corpus_on_ray
from tests.commands.conftest import write_corpus
from tests.labeling.conftest import ray_in_this_process
from tests.labeling.test_ray_data import close, without_nulls

pytestmark = pytest.mark.slow  # starts a local Ray and loads a model in each actor

DOCUMENTS = [f"Dog {i} barks loudly. The cat sleeps." if i % 3 else "Birds sing and fly." for i in range(24)]
ACTOR = "MapWorker(MapBatches(BlockLabeler))"


@pytest.fixture(scope="module")
def local_ray():
    with ray_in_this_process(num_cpus=2):
        yield ray.get_runtime_context().gcs_address


def one_process_run(labeler, source: str, output: Path, chunk_lines: int) -> bytes:
    label_corpus(labeler, source, str(output), chunk_lines=chunk_lines, progress=False)
    return output.read_bytes()


def block_outputs(folder: Path, extension: str = ".jsonl") -> list[Path]:
    return sorted(path for path in folder.rglob("*" + extension) if not path.name.startswith("."))


def joined_records(folder: Path) -> tuple[bytes, list[dict]]:
    """The blocks' records in order: those of labeled lines (as bytes) and the error records."""
    labeled, errors = [], []
    for path in block_outputs(folder):
        for line in path.read_bytes().splitlines(keepends=True):
            (errors.append(json.loads(line)) if b'"error"' in line[:40] else labeled.append(line))
    return b"".join(labeled), errors


def same_records(found: bytes, expected: bytes) -> bool:
    """The same JSONL records, scores within float32 rounding (an actor's one thread sums in another order)."""
    return close(
        [json.loads(line) for line in found.splitlines()], [json.loads(line) for line in expected.splitlines()]
    )


def test_text_blocks_hold_the_one_process_records_and_bad_lines_as_errors(
    local_ray, labeler, predicate_model_archive, tmp_path
):
    source = tmp_path / "corpus.txt"
    source.write_bytes("".join(d + "\n" for d in DOCUMENTS[:9]).encode() + b"caf\xe9 au lait\n" + b"Dogs bark.\n")
    reference = one_process_run(labeler, str(source), tmp_path / "one.jsonl", chunk_lines=4)
    settings = RunSettings("", "json", batch_size=labeler.batch_size)
    totals = label_corpus_on_ray(
        predicate_model_archive, str(source), str(tmp_path / "out"), settings, RayRun(block_lines=4), progress=False
    )
    assert totals["blocks"] == 3 and totals["lines"] == 10 and totals["errors"] == 1 and totals["processes"] == 2
    labeled, errors = joined_records(tmp_path / "out")
    assert same_records(labeled, reference)
    assert errors == [{"line": 10, "error": f"{source}:10: invalid UTF-8 at byte 3 of the line"}]
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text())
    assert [block["name"] for block in manifest["blocks"]] == [
        "corpus.txt.00000",
        "corpus.txt.00001",
        "corpus.txt.00002",
    ]

    again = label_corpus_on_ray(
        predicate_model_archive, str(source), str(tmp_path / "out"), settings, RayRun(block_lines=4), progress=False
    )
    assert again["blocks_done_before"] == 3 and again["lines"] == 0  # complete: nothing labeled twice


def test_jsonl_to_parquet_and_parquet_to_jsonl(local_ray, labeler, predicate_model_archive, tmp_path):
    lines = [json.dumps({"text": d}) for d in DOCUMENTS[:6]]
    lines.append(json.dumps({"tokens": ["The", "dog", "chased", "the", "cat", "."], "predicates": [2]}))
    source = write_corpus(tmp_path / "corpus.jsonl", lines)
    reference = one_process_run(labeler, source, tmp_path / "one.jsonl", chunk_lines=3)
    expected = [json.loads(line) for line in reference.splitlines()]
    archive = predicate_model_archive
    to_parquet = RunSettings("", "parquet", batch_size=labeler.batch_size)
    label_corpus_on_ray(archive, source, str(tmp_path / "pq"), to_parquet, RayRun(block_lines=3), progress=False)
    rows = [row for path in block_outputs(tmp_path / "pq", ".parquet") for row in pq.read_table(path).to_pylist()]
    assert [row["line"] for row in rows] == [record["line"] for record in expected]
    for row, record in zip(rows, expected, strict=True):
        assert row["error"] is None and close(without_nulls(row["sentences"]), without_nulls(record["sentences"]))

    # the same requests as Parquet rows, two row groups (blocks), an id column left aside: the rows' records
    requests = [json.loads(line) for line in lines]
    table = pa.table(
        {
            "id": list(range(len(requests))),
            "text": [request.get("text") for request in requests],
            "tokens": [request.get("tokens") for request in requests],
            "predicates": [request.get("predicates") for request in requests],
        }
    )
    pq.write_table(table, tmp_path / "corpus.parquet", row_group_size=3)
    to_json = RunSettings("", "json", batch_size=labeler.batch_size)
    totals = label_corpus_on_ray(
        archive, str(tmp_path / "corpus.parquet"), str(tmp_path / "js"), to_json, progress=False
    )
    assert totals["blocks"] == 3 and totals["errors"] == 0
    labeled, _ = joined_records(tmp_path / "js")
    assert same_records(labeled, reference)


def actor_processes() -> list[int]:
    """The process ids of this machine's block-labeling Ray actors (their titles name the class)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                title = Path("/proc", entry, "cmdline").read_bytes()
            except OSError:
                continue
            if ACTOR.encode() in title:
                found.append(int(entry))
    return found


def wait_for(condition, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


def label_in_background(archive: str, source: str, output: Path, batch_size: int) -> tuple[threading.Thread, dict]:
    """A Ray run of one-line blocks started in a thread; its counts land in the dict as `totals`."""
    outcome: dict = {}
    settings = RunSettings("", "json", batch_size=batch_size)

    def run() -> None:
        outcome["totals"] = label_corpus_on_ray(
            archive, source, str(output), settings, RayRun(block_lines=1), progress=False
        )

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def test_an_actor_killed_mid_run_costs_no_line(local_ray, labeler, predicate_model_archive, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    reference = one_process_run(labeler, source, tmp_path / "one.jsonl", chunk_lines=1)
    thread, outcome = label_in_background(predicate_model_archive, source, tmp_path / "out", labeler.batch_size)
    wait_for(lambda: len(block_outputs(tmp_path / "out")) >= 1)
    victims = actor_processes()
    os.kill(victims[0], signal.SIGKILL)
    written_at_kill = len(block_outputs(tmp_path / "out"))
    thread.join(timeout=300)
    assert written_at_kill < len(DOCUMENTS), "the run ended before the kill: nothing was tested"
    assert outcome["totals"]["blocks"] == len(DOCUMENTS)
    labeled, errors = joined_records(tmp_path / "out")
    assert same_records(labeled, reference) and errors == []  # every line once, in order


def test_a_rerun_after_the_driver_is_killed_labels_only_what_is_missing(
    local_ray, labeler, predicate_model_archive, tmp_path
):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    reference = one_process_run(labeler, source, tmp_path / "one.jsonl", chunk_lines=1)
    archive = predicate_model_archive
    command = [sys.executable, "-m", "srl_zoo.cli", "label", archive, source, "-o", str(tmp_path / "out")]
    command += ["--ray", local_ray, "--block-lines", "1", "--batch-size", str(labeler.batch_size), "--no-progress"]
    driver = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(lambda: len(block_outputs(tmp_path / "out")) >= 2 or driver.poll() is not None)
    driver.kill()
    driver.wait()
    done_at_kill = len(block_outputs(tmp_path / "out"))
    assert done_at_kill < len(DOCUMENTS), "the run ended before the kill: nothing was tested"
    wait_for(lambda: not actor_processes())  # the killed driver's actors go with it

    rerun = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    totals = json.loads(rerun.stdout.splitlines()[-1])
    assert totals["blocks_done_before"] >= done_at_kill and totals["blocks_done_before"] + totals["lines"] == len(
        DOCUMENTS
    )
    labeled, errors = joined_records(tmp_path / "out")
    assert same_records(labeled, reference) and errors == []
    assert not [path for path in (tmp_path / "out").iterdir() if path.name.startswith(".")]
