// DeepAtt-FFN for a 30-minute CPU budget (see cpu_budget.libsonnet).
// Needs SRL_BUDGET_MINUTES.
local budget = import 'cpu_budget.libsonnet';
budget('ffn')
