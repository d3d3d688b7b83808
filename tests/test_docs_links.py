"""Every link of README.md, docs/ and models/ that points into the repository reaches a file, and a `#anchor` a
heading of that page (as GitHub makes anchors from headings)."""

import glob
import os
import re

import pytest

from tests.conftest import REPO_ROOT

PAGES = sorted(
    [os.path.join(REPO_ROOT, "README.md")]
    + glob.glob(os.path.join(REPO_ROOT, "docs", "**", "*.md"), recursive=True)
    + glob.glob(os.path.join(REPO_ROOT, "models", "*.md"))
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_BLOCK = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def anchors(path: str) -> set[str]:
    """GitHub's anchors of the headings of the page `path`."""
    found = set()
    with open(path, encoding="utf-8") as handle:
        text = CODE_BLOCK.sub("", handle.read())
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        found.add(re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: os.path.relpath(page, REPO_ROOT))
def test_every_link_into_the_repository_reaches_its_file_and_heading(page):
    with open(page, encoding="utf-8") as handle:
        text = CODE_BLOCK.sub("", handle.read())
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        assert os.path.exists(full), (os.path.relpath(page, REPO_ROOT), target)
        if anchor and full.endswith(".md"):
            assert anchor in anchors(full), (os.path.relpath(page, REPO_ROOT), target)
