// DeepAtt-BILSTM on conll2012, paper settings. Needs SRL_TRAIN_DATA and SRL_DEV_DATA (see ../common/data.libsonnet).
local deepatt = import 'deepatt.libsonnet';
deepatt('bilstm', 'conll2012')
