// Leaderboard row: the first 3 MiniLM layers, then 2 DeepAtt layers (FFN sub-layer, d=200) per
// (sentence, predicate) row over the transformer's vectors and a predicate embedding (Tan et al. 2018).
(import '../minilm/minilm.libsonnet')('deepatt', { transformer_layers: 3 })
