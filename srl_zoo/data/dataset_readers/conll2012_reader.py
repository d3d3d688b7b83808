"""The `conll2012` dataset reader (OntoNotes `*gold_conll`, a file or a directory tree)."""

from typing import Any, Iterator, Optional

from allennlp.data import DatasetReader

from srl_zoo.data.dataset_readers.srl_reader import SrlReader
from srl_zoo.data.formats import SrlSentence, read_conll2012


@DatasetReader.register("conll2012")
class Conll2012Reader(SrlReader):
    """Reads `*gold_conll` files (a file, or every one under a directory); see `SrlReader`.

    # Parameters

    domain_identifier : `str`, optional. Only files under a directory of this name (e.g. `"nw"`).
    """

    def __init__(self, domain_identifier: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._domain_identifier = domain_identifier

    def parse(self, file_path: str) -> Iterator[SrlSentence]:
        return read_conll2012(file_path, self._domain_identifier, label_convention=self._label_convention)
