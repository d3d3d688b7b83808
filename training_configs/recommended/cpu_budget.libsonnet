// The best recipe found for a 30-minute one-thread CPU budget on a small corpus (EWT CoNLL-2005,
// docs/benchmarks.md): the selective-connection encoder at depth 4 with the BiLSTM input layer, the
// connection itself off (in the ablation the plain stack scored 63.9 against 63.4 with it, and is
// faster), d=200, Adam with an 800-step Noam warm-up, ~500-token batches, Viterbi; GloVe 50-d
// words from SRL_GLOVE (e.g. .cache/glove/glove.6B.50d.txt.gz from `make glove`; empty: random
// 50-d vectors, still lowercased, so that only the initialisation differs). time_budget stops at
// the last epoch that fits in SRL_BUDGET_MINUTES.
local sc = import '../selective_connection/selective_connection.libsonnet';
local settings = import '../common/settings.libsonnet';
function(format, overrides={}) sc(format, {
  word_dim: 50,
  pretrained_file: settings.glove,
  lowercase_tokens: true,
  num_layers: 4,
  input_bilstm: true,
  selective: false,
  callbacks: [{ type: 'time_budget', minutes: settings.budget_minutes(60) }],
} + overrides)
