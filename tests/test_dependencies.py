"""A runtime-only install (`pip install .`: no allennlp) runs `srl-zoo label`; every other command says in one line
what is missing and what to run, before importing allennlp."""

import pytest

from srl_zoo import dependencies
from srl_zoo.cli import run_through_allennlp
from srl_zoo.commands.expected_errors import one_line


def test_a_command_that_needs_allennlp_names_what_is_missing_in_one_line(monkeypatch):
    monkeypatch.setattr(dependencies, "_absent", lambda module: module in ("allennlp", "_jsonnet"))
    with pytest.raises(dependencies.MissingDependency) as raised:
        run_through_allennlp(["evaluate", "model.tar.gz", "gold.txt"])
    assert one_line(raised.value) == (
        "srl_zoo needs allennlp, jsonnet, not installed here: run pip install --no-deps -r requirements.lock "
        "(in the srl_zoo checkout; docs/install.md) (srl-zoo label and srl_zoo.runtime run without them)"
    )


def test_nothing_is_missing_in_the_training_environment():
    dependencies.check_dependencies()  # the suite runs in it: no error
