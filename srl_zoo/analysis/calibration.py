"""How well scores are calibrated: the expected calibration error of scored predictions that are right or
wrong, and its reliability diagram."""

from collections.abc import Sequence
from typing import NamedTuple

from srl_zoo.archive_files import SCORE_CALIBRATION_KEY

__all__ = ["SCORE_CALIBRATION_KEY", "CalibrationBin", "calibration_bins", "expected_calibration_error"]


class CalibrationBin(NamedTuple):
    """Predictions whose score falls in `[low, high)` (the last bin includes 1): how many (`predictions`),
    their mean score, and the share of them that are right."""

    low: float
    high: float
    predictions: int
    mean_score: float
    accuracy: float


def calibration_bins(scores: Sequence[float], correct: Sequence[bool], bins: int = 10) -> list[CalibrationBin]:
    """Equal-width bins of `[0, 1]` with the predictions in each (empty bins included, with zeros)."""
    if len(scores) != len(correct):
        raise ValueError(f"{len(scores)} scores but {len(correct)} outcomes")
    members: list[list[int]] = [[] for _ in range(bins)]
    for i, score in enumerate(scores):
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score {i} is {score}, not a probability")
        members[min(int(score * bins), bins - 1)].append(i)
    result = []
    for b, indices in enumerate(members):
        count = len(indices)
        mean = sum(scores[i] for i in indices) / count if count else 0.0
        accuracy = sum(bool(correct[i]) for i in indices) / count if count else 0.0
        result.append(CalibrationBin(b / bins, (b + 1) / bins, count, mean, accuracy))
    return result


def expected_calibration_error(scores: Sequence[float], correct: Sequence[bool], bins: int = 10) -> float:
    """Σ over bins of (its share of predictions) × |accuracy − mean score| (0: perfectly calibrated)."""
    total = len(scores)
    if not total:
        raise ValueError("no predictions to measure calibration on")
    return sum(b.predictions / total * abs(b.accuracy - b.mean_score) for b in calibration_bins(scores, correct, bins))
