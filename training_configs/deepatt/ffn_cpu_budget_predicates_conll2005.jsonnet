// DeepAtt-FFN for a 30-minute CPU budget plus the predicate identification head, so the model
// labels raw text. Needs SRL_BUDGET_MINUTES.
local budget = import 'cpu_budget.libsonnet';
budget('ffn', { predicate_identification: true })
