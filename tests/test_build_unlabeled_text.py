"""scripts/build_unlabeled_text.py on a Gutenberg-shaped and a GUM-shaped fixture: only the book's prose between its
start and end lines, or the document's `# text =` lines, tokenized as srl_zoo tokenizes raw text, each sentence
once, the same bytes twice; a file that is missing or not the pinned one is a one-line error naming it; the GUM
manifest pins only genres whose licence it states."""

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
GUM_SAMPLE = os.path.join(FIXTURES, "unlabeled", "gum-sample.conllu")


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


def test_the_text_lines_of_a_gum_document_once_tokenized_and_the_same_bytes_twice(tmp_path):
    builder = load_script()
    with open(GUM_SAMPLE, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    name = os.path.basename(GUM_SAMPLE)[: -len(".conllu")]
    documents = (builder.GumDocument(name, "nobody/gum", "0" * 40, "sources", digest),)
    first, second = tmp_path / "a" / "gum.txt", tmp_path / "b" / "gum.txt"
    os.makedirs(first.parent), os.makedirs(second.parent)
    record = builder.build(os.path.dirname(GUM_SAMPLE), str(first), documents, "a licence")
    builder.build(os.path.dirname(GUM_SAMPLE), str(second), documents, "a licence")
    assert first.read_bytes() == second.read_bytes()
    assert first.read_text(encoding="utf-8").splitlines() == [
        "Australian children suffering from iodine deficiency",
        "Almost half of all Australian primary school children are mild to moderately iodine deficient , "
        "researchers say .",
        "They did n't say .",
    ]  # no repeat, no sentence under 4 words, `didn't` split as EWT splits it
    assert record["sentences"] == 3 and record["licence"] == "a licence"
    assert record["sources"][0]["name"] == name
    assert documents[0].url == "https://raw.githubusercontent.com/nobody/gum/" + "0" * 40 + "/sources/gum-sample.conllu"


def test_the_gum_manifest_pins_one_commit_and_only_genres_with_a_stated_licence():
    builder = load_script()
    documents, licence = builder.gum_set()
    genres = {document.name.split("_")[1] for document in documents}
    with open(builder.GUM_MANIFEST, encoding="utf-8") as handle:
        stated = json.load(handle)["genres"]
    assert genres == set(stated) and len(documents) == 142
    assert {document.commit for document in documents} == {"afb41ee9bca57991125814fa04d96a0e61470c8b"}
    assert "fiction" not in genres and "whow" not in genres  # CC BY-NC-SA in GUM's LICENSE.txt
    assert all(len(document.sha256) == 64 for document in documents)
    assert "news: Wikinews: CC BY 2.5" in licence
