// Leaderboard row: selective connection (Applied Sciences 2019) at the CPU-budget recipe's size
// (../recommended/cpu_budget.libsonnet: 4 layers of d=200 over a BiLSTM input layer, a loss on every
// layer, Adam with Noam warm-up, ~500-token batches, Viterbi) with the connection on, on GloVe 50-d
// words (`make glove`, SRL_GLOVE).
local recipe = import '../recommended/cpu_budget.libsonnet';
recipe('conll2012', { selective: true })
