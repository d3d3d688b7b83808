// The shipped model's recipe over all 6 of MiniLM's layers (`make minilm`), a route to the accurate model
// (issue: a model people would pick for accuracy): 2 selective-connection layers per predicate (d=200,
// BiLSTM input layer) with a CRF output layer and the predicate-and-sense head, on the bundled EWT
// CoNLL-2012 files, 15 epochs with linear warm-up and decay to zero. A training step costs ~1.7 times the
// 3-layer recipe's (about 2.5 hours on two idle CPU threads): run it with SRL_BUDGET_MINUTES above that and
// SRL_RECOVER=1 across sessions (scripts/train_shipped_model.sh RUN_DIR minilm-l6).
(import '../minilm/minilm.libsonnet')('sc', {
  num_epochs: 15, output: 'crf',
  budget_minutes: (import '../common/settings.libsonnet').budget_minutes(90),
})
