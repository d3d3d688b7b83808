"""Line reading with file/line-aware errors, bracket columns, and atomic file writing."""

import contextlib
import gzip
import os
import re
import tempfile
import zlib
from collections.abc import Iterator, Sequence
from typing import IO, Optional

from srl_zoo.data.formats.sentence import ConllFormatError, SrlSpan

Line = tuple[int, list[str]]  # (1-based line number, whitespace-split columns)

#: the byte-order mark, which the readers drop before a line's first cell
BYTE_ORDER_MARK = "\ufeff"
_BOM = BYTE_ORDER_MARK.encode()
#: `atomic_write`'s temporary files are `.tmp-NAME.RANDOM` next to NAME
TEMPORARY_PREFIX = ".tmp-"
_BRACKET_CELL = re.compile(r"^((?:\([^()*\s]+)*)\*((?:[^()*\s]*\))*)$")
_OPEN = re.compile(r"\(([^()*\s]+)")
_CLOSE = re.compile(r"([^()*\s]*)\)")


def iter_lines(path: str) -> Iterator[tuple[int, str]]:
    """Yield `(line_number, text)` for each line of `path`, decoded as UTF-8 (gzip-compressed if it ends in `.gz`).

    Raises `ConllFormatError` for a missing file, an empty file, a broken gzip stream, bad UTF-8 or a
    last line without a line end (what a file cut short looks like; no reader may take the cut line
    for a whole one).
    """
    if not os.path.exists(path):
        raise ConllFormatError(path, None, "no such file")
    if os.path.isdir(path):
        raise ConllFormatError(path, None, "is a directory, expected a file")
    seen_content = False
    unterminated_line = None
    for number, raw, ending in numbered_raw_lines(path):
        unterminated_line = None if ending or not raw.strip() else number
        raw = _without_leading_bom(raw)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ConllFormatError(path, number, f"invalid UTF-8 at byte {error.start} of the line") from None
        if text.strip():
            seen_content = True
        yield number, text
    if unterminated_line is not None:
        raise ConllFormatError(
            path,
            unterminated_line,
            "the last line has no line end: the file looks cut short (if it is whole, end it with a newline)",
        )
    if not seen_content:
        raise ConllFormatError(path, None, "file is empty: expected at least one sentence")


def _without_leading_bom(raw: bytes) -> bytes:
    """`raw` without a byte-order mark that begins its first cell: the file's, each joined file's (`cat` keeps
    them), or one after leading blanks, which a writer would otherwise put first on a line, where it reads as
    the file's own mark (a token would lose it between a read and a write)."""
    blanks, rest = b"", raw
    while True:  # marks and blanks in any order before the first cell: keep the blanks, drop the marks
        cells = rest.lstrip(b" \t")
        if not cells.startswith(_BOM):
            return blanks + rest
        blanks, rest = blanks + rest[: len(rest) - len(cells)], cells[len(_BOM) :]


def open_binary(path: str) -> IO[bytes]:
    """`path` opened for binary reading, decompressed on the fly when its name ends in `.gz`."""
    handle: IO[bytes] = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")  # type: ignore[assignment]  # noqa: SIM115
    return handle  # GzipFile is a binary IO, which typeshed does not say


def numbered_raw_lines(path: str) -> Iterator[tuple[int, bytes, bytes]]:
    """`(1-based number, line, ending)` of every line of `path` (decompressed when it ends in `.gz`): the
    one way this package splits a file into lines (`numbered_lines_of`). A broken gzip stream is a
    `ConllFormatError` at the line it reached."""
    number = 0
    with open_binary(path) as handle:
        try:
            for number, line, ending in numbered_lines_of(handle):
                yield number, line, ending
        # gzip.BadGzipFile is an OSError, a truncated stream an EOFError, a corrupt one a zlib.error
        except (OSError, EOFError, zlib.error) as error:
            raise ConllFormatError(path, number + 1, f"cannot decompress: {error}") from None


def numbered_lines_of(handle: IO[bytes], first_number: int = 1) -> Iterator[tuple[int, bytes, bytes]]:
    """`(number, line, ending)` of every line read from `handle`, numbered from `first_number`. `\n`, `\r\n`
    and a lone `\r` (old Mac files) all end a line; `ending` is the bytes that did (`b""` for a last line without
    one), so `line + ending` over all lines is the bytes read."""
    number = first_number - 1
    for raw in handle:
        pieces = raw.split(b"\r")
        if pieces[-1] in (b"", b"\n") and len(pieces) > 1:  # `...\r\n` or `...\r`: ends the last piece
            last = pieces.pop()
            pieces[-1] += b"\r" + last
        for k, piece in enumerate(pieces):
            number += 1
            if k < len(pieces) - 1:
                yield number, piece, b"\r"
            else:
                line = piece.rstrip(b"\r\n")
                yield number, line, piece[len(line) :]


