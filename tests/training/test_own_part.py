"""The part of your own that docs/training.md shows, kept in its own package, trains with `srl-zoo train
--include-package`, and its misspelt type is named among the registered ones before any data is read."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def documented_part() -> str:
    """The Python block of docs/training.md's "A part of your own"."""
    with open(os.path.join(REPO_ROOT, "docs", "training.md"), encoding="utf-8") as handle:
        section = handle.read().split("### A part of your own", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def train(tmp_path, encoder_type: str) -> subprocess.CompletedProcess:
    package = tmp_path / "my_parts"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text(documented_part(), encoding="utf-8")
    encoder = {"type": encoder_type, "hidden_dim": 16}  # its input_dim follows the parts
    config = tmp_path / "my_config.jsonnet"
    tiny = os.path.join(FIXTURES, "deepatt", "tiny.libsonnet")
    config.write_text(f"(import {json.dumps(tiny)})({json.dumps(encoder)}, 'viterbi', {{}}, 'conll2012')\n")
    script = os.path.join(os.path.dirname(sys.executable), "srl-zoo")
    command = [script, "train", str(config), "-s", str(tmp_path / "run"), "--include-package", "my_parts"]
    command += ["-o", '{"trainer.num_epochs": 1}']
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), REPO_ROOT]), "OMP_NUM_THREADS": "1"}
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=environment, timeout=600)


def test_a_documented_part_of_your_own_trains_and_its_typo_is_named(tmp_path):
    done = train(tmp_path, "relu_layer")
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "run" / "model.tar.gz").exists()
    again = tmp_path / "again"
    again.mkdir()
    misspelt = train(again, "relu_layr")
    assert misspelt.returncode == 1
    message = misspelt.stderr.strip().splitlines()[-1]
    assert message.startswith("srl-zoo train: model.frame_scorer.encoder.type: 'relu_layr' is not a registered ")
    assert "did you mean 'relu_layer'?" in message
