"""Dependency trees from CoNLL-U or CoNLL-2009 files, and attaching them to aligned SRL sentences."""

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from srl_zoo.data.formats.io_utils import iter_lines
from srl_zoo.data.formats.sentence import ConllFormatError, SrlSentence

CONLLU_COLUMNS = 10
CONLL2009_MIN_COLUMNS = 14


@dataclass
class DependencyTree:
    """tokens; heads 1-based (0 = root); relations; line : the 1-based line of its first token."""

    tokens: list[str]
    heads: list[int]
    relations: list[str]
    line: int


def read_dependency_trees(path: str) -> Iterator[DependencyTree]:
    """Trees of a CoNLL-U file (10 tab-separated columns; comments, multiword-token ranges `1-2` and
    empty nodes `1.1` skipped) or a CoNLL-2009 file (HEAD and DEPREL in columns 9 and 11)."""
    rows: list[list[str]] = []
    first = 0
    for number, text in iter_lines(path):
        if not text.strip():
            if rows:
                yield _tree(rows, first, path)
                rows = []
            continue
        if text.startswith("#") and not rows:
            continue
        columns = text.split("\t")
        if len(columns) != CONLLU_COLUMNS and len(columns) < CONLL2009_MIN_COLUMNS:
            raise ConllFormatError(
                path,
                number,
                f"expected {CONLLU_COLUMNS} (CoNLL-U) or at least {CONLL2009_MIN_COLUMNS} "
                f"(CoNLL-2009) tab-separated columns, found {len(columns)}",
            )
        if "-" in columns[0] or "." in columns[0]:  # CoNLL-U multiword token or empty node
            continue
        if not rows:
            first = number
        rows.append(columns + [str(number)])
    if rows:
        yield _tree(rows, first, path)


def _tree(rows: list[list[str]], first: int, path: str) -> DependencyTree:
    conllu = len(rows[0]) - 1 == CONLLU_COLUMNS
    head_column, relation_column = (6, 7) if conllu else (8, 10)
    heads = []
    for position, columns in enumerate(rows, start=1):
        line = int(columns[-1])
        if columns[0] != str(position):
            raise ConllFormatError(path, line, f"ID is {columns[0]!r}, expected {position}")
        head = columns[head_column]
        if not head.isdigit() or int(head) > len(rows):
            raise ConllFormatError(path, line, f"HEAD is {head!r}, expected an integer from 0 to {len(rows)}")
        heads.append(int(head))
    return DependencyTree([c[1] for c in rows], heads, [c[relation_column] for c in rows], first)


def _first_difference(first: list[str], second: list[str]) -> int:
    """The index of the first token where two token lists of one length differ."""
    return next(index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)


def attach_dependency_trees(sentences: Iterable[SrlSentence], trees_path: str, data_path: str) -> Iterator[SrlSentence]:
    """The sentences with `heads` and `dependency_labels` from the trees of `trees_path`, which must
    hold the same sentences in the same order with the same tokens; a clear error otherwise."""
    trees = read_dependency_trees(trees_path)
    for count, sentence in enumerate(sentences, start=1):
        tree = next(trees, None)
        if tree is None:
            raise ConllFormatError(
                trees_path,
                None,
                f"has fewer sentences than {data_path}: none for sentence {count} "
                f"({sentence.source or 'no source'})",
            )
        if tree.tokens != sentence.tokens:
            detail = (
                f"{len(tree.tokens)} tokens where the SRL sentence has {len(sentence.tokens)}"
                if len(tree.tokens) != len(sentence.tokens)
                else f"token {_first_difference(tree.tokens, sentence.tokens) + 1} differs"
            )
            raise ConllFormatError(
                trees_path,
                tree.line,
                f"does not align with sentence {count} of {data_path} " f"({sentence.source or 'no source'}): {detail}",
            )
        yield dataclasses.replace(sentence, heads=tree.heads, dependency_labels=tree.relations)
    extra = next(trees, None)
    if extra is not None:
        raise ConllFormatError(trees_path, extra.line, f"has more sentences than {data_path}")
