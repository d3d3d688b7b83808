import json
import os
import subprocess
import sys

import pytest

from srl_zoo import config_defaults
from srl_zoo.config_defaults import CONFIG_VARIABLES, config_variables
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def test_unset_variables_become_empty_and_set_ones_are_kept(monkeypatch):
    monkeypatch.setattr(config_defaults, "GLOVE_CACHE", "/nonexistent/glove.txt.gz")
    monkeypatch.setattr(config_defaults, "MINILM_CACHE", "/nonexistent/minilm")
    monkeypatch.setattr(config_defaults, "MPNET_CACHE", "/nonexistent/mpnet")
    monkeypatch.setattr(config_defaults, "TEACHER_CACHE", "/nonexistent/teacher.npz")
    environment = {"SRL_DEV_DATA": "/data/dev.txt", "HOME": "/root"}
    variables = config_variables(environment)
    expected = {name: "" for name in CONFIG_VARIABLES} | {"SRL_TEACHER": "/nonexistent/teacher.npz"}
    assert variables == {**expected, "SRL_DEV_DATA": "/data/dev.txt", "HOME": "/root"}
    assert environment == {"SRL_DEV_DATA": "/data/dev.txt", "HOME": "/root"}  # not changed


def test_glove_defaults_to_the_file_make_glove_writes(tmp_path, monkeypatch):
    glove = tmp_path / "glove.6B.50d.txt.gz"
    glove.write_bytes(b"")
    monkeypatch.setattr(config_defaults, "GLOVE_CACHE", str(glove))
    assert config_variables({})["SRL_GLOVE"] == str(glove)
    assert config_variables({"SRL_GLOVE": ""})["SRL_GLOVE"] == ""  # set to '' by the user: random vectors


def test_mpnet_defaults_to_the_directory_make_mpnet_builds(tmp_path, monkeypatch):
    monkeypatch.setattr(config_defaults, "MPNET_CACHE", str(tmp_path))
    assert config_variables({})["SRL_MPNET"] == ""  # not built: the accurate configs say to run `make mpnet`
    (tmp_path / "config.json").write_text("{}")
    assert config_variables({})["SRL_MPNET"] == str(tmp_path)


def test_a_config_reads_without_data_variables_once_srl_zoo_is_imported(tmp_path):
    environment = {name: value for name, value in os.environ.items() if name not in CONFIG_VARIABLES}
    config = os.path.join(REPO_ROOT, "training_configs", "deepatt", "ffn_conll2005.jsonnet")
    program = (
        "import srl_zoo.plugin\n"
        "from allennlp.common import Params\n"
        f"print(Params.from_file({config!r})['train_data_path'])\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, env=environment, capture_output=True, text=True, check=True
    )
    train_path = completed.stdout.strip().splitlines()[-1]
    assert os.path.samefile(train_path, os.path.join(REPO_ROOT, "data", "ewt", "conll2005", "train.txt.gz"))


def test_importing_srl_zoo_leaves_the_environment_as_it_found_it():
    """The defaults reach jsonnet through allennlp's ext vars, not through `os.environ` (children inherited 17
    `SRL_*` variables before, and a forgotten one was taken as the user's)."""
    program = (
        "import os, json\n"
        "before = dict(os.environ)\n"
        "import srl_zoo.plugin\n"
        "from allennlp.common import params\n"
        "print(json.dumps([dict(os.environ) == before, sorted(set(params._environment_variables()) - set(before))]))\n"
    )
    environment = {name: value for name, value in os.environ.items() if name not in CONFIG_VARIABLES}
    completed = subprocess.run([sys.executable, "-c", program], env=environment, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr[-2000:]
    unchanged, handed_to_jsonnet = json.loads(completed.stdout.strip().splitlines()[-1])
    assert unchanged and set(CONFIG_VARIABLES) <= set(handed_to_jsonnet)
