// The shipped English model's recipe (models/README.md, "The default"): the first 3 of MiniLM's 6
// layers (`make minilm`), fine-tuned under 2 selective-connection layers per predicate (d=200, BiLSTM input
// layer, the loss on the last layer's output) with a CRF output layer, the leaderboard's best row when shipped
// (docs/leaderboard.md: 64.24 ± 1.08 dev F1 over three seeds at its budget, every seed above the bilinear
// scorer with a CRF), with the predicate-and-sense head (senses restricted to those each word had in
// training), on the bundled EWT CoNLL-2012 files. 15 epochs with linear warm-up and decay to zero, about
// 85 minutes on two idle CPU threads; SRL_BUDGET_MINUTES (default 90) stops it at the last epoch that fits
// on a slower machine.
(import '../minilm/minilm.libsonnet')('sc', {
  num_epochs: 15, transformer_layers: 3, output: 'crf',
  budget_minutes: (import '../common/settings.libsonnet').budget_minutes(90),
})
