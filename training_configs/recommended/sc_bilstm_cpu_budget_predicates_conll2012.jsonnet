// The shipped English model's recipe (models/README.md, "The default"): the best CPU recipe
// (cpu_budget.libsonnet) on the CoNLL-2012 files, so that it sees every predicate (verbal and
// nominal) and its frameset, plus the predicate identification head, which learns to find the
// predicates and their senses (`01`, `LV`, ...) for raw text.
// Needs SRL_GLOVE (empty: random vectors) and SRL_BUDGET_MINUTES; data as in ../common/data.libsonnet.
local recipe = import 'cpu_budget.libsonnet';
recipe('conll2012', { predicate_identification: true })
