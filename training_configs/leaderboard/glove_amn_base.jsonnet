// Leaderboard row: AMN's base model without the memory (the same BiLSTM labeler on GloVe 50-d), the
// "off" side of AMN's claim.
(import '../amn/small.libsonnet')('conll2012', { memory: false })
