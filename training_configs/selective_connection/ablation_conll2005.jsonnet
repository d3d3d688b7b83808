// The paper's ablation in small, one run per setting, all from environment variables:
//   SRL_SC_SELECTIVE=true|false  SRL_SC_BILSTM=true|false  SRL_SC_LAYERS=4|8
//   SRL_SC_NEXT_INPUT=output|state  SRL_BUDGET_MINUTES=30
// Training stops at the last epoch that fits in the budget.
local sc = import 'selective_connection.libsonnet';
sc('conll2005', {
  selective: std.parseJson(std.extVar('SRL_SC_SELECTIVE')),
  input_bilstm: std.parseJson(std.extVar('SRL_SC_BILSTM')),
  num_layers: std.parseJson(std.extVar('SRL_SC_LAYERS')),
  next_input: std.extVar('SRL_SC_NEXT_INPUT'),
  callbacks: [{ type: 'time_budget', minutes: std.parseJson(std.extVar('SRL_BUDGET_MINUTES')) }],
})
