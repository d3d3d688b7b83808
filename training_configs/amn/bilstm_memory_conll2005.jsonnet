// AMN with the paper's settings on CoNLL-2005 spans: m = 4 neighbours by POS edit distance, average merge,
// Viterbi decoding (see amn.libsonnet). The training neighbours are cached next to the training file.
local amn = import 'amn.libsonnet';
local data = import '../common/data.libsonnet';
amn('conll2005', { neighbour_cache: data.train('conll2005') + '.amn-neighbours.json' })
