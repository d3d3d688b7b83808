"""Training helpers: a wall-clock time budget callback and DeepAtt's step-halving schedule."""
from srl_zoo.training.step_halving import StepHalvingScheduler
from srl_zoo.training.time_budget import TimeBudgetCallback
