"""The labeler of an archive for `srl-zoo label`: the allennlp-free runtime's where it builds the archive's parts,
else (AMN, DeepAtt, LISA, ... where allennlp is installed) `srl_zoo.load`'s; both are a `CorpusLabeler`."""

import importlib.util
from typing import Any

from srl_zoo.labeling.corpus_labeler import CorpusLabeler
from srl_zoo.runtime.labeler import load as load_runtime
from srl_zoo.runtime.load import NotCovered


def load_labeler(archive_file: str, **settings: Any) -> CorpusLabeler:
    """A labeler for `archive_file` (`settings`: `cuda_device`, `batch_size`, `precision`, `min_score`); the
    runtime's `NotCovered` error where it cannot build the archive and allennlp is not installed."""
    try:
        return load_runtime(archive_file, **settings)
    except NotCovered:
        if importlib.util.find_spec("allennlp") is None:
            raise
    from srl_zoo.api import load

    return load(archive_file, **settings)
