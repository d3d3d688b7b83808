// DeepAtt-FFN on conll2009 (dependency SRL: roles on head words, senses from a predicate head, eval09's
// scores), paper settings otherwise. Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local deepatt = import 'deepatt.libsonnet';
deepatt('ffn', 'conll2009')
