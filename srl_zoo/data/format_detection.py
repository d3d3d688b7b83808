"""Which CoNLL format a file is in (`srl_zoo.data.formats.conll_kind`), and a dataset reader for it that fits
a trained model: the archive reader's token settings (lowercasing, indexers) and the model's label spelling."""

import copy
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance, Vocabulary

from srl_zoo.data.dataset_readers.srl_reader import SrlReader
from srl_zoo.data.formats.conll_kind import FORMATS, SPAN_FORMATS, conll_format_of, detect_format
from srl_zoo.data.formats.labels import convention_of

__all__ = [
    "FORMATS",
    "SPAN_FORMATS",
    "AnyFormatReader",
    "conll_format_of",
    "detect_format",
    "label_convention_of",
    "reader_for_file",
    "without_instance_limit",
]


def label_convention_of(vocab: Vocabulary, namespace: str = "labels") -> Optional[str]:
    """The label spelling a model was trained with: `"propbank"` (`ARG0`), `"conll2005"` (`A0`) or None."""
    tags = vocab.get_token_to_index_vocabulary(namespace)
    return convention_of(tag[2:] for tag in tags if tag[1:2] == "-")  # B-ARG0 -> ARG0


def reader_for_file(
    archive_reader: DatasetReader, vocab: Vocabulary, path: str, data_format: Optional[str] = None
) -> DatasetReader:
    """A reader for `path` (its format `data_format`, or detected) that gives `archive_reader`'s model
    what it was trained on: the same token indexers and the model's label spelling. The archive's
    own reader when the format is the same, without its training-only `max_instances` (a model trained
    on 300 sentences is still scored on every sentence of the file). Span data and dependency data
    (CoNLL-2009) do not mix."""
    data_format = data_format or detect_format(path)
    if data_format not in FORMATS:
        raise ConfigurationError(f"--format must be one of {', '.join(FORMATS)}, got {data_format!r}")
    trained_on = next((name for name in FORMATS if isinstance(archive_reader, DatasetReader.by_name(name))), None)
    if data_format == trained_on or not isinstance(archive_reader, SrlReader):
        return without_instance_limit(archive_reader)
    if (data_format in SPAN_FORMATS) != (trained_on in SPAN_FORMATS):
        kinds = {True: "span SRL (CoNLL-2005/2012)", False: "dependency SRL (CoNLL-2009)"}
        raise ConfigurationError(
            f"{path} is {kinds[data_format in SPAN_FORMATS]} data but the model was trained on "
            f"{kinds[trained_on in SPAN_FORMATS]}: its predictions cannot be scored against it"
        )
    reader_class = DatasetReader.by_name(data_format)
    return reader_class(
        token_indexers=archive_reader.token_indexers,  # lowercasing and the rest, as in training
        label_convention=label_convention_of(vocab),
    )


def without_instance_limit(reader: DatasetReader) -> DatasetReader:
    """`reader`, or a copy of it without `max_instances` (a training setting) if it has one."""
    if getattr(reader, "max_instances", None) is None:
        return reader
    unlimited = copy.copy(reader)
    unlimited.max_instances = None
    return unlimited


class AnyFormatReader(DatasetReader):
    """The archive's reader, except that a CoNLL file is read in its own format (detected) the way
    `reader_for_file` says: what `allennlp predict --use-dataset-reader` reads through the srl_zoo
    predictor, so a model scores a CoNLL-2005 file as well as a CoNLL-2012 one. Everything else
    (`text_to_instance`, `apply_token_indexers`, ...) is the archive reader's.

    # Parameters

    reader : the archive's dataset reader.
    vocab : the model's vocabulary (its label spelling).
    """

    def __init__(self, reader: DatasetReader, vocab: Vocabulary) -> None:
        super().__init__()
        self.reader = reader
        self.vocab = vocab

    def read(self, file_path):  # type: ignore[no-untyped-def, override]
        return reader_for_file(self.reader, self.vocab, str(file_path)).read(file_path)

    def text_to_instance(self, *inputs, **kwargs):  # type: ignore[no-untyped-def, override]
        return self.reader.text_to_instance(*inputs, **kwargs)

    def apply_token_indexers(self, instance: Instance) -> None:
        self.reader.apply_token_indexers(instance)

    def __getattr__(self, name: str) -> Any:
        if name == "reader":  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.reader, name)
