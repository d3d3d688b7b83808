// Leaderboard row: the first 3 MiniLM layers, then 2 selective-connection layers (d=200, BiLSTM input
// layer, the loss on the last layer) per (sentence, predicate) row over the transformer's vectors and a
// predicate embedding (selective connection, Applied Sciences 2019).
(import '../minilm/minilm.libsonnet')('sc', { transformer_layers: 3 })
