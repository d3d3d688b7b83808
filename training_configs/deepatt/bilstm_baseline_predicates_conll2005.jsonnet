// bilstm_baseline_conll2005 plus the predicate identification head (raw-text prediction).
// Needs SRL_BUDGET_MINUTES.
local base = import 'bilstm_baseline_conll2005.jsonnet';
base + { model+: { predicate_head: { type: 'tagger' } } }
