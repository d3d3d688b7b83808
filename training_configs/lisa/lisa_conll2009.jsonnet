// LISA with the authors' settings on conll2009 (see lisa.libsonnet). Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local lisa = import 'lisa.libsonnet';
lisa('conll2009')
