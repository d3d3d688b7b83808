// The `sa_baseline`: LISA's transformer and heads without the syntax head (no parse attention, no
// parse loss), on conll2012. Needs SRL_TRAIN_TREES and SRL_DEV_TREES
// (the trees are read but unused, so that both configs see identical data).
local lisa = import 'lisa.libsonnet';
lisa('conll2012', { parse_layer: null })
