"""Training helpers: a wall-clock time budget, bfloat16 autocast, and DeepAtt's step-halving schedule."""

from srl_zoo.training.mixed_precision import MixedPrecisionCallback
from srl_zoo.training.nadam import NadamOptimizer
from srl_zoo.training.step_halving import StepHalvingScheduler
from srl_zoo.training.throughput import ThroughputCallback
from srl_zoo.training.time_budget import TimeBudgetCallback
