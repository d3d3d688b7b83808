"""CoNLL-2012 / OntoNotes `*gold_conll` format: one file or a directory tree of them."""

import os
from collections.abc import Iterable, Iterator
from typing import Optional

from srl_zoo.data.formats.io_utils import (
    atomic_write,
    check_predicate_span,
    format_bracket_column,
    iter_blocks,
    iter_lines,
    pad_columns,
    parse_bracket_column,
)
from srl_zoo.data.formats.labels import normalize_label
from srl_zoo.data.formats.sentence import ConllFormatError, SrlFrame, SrlSentence, SrlSpan

FIXED_COLUMNS = 11  # doc, part, word#, word, POS, parse, lemma, frameset, sense, speaker, NE
MIN_COLUMNS = FIXED_COLUMNS + 1  # ... + coreference
_BEGIN, _END = "#begin document", "#end document"
# per-token columns kept verbatim so that writing reproduces the input
_KEPT = {0: "document_id", 1: "part", 6: "predicate_lemmas", 8: "word_senses", 9: "speakers", 10: "named_entities"}


def conll2012_files(path: str, domain_identifier: Optional[str] = None) -> list[str]:
    """The `*gold_conll` (or `*gold_conll.gz`) files under `path` (or `path` itself), sorted, optionally of one domain.

    `domain_identifier` keeps files whose path has that directory, e.g. `"nw"` or `"bc"`.
    """
    if not os.path.isdir(path):
        return [path]
    found = []
    for root, _, names in os.walk(path):
        for name in names:
            if name.endswith(("gold_conll", "gold_conll.gz")):
                full = os.path.join(root, name)
                if domain_identifier is None or f"{os.sep}{domain_identifier}{os.sep}" in full:
                    found.append(full)
    if not found:
        domain = f" for domain {domain_identifier!r}" if domain_identifier else ""
        raise ConllFormatError(path, None, f"no *gold_conll files under this directory{domain}")
    return sorted(found)


FRAMESET_MISMATCHES = ("error", "v_span")


def read_conll2012(
    path: str,
    domain_identifier: Optional[str] = None,
    label_convention: Optional[str] = None,
    frameset_mismatch: str = "error",
) -> Iterator[SrlSentence]:
    """Lazily parse a `*gold_conll` file, or every one under a directory, into `SrlSentence`s.

    # Parameters

    frameset_mismatch : what to do with a sentence whose number of frameset rows (column 8 not `-`)
        differs from its number of argument columns, which is what a lost argument column looks
        like: `"error"` (default) raises `ConllFormatError`; `"v_span"` takes each column's predicate
        from its `V` span instead.
    """
    if frameset_mismatch not in FRAMESET_MISMATCHES:
        raise ValueError(f"frameset_mismatch must be one of {FRAMESET_MISMATCHES}, got {frameset_mismatch!r}")
    for file_path in conll2012_files(path, domain_identifier):
        count = 0
        for block in iter_blocks(_without_document_markers(iter_lines(file_path), file_path)):
            yield _parse_block(block, file_path, label_convention, frameset_mismatch)
            count += 1
        if count == 0:
            raise ConllFormatError(file_path, None, "no sentence in this file (only document markers?)")


def _without_document_markers(lines: Iterable[tuple[int, str]], path: str) -> Iterator[tuple[int, str]]:
    """The lines with `#begin/#end document` markers blanked (a boundary also ends a sentence), checking
    that they pair up: a document that never ends means a truncated file."""
    opened: Optional[int] = None
    for number, text in lines:
        if text.startswith(_BEGIN):
            if opened is not None:
                raise ConllFormatError(path, number, f"'{_BEGIN}' inside the document begun on line {opened}")
            opened = number
            yield number, ""
        elif text.startswith(_END):
            if opened is None:
                raise ConllFormatError(path, number, f"'{_END}' without a '{_BEGIN}' before it")
            opened = None
            yield number, ""
        elif text.startswith("#"):
            raise ConllFormatError(path, number, f"unknown marker line {text[:40]!r}: expected '{_BEGIN}' or '{_END}'")
        else:
            yield number, text
    if opened is not None:
        raise ConllFormatError(path, opened, f"the document begun here never ends ('{_END}' missing: truncated file?)")


