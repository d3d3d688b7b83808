"""One sentence of a CoNLL file from its numbered lines, in any of the three formats (for readers of
a stream that cut the file into sentences themselves, such as `srl-label`)."""

from collections.abc import Callable

from srl_zoo.data.formats import conll2005, conll2009, conll2012
from srl_zoo.data.formats.io_utils import iter_blocks
from srl_zoo.data.formats.sentence import ConllFormatError, SrlSentence

_PARSERS: dict[str, Callable[[list, str], SrlSentence]] = {
    "conll2005": lambda block, path: conll2005._parse_block(block, path, conll2005.Conll2005Columns(), None),
    "conll2012": lambda block, path: conll2012._parse_block(block, path, None),
    "conll2009": lambda block, path: conll2009._parse_block(block, path, None),
}
_SEPARATORS = {"conll2009": "\t"}


def parse_sentence_lines(conll_format: str, lines: list[tuple[int, str]], path: str) -> SrlSentence:
    """The sentence of `lines` (`(line number, text)`, no blank line among them) as the format's reader
    reads it; `ConllFormatError` naming the file and line when malformed."""
    blocks = list(iter_blocks(iter(lines), _SEPARATORS.get(conll_format)))
    if len(blocks) != 1:
        raise ConllFormatError(path, lines[0][0] if lines else None, "expected one sentence")
    return _PARSERS[conll_format](blocks[0], path)
