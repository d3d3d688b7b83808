"""The input of `srl-label` as numbered chunks of lines (the unit of resumption and of sharing
between processes), and what one line asks for."""

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Union

from srl_zoo.data.formats.io_utils import numbered_raw_lines
from srl_zoo.data.formats.sentence import ConllFormatError
from srl_zoo.data.formats.sentence_blocks import parse_sentence_lines

CONLL_FORMATS = ("conll2005", "conll2012", "conll2009")
#: `conll` is any of the CoNLL formats, told from the file (`detect_format`)
INPUT_FORMATS = ("text", "jsonl", "conll") + CONLL_FORMATS
_DOCUMENT_MARKERS = (b"#begin document", b"#end document")
#: the most characters of one input line (a document) unless `--max-line-characters` says otherwise (spaCy's own
#: bound on a text, which its blank pipeline does not need: the runtime lifts it for longer ones)
MAX_LINE_CHARACTERS = 1_000_000
#: the fields of a JSONL line: a text, or the predictor's tokens with what may come with them
TEXT_FIELDS = frozenset({"text", "sentence"})
TOKEN_FIELDS = frozenset({"tokens", "predicates", "heads", "pos"})


class BadLine(ValueError):
    """An input line that cannot be labeled; the message names the file and line."""


Line = Union[str, BadLine]  # the text of a line, or why it cannot be read
Request = tuple[str, Any]  # ("text", document) or ("tokens", predictor input)


@dataclass
class Chunk:
    """Numbered input lines to label, and how far into the input they reach: `consumed` raw lines
    (blank ones included) whose bytes hash to `sha256`; `at_end` for the input's last chunk; `number`:
    the chunk's place in the input (0-based, counted from where reading started)."""

    lines: list[tuple[int, Line]]
    consumed: int
    sha256: str
    at_end: bool
    number: int = 0


def read_chunks(path: str, skip: int, size: int, first_number: int = 0, blocks: bool = False) -> Iterator[Chunk]:
    """The non-blank lines after the first `skip`, `size` at a time, and a last (maybe empty) chunk
    at the end of the input; a line that is not UTF-8 comes as a `BadLine`. Chunks are numbered from
    `first_number`. With `blocks` (CoNLL input) an item is a sentence instead of a line: consecutive
    non-blank lines (`#begin/#end document` markers separate them too), numbered by its first line,
    its lines joined by newlines; a chunk then ends on the line that ends its last sentence."""
    digest = hashlib.sha256()
    items: list[tuple[int, Line]] = []
    block: list[tuple[int, bytes]] = []
    number = 0
    chunk_number = first_number
    for number, raw, ending in numbered_raw_lines(path):
        digest.update(raw + ending)
        if number <= skip:
            continue
        separator = not raw.strip() or (blocks and raw.startswith(_DOCUMENT_MARKERS))
        if blocks and not separator:
            block.append((number, raw))
            continue
        if blocks and block:
            items.append(_decoded(block, path))
            block = []
        elif not blocks and not separator:
            items.append(_decoded([(number, raw)], path))
        if len(items) == size:
            yield Chunk(items, number, digest.hexdigest(), at_end=False, number=chunk_number)
            chunk_number += 1
            items = []
    if block:
        items.append(_decoded(block, path))
    yield Chunk(items, max(number, skip), digest.hexdigest(), at_end=True, number=chunk_number)


def line_items(raw_lines: Iterable[tuple[int, bytes, bytes]], path: str) -> list[tuple[int, Line]]:
    """The non-blank lines of `raw_lines` (`numbered_lines_of`'s) as a chunk holds them: `(number, text)`, or a
    `BadLine` for a line that is not UTF-8."""
    return [_decoded([(number, raw)], path) for number, raw, _ in raw_lines if raw.strip()]


def _decoded(raw_lines: list[tuple[int, bytes]], path: str) -> tuple[int, Line]:
    """`(first line number, the lines' text joined by newlines)`, or a `BadLine` naming the line that
    is not UTF-8."""
    texts = []
    for number, raw in raw_lines:
        try:
            texts.append(raw.decode("utf-8").rstrip("\r\n"))
        except UnicodeDecodeError as error:
            return raw_lines[0][0], BadLine(f"{path}:{number}: invalid UTF-8 at byte {error.start} of the line")
    return raw_lines[0][0], "\n".join(texts)


def parse_line(
    line: str,
    input_format: str,
    check_tokens: Any,
    path: str,
    number: int,
    max_characters: int = MAX_LINE_CHARACTERS,
) -> Request:
    """What one input line asks for; `BadLine` naming the file and line when malformed.

    # Parameters

    check_tokens : called with a pre-tokenized request; raises `ValueError` saying what is wrong.
    max_characters : a longer line is a `BadLine` (`--max-line-characters`).
    """
    if len(line) > max_characters:
        raise BadLine(
            f"{path}:{number}: {len(line):,} characters, more than the {max_characters:,} a line may have "
            "(--max-line-characters raises the limit)"
        )
    if input_format == "text":
        return ("text", line.rstrip("\n"))
    if input_format in CONLL_FORMATS:  # the file's words at the file's predicates
        lines = [(number + i, text) for i, text in enumerate(line.split("\n"))]
        try:
            sentence = parse_sentence_lines(input_format, lines, path)
        except ConllFormatError as error:
            raise BadLine(str(error)) from None
        return ("tokens", {"tokens": sentence.tokens, "predicates": [frame.index for frame in sentence.frames]})
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadLine(f"{path}:{number}: not valid JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise BadLine(f"{path}:{number}: JSON nested too deeply") from None
    if not isinstance(value, dict):
        raise BadLine(f"{path}:{number}: expected a JSON object, got {type(value).__name__}")
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        raise BadLine(f"{path}:{number}: not valid Unicode text ({error.reason}: a lone surrogate escape?)") from None
    fields = TEXT_FIELDS if TEXT_FIELDS & set(value) else TOKEN_FIELDS
    unknown = sorted(set(value) - fields)
    if unknown:
        raise BadLine(
            f"{path}:{number}: unknown fields {unknown}: expected 'text' (or 'sentence'), or 'tokens' with "
            "'predicates', 'heads' and 'pos'"
        )
    if "text" in value or "sentence" in value:
        text = value.get("text", value.get("sentence"))
        if not isinstance(text, str):
            raise BadLine(f"{path}:{number}: 'text' must be a string")
        return ("text", text)
    try:
        check_tokens(value)  # the predictor's own checks of tokens, predicates, heads
    except ValueError as error:
        raise BadLine(f"{path}:{number}: {error}") from None
    return ("tokens", value)


def bad_line(error: Exception, path: str, number: int) -> BadLine:
    """`error` (raised while reading, labeling or writing line `number`) as that line's `BadLine`."""
    if isinstance(error, BadLine):
        return error
    reason = (str(error).strip().splitlines() or [""])[0][:300]
    return BadLine(f"{path}:{number}: {type(error).__name__}{': ' + reason if reason else ''}")
