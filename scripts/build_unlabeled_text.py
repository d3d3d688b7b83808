"""Unlabeled English sentences for a teacher to label (docs/training.md, "Distilling a model"), one sentence per
line, tokenized as srl_zoo tokenizes raw text (spaCy's blank English pipeline, which splits `don't` into `do n't` as
EWT does), words joined by spaces. Two sets (`--set`):

- `books`: public-domain books from Project Gutenberg, as the GITenberg repositories hold them at pinned commits,
  their Project Gutenberg header, footer and licence removed, split into sentences;
- `gum`: the sentences' text (`# text =` lines) of the UD English GUM documents whose genre the treebank's
  LICENSE.txt states is CC BY or public domain (`gum_documents.json`: the pinned commit, the genres with their
  licences, each document's SHA-256); never its annotations.

Only words: no annotation of any corpus, and nothing of EWT. Nothing is downloaded here: put the files in a folder
first (`--urls` prints each file's name and pinned URL; `make unlabeled` and `make unlabeled-gum` fetch them with
curl and build), then

    python scripts/build_unlabeled_text.py --sources .cache/gutenberg .cache/unlabeled/gutenberg.txt
    python scripts/build_unlabeled_text.py --set gum --sources .cache/gum .cache/unlabeled/gum.txt

Every file's SHA-256 is checked; the output (and `OUTPUT.json`: the sources, their hashes, the counts and the
output's hash) is written to temporary files and renamed; the same files give the same bytes.
"""

import argparse
import json
import os
import re
import sys
from dataclasses import asdict, dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from srl_zoo.archive_cache import content_digest  # noqa: E402
from srl_zoo.data.formats.io_utils import atomic_write  # noqa: E402
from srl_zoo.front.text import blank_pipeline, split_sentences  # noqa: E402


@dataclass(frozen=True)
class Book:
    """One public-domain book: its file in a GITenberg repository at a pinned commit, and the file's SHA-256."""

    title: str
    repository: str
    commit: str
    file: str
    sha256: str

    @property
    def url(self) -> str:
        return f"https://raw.githubusercontent.com/{self.repository}/{self.commit}/{self.file}"

    def texts(self, path: str) -> list[str]:
        """The book's prose paragraphs, read from its file at `path`."""
        return paragraphs(book_text(path))


@dataclass(frozen=True)
class GumDocument:
    """One UD English GUM document: its file in the treebank's repository at a pinned commit, and the file's
    SHA-256."""

    name: str
    repository: str
    commit: str
    folder: str
    sha256: str

    @property
    def file(self) -> str:
        return self.name + ".conllu"

    @property
    def url(self) -> str:
        return f"https://raw.githubusercontent.com/{self.repository}/{self.commit}/{self.folder}/{self.file}"

    def texts(self, path: str) -> list[str]:
        """The text of each sentence of the document at `path` (its `# text =` lines), annotations left aside."""
        with open(path, encoding="utf-8") as handle:
            return [line[len("# text = ") :].strip() for line in handle if line.startswith("# text = ")]


#: the books, in the order their sentences are written (public domain in the United States; Project Gutenberg's
#: licence lets derived works be shared once every reference to Project Gutenberg is removed, as done here)
BOOKS = (
    Book(
        "Pride and Prejudice (Jane Austen, 1813)",
        "GITenberg/Pride-and-Prejudice_1342",
        "81db45c9c48c592f0b77f01fc59e677ad0a5634e",
        "1342-0.txt",
        "48e0522844402a86a3ea98f0947ba85ea54838db3c59022299298ed968a5a163",
    ),
    Book(
        "The Adventures of Sherlock Holmes (Arthur Conan Doyle, 1892)",
        "GITenberg/The-Adventures-of-Sherlock-Holmes_1661",
        "7e5dd2703fbf503c004063e96ab7c61262375e5f",
        "1661.txt",
        "2a0ce5568625a304f54fbb6bfdeeadf527a1437254b5f0e06b5a9e233d4784a2",
    ),
    Book(
        "The Adventures of Tom Sawyer (Mark Twain, 1876)",
        "GITenberg/The-Adventures-of-Tom-Sawyer_74",
        "9b4174649064f197ca27895d98806b4a8659722b",
        "74-0.txt",
        "b1cd5782db259c00bc1a8fbb58238f285e40828cc858c1343f74a0a75157cc91",
    ),
    Book(
        "Frankenstein (Mary Shelley, 1818)",
        "GITenberg/Frankenstein_84",
        "c98a483bd1f34e7366126b81bcedd1a6faee636e",
        "84-0.txt",
        "c29a4f56dd91aa894a3f17d5f96b356ccb499e3e2c5a27964de911845e39efab",
    ),
    Book(
        "A Tale of Two Cities (Charles Dickens, 1859)",
        "GITenberg/A-Tale-of-Two-Cities_98",
        "0f6111bc7237af7375295ec1754c2e57e19f67f1",
        "98-0.txt",
        "2fcfa071498b30724bd1bd714ba89e38477d632b86d74e87559f6259d3917e36",
    ),
)

#: sentences of fewer words (of letters or digits) or more tokens are left out: exclamations, and run-ons
MIN_WORDS, MAX_WORDS = 4, 60

GUM_MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gum_documents.json")


