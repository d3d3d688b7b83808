// Leaderboard row: AMN (Guan et al. 2019) at its CPU-budget size on GloVe 50-d (`make glove`): a BiLSTM
// argument labeler (2x128) over words, a predicate flag and the associated memory of the 4 training
// (sentence, predicate) pairs nearest by POS edit distance (their labels through a shared 1x64 BiLSTM,
// averaged). The leaderboard points the memory at the budget's training sentences too.
(import '../amn/small.libsonnet')('conll2012')
