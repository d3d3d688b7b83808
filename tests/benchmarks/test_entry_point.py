"""`python -m benchmarks`: one entry point lists and runs every benchmark; the shared timing helpers name the
device by its model and wait for the work they time."""

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks.__main__ import benchmarks
from benchmarks.timing import best_seconds, device_name, timed
from tests.conftest import REPO_ROOT


def run(*arguments: str, env: dict | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "benchmarks", *arguments]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, env={**os.environ, **(env or {})})


def test_the_listing_names_every_benchmark_file_with_what_it_measures():
    listed = run()
    assert listed.returncode == 0, listed.stderr
    files = sorted(f for f in os.listdir(os.path.join(REPO_ROOT, "benchmarks")) if f.endswith((".py", ".sh")))
    assert sorted(benchmarks().values()) == [
        f for f in files if f not in ("__init__.py", "__main__.py", "alternating_runs.py", "arguments.py", "timing.py")
    ]
    for name in benchmarks():
        line = next(line for line in listed.stdout.splitlines() if line.split()[:1] == [name])
        assert len(line.split()) > 3, f"{name} says nothing of what it measures"


def test_an_unknown_benchmark_is_one_line_naming_those_there_are():
    completed = run("sped")
    assert completed.returncode == 2
    assert completed.stderr.strip().splitlines() == [
        f"python -m benchmarks: no benchmark 'sped'; there are: {', '.join(benchmarks())}"
    ]


@pytest.mark.slow
def test_a_benchmark_runs_with_its_arguments_and_names_the_cpu(tmp_path):
    completed = run(
        "speed", os.path.join("fixtures", "deepatt", "ffn.jsonnet"), "--train-batches", "2", "--warmup-batches", "1",
        "--max-instances", "20", "--threads", "1", env={"SRL_ZOO_TEST_DECODING": "viterbi"},
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-2000:]
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["device"] == device_name(cuda=False).rsplit(",", 1)[0] + ", 1 threads"
    assert result["train_sentence_tokens_per_s"] > 0 and result["peak_memory_mib"] > 0


def test_timing_helpers():
    with timed() as watch:
        sum(range(10_000))
    assert watch.seconds > 0
    calls = []
    assert best_seconds(lambda: calls.append(1), repeats=4) >= 0 and len(calls) == 4
    assert "threads" in device_name(cuda=False)


#: benchmarks that need a package the project does not install (docs/benchmarks.md says where it comes from)
@pytest.mark.slow
def test_every_benchmark_answers_help():
    """Each benchmark imports what it needs from where it now lives (moved from scripts/, four lost the helper
    module beside them) and says how to run it."""
    names = list(benchmarks())
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:  # a process each, as many at once as cores
        answers = dict(zip(names, pool.map(lambda name: run(name, "--help"), names), strict=True))
    for name, completed in answers.items():  # ONNX Runtime, the onnx extra, is in the lock
        assert completed.returncode == 0, (name, completed.stderr[-1000:])
        says_how = "usage" in completed.stdout.lower() or f"python -m benchmarks {name}" in completed.stdout
        assert says_how, (name, completed.stdout[:500])
