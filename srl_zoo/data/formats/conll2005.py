"""CoNLL-2005 (srlconll) format: word, POS, parse, NE, target verb, one props column per predicate."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from typing import Optional, Union

from srl_zoo.data.formats.io_utils import (
    BYTE_ORDER_MARK,
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


@dataclass(frozen=True)
class Conll2005Columns:
    """0-based column positions; `None` means the file has no such column.

    The default is the srlconll layout (`word POS parse NE target props...`); `PROPS_ONLY`
    is what `srl-eval.pl` reads (`target props...`).
    """

    word: Optional[int] = 0
    pos: Optional[int] = 1
    parse: Optional[int] = 2
    named_entities: Optional[int] = 3
    target: int = 4
    first_props: int = 5

    @classmethod
    def from_config(cls, value: Union[None, str, dict[str, Optional[int]], "Conll2005Columns"]) -> "Conll2005Columns":
        """Accept a preset name (`"srlconll"`, `"props"`), a dict of positions or an instance."""
        if value is None or value == "srlconll":
            return SRLCONLL
        if value == "props":
            return PROPS_ONLY
        if isinstance(value, Conll2005Columns):
            return value
        if isinstance(value, dict):
            known = {f.name for f in fields(cls)}
            unknown = set(value) - known
            if unknown:
                raise ValueError(f"unknown CoNLL-2005 column names {sorted(unknown)}; known: {sorted(known)}")
            return cls(**value)  # type: ignore[arg-type]  # positions are checked where the columns are read
        raise ValueError(f"columns must be 'srlconll', 'props' or a dict of positions, got {value!r}")


SRLCONLL = Conll2005Columns()
PROPS_ONLY = Conll2005Columns(word=None, pos=None, parse=None, named_entities=None, target=0, first_props=1)


def read_conll2005(
    path: str,
    columns: Union[None, str, dict[str, Optional[int]], Conll2005Columns] = None,
    label_convention: Optional[str] = None,
) -> Iterator[SrlSentence]:
    """Lazily parse a CoNLL-2005 file into `SrlSentence`s (senses are not in this format)."""
    layout = Conll2005Columns.from_config(columns)
    for block in iter_blocks(iter_lines(path)):
        yield _parse_block(block, path, layout, label_convention)


def _parse_block(block, path: str, layout: Conll2005Columns, label_convention: Optional[str]) -> SrlSentence:
    first_line, first_columns = block[0]
    width = len(first_columns)
    fixed = [p for p in (layout.word, layout.pos, layout.parse, layout.named_entities, layout.target) if p is not None]
    needed = max(fixed + [layout.first_props - 1]) + 1
    for number, columns in block:
        if len(columns) != width:
            raise ConllFormatError(
                path,
                number,
                f"wrong column count: expected {width} columns like line {first_line}, found {len(columns)}",
            )
        if len(columns) < needed:
            raise ConllFormatError(
                path, number, f"wrong column count: expected at least {needed} columns, found {len(columns)}"
            )
    line_numbers = [number for number, _ in block]

    def column(position: Optional[int]) -> Optional[list[str]]:
        return None if position is None else [columns[position] for _, columns in block]

    def required(position: int) -> list[str]:
        return [columns[position] for _, columns in block]

    targets = required(layout.target)
    predicate_rows = [i for i, cell in enumerate(targets) if cell != "-"]
    num_props = width - layout.first_props
    if len(predicate_rows) != num_props:
        raise ConllFormatError(
            path,
            first_line,
            f"sentence has {len(predicate_rows)} target verbs (non-'-' cells in column {layout.target + 1}) "
            f"but {num_props} props columns: expected one props column per target verb",
        )
    frames = []
    for k, row in enumerate(predicate_rows):
        spans = parse_bracket_column(required(layout.first_props + k), line_numbers, path)
        check_predicate_span(spans, row, line_numbers, path, f"props column {layout.first_props + k + 1}")
        arguments = [SrlSpan(normalize_label(s.label, label_convention), s.start, s.end) for s in spans]
        frames.append(SrlFrame(index=row, lemma=targets[row], arguments=arguments))
    extra = {}
    if layout.named_entities is not None:
        extra["named_entities"] = required(layout.named_entities)
    tokens = column(layout.word) or ["_"] * len(block)
    return SrlSentence(
        tokens=tokens,
        pos=column(layout.pos),
        parse=column(layout.parse),
        frames=frames,
        extra=extra,
        source=f"{path}:{first_line}",
    )


def conll2005_rows(sentence: SrlSentence, props_only: bool = False) -> list[list[str]]:
    """The rows of one sentence in the srlconll layout (or `target props...` if `props_only`)."""
    n = len(sentence.tokens)
    targets = ["-"] * n
    for frame in sentence.frames:
        targets[frame.index] = frame.lemma or sentence.tokens[frame.index]
    props = [format_bracket_column(frame.arguments, n) for frame in sentence.frames]
    rows = []
    for i in range(n):
        if props_only:
            row = [targets[i]]
        else:
            row = [
                sentence.tokens[i],
                sentence.pos[i] if sentence.pos else "-",
                sentence.parse[i] if sentence.parse else "*",
                sentence.extra.get("named_entities", ["*"] * n)[i],
                targets[i],
            ]
        if row[0].startswith(BYTE_ORDER_MARK):
            cell = "token" if not props_only else "target"
            raise ValueError(
                f"{cell} {i} ({row[0]!r}) begins with a byte-order mark, which a CoNLL-2005 file cannot hold first "
                "on a line (its readers drop it there, as `cat` leaves one): remove it"
            )
        rows.append(row + [column[i] for column in props])
    return rows


def write_conll2005(sentences: Iterable[SrlSentence], path: str, props_only: bool = False) -> int:
    """Write sentences as a CoNLL-2005 file (atomically); `props_only` gives srl-eval.pl's input.

    Returns the number of sentences written.
    """
    count = 0
    with atomic_write(path) as handle:
        for sentence in sentences:
            for line in pad_columns(conll2005_rows(sentence, props_only)):
                handle.write(line + "\n")
            handle.write("\n")
            count += 1
    return count
