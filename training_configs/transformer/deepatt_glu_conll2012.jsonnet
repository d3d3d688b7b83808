// DeepAtt-GLU (10 layers, d=200) over a pretrained transformer's word vectors (see transformer.libsonnet).
// Needs SRL_TRANSFORMER.
local deepatt = import '../deepatt/deepatt.libsonnet';
deepatt('glu', 'conll2012', (import 'transformer.libsonnet') + { decoding: 'viterbi' })
