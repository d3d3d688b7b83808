// A small DeepAtt-FFN with predicate identification. `make demo` trains it for a few epochs on the
// 20-sentence sample (SRL_TRAIN_DATA=fixtures/conll2005/sample.txt) in seconds; by default it trains
// on the bundled EWT data (see ../common/data.libsonnet).
local deepatt = import 'deepatt.libsonnet';
deepatt('ffn', 'conll2005', {
  word_dim: 64,
  predicate_dim: 32,
  hidden_dim: 96,
  num_layers: 3,
  num_heads: 4,
  max_tokens: 400,
  optimizer: { type: 'adam', lr: 0.002 },
  scheduler: { type: 'step_halving', start: 1000000, every: 1000000 },
  num_epochs: 40,
  predicate_identification: true,  // so that the demo can label raw text
}) + { trainer+: { patience: 40 } }
