// DeepAtt-GLU on conll2005, paper settings. Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local deepatt = import 'deepatt.libsonnet';
deepatt('glu', 'conll2005')
