"""Pure-Python readers and writers for the CoNLL-2005, CoNLL-2012 and CoNLL-2009 SRL formats."""

from collections.abc import Callable, Iterator

from srl_zoo.data.formats.conll2005 import Conll2005Columns, read_conll2005, write_conll2005
from srl_zoo.data.formats.conll2009 import read_conll2009, write_conll2009
from srl_zoo.data.formats.conll2012 import read_conll2012, write_conll2012
from srl_zoo.data.formats.labels import normalize_label
from srl_zoo.data.formats.sentence import (
    ConllFormatError,
    SrlFrame,
    SrlSentence,
    SrlSpan,
    bio_to_spans,
    spans_to_bio,
)

#: format name → its reader (`path, **options → sentences`) and writer (`sentences, path, **options`)
READERS: dict[str, Callable[..., Iterator[SrlSentence]]] = {
    "conll2005": read_conll2005,
    "conll2012": read_conll2012,
    "conll2009": read_conll2009,
}
WRITERS: dict[str, Callable[..., int]] = {
    "conll2005": write_conll2005,
    "conll2012": write_conll2012,
    "conll2009": write_conll2009,
}
