"""What `srl-zoo export` records in an archive beside the weights, as the loaded Model holds it: the F1 per
precision and the calibration of the argument scores."""

from typing import Any, Optional

from srl_zoo.analysis.calibration import SCORE_CALIBRATION_KEY
from srl_zoo.nn.precision import F1_PER_PRECISION_KEY


class ArchiveRecord:
    """The archive's record (set by loading, `read_archive_record`; the defaults where it records none)."""

    #: the divisor of the scores behind `span_log_probabilities` that calibrates them (`srl-zoo export
    #: --calibrate-scores`; 1 where the archive records none); decoding never reads it
    score_temperature: float = 1.0
    #: how `score_temperature` was chosen (`srl_zoo.commands.score_calibration.calibrate`), None if never
    score_calibration: Optional[dict[str, Any]] = None
    #: F1 per precision measured when the archive was made (`srl-zoo export --measure-precision`; None if not
    #: measured): `precision="auto"` takes bfloat16 only where it kept the F1
    f1_per_precision: Optional[dict[str, float]] = None

    def read_archive_record(self, config: dict[str, Any]) -> None:
        """Take what `srl-zoo export` recorded in the archive's `config` (the loader calls this once the weights
        are in): the F1 per precision and the score calibration with its temperature (None and 1 without)."""
        self.f1_per_precision = config.get(F1_PER_PRECISION_KEY)
        self.score_calibration = config.get(SCORE_CALIBRATION_KEY)
        if self.score_calibration is not None:
            self.score_temperature = float(self.score_calibration["temperature"])
