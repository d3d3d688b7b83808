// AMN cut to a 30-minute one-thread CPU budget on a small corpus (EWT CoNLL-2009, 12.5k sentences):
// 50-d words (GloVe from SRL_GLOVE, e.g. .cache/glove/glove.6B.50d.txt.gz from `make glove`; empty:
// random), main BiLSTM 2x128, shared BiLSTM 1x64, 64-d label embeddings, batches of ~500 sentence
// tokens, Adam 2e-3. time_budget stops at the last epoch that fits in SRL_BUDGET_MINUTES;
// `throughput` writes training tokens/s per epoch to throughput.jsonl. The
// ablations (docs/benchmarks.md) change `memory`, `selector` and `merge`.
local amn = import 'amn.libsonnet';
local settings = import '../common/settings.libsonnet';
function(format, overrides={}) amn(format, {
  word_dim: 50,
  pretrained_file: settings.glove,
  lowercase_tokens: true,
  hidden_dim: 128,
  num_layers: 2,
  memory_hidden_dim: 64,
  memory_layers: 1,
  label_dim: 64,
  max_tokens: 500,
  optimizer: { type: 'adam', lr: 2e-3 },
  callbacks: [{ type: 'time_budget', minutes: settings.budget_minutes(30) }, { type: 'throughput' }],
} + overrides)
