// LISA under a 30-minute CPU budget on conll2012 (see cpu_budget.libsonnet). Needs
// SRL_TRAIN_TREES, SRL_DEV_TREES and SRL_BUDGET_MINUTES.
local budget = import 'cpu_budget.libsonnet';
budget('conll2012')
