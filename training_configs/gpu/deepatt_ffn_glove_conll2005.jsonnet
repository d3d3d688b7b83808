// DeepAtt-FFN at the paper's size (10 layers, d=200, 8 heads) on one GPU in bfloat16, GloVe 50-d.
// Needs SRL_GLOVE (empty: random vectors).
local deepatt = import '../deepatt/deepatt.libsonnet';
local gpu = import '../common/gpu.libsonnet';
local glove = import 'glove.libsonnet';
deepatt('ffn', 'conll2005', glove + {
  optimizer: { type: 'adam', lr: 1.0, betas: [0.9, 0.98], eps: 1e-9 },
  scheduler: { type: 'noam', model_size: 200, warmup_steps: glove.warmup_steps },
  num_epochs: 60,
}) + gpu
