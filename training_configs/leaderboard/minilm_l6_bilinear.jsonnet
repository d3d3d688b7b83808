// Leaderboard row: all 6 MiniLM layers under the bilinear scorer (does depth change the answer?).
(import '../minilm/minilm.libsonnet')('bilinear', { mlp_dim: 128 })
