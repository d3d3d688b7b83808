// Settings shared by the GPU configs: GloVe 50-d word vectors from SRL_GLOVE (a local file, e.g.
// .cache/glove/glove.6B.50d.txt.gz from `make glove`; an empty SRL_GLOVE trains from random
// vectors), a 50-d predicate embedding, Adam with Noam warm-up, Viterbi decoding, and the paper's
// ~4k (sentence, predicate)-row-token batches (1600 sentence tokens).
local settings = import '../common/settings.libsonnet';
{
  word_dim: 50,
  predicate_dim: 50,
  pretrained_file: settings.glove,
  lowercase_tokens: true,
  max_tokens: 1600,
  decoding: 'viterbi',
  warmup_steps: 800,
}