def iter_blocks(lines: Iterator[tuple[int, str]], separator: Optional[str] = None) -> Iterator[list[Line]]:
    """Group lines into sentences separated by blank lines; columns split on `separator`."""
    block: list[Line] = []
    for number, text in lines:
        if not text.strip():
            if block:
                yield block
                block = []
            continue
        columns = text.rstrip().split(separator) if separator else text.split()
        block.append((number, columns))
    if block:
        yield block


def is_bracket_cell(cell: str) -> bool:
    """Whether `cell` is a CoNLL bracket cell (`*`, `(A0*`, `*)`, `(V*)`, a parse bit such as `(S(NP*`)."""
    return _BRACKET_CELL.match(cell) is not None


def parse_bracket_column(cells: Sequence[str], line_numbers: Sequence[int], path: str) -> list[SrlSpan]:
    """Parse a CoNLL bracket column (`(A0*`, `*`, `*)`, `(V*)`) into labeled spans.

    Spans come out sorted by start (and longer first), nested spans are kept.
    """
    open_spans: list[tuple[str, int, int]] = []  # (label, start, line of start)
    spans: list[SrlSpan] = []
    for position, (cell, line) in enumerate(zip(cells, line_numbers, strict=False)):
        match = _BRACKET_CELL.match(cell)
        if match is None:
            raise ConllFormatError(
                path, line, f"bad argument cell {cell!r}: expected '(LABEL*', '*', '*)' or '(LABEL*)'"
            )
        opens, closes = match.groups()
        for label in _OPEN.findall(opens):
            open_spans.append((label, position, line))
        for label in _CLOSE.findall(closes):
            if not open_spans:
                raise ConllFormatError(path, line, f"unbalanced brackets: {cell!r} closes a span that was never opened")
            open_label, start, _ = open_spans.pop()
            if label and label != open_label:
                raise ConllFormatError(
                    path, line, f"unbalanced brackets: {cell!r} closes {label!r} but {open_label!r} is open"
                )
            spans.append(SrlSpan(open_label, start, position))
    if open_spans:
        label, _, line = open_spans[-1]
        raise ConllFormatError(path, line, f"unbalanced brackets: span {label!r} opened here is never closed")
    spans.sort(key=lambda span: (span.start, -span.end))
    return spans


def check_predicate_span(
    spans: Sequence[SrlSpan], row: int, line_numbers: Sequence[int], path: str, column_name: str
) -> None:
    """`ConllFormatError` unless the column has exactly one `V` span and its predicate's `row` lies in
    that span or in one of its `C-V` pieces (as in "flip-flopped": `V` on flip, `C-V` on flopped)."""
    verbs = [span for span in spans if span.label == "V"]
    if not verbs:
        raise ConllFormatError(path, line_numbers[row], f"{column_name} has no V span for the predicate on this line")
    if len(verbs) > 1:
        raise ConllFormatError(
            path, line_numbers[verbs[1].start], f"{column_name} has a second V span: one predicate per column"
        )
    if not any(span.start <= row <= span.end for span in spans if span.label in ("V", "C-V")):
        raise ConllFormatError(
            path,
            line_numbers[verbs[0].start],
            f"{column_name}'s V span is here, not on its predicate's line {line_numbers[row]}",
        )


def format_bracket_column(spans: Sequence[SrlSpan], num_tokens: int) -> list[str]:
    """Write labeled spans as a CoNLL bracket column (inverse of `parse_bracket_column`)."""
    opens = [""] * num_tokens
    closes = [""] * num_tokens
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        opens[span.start] += "(" + span.label
        closes[span.end] += ")"
    return [opens[i] + "*" + closes[i] for i in range(num_tokens)]


def pad_columns(rows: list[list[str]], separator: str = " ") -> list[str]:
    """Right-align each column (like the official files) so the output is readable."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [separator.join(cell.rjust(width) for cell, width in zip(row, widths, strict=False)) for row in rows]


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(path: str, mode: str = "w") -> Iterator[IO]:
    """Open a temporary file next to `path` for writing (`mode` "w": UTF-8 text, "wb": bytes); rename it
    onto `path` only on success."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115  (closed below, before the rename or the removal)
        mode,
        encoding=None if "b" in mode else "utf-8",
        dir=directory,
        prefix=TEMPORARY_PREFIX + os.path.basename(path) + ".",
        delete=False,
    )
    try:
        with handle:
            yield handle
        os.chmod(handle.name, 0o666 & ~_current_umask())  # tempfile makes 0600 files; give the usual mode
        os.replace(handle.name, path)
    except BaseException:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        raise
