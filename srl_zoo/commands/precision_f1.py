"""The F1 of an archive per precision (float32; bfloat16 autocast; int8: its transformer's graph with int8
weights, through each installed engine: ONNX Runtime under `int8`, OpenVINO under `int8 openvino 128`), measured
through the runtime that labels (`srl_zoo.load`) on a gold file: what `srl-zoo export --measure-precision` records
in the archive, so that `precision="auto"` takes a faster precision only where it keeps the F1
(`srl_zoo.nn.precision`)."""

import logging
from collections.abc import Sequence
from typing import Any, Optional, Union

import torch

from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.data.formats.labels import convention_of, normalize_label
from srl_zoo.data.formats.sentence import SrlFrame, SrlSpan, bio_to_spans
from srl_zoo.metrics import SrlSpanF1
from srl_zoo.nn.precision import int8_key

logger = logging.getLogger(__name__)

#: the precisions measured, in this order
MEASURED = ("float32", "bfloat16", "int8")


def _measured_runs() -> list[tuple[str, str, Optional[str]]]:
    """(record key, precision, int8 engine) of each measurement: int8 once per installed engine (once, recorded
    as not run, without any)."""
    from srl_zoo.runtime.int8_encoder import installed_int8_engines

    runs: list[tuple[str, str, Optional[str]]] = [(p, p, None) for p in MEASURED if p != "int8"]
    engines = installed_int8_engines()
    return runs + ([(int8_key(e), "int8", e) for e in reversed(engines)] if engines else [("int8", "int8", None)])


def measure_f1_per_precision(
    archive_path: str, gold_file: str, batch_size: int = 64
) -> dict[str, Union[None, int, float]]:
    """srl_zoo's F1 (= srl-eval.pl's) of `archive_path` labeling `gold_file` at its gold predicates through the
    runtime on the CPU, in each precision (int8 through each installed engine), rounded to 2 decimals, and the
    sentences scored; None for a precision the model cannot run in here (int8 without ONNX Runtime, or for a model
    whose words are not a transformer's)."""
    from srl_zoo.runtime.labeler import load

    gold = list(READERS[detect_format(gold_file)](gold_file))
    measured: dict[str, Union[None, int, float]] = {}
    for key, precision, engine in _measured_runs():
        try:
            labeler = load(
                archive_path, batch_size=batch_size, precision=precision, readable_frames=False, int8_engine=engine
            )
            with torch.inference_mode():
                labeled = list(labeler.label_file(gold_file))
        except (ImportError, RuntimeError, ValueError) as error:
            logger.warning("%s: %s cannot run here: %s", archive_path, key, str(error).splitlines()[0])
            measured[key] = None
            continue
        measured[key] = round(100 * span_f1(gold, labeled), 2)
        measured["sentences"] = len(gold)
    return measured


def measure_graph_f1(archive_path: str, gold_file: str, batch_size: int = 64) -> dict[str, Union[None, int, float]]:
    """srl_zoo's F1 of the inference graphs of `archive_path` (float32 and int8, `srl_zoo.graphs`) labeling
    `gold_file` at its gold predicates, rounded to 2 decimals, and the sentences scored; None for a precision the
    archive has no graphs of: what `srl-zoo export --graphs --measure-precision` records in its graphs' manifest."""
    from srl_zoo.graphs.labeler import load as load_graphs

    gold = list(READERS[detect_format(gold_file)](gold_file))
    measured: dict[str, Union[None, int, float]] = {}
    for precision in ("float32", "int8"):
        labeler = load_graphs(archive_path, batch_size=batch_size, precision=precision, readable_frames=False)
        labeled = None if labeler is None else list(labeler.label_file(gold_file))
        measured[precision] = None if labeled is None else round(100 * span_f1(gold, labeled), 2)
    measured["sentences"] = len(gold)
    return measured


def span_f1(gold: Sequence[Any], labeled: Sequence[dict[str, Any]]) -> float:
    """srl_zoo's span F1 (a fraction) of the runtime's `labeled` sentences against the `gold` `SrlSentence`s (the
    labels respelled as the gold file spells them: `A0` or `ARG0`)."""
    convention = convention_of(span.label for sentence in gold for frame in sentence.frames for span in frame.arguments)

    def spans(tags: list[str]) -> list[SrlSpan]:
        return [SrlSpan(normalize_label(s.label, convention), s.start, s.end) for s in bio_to_spans(tags)]

    metric = SrlSpanF1()
    metric.score_sentences(
        [{frame.index: frame for frame in sentence.frames} for sentence in gold],
        [
            {
                frame["predicate"]["index"]: SrlFrame(frame["predicate"]["index"], arguments=spans(frame["tags"]))
                for frame in sentence["frames"]
            }
            for sentence in labeled
        ],
    )
    return metric.get_metric(reset=True)["f1-measure-overall"]
