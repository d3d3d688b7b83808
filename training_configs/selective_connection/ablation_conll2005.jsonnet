// The paper's ablation in small: the best measured setting (no selective connection, the BiLSTM input
// layer, 4 modules, module i+1 reads X_i) under SRL_BUDGET_MINUTES (default 30); training stops at the
// last epoch that fits. Each other setting is the encoder's own keys, set with -o, e.g.
//   -o '{"model.frame_scorer.encoder.selective": true, "model.frame_scorer.encoder.num_layers": 8}'
// (input_bilstm, next_input likewise); scripts/run_sc_ablation.sh runs them all.
local settings = import '../common/settings.libsonnet';
local sc = import 'selective_connection.libsonnet';
sc('conll2005', {
  selective: false,
  input_bilstm: true,
  num_layers: 4,
  next_input: 'output',
  callbacks: [{ type: 'time_budget', minutes: settings.budget_minutes(30) }],
})
