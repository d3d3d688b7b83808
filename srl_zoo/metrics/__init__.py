"""SRL metrics with the official scorers' semantics, and a wrapper to run srl-eval.pl itself."""
from srl_zoo.metrics.srl_eval import SrlEvalResult, find_srl_eval, run_srl_eval
