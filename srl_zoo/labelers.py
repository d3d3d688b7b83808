"""The labeler of an archive: the allennlp-free runtime's where it builds the archive's parts, else (AMN, the `marked`
transformer, ... where allennlp is installed) the allennlp `Labeler` (`srl_zoo.api`). Both give what their callers
ask (`srl_zoo.front.labeler_contract.TextLabeler`): `srl_zoo.load`, `srl-zoo label`, `srl-zoo serve` and the spaCy
component load through here."""

import importlib.util
from typing import Any

from srl_zoo.archive_cache import extracted_archive
from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.graphs.labeler import load_from_folder as load_graphs

#: the settings the runtime takes beyond `cuda_device`, `batch_size` and `precision`; any other (allennlp config
#: `overrides`, the `srl` predictor's `output_format`, `mixed_precision`, ...) asks for the allennlp `Labeler`
RUNTIME_OPTIONS = frozenset({"language", "readable_frames", "min_score", "max_batch_characters"})


def load(
    archive_file: str,
    cuda_device: int = -1,
    batch_size: int = 64,
    precision: str = "auto",
    overrides: str = "",
    **options: Any,
) -> TextLabeler:
    """A labeler for a trained srl_zoo model archive (`model.tar.gz`): `labeler(text)`, `labeler.pipe(texts)`,
    `label_tokenized`, `label_file`.

    # Parameters

    archive_file : path of the archive.
    cuda_device : -1 for the CPU, else the GPU's index.
    batch_size : sentences per model call.
    precision : `"auto"` (the fastest precision the machine runs natively that the archive records within 0.1 F1
        of float32, else float32: `srl_zoo.nn.precision`), `"float32"`, `"bfloat16"` or `"int8"` (the runtime's);
        `labeler.precision` says which is used, `labeler.precision_reason` why.
    overrides : allennlp config overrides (a JSON string): labels with the allennlp `Labeler` (`srl_zoo.api.load`).
    options : `language`, `readable_frames`, `min_score`, `max_batch_characters`; any other is the `srl`
        predictor's (e.g. `output_format`) and labels with the allennlp `Labeler`.

    The runtime's `RuntimeLabeler` (no allennlp imported) labels every archive it builds; the allennlp `Labeler`
    (with its `predictor`) the others, and where `overrides` or a predictor's option ask for it.
    """
    if overrides or set(options) - RUNTIME_OPTIONS:
        from srl_zoo.api import load as load_with_allennlp

        return load_with_allennlp(archive_file, cuda_device, batch_size, overrides, precision, **options)
    return load_labeler(archive_file, cuda_device=cuda_device, batch_size=batch_size, precision=precision, **options)


def load_labeler(archive_file: str, **settings: Any) -> TextLabeler:
    """A labeler for `archive_file` (`settings`: `cuda_device`, `batch_size`, `precision`, `min_score`): its
    inference graphs' (no torch) on the CPU where it has graphs of the precision asked for (`auto`: float32, or int8
    where the archive records it keeps the F1: `srl_zoo.graphs.graph_precision`), else the torch runtime's; the
    runtime's `NotCovered` error where it cannot build the archive and allennlp is not installed. An archive that
    no loader takes leaves nothing in the cache."""
    on_cpu = settings.get("cuda_device", -1) < 0
    with extracted_archive(archive_file) as folder:  # once, for both loaders
        if on_cpu:  # the graphs' labeler where they run the precision asked for
            graph_settings = {key: value for key, value in settings.items() if key != "cuda_device"}
            labeler = load_graphs(archive_file, folder, **graph_settings)
            if labeler is not None:
                return labeler
        from srl_zoo.runtime.labeler import load_from_folder as load_runtime
        from srl_zoo.runtime.load import NotCovered

        try:
            return load_runtime(archive_file, folder, **settings)
        except NotCovered:
            if importlib.util.find_spec("allennlp") is None:
                raise
        from srl_zoo.api import load as load_with_allennlp

        return load_with_allennlp(archive_file, **settings)  # in the block: an archive allennlp refuses is not kept
