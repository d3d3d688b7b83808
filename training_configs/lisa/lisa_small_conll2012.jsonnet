// A small LISA (4 layers, d=64) that trains on a CPU in minutes, e.g. on the bundled EWT sample.
// Needs SRL_TRAIN_TREES and SRL_DEV_TREES.
local lisa = import 'lisa.libsonnet';
lisa('conll2012', {
  word_dim: 64,
  hidden_dim: 64,
  num_layers: 4,
  num_heads: 4,
  ffn_hidden_dim: 128,
  parse_layer: 1,
  pos_layer: 0,
  mlp_dim: 64,
  batch_size: 16,
  scheduler: { type: 'noam', model_size: 64, warmup_steps: 100 },
  optimizer: { type: 'nadam', lr: 0.04 * std.pow(64, 0.5), betas: [0.9, 0.98], eps: 1e-12 },
  num_epochs: 40,
})
