// The shipped English model's recipe (models/README.md, "The default"): the first 3 of MiniLM's 6
// layers (`make minilm`), fine-tuned under LISA's one-pass bilinear scorer with a CRF output layer (the
// leaderboard's best idea: +3.7 and +3.9 dev F1 over the softmax output at its budget, two seeds,
// docs/leaderboard.md), with the predicate-and-sense head (senses restricted to those each word had in
// training), on the bundled EWT CoNLL-2012 files. MLPs of 128 keep the bilinear map cheap and the
// half-precision archive small. 16 epochs with linear warm-up and decay to zero (a schedule that ends,
// rather than one cut short by the clock; 8 epochs ended still rising), about 35 minutes on two idle CPU
// threads; SRL_BUDGET_MINUTES (default 90) stops it earlier on a slower machine.
(import '../minilm/minilm.libsonnet')('bilinear', {
  mlp_dim: 128, num_epochs: 16, transformer_layers: 3, output: 'crf',
  budget_minutes: (import '../common/settings.libsonnet').budget_minutes(90),
})
