// Selective connection, 8 layers, on conll2009 (dependency SRL: roles on head words, senses from a predicate
// head, eval09's scores). Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local sc = import 'selective_connection.libsonnet';
sc('conll2009')
