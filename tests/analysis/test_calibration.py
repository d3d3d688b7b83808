"""Expected calibration error against a hand computation, and the reliability diagram written."""

import pytest

from srl_zoo.analysis.calibration import calibration_bins, expected_calibration_error
from srl_zoo.analysis.plots import plot_reliability


def test_ece_by_hand():
    # bin [0.9, 1]: scores 0.95, 0.95, 1.0 (mean 0.9667), 2 of 3 right; bin [0.2, 0.3): 0.25, wrong
    scores, right = [0.95, 0.95, 1.0, 0.25], [True, True, False, False]
    expected = 3 / 4 * abs(2 / 3 - (0.95 + 0.95 + 1.0) / 3) + 1 / 4 * abs(0.0 - 0.25)
    assert expected_calibration_error(scores, right) == pytest.approx(expected)
    bins = calibration_bins(scores, right)
    assert [b.predictions for b in bins] == [0, 0, 1, 0, 0, 0, 0, 0, 0, 3]


def test_perfect_calibration_scores_zero_and_bad_input_is_refused():
    assert expected_calibration_error([0.5, 0.5, 1.0], [True, False, True]) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="not a probability"):
        calibration_bins([1.5], [True])
    with pytest.raises(ValueError, match="2 scores but 1"):
        calibration_bins([0.1, 0.2], [True])
    with pytest.raises(ValueError, match="no predictions"):
        expected_calibration_error([], [])


def test_the_reliability_diagram_is_a_png(tmp_path):
    path = tmp_path / "reliability.png"
    plot_reliability(calibration_bins([0.1, 0.9, 0.95], [False, True, True]), str(path), "test")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
