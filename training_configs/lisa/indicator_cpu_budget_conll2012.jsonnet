// The same transformer as lisa_cpu_budget_conll2012, scored DeepAtt-style with the `indicator` frame
// scorer (one encoder row per predicate, predicate-mask embedding; no syntax or POS/predicate head):
// the baseline of the one-pass speed comparison in docs/benchmarks.md.
local budget = import 'cpu_budget.libsonnet';
budget('conll2012', { frame_scorer: 'indicator' })
