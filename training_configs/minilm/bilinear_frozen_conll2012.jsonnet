// MiniLM frozen (a learned scalar mix of its layers) under the 'bilinear' head (see minilm.libsonnet).
(import 'minilm.libsonnet')('bilinear', { train_transformer: false, num_epochs: 30 })
