"""CoNLL-2009 format: 14 fixed tab-separated columns plus one APRED column per predicate."""

import re
from collections.abc import Iterable, Iterator
from typing import Optional

from srl_zoo.data.formats.io_utils import atomic_write, iter_blocks, iter_lines
from srl_zoo.data.formats.labels import normalize_label
from srl_zoo.data.formats.sentence import ConllFormatError, SrlFrame, SrlSentence, SrlSpan

COLUMN_NAMES = (
    "ID",
    "FORM",
    "LEMMA",
    "PLEMMA",
    "POS",
    "PPOS",
    "FEAT",
    "PFEAT",
    "HEAD",
    "PHEAD",
    "DEPREL",
    "PDEPREL",
    "FILLPRED",
    "PRED",
)
FIXED_COLUMNS = len(COLUMN_NAMES)
#: what an APRED cell other than `_` must look like: a role label such as A0, AM-TMP, C-A1, R-AM-LOC, ARG1
ROLE_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*")
# columns kept verbatim (only for writing the input back)
_KEPT = {3: "plemmas", 5: "ppos", 6: "feats", 7: "pfeats", 9: "pheads", 11: "pdeprels"}


def read_conll2009(path: str, label_convention: Optional[str] = None) -> Iterator[SrlSentence]:
    """Lazily parse a CoNLL-2009 file; arguments are one-token spans on their head words."""
    for block in iter_blocks(iter_lines(path), separator="\t"):
        yield _parse_block(block, path, label_convention)


def _parse_block(block, path: str, label_convention: Optional[str]) -> SrlSentence:
    first_line, first_columns = block[0]
    width = len(first_columns)
    n = len(block)
    # SRL output on raw text has no heads at all (a short line is refused below, by its column count)
    without_syntax = all(len(columns) > 8 and columns[8] == "_" for _, columns in block)
    parsed_heads: list[int] = []
    for position, (number, columns) in enumerate(block):
        if len(columns) != width or width < FIXED_COLUMNS:
            expected = (
                f"{width} columns like line {first_line}"
                if len(columns) != width
                else f"at least {FIXED_COLUMNS} tab-separated columns"
            )
            raise ConllFormatError(path, number, f"wrong column count: expected {expected}, found {len(columns)}")
        check_cells(columns, path, number)
        if columns[0] != str(position + 1):
            raise ConllFormatError(
                path,
                number,
                f"ID (column 1) is {columns[0]!r}, expected {position + 1}: missing blank line between sentences?",
            )
        head = columns[8]
        if without_syntax:
            continue
        if not (head.isascii() and head.isdigit()) or int(head) > n:
            raise ConllFormatError(
                path, number, f"HEAD (column 9) is {head!r}, expected an integer from 0 to {n} (or _ on every line)"
            )
        parsed_heads.append(int(head))
    heads = None if without_syntax else parsed_heads

    if heads is not None:
        check_tree(heads, [number for number, _ in block], path)

    def column(index: int) -> list[str]:
        return [columns[index] for _, columns in block]

    fillpred, senses = column(12), column(13)
    predicate_rows = [i for i in range(n) if fillpred[i] == "Y"]
    num_apreds = width - FIXED_COLUMNS
    if len(predicate_rows) != num_apreds:
        raise ConllFormatError(
            path,
            first_line,
            f"sentence has {len(predicate_rows)} predicates (FILLPRED = Y) but {num_apreds} APRED columns: "
            "expected one APRED column per predicate",
        )
    lemmas = column(2)
    frames = []
    for k, row in enumerate(predicate_rows):
        sense = None if senses[row] == "_" else senses[row]
        lemma = sense.rsplit(".", 1)[0] if sense and "." in sense else lemmas[row]
        cells = column(FIXED_COLUMNS + k)
        arguments = [
            SrlSpan(normalize_label(cell, label_convention), i, i) for i, cell in enumerate(cells) if cell != "_"
        ]
        frames.append(SrlFrame(index=row, lemma=lemma, sense=sense, arguments=arguments))
    return SrlSentence(
        tokens=column(1),
        pos=column(4),
        lemmas=lemmas,
        heads=heads,
        dependency_labels=column(10),
        frames=frames,
        extra={name: column(index) for index, name in _KEPT.items()},
        source=f"{path}:{first_line}",
    )


def _column_name(index: int) -> str:
    """`column 13 (FILLPRED)`: a 0-based column index as a person reads it."""
    name = COLUMN_NAMES[index] if index < FIXED_COLUMNS else f"APRED {index - FIXED_COLUMNS + 1}"
    return f"column {index + 1} ({name})"


