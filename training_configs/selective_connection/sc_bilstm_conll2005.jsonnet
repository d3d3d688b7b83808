// Selective connection, 8 layers, with the BiLSTM input layer, on conll2005. Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local sc = import 'selective_connection.libsonnet';
sc('conll2005', { input_bilstm: true })
