// Selective connection, 8 modules, with the BiLSTM input layer, on one GPU in bfloat16, GloVe 50-d.
// Needs SRL_GLOVE (empty: random vectors).
local sc = import '../selective_connection/selective_connection.libsonnet';
local gpu = import '../common/gpu.libsonnet';
local glove = import 'glove.libsonnet';
sc('conll2005', glove + { input_bilstm: true, num_epochs: 60 }) + gpu
