// Leaderboard row: the predicate marked in the encoder's input, srl_bert's idea inside srl_zoo's Model: the
// first 3 MiniLM layers run once per sentence (the predicate head) and again per (sentence, predicate) row
// with token-type id 1 on the predicate's word pieces (frame features `marked_predicate_transformer`); an
// indicator scorer with no encoder of its own tags each word from both vectors (minilm.libsonnet `marked`).
(import '../minilm/minilm.libsonnet')('marked', { transformer_layers: 3 })
