// Leaderboard row: the two best ideas at this budget together: minilm_l3_sc (2 selective-connection
// layers per (sentence, predicate) row) with a CRF output layer (`output: 'crf'`)
// instead of the softmax: the last layer's logits are CRF emissions, decoded by Viterbi over learned transitions.
(import '../minilm/minilm.libsonnet')('sc', { transformer_layers: 3, output: 'crf' })
