"""The `srl` Predictor."""

from srl_zoo.predictors.srl_predictor import SrlPredictor
