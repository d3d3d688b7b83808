// Selective connection over a BiLSTM input layer (sc_bilstm_glove_conll2005.jsonnet) with a CRF output layer
// (../crf/crf.libsonnet: Viterbi over learned transitions under BIO constraints) on one GPU in bfloat16.
// Needs SRL_GLOVE (empty: random vectors).
(import '../crf/crf.libsonnet')(import 'sc_bilstm_glove_conll2005.jsonnet')
