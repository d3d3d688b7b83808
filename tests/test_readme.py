"""The README's shell blocks marked `bash runnable` run as written, from a directory outside the
repository that holds only the bundled model and data (so the README cannot drift from the code)."""

import os
import re
import subprocess
import sys

from tests.conftest import REPO_ROOT

RUNNABLE = re.compile(r"^```bash runnable\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def runnable_blocks():
    with open(os.path.join(REPO_ROOT, "README.md"), encoding="utf-8") as handle:
        return RUNNABLE.findall(handle.read())


def test_the_readme_has_runnable_blocks():
    assert len(runnable_blocks()) >= 4


def test_runnable_readme_blocks_run_as_written(tmp_path):
    for name in ("models", "data"):
        os.symlink(os.path.join(REPO_ROOT, name), tmp_path / name)
    environment = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    for number, block in enumerate(runnable_blocks(), start=1):
        finished = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block], cwd=tmp_path, env=environment, capture_output=True, text=True
        )
        assert finished.returncode == 0, f"README block {number} failed:\n{block}\n{finished.stderr[-3000:]}"
    assert (tmp_path / "runs" / "ewt-english" / "report" / "report.md").exists()
    assert '"verbs"' in (tmp_path / "out.jsonl").read_text()
    assert len((tmp_path / "corpus.srl.jsonl").read_text().splitlines()) == 2
