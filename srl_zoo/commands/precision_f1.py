"""The F1 of an archive per precision (float32, bfloat16 autocast, int8 linear layers) on a gold file:
what `srl-zoo export --measure-precision` records in the archive, so that `precision="auto"` takes
bfloat16 only where it keeps the F1 (`srl_zoo.nn.precision`)."""

import logging
from typing import Union

from srl_zoo.archives import load_model_archive
from srl_zoo.commands.evaluation_loop import score_predictions
from srl_zoo.data.format_detection import reader_for_file
from srl_zoo.metrics import SrlSpanF1
from srl_zoo.nn.inference_speed import bfloat16_autocast, quantize_linear_layers

logger = logging.getLogger(__name__)

#: the precisions measured, in this order
MEASURED = ("float32", "bfloat16", "int8")


def measure_f1_per_precision(
    archive_path: str, gold_file: str, batch_size: int = 64
) -> dict[str, Union[None, int, float]]:
    """srl_zoo's F1 (= srl-eval.pl's) of the CPU model of `archive_path` on `gold_file` (at the predicates
    its config says, gold by default) in each precision, rounded to 2 decimals, and the sentences scored;
    None for a precision the model cannot run in here (e.g. no bfloat16 LSTM without AVX-512 BF16)."""
    measured: dict[str, Union[None, int, float]] = {}
    for precision in MEASURED:
        archive = load_model_archive(archive_path)
        model = archive.model
        if precision == "int8":
            quantize_linear_layers(model)
        reader = reader_for_file(archive.validation_dataset_reader, model.vocab, gold_file)
        try:
            with bfloat16_autocast(precision == "bfloat16", "cpu"):
                gold, _, scores = score_predictions(model, reader, gold_file, batch_size, SrlSpanF1())
        except RuntimeError as error:
            logger.warning("%s: %s cannot run here: %s", archive_path, precision, str(error).splitlines()[0])
            measured[precision] = None
            continue
        measured[precision] = round(100 * scores["f1-measure-overall"], 2)
        measured["sentences"] = len(gold)
    return measured
