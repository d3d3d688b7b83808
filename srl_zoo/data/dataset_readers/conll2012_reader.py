"""The `conll2012` dataset reader (OntoNotes `*gold_conll`, a file or a directory tree)."""

from collections.abc import Iterator
from typing import Any, Optional

from allennlp.data import DatasetReader

from srl_zoo.data.dataset_readers.srl_reader import SrlReader
from srl_zoo.data.formats import SrlSentence, read_conll2012


@DatasetReader.register("conll2012")
class Conll2012Reader(SrlReader):
    """Reads `*gold_conll` files (a file, or every one under a directory); see `SrlReader`.

    # Parameters

    domain_identifier : `str`, optional. Only files under a directory of this name (e.g. `"nw"`).
    frameset_mismatch : `"error"` (default) or `"v_span"`: a sentence whose frameset rows and argument
        columns differ in number is rejected, or its predicates are taken from the V spans (see
        `read_conll2012`).
    """

    def __init__(
        self, domain_identifier: Optional[str] = None, frameset_mismatch: str = "error", **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._domain_identifier = domain_identifier
        self._frameset_mismatch = frameset_mismatch

    def parse(self, file_path: str) -> Iterator[SrlSentence]:
        return read_conll2012(
            file_path,
            self._domain_identifier,
            label_convention=self._label_convention,
            frameset_mismatch=self._frameset_mismatch,
        )
