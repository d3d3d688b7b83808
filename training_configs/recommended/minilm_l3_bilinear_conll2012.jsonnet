// The shipped English model's recipe (models/README.md, "The default"): the first 3 of MiniLM's 6
// layers (`make minilm`), fine-tuned under LISA's one-pass bilinear scorer, with the predicate-and-sense
// head (senses restricted to those each word had in training), on the bundled EWT CoNLL-2012 files.
// Three layers learn faster per step than six here (docs/benchmarks.md, issue 21: 56.2 against 54.3 dev F1
// after one epoch) and predict 1.7 times as fast in float32. MLPs of 128 keep the bilinear map cheap and the
// half-precision archive small. 18 epochs with linear decay on two CPU threads; SRL_BUDGET_MINUTES
// (default 60) stops it at the last epoch that fits.
(import '../minilm/minilm.libsonnet')('bilinear', { mlp_dim: 128, num_epochs: 18, transformer_layers: 3 })
