// The sa_baseline (no syntax head) under the same 30-minute CPU budget as lisa_cpu_budget_conll2012.
local budget = import 'cpu_budget.libsonnet';
budget('conll2012', { parse_layer: null })
