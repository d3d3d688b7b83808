// Leaderboard row: the first 3 MiniLM layers, then one BiLSTM layer of 128 per direction per
// (sentence, predicate) row (the srl_bert-like indicator head with a small recurrent layer).
(import '../minilm/minilm.libsonnet')('thin', { transformer_layers: 3 })
