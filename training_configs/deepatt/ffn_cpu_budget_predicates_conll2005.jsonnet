// ffn_cpu_budget_conll2005 plus the predicate identification head, so the model labels raw text
// (predicates found by the model, not given). Needs SRL_TRAIN_DATA, SRL_DEV_DATA, SRL_BUDGET_MINUTES.
local base = import 'ffn_cpu_budget_conll2005.jsonnet';
base + { model+: { predicate_identification: true } }