def gum_set(manifest_path: str = GUM_MANIFEST) -> tuple[tuple[GumDocument, ...], str]:
    """The GUM documents that `manifest_path` pins, in name order, and what the set's record says of its licence
    (each genre kept, with the licence the treebank states)."""
    with open(manifest_path, encoding="utf-8") as handle:
        manifest = json.load(handle)
    documents = tuple(
        GumDocument(name, manifest["repository"], manifest["commit"], manifest["folder"], digest)
        for name, digest in sorted(manifest["documents"].items())
    )
    kept = "; ".join(f"{genre}: {licence}" for genre, licence in sorted(manifest["genres"].items()))
    licence = f"the text of the UD English GUM documents of these genres, as the treebank's LICENSE.txt states: {kept}"
    return documents, licence


BOOKS_LICENCE = (
    "public domain in the United States (Project Gutenberg texts, every reference to Project Gutenberg removed)"
)
_START = re.compile(r"^\*\*\* ?START OF (THIS|THE) PROJECT GUTENBERG EBOOK", re.IGNORECASE)
_END = re.compile(r"^\*\*\* ?END OF (THIS|THE) PROJECT GUTENBERG EBOOK", re.IGNORECASE)


def book_text(path: str) -> str:
    """The text between the Project Gutenberg start and end lines of the file at `path` (a `ValueError` naming the
    file where either is missing)."""
    with open(path, encoding="utf-8-sig") as handle:
        lines = handle.read().splitlines()
    starts = [i for i, line in enumerate(lines) if _START.match(line)]
    ends = [i for i, line in enumerate(lines) if _END.match(line)]
    if not starts or not ends or ends[0] <= starts[0]:
        raise ValueError(f"{path}: no '*** START OF ... PROJECT GUTENBERG EBOOK' line before an '*** END OF' one")
    return "\n".join(lines[starts[0] + 1 : ends[0]])


def paragraphs(text: str) -> list[str]:
    """The prose paragraphs of a book's text: blank-line separated blocks joined into one line, emphasis marks
    (`_word_`) dropped, headings (no lowercase letter), `Produced by` credits and any paragraph that names Project
    Gutenberg left out."""
    kept = []
    for block in re.split(r"\n\s*\n", text):
        paragraph = " ".join(block.split()).replace("_", "")
        lowered = paragraph.lower()
        if not re.search(r"[a-z]", paragraph) or lowered.startswith("produced by") or "gutenberg" in lowered:
            continue
        kept.append(paragraph)
    return kept


def sentences_of(paragraph_texts: list[str], nlp) -> list[str]:
    """Each sentence of `paragraph_texts` with at least `MIN_WORDS` words of letters or digits and at most
    `MAX_WORDS` tokens, its tokens joined by spaces."""
    kept = []
    for paragraph in paragraph_texts:
        for words, _ in split_sentences(nlp, paragraph):
            if sum(any(c.isalnum() for c in word) for word in words) >= MIN_WORDS and len(words) <= MAX_WORDS:
                kept.append(" ".join(words))
    return kept


def checked_file(folder: str, source: Book | GumDocument) -> str:
    """The path of `source`'s file in `folder`, its SHA-256 checked (a one-line `ValueError` naming the file and
    what to do otherwise)."""
    path = os.path.join(folder, source.file)
    if not os.path.isfile(path):
        raise ValueError(f"{path}: missing; get it with: curl -L -o {path} {source.url}")
    digest = content_digest(path)
    if digest != source.sha256:
        raise ValueError(f"{path}: SHA-256 {digest}, expected {source.sha256} ({source.url})")
    return path


def build(
    folder: str,
    output: str,
    sources: tuple[Book, ...] | tuple[GumDocument, ...] = BOOKS,
    licence: str = BOOKS_LICENCE,
) -> dict:
    """Write the sentences of `sources` (files in `folder`) to `output`, each sentence once (its first occurrence),
    and the record of what was built (with `licence`) to `output.json`; the record."""
    nlp = blank_pipeline("en")
    seen: set[str] = set()
    counts = {}
    with atomic_write(output) as handle:
        for source in sources:
            written = 0
            for sentence in sentences_of(source.texts(checked_file(folder, source)), nlp):
                if sentence not in seen:
                    seen.add(sentence)
                    handle.write(sentence + "\n")
                    written += 1
            counts[source.file] = written
    record = {
        "output": os.path.basename(output),
        "sha256": content_digest(output),
        "sentences": len(seen),
        "words": sum(len(sentence.split()) for sentence in seen),
        "sentences_per_file": counts,
        "sources": [asdict(source) for source in sources],
        "licence": licence,
    }
    with atomic_write(output + ".json") as handle:
        json.dump(record, handle, indent=2)
        handle.write("\n")
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("books", "gum"), default="books", help="which sources (default: books)")
    parser.add_argument("--urls", action="store_true", help="print each file's name and pinned URL, and stop")
    parser.add_argument("--sources", help="the folder that holds the sources' files")
    parser.add_argument("output", nargs="?", help="the text file to write (one tokenized sentence per line)")
    args = parser.parse_args()
    sources, licence = (BOOKS, BOOKS_LICENCE) if args.set == "books" else gum_set()
    if args.urls:
        for source in sources:
            print(source.file, source.url)
        return
    if not args.sources or not args.output:
        parser.error("--sources and OUTPUT are needed (or --urls)")
    try:
        record = build(args.sources, args.output, sources, licence)
    except ValueError as error:
        sys.exit(f"build_unlabeled_text: {error}")
    print(json.dumps({key: record[key] for key in ("output", "sentences", "words", "sha256")}))


if __name__ == "__main__":
    main()
