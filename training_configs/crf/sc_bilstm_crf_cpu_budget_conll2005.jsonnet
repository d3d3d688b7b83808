// The recommended CPU recipe (../recommended/cpu_budget.libsonnet: selective-connection stack over a
// BiLSTM input layer, per-layer loss) with a CRF output layer instead of the per-token softmax; the
// softmax twin is ../recommended/sc_bilstm_cpu_budget_conll2005.jsonnet (docs/benchmarks.md compares
// them on one budget). Budget and data as in the recipe (SRL_BUDGET_MINUTES, SRL_TRAIN_DATA, ...).
local recipe = import '../recommended/cpu_budget.libsonnet';
local with_crf = import 'crf.libsonnet';
with_crf(recipe('conll2005'))
