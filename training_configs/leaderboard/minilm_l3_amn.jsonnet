// Leaderboard row: minilm_l3_thin (one BiLSTM layer of 128 per direction per (sentence, predicate) row over the
// first 3 MiniLM layers) with AMN's associated memory beside the words (Guan et al. 2019): the 4 training
// (sentence, predicate) pairs nearest by POS edit distance, their labels averaged by attention through a
// shared BiLSTM of 64 over the transformer's word-piece input embeddings. Against `thin`: the memory on and off
// on the shipped encoder. The leaderboard points the memory at the budget's training sentences too.
(import '../minilm/minilm.libsonnet')('amn', { transformer_layers: 3 })
