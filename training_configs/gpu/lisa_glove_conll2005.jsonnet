// LISA (12 pre-norm layers, 8 heads x 25, syntax head on layer 6, POS/predicate head on layer 3) on
// one GPU in bfloat16 with GloVe 50-d; 64-sentence batches and an 800-step warm-up (the paper's
// 256 sentences and 8000 steps are days of updates on a small corpus like EWT).
// Needs SRL_TRAIN_TREES, SRL_DEV_TREES and SRL_GLOVE (empty: random).
local lisa = import '../lisa/lisa.libsonnet';
local gpu = import '../common/gpu.libsonnet';
local glove = import 'glove.libsonnet';
lisa('conll2005', {
  word_dim: glove.word_dim,
  pretrained_file: glove.pretrained_file,
  batch_size: 64,
  scheduler: { type: 'noam', model_size: 200, warmup_steps: glove.warmup_steps },
}) + gpu
