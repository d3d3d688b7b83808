// DeepAtt-GLU for a 30-minute CPU budget plus the predicate identification head.
// Needs SRL_BUDGET_MINUTES.
local budget = import 'cpu_budget.libsonnet';
budget('glu', { predicate_identification: true })
