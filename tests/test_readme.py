"""The blocks of README.md and docs/*.md marked `bash runnable` or `python runnable` run as written, from a
directory outside the repository that holds only the bundled model and data and the configs (so the docs
cannot drift from the code). A python block's trailing `# ` comment lines are its expected output."""

import glob
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

RUNNABLE = re.compile(r"^```(bash|python) runnable\n(.*?)^```$", re.MULTILINE | re.DOTALL)

#: pages in the order their blocks run (a later block may read what an earlier one wrote)
PAGES = ["README.md"] + sorted(os.path.relpath(path, REPO_ROOT) for path in glob.glob(f"{REPO_ROOT}/docs/*.md"))


def runnable_blocks() -> list[tuple[str, str, str]]:
    """(page, language, code) of every runnable block, pages in `PAGES` order."""
    blocks = []
    for page in PAGES:
        with open(os.path.join(REPO_ROOT, page), encoding="utf-8") as handle:
            blocks += [(page, language, code) for language, code in RUNNABLE.findall(handle.read())]
    return blocks


def expected_output(code: str) -> list[str]:
    """The trailing `# ` comment lines of a python block, without the `# `."""
    lines = code.rstrip("\n").split("\n")
    expected: list[str] = []
    while lines and lines[-1].startswith("# "):
        expected.insert(0, lines.pop()[2:])
    return expected


def test_the_docs_have_runnable_blocks():
    blocks = runnable_blocks()
    assert len(blocks) >= 6
    assert {"README.md", "docs/training.md", "docs/labeling.md"} <= {page for page, _, _ in blocks}
    assert any(language == "python" and expected_output(code) for _, language, code in blocks)


def test_runnable_blocks_run_as_written(tmp_path):
    for name in ("models", "data", "training_configs"):
        os.symlink(os.path.join(REPO_ROOT, name), tmp_path / name)
    environment = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    for number, (page, language, code) in enumerate(runnable_blocks(), start=1):
        command = ["bash", "-euo", "pipefail", "-c", code] if language == "bash" else [sys.executable, "-c", code]
        finished = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True)
        assert finished.returncode == 0, f"{page}, block {number} failed:\n{code}\n{finished.stderr[-3000:]}"
        if language == "python":
            assert finished.stdout.splitlines() == expected_output(code), f"{page}, block {number}:\n{code}"
    assert (tmp_path / "runs" / "ewt-english" / "report" / "report.md").exists()
    assert '"verbs"' in (tmp_path / "out.jsonl").read_text()
    assert len((tmp_path / "corpus.srl.jsonl").read_text().splitlines()) == 2
    assert len((tmp_path / "tour.srl.jsonl").read_text().splitlines()) == 2
    assert (tmp_path / "runs" / "mine" / "small.tar.gz").exists() and (tmp_path / "mine.srl.jsonl").exists()
