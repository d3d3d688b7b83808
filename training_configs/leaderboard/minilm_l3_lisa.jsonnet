// Leaderboard row: the first 3 MiniLM layers, then 2 LISA layers run once per sentence under the
// bilinear scorer: a joint POS/predicate head and a dependency parser (EWT's gold UD trees) on layer
// 1, whose parse is one attention head of layer 2 (Strubell et al. 2018).
(import '../minilm/minilm.libsonnet')('lisa', { mlp_dim: 128, transformer_layers: 3 })
