"""Which CoNLL format a file is in, told from its first lines (no model, no allennlp)."""

from typing import Optional

from srl_zoo.data.formats.io_utils import is_bracket_cell, iter_lines
from srl_zoo.data.formats.sentence import ConllFormatError

FORMATS = ("conll2005", "conll2012", "conll2009")
SPAN_FORMATS = ("conll2005", "conll2012")
_SAMPLE_LINES = 200


def detect_format(path: str) -> str:
    """`conll2005`, `conll2012` or `conll2009`, from the first lines of `path`; `ConllFormatError` when
    they fit none or more than one.

    CoNLL-2012: `#begin document` markers, or 12+ space-separated columns whose third is the word
    number. CoNLL-2009: tab-separated rows of 14+ columns whose first is the token ID. CoNLL-2005:
    space-separated rows with bracket cells (`*`, `(A0*`, parse bits), or `-` last (no predicate).
    """
    rows: list[str] = []
    for _, text in iter_lines(path):
        if text.startswith("#begin document"):
            return "conll2012"
        if text.strip():
            rows.append(text)
        if len(rows) >= _SAMPLE_LINES:
            break
    tests = (("conll2012", _is_2012), ("conll2009", _is_2009), ("conll2005", _is_2005))
    fits = [name for name, test in tests if all(test(row) for row in rows)]
    if len(fits) != 1:
        found = " or ".join(fits) if fits else "none of CoNLL-2005, 2012 and 2009"
        reason = f"cannot tell the format from the first lines (they fit {found}): name it with --format"
        raise ConllFormatError(path, None, reason)
    return fits[0]


def conll_format_of(path: str) -> Optional[str]:
    """The CoNLL format the first lines of `path` fit, or None (plain text, JSON, or a file that cannot
    be read as CoNLL at all)."""
    try:
        return detect_format(path)
    except ConllFormatError:
        return None


def _is_2012(row: str) -> bool:
    columns = row.split()
    return len(columns) >= 12 and columns[2].isdigit() and "\t" not in row.strip()


def _is_2009(row: str) -> bool:
    columns = row.split("\t")
    return len(columns) >= 14 and columns[0].isdigit()


def _is_2005(row: str) -> bool:
    """A row with a bracket cell (`*`, `(A0*`, a parse bit) or, in a sentence without predicates, `-` last."""
    columns = row.split()
    if "\t" in row.strip() or _is_2012(row):
        return False
    return columns[-1] == "-" or any(is_bracket_cell(cell) for cell in columns[1:])
