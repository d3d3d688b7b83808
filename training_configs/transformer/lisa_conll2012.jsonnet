// LISA (12 layers, syntax head) over a pretrained transformer's word vectors (see transformer.libsonnet).
// Needs SRL_TRAIN_TREES, SRL_DEV_TREES, SRL_TRANSFORMER.
local lisa = import '../lisa/lisa.libsonnet';
lisa('conll2012', import 'transformer.libsonnet')
