"""Calibrating a model's argument scores on a gold file (what `srl-zoo export --calibrate-scores` records in
the archive): the temperature that divides the output layer's scores before they become probabilities,
chosen on one half of the sentences and checked on the other (expected calibration error, ECE)."""

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from srl_zoo.analysis.calibration import SCORE_CALIBRATION_KEY, expected_calibration_error

__all__ = ["SCORE_CALIBRATION_KEY", "calibrate", "calibrate_archive"]
#: the temperatures tried (1: the model's own probabilities)
TEMPERATURES = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)


class Outcome(NamedTuple):
    """One predicted argument of a gold file: its sentence's number, its score, whether it is a gold one."""

    sentence: int
    score: float
    right: bool


#: labels the gold file with the scores divided by a temperature: every predicted argument's outcome
Labeled = Callable[[float], Sequence[Outcome]]


def argument_outcomes(gold: Sequence[Any], outputs: Sequence[dict[str, Any]]) -> list[Outcome]:
    """Each predicted argument (not `V`) of `outputs` (the `srl` predictor's, at the gold predicates of the
    `SrlSentence`s `gold`) with whether its role and span are a gold argument of its predicate."""
    outcomes = []
    for number, (sentence, output) in enumerate(zip(gold, outputs, strict=True)):
        spans = {f.index: {(a.label, a.start, a.end) for a in f.arguments} for f in sentence.frames}
        for frame in output["frames"]:
            for argument in frame["arguments"]:
                if argument["role"] != "V":
                    right = (argument["role"], argument["start"], argument["end"]) in spans.get(
                        frame["predicate"]["index"], set()
                    )
                    outcomes.append(Outcome(number, argument["score"], right))
    return outcomes


def ece_of(outcomes: Sequence[Outcome]) -> float:
    return expected_calibration_error([o.score for o in outcomes], [o.right for o in outcomes])


def calibrate(labeled: Labeled, sentences: int, temperatures: Sequence[float] = TEMPERATURES) -> dict[str, Any]:
    """The temperature of least ECE on all sentences, and the held-out check: the temperature chosen on each
    half of the sentences, with its ECE on the other half.

    # Parameters

    labeled : the file's outcomes at a temperature (the model runs once per temperature).
    sentences : how many sentences the file has (the halves split at half of them).
    """
    half = sentences // 2
    by_temperature = {t: list(labeled(t)) for t in temperatures}
    halves = {
        "first": lambda o: o.sentence < half,
        "second": lambda o: o.sentence >= half,
    }
    ece = {
        t: {name: ece_of([o for o in outcomes if keep(o)]) for name, keep in halves.items()} | {"all": ece_of(outcomes)}
        for t, outcomes in by_temperature.items()
    }
    held_out = {}
    for fitted_on, checked_on in (("first", "second"), ("second", "first")):
        chosen = min(temperatures, key=lambda t: ece[t][fitted_on])
        held_out[f"fitted on the {fitted_on} half, ECE on the {checked_on}"] = {
            "temperature": chosen,
            "ece": round(ece[chosen][checked_on], 4),
        }
    best = min(temperatures, key=lambda t: ece[t]["all"])
    return {
        "temperature": best,
        "ece": round(ece[best]["all"], 4),
        "ece_at_temperature_1": round(ece[1.0]["all"], 4) if 1.0 in ece else None,
        "held_out": held_out,
        "arguments": len(by_temperature[best]),
        "sentences": sentences,
    }


def calibrate_archive(archive_path: str, gold_file: str, batch_size: int = 64) -> dict[str, Any]:
    """`calibrate` the CPU model of `archive_path` on `gold_file` (any CoNLL format, at its gold predicates)."""
    from srl_zoo.api import load
    from srl_zoo.data.format_detection import detect_format, label_convention_of
    from srl_zoo.data.formats import READERS
    from srl_zoo.data.formats.labels import normalize_label
    from srl_zoo.data.gold_requests import as_request

    predictor = load(archive_path, precision="float32", readable_frames=False).predictor
    model = predictor.model
    convention = label_convention_of(model.vocab)
    gold = list(READERS[detect_format(gold_file)](gold_file))
    for sentence in gold:  # in the model's label spelling
        for frame in sentence.frames:
            frame.arguments = [replace(span, label=normalize_label(span.label, convention)) for span in frame.arguments]
    order = sorted(range(len(gold)), key=lambda i: len(gold[i]))

    def labeled(temperature: float) -> list[Outcome]:
        model.score_temperature = temperature
        outputs: list[dict[str, Any]] = [{} for _ in gold]
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            for i, output in zip(
                chunk, predictor.predict_batch_json([as_request(gold[i]) for i in chunk]), strict=True
            ):
                outputs[i] = output
        return argument_outcomes(gold, outputs)

    return calibrate(labeled, len(gold)) | {"file": gold_file.rsplit("/", 1)[-1]}
