// Selective connection, 8 layers, no BiLSTM input layer, on conll2005. Needs SRL_TRAIN_DATA and SRL_DEV_DATA.
local sc = import 'selective_connection.libsonnet';
sc('conll2005')
