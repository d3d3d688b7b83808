"""SRL metrics with the official scorers' semantics, and a wrapper to run srl-eval.pl itself."""

from srl_zoo.metrics.conll2009_f1 import Conll2009F1, normalized_sense, semantic_dependencies
from srl_zoo.metrics.predicate_f1 import PredicateF1
from srl_zoo.metrics.srl_eval import SrlEvalResult, find_srl_eval, run_srl_eval
from srl_zoo.metrics.srl_span_f1 import SrlSpanF1, argument_units, compare_frame, frames_by_position
