"""Choosing the temperature of the scores: least ECE overall, and each half's choice checked on the other."""

import pytest

from srl_zoo.commands.score_calibration import Outcome, argument_outcomes, calibrate
from srl_zoo.data.formats import SrlFrame, SrlSentence, SrlSpan


def overconfident(temperature: float) -> list[Outcome]:
    """Outcomes that are right 70% of the time, scored 0.95 at temperature 1 and lower as it grows."""
    score = 0.95 ** (temperature**3)
    return [Outcome(sentence, score, sentence % 10 < 7) for sentence in range(100)]


def test_the_temperature_of_least_ece_is_chosen_and_checked_held_out():
    calibration = calibrate(overconfident, 100, temperatures=(1.0, 1.5, 2.0, 2.5, 3.0))
    by_temperature = {t: abs(0.95 ** (t**3) - 0.7) for t in (1.0, 1.5, 2.0, 2.5, 3.0)}
    assert calibration["temperature"] == min(by_temperature, key=by_temperature.get)
    assert calibration["ece"] == pytest.approx(by_temperature[calibration["temperature"]], abs=1e-4)
    assert calibration["ece_at_temperature_1"] == pytest.approx(0.25, abs=1e-4)
    assert {entry["temperature"] for entry in calibration["held_out"].values()} == {calibration["temperature"]}


def test_an_argument_is_right_when_its_role_and_span_are_gold():
    gold = [
        SrlSentence(tokens=["a", "b", "c"], frames=[SrlFrame(1, arguments=[SrlSpan("ARG0", 0, 0), SrlSpan("V", 1, 1)])])
    ]
    output = {
        "frames": [
            {
                "predicate": {"index": 1},
                "arguments": [
                    {"role": "ARG0", "start": 0, "end": 0, "score": 0.9},
                    {"role": "V", "start": 1, "end": 1, "score": 1.0},
                    {"role": "ARG1", "start": 2, "end": 2, "score": 0.4},
                ],
            }
        ]
    }
    assert argument_outcomes(gold, [output]) == [Outcome(0, 0.9, True), Outcome(0, 0.4, False)]
