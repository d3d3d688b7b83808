// AMN with the paper's settings on CoNLL-2009: m = 4 neighbours by POS edit distance, average merge
// (see amn.libsonnet). The training neighbours are cached next to the training file.
local amn = import 'amn.libsonnet';
local data = import '../common/data.libsonnet';
amn('conll2009', { neighbour_cache: data.train('conll2009') + '.amn-neighbours.json' })
