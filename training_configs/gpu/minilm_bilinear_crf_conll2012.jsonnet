// GPU recipe: every layer of the encoder in SRL_TRANSFORMER (any local Hugging Face BERT-style directory;
// default .cache/minilm from `make minilm`) fine-tuned under LISA's one-pass bilinear scorer with a CRF
// output layer (the leaderboard's best idea at its budget, docs/leaderboard.md), with the
// predicate-and-sense head, on the bundled EWT CoNLL-2012 files. bfloat16 autocast on every forward pass
// (common/gpu.libsonnet), batches of ~2,000 words bucketed by length, up to 30 epochs with linear decay,
// stopping after 5 epochs without a better dev F1.
//   allennlp train training_configs/gpu/minilm_bilinear_crf_conll2012.jsonnet -s runs/gpu_minilm_crf \
//       --include-package srl_zoo
local gpu = import '../common/gpu.libsonnet';
(import '../minilm/minilm.libsonnet')('bilinear', {
  mlp_dim: 256, num_epochs: 30, max_tokens: 2000, warmup_steps: 500, budget_minutes: 100000, output: 'crf',
}) + { trainer+: { patience: 5 } } + gpu
