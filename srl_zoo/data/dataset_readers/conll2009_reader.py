"""The `conll2009` dataset reader (dependency SRL: arguments on head words)."""

from collections.abc import Iterator

from allennlp.data import DatasetReader

from srl_zoo.data.dataset_readers.srl_reader import SrlReader
from srl_zoo.data.formats import SrlSentence, read_conll2009


@DatasetReader.register("conll2009")
class Conll2009Reader(SrlReader):
    """Reads CoNLL-2009 files; each argument is a one-token `B-` tag on its head word. See `SrlReader`."""

    dependency_srl = True

    def parse(self, file_path: str) -> Iterator[SrlSentence]:
        return read_conll2009(file_path, label_convention=self._label_convention)
