// A small DeepAtt-FFN with predicate identification that trains on CPU in a few minutes (`make demo`).
// Needs SRL_TRAIN_DATA and SRL_DEV_DATA (see ../common/data.libsonnet).
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
