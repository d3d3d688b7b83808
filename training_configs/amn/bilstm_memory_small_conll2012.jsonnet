// AMN on a span format: the CPU-budget AMN (small.libsonnet) on CoNLL-2012 (BIO tags, Viterbi,
// srl-eval.pl's F1), neighbours by POS edit distance, average merge: the memory does not care
// whether the remembered labels are spans or head words.
local small = import 'small.libsonnet';
small('conll2012')
