"""The `srl-zoo` command: its own version, usage lines as typed, and a missing model or input refused in
one line before anything loads or is written."""

import os
import subprocess
import sys

import pytest

SRL_ZOO = os.path.join(os.path.dirname(sys.executable), "srl-zoo")


def run(*arguments, cwd=None):
    return subprocess.run([SRL_ZOO, *arguments], capture_output=True, text=True, cwd=cwd)


def test_version_is_srl_zoos():
    from importlib.metadata import version

    completed = run("--version")
    assert completed.returncode == 0 and completed.stdout == f"srl-zoo {version('srl_zoo')}\n"


@pytest.mark.parametrize(
    "arguments, message",
    [
        (
            ["label", "missing.tar.gz", "in.txt", "-o", "out.jsonl"],
            "srl-zoo label: MODEL 'missing.tar.gz' does not exist",
        ),
        (
            ["predict", "MODEL", "missing.jsonl", "--output-file", "out.jsonl"],
            "srl-zoo predict: INPUT 'missing.jsonl' does not exist",
        ),
        (
            ["evaluate", "MODEL", "missing.conll", "--output-dir", "out"],
            "srl-zoo evaluate: GOLD_FILE 'missing.conll' does not exist",
        ),
    ],
    ids=["label", "predict", "evaluate"],
)
def test_a_missing_file_is_one_line_and_nothing_is_written(tmp_path, arguments, message):
    (tmp_path / "MODEL").write_text("a model stands here")
    (tmp_path / "in.txt").write_text("Dogs bark.\n")
    completed = run(*arguments, cwd=tmp_path)
    assert completed.returncode == 2
    assert completed.stderr.strip().splitlines() == [message + " (nothing was written)"]
    assert sorted(os.listdir(tmp_path)) == ["MODEL", "in.txt"]


def test_usage_lines_show_the_command_as_typed():
    completed = run("label", "--help")
    assert completed.returncode == 0 and completed.stdout.startswith("usage: srl-zoo label ")
