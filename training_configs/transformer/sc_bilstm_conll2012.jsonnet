// Selective connection (8 modules + BiLSTM input layer) over a pretrained transformer's word vectors
// (see transformer.libsonnet). Needs SRL_TRANSFORMER.
local sc = import '../selective_connection/selective_connection.libsonnet';
sc('conll2012', (import 'transformer.libsonnet') + { input_bilstm: true })
