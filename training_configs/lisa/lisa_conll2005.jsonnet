// LISA with the authors' settings on conll2005 (see lisa.libsonnet). Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set. Needs
// SRL_TRAIN_TREES and SRL_DEV_TREES (aligned CoNLL-U / CoNLL-2009 dependency trees of the same sentences).
local lisa = import 'lisa.libsonnet';
lisa('conll2005')
