"""The `conll2005` dataset reader (srlconll layout, configurable columns)."""

from collections.abc import Iterator
from typing import Any, Optional, Union

from allennlp.data import DatasetReader

from srl_zoo.data.dataset_readers.srl_reader import SrlReader
from srl_zoo.data.formats import Conll2005Columns, SrlSentence, read_conll2005


@DatasetReader.register("conll2005")
class Conll2005Reader(SrlReader):
    """Reads CoNLL-2005 files; see `SrlReader` for the Instance fields.

    # Parameters

    columns : `"srlconll"` (default: word POS parse NE target props...), `"props"`
        (srl-eval.pl's `target props...`), or a dict of 0-based positions with keys `word`, `pos`,
        `parse`, `named_entities` (each may be null), `target` and `first_props`.
    """

    def __init__(self, columns: Union[None, str, dict[str, Optional[int]]] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._columns = Conll2005Columns.from_config(columns)

    def parse(self, file_path: str) -> Iterator[SrlSentence]:
        return read_conll2005(file_path, columns=self._columns, label_convention=self._label_convention)