def _parse_block(block, path: str, label_convention: Optional[str], frameset_mismatch: str = "error") -> SrlSentence:
    first_line, first_columns = block[0]
    width = len(first_columns)
    for position, (number, columns) in enumerate(block):
        if len(columns) != width or len(columns) < MIN_COLUMNS:
            expected = (
                f"{width} columns like line {first_line}"
                if len(columns) != width
                else f"at least {MIN_COLUMNS} columns"
            )
            raise ConllFormatError(path, number, f"wrong column count: expected {expected}, found {len(columns)}")
        if columns[2] != str(position):
            raise ConllFormatError(
                path,
                number,
                f"word number (column 3) is {columns[2]!r}, expected {position}: missing blank line between sentences?",
            )
        if "(V*" in columns[FIXED_COLUMNS - 1]:
            raise ConllFormatError(
                path,
                number,
                f"the named-entity column ({FIXED_COLUMNS}) holds a V span: an argument column moved into it "
                "(is a column missing?)",
            )
    line_numbers = [number for number, _ in block]

    def column(index: int) -> list[str]:
        return [columns[index] for _, columns in block]

    argument_columns = [parse_bracket_column(column(k), line_numbers, path) for k in range(FIXED_COLUMNS, width - 1)]
    lemmas, framesets = column(6), column(7)
    predicate_rows = _predicate_rows(framesets, argument_columns, line_numbers, path, frameset_mismatch)
    frames = [
        SrlFrame(
            index=row,
            lemma=None if lemmas[row] == "-" else lemmas[row],
            sense=None if framesets[row] == "-" else framesets[row],
            arguments=[SrlSpan(normalize_label(s.label, label_convention), s.start, s.end) for s in spans],
        )
        for row, spans in zip(predicate_rows, argument_columns, strict=False)
    ]
    extra = {name: column(index) for index, name in _KEPT.items()}
    extra["coreference"] = column(width - 1)
    return SrlSentence(
        tokens=column(3), pos=column(4), parse=column(5), frames=frames, extra=extra, source=f"{path}:{first_line}"
    )


def _predicate_rows(
    framesets: list[str], argument_columns, line_numbers: list[int], path: str, frameset_mismatch: str
) -> list[int]:
    """Row of each argument column's predicate: the frameset rows in order (or, with `frameset_mismatch`
    `"v_span"` and a count that differs, the V spans), each checked against its column's V span."""
    rows = [i for i, cell in enumerate(framesets) if cell != "-"]
    if len(rows) != len(argument_columns):
        if frameset_mismatch == "error":
            raise ConllFormatError(
                path,
                line_numbers[0],
                f"{len(rows)} frameset rows (column 8 not '-') but {len(argument_columns)} argument columns: "
                "expected one argument column per frameset (a lost column?); frameset_mismatch 'v_span' "
                "takes the predicates from the V spans instead",
            )
        rows = [
            next((span.start for span in spans if span.label == "V"), 0)  # no V: check_predicate_span says so
            for spans in argument_columns
        ]
    for k, (row, spans) in enumerate(zip(rows, argument_columns, strict=False)):
        check_predicate_span(spans, row, line_numbers, path, f"argument column {FIXED_COLUMNS + k + 1}")
    return rows


def _frameset_without_sense(lemma: str, word: str) -> str:
    """The frameset cell of a predicate without a sense (CoNLL-2005 data): its lemma or word without a `.NN`
    suffix, which reads back as a predicate without sense (a `-` would lose it)."""
    cell = (lemma if lemma != "-" else word).replace(".", "")
    return cell if cell not in ("", "-") else "V"


def conll2012_rows(sentence: SrlSentence) -> list[list[str]]:
    """The rows of one sentence in the `*gold_conll` layout."""
    n = len(sentence.tokens)
    extra = sentence.extra
    framesets = ["-"] * n
    lemmas = list(extra.get("predicate_lemmas", ["-"] * n))
    for frame in sentence.frames:
        lemmas[frame.index] = frame.lemma or lemmas[frame.index]
        framesets[frame.index] = frame.sense or _frameset_without_sense(
            lemmas[frame.index], sentence.tokens[frame.index]
        )
    arguments = [format_bracket_column(frame.arguments, n) for frame in sentence.frames]
    rows = []
    for i in range(n):
        row = [
            extra.get("document_id", ["-"] * n)[i],
            extra.get("part", ["0"] * n)[i],
            str(i),
            sentence.tokens[i],
            sentence.pos[i] if sentence.pos else "-",
            sentence.parse[i] if sentence.parse else "*",
            lemmas[i],
            framesets[i],
            extra.get("word_senses", ["-"] * n)[i],
            extra.get("speakers", ["-"] * n)[i],
            extra.get("named_entities", ["*"] * n)[i],
        ]
        rows.append(row + [column[i] for column in arguments] + [extra.get("coreference", ["-"] * n)[i]])
    return rows


def write_conll2012(sentences: Iterable[SrlSentence], path: str) -> int:
    """Write sentences as one `*gold_conll` file (atomically), grouped into documents."""
    count = 0
    current: Optional[tuple[str, str]] = None
    with atomic_write(path) as handle:
        for sentence in sentences:
            rows = conll2012_rows(sentence)
            document = (rows[0][0], rows[0][1]) if rows else ("-", "0")
            if document != current:
                if current is not None:
                    handle.write(_END + "\n")
                part = int(document[1]) if document[1].isdigit() else 0
                handle.write(f"{_BEGIN} ({document[0]}); part {part:03d}\n")
                current = document
            for line in pad_columns(rows):
                handle.write(line + "\n")
            handle.write("\n")
            count += 1
        if current is not None:
            handle.write(_END + "\n")
    return count
