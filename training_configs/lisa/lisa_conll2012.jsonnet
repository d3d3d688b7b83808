// LISA with the authors' settings on conll2012 (see lisa.libsonnet). Needs SRL_TRAIN_DATA and SRL_DEV_DATA, plus
// SRL_TRAIN_TREES and SRL_DEV_TREES (aligned CoNLL-U / CoNLL-2009 dependency trees of the same sentences).
local lisa = import 'lisa.libsonnet';
lisa('conll2012')
