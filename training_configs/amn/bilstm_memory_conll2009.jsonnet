// AMN with the paper's settings on CoNLL-2009: m = 4 neighbours by POS edit distance, average merge
// (see amn.libsonnet). The training neighbours are cached next to the training file.
local amn = import 'amn.libsonnet';
amn('conll2009', { neighbour_cache: std.extVar('SRL_TRAIN_DATA') + '.amn-neighbours.json' })
