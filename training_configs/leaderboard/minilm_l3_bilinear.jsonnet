// Leaderboard row: the first 3 MiniLM layers under LISA's one-pass bilinear scorer (the shipped model's
// recipe, training_configs/recommended/minilm_l3_bilinear_conll2012.jsonnet); the leaderboard sets the
// epochs, seeds and data.
(import '../minilm/minilm.libsonnet')('bilinear', { mlp_dim: 128, transformer_layers: 3 })
