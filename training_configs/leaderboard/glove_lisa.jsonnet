// Leaderboard row: LISA (Strubell et al. 2018) at its CPU-budget size (../lisa/cpu_budget.libsonnet: 6
// layers of d=200, joint POS/predicates from layer 2, a parser on layer 3 trained on EWT's gold UD trees
// whose parse is one attention head of layer 4, Noam warm-up, ~500-token batches) on GloVe 50-d words
// (`make glove`, SRL_GLOVE).
local budget = import '../lisa/cpu_budget.libsonnet';
local settings = import '../common/settings.libsonnet';
budget('conll2012', { word_dim: 50, pretrained_file: settings.glove })
