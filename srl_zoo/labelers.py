"""The labeler of an archive for `srl-zoo label`, `srl-zoo serve` and the spaCy component: the allennlp-free
runtime's where it builds the archive's parts, else (AMN, the `marked` transformer, ... where allennlp is installed)
`srl_zoo.load`'s. Both give what their callers ask (`srl_zoo.runtime.labeler_contract.TextLabeler`)."""

import importlib.util
from typing import Any

from srl_zoo.runtime.labeler import load as load_runtime
from srl_zoo.runtime.labeler_contract import TextLabeler
from srl_zoo.runtime.load import NotCovered


def load_labeler(archive_file: str, **settings: Any) -> TextLabeler:
    """A labeler for `archive_file` (`settings`: `cuda_device`, `batch_size`, `precision`, `min_score`); the
    runtime's `NotCovered` error where it cannot build the archive and allennlp is not installed."""
    try:
        return load_runtime(archive_file, **settings)
    except NotCovered:
        if importlib.util.find_spec("allennlp") is None:
            raise
    from srl_zoo.api import load

    return load(archive_file, **settings)
