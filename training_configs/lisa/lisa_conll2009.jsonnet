// LISA with the authors' settings on conll2009 (see lisa.libsonnet). Needs SRL_TRAIN_DATA and SRL_DEV_DATA.
local lisa = import 'lisa.libsonnet';
lisa('conll2009')
