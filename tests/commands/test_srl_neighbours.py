"""`allennlp srl-neighbours`: the cache it writes is the one a memory's `neighbour_cache` reads."""

import json
import subprocess
import sys

import pytest

from srl_zoo.amn.memory_bank import MemoryBank
from srl_zoo.amn.neighbour_cache import fingerprint, read_cache, training_neighbours
from srl_zoo.amn.selectors import EditDistanceSelector
from srl_zoo.data.formats import read_conll2009
from tests.conftest import REPO_ROOT, fixture_path

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def test_the_command_writes_what_the_memory_reads(tmp_path):
    output = tmp_path / "neighbours.json"
    train = fixture_path("conll2009", "sample.txt")
    completed = subprocess.run(
        [sys.executable, "-m", "allennlp", "srl-neighbours", train, "--format", "conll2009", "--output", str(output)]
        + ["-m", "3", "--include-package", "srl_zoo"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    assert summary["predicates"] == 80 and not output.with_suffix(".json.tmp").exists()

    bank = MemoryBank.from_sentences(read_conll2009(train))
    selector = EditDistanceSelector()
    selector.build(bank)
    cached = read_cache(str(output), fingerprint(bank, selector, 3))
    assert cached == training_neighbours(bank, selector, 3)
    assert read_cache(str(output), fingerprint(bank, selector, 4)) is None  # another m: stale
