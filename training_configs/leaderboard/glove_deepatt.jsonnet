// Leaderboard row: DeepAtt (Tan et al. 2018) at its CPU-budget size (../deepatt/cpu_budget.libsonnet:
// 6 FFN layers of d=200, 8 heads, Adam with an 800-step Noam warm-up, ~500-token batches, argmax decoding
// as in the paper) on GloVe 50-d words (`make glove`, SRL_GLOVE) with a 50-d predicate embedding.
local budget = import '../deepatt/cpu_budget.libsonnet';
local settings = import '../common/settings.libsonnet';
budget('ffn', { word_dim: 50, predicate_dim: 50, pretrained_file: settings.glove }, 'conll2012')
