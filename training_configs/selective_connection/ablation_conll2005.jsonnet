// The paper's ablation in small, one run per setting, all from environment variables:
//   SRL_SC_SELECTIVE=true|false  SRL_SC_BILSTM=true|false  SRL_SC_LAYERS=4|8
//   SRL_SC_NEXT_INPUT=output|state  SRL_BUDGET_MINUTES=30
// Training stops at the last epoch that fits in the budget.
local settings = import '../common/settings.libsonnet';
local sc = import 'selective_connection.libsonnet';
sc('conll2005', {
  selective: settings.json('SRL_SC_SELECTIVE', false),
  input_bilstm: settings.json('SRL_SC_BILSTM', true),
  num_layers: settings.json('SRL_SC_LAYERS', 4),
  next_input: settings.string('SRL_SC_NEXT_INPUT', 'output'),
  callbacks: [{ type: 'time_budget', minutes: settings.budget_minutes(30) }],
})
