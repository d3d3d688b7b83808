// The leaderboard's best head on all 6 MiniLM layers (`make minilm`): 2 selective-connection layers per
// predicate without the gates (each layer's output the next layer's input) over a BiLSTM input layer, a CRF
// output layer and the predicate-and-sense head, on the bundled EWT CoNLL-2012 files, on one GPU in bfloat16
// (../common/gpu.libsonnet). 6 epochs with linear warm-up and decay, the recipe's batches of ~600 words;
// SRL_BUDGET_MINUTES (default 60) stops it at the last epoch that fits. scripts/device/prove_gpu.sh trains it
// in a device call (docs/gpu.md).
local settings = import '../common/settings.libsonnet';
(import '../minilm/minilm.libsonnet')('sc', {
  num_epochs: 6, output: 'crf', budget_minutes: settings.budget_minutes(60),
}) + { model+: { frame_scorer+: { encoder+: { selective: false } } } } + (import '../common/gpu.libsonnet')
