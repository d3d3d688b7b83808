// The best 30-minute one-thread CPU recipe (cpu_budget.libsonnet) on CoNLL-2005 files.
// Needs SRL_GLOVE (empty: random vectors) and SRL_BUDGET_MINUTES. Data: the bundled EWT data unless
// SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local recipe = import 'cpu_budget.libsonnet';
recipe('conll2005')
