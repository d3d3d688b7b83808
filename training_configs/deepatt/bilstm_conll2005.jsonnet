// DeepAtt-BILSTM on conll2005, paper settings. Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local deepatt = import 'deepatt.libsonnet';
deepatt('bilstm', 'conll2005')
