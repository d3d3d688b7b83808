// The previous shipped English model's recipe (all 6 layers; the shipped model now uses the first 3:
// minilm_l3_bilinear_conll2012.jsonnet, as accurate and 1.7x as fast): the MiniLM encoder
// (`make minilm`), fine-tuned, under LISA's one-pass bilinear scorer (the best head of the
// comparison in docs/benchmarks.md), with the predicate-and-sense head (senses restricted to those
// each word had in training), on the bundled EWT CoNLL-2012 files. MLPs of 128 keep the archive
// under 50 MiB in half precision. 9 epochs with linear decay; SRL_BUDGET_MINUTES (default 60) stops
// it at the last epoch that fits.
(import '../minilm/minilm.libsonnet')('bilinear', { mlp_dim: 128, num_epochs: 9 })
