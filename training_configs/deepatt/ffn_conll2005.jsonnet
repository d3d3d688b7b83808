// DeepAtt-FFN on conll2005, paper settings. Needs SRL_TRAIN_DATA and SRL_DEV_DATA (see ../common/data.libsonnet).
local deepatt = import 'deepatt.libsonnet';
deepatt('ffn', 'conll2005')
