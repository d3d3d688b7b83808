"""scripts/build_unlabeled_text.py on a Gutenberg-shaped fixture: only the book's prose between its start and end
lines, tokenized as srl_zoo tokenizes raw text, each sentence once, the same bytes twice; a file that is missing
or not the pinned one is a one-line error naming it."""

import hashlib
import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, REPO_ROOT

SCRIPT = os.path.join(REPO_ROOT, "scripts", "build_unlabeled_text.py")
SAMPLE = os.path.join(FIXTURES, "unlabeled", "gutenberg-sample.txt")


def load_script():
    spec = importlib.util.spec_from_file_location("build_unlabeled_text", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sample_book(builder):
    with open(SAMPLE, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    return builder.Book("a sample", "nobody/sample", "0" * 40, os.path.basename(SAMPLE), digest)


def test_the_prose_of_the_book_once_tokenized_and_the_same_bytes_twice(tmp_path):
    builder = load_script()
    books = (sample_book(builder),)
    first, second = tmp_path / "a" / "out.txt", tmp_path / "b" / "out.txt"
    os.makedirs(first.parent), os.makedirs(second.parent)
    record = builder.build(os.path.dirname(SAMPLE), str(first), books)
    builder.build(os.path.dirname(SAMPLE), str(second), books)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_text(encoding="utf-8").splitlines() == [
        "It is a truth universally acknowledged , that a single man in possession of a good fortune , must be in "
        "want of a wife .",
        '" My dear Mr. Bennet , " said his lady to him one day , " have you heard that Netherfield Park is let at '
        'last ? "',
        "Mr. Bennet replied that he had not .",
        "He did not care .",
    ]  # no header, credit, heading, footer, emphasis mark, repeat or sentence under 4 words
    assert record["sentences"] == 4 and record["sha256"] == hashlib.sha256(first.read_bytes()).hexdigest()
    assert json.loads((tmp_path / "a" / "out.txt.json").read_text()) == record


def test_a_missing_or_changed_file_is_one_line_naming_it(tmp_path):
    builder = load_script()
    book = sample_book(builder)
    with pytest.raises(ValueError, match=r"sample\.txt: missing; get it with: curl -L -o .* https://raw\."):
        builder.build(str(tmp_path), str(tmp_path / "out.txt"), (book,))
    (tmp_path / "1342-0.txt").write_text("changed", encoding="utf-8")  # the first pinned book, not as pinned
    command = [sys.executable, SCRIPT, "--sources", str(tmp_path), str(tmp_path / "out.txt")]
    completed = subprocess.run(command, capture_output=True, text=True)
    assert completed.returncode == 1 and completed.stderr.count("\n") == 1
    assert "1342-0.txt: SHA-256" in completed.stderr and "expected 48e05228" in completed.stderr
    assert not (tmp_path / "out.txt").exists()
