// DeepAtt-FFN for a 30-minute CPU budget (see cpu_budget.libsonnet).
// Needs SRL_TRAIN_DATA, SRL_DEV_DATA and SRL_BUDGET_MINUTES.
local budget = import 'cpu_budget.libsonnet';
budget('ffn')
