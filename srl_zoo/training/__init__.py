"""Training helpers: a wall-clock time budget, bfloat16 autocast, DeepAtt's step-halving schedule, an
atomic checkpointer, and transformer files carried into the archive."""

from srl_zoo.training.atomic_checkpointer import AtomicCheckpointer, make_default
from srl_zoo.training.epoch_summary import EpochSummaryCallback
from srl_zoo.training.exact_resume_trainer import ExactResumeTrainer
from srl_zoo.training.mixed_precision import MixedPrecisionCallback
from srl_zoo.training.nadam import NadamOptimizer
from srl_zoo.training.step_halving import StepHalvingScheduler
from srl_zoo.training.throughput import ThroughputCallback
from srl_zoo.training.time_budget import TimeBudgetCallback
from srl_zoo.training.transformer_files import TransformerFilesCallback