def check_cells(columns: list[str], path: str, number: int) -> None:
    """`ConllFormatError` for a blank cell, a FILLPRED other than `Y`/`_`, a sense on a row not marked
    `Y`, a PRED/APRED cell with spaces in it (what a deleted or shifted column looks like), or an APRED cell
    that is not a role label (`ROLE_LABEL`: the `*`, `(A0*`, `*)` of span formats, `A0|A1`, a lone `-`)."""
    for index, cell in enumerate(columns):
        if not cell.strip():
            what = "empty cell" if not cell else f"blank cell ({cell!r})"
            raise ConllFormatError(path, number, f"{what} in {_column_name(index)}: use _ for no value")
    fillpred, sense = columns[12], columns[13]
    if fillpred not in ("Y", "_"):
        raise ConllFormatError(
            path, number, f"{_column_name(12)} is {fillpred!r}, expected Y or _: is a column missing or shifted?"
        )
    if fillpred == "_" and sense != "_":
        reason = f"{_column_name(13)} is {sense!r} but FILLPRED is _"
        raise ConllFormatError(path, number, f"{reason}: mark each predicate's row with Y, or is a column missing?")
    for index in range(13, len(columns)):
        if any(character.isspace() for character in columns[index]):
            raise ConllFormatError(
                path, number, f"{_column_name(index)} is {columns[index]!r}: expected a label without spaces, or _"
            )
    for index in range(FIXED_COLUMNS, len(columns)):
        if columns[index] != "_" and not ROLE_LABEL.fullmatch(columns[index]):
            raise ConllFormatError(
                path,
                number,
                f"{_column_name(index)} is {columns[index]!r}: not a role label (A0, AM-TMP, C-A1, ...) or _; "
                "is this a CoNLL-2005/2012 file (bracketed spans)?",
            )


def check_tree(heads: list[int], line_numbers: list[int], path: str) -> None:
    """`ConllFormatError` for a token that heads itself or a cycle of heads (every token must reach 0)."""
    reaches_root = [False] * len(heads)
    for start in range(len(heads)):
        path_taken: list[int] = []
        on_path = set()
        token = start
        while not reaches_root[token]:
            if token in on_path:
                cycle = path_taken[path_taken.index(token) :]
                kind = "heads itself" if len(cycle) == 1 else f"is in a cycle of heads ({len(cycle)} tokens)"
                raise ConllFormatError(path, line_numbers[token], f"token {token + 1} {kind}: HEAD must form a tree")
            path_taken.append(token)
            on_path.add(token)
            if heads[token] == 0:
                break
            token = heads[token] - 1
        for visited in path_taken:
            reaches_root[visited] = True


def conll2009_rows(sentence: SrlSentence) -> list[list[str]]:
    """The rows of one sentence in the CoNLL-2009 (eval09) layout."""
    n = len(sentence.tokens)
    extra = sentence.extra

    def kept(name: str, fallback: list[str]) -> list[str]:
        return extra.get(name, fallback)

    lemmas = sentence.lemmas or ["_"] * n
    pos = sentence.pos or ["_"] * n
    heads = [str(h) for h in sentence.heads] if sentence.heads is not None else ["_"] * n
    deprels = sentence.dependency_labels or ["_"] * n
    fillpred, senses = ["_"] * n, ["_"] * n
    for frame in sentence.frames:
        fillpred[frame.index] = "Y"
        senses[frame.index] = frame.sense or "_"
    apreds = []
    for frame in sentence.frames:
        cells = ["_"] * n
        for span in frame.arguments:
            if span.label != "V":  # the predicate's own cell stays empty in CoNLL-2009
                cells[span.start] = span.label
        apreds.append(cells)
    rows = []
    for i in range(n):
        row = [
            str(i + 1),
            sentence.tokens[i],
            lemmas[i],
            kept("plemmas", lemmas)[i],
            pos[i],
            kept("ppos", pos)[i],
            kept("feats", ["_"] * n)[i],
            kept("pfeats", ["_"] * n)[i],
            heads[i],
            kept("pheads", heads)[i],
            deprels[i],
            kept("pdeprels", deprels)[i],
            fillpred[i],
            senses[i],
        ]
        rows.append(row + [cells[i] for cells in apreds])
    return rows


def write_conll2009(sentences: Iterable[SrlSentence], path: str) -> int:
    """Write sentences as a CoNLL-2009 file (atomically), tab-separated as eval09.pl expects."""
    count = 0
    with atomic_write(path) as handle:
        for sentence in sentences:
            for row in conll2009_rows(sentence):
                handle.write("\t".join(row) + "\n")
            handle.write("\n")
            count += 1
    return count
