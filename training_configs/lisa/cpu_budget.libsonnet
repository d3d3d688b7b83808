// LISA for a 30-minute one-thread CPU budget on a small corpus (EWT, 12.5k sentences). The paper's
// 12 layers with 200→800→800→200 feed-forwards train at ~450 sentence tokens/s on one thread: two
// epochs in 30 minutes, still inside the warm-up. So, like the DeepAtt budget configs: 6 layers
// (POS/predicates read layer 2, the parser layer 3, whose parse is a head of layer 4), one 800-wide
// feed-forward layer, batches of 500 sentence tokens and an 800-step warm-up (peak lr
// 0.04 * 800^-0.5 = 1.4e-3). time_budget stops at the last epoch that fits in SRL_BUDGET_MINUTES.
local settings = import '../common/settings.libsonnet';
local lisa = import 'lisa.libsonnet';
function(format, overrides={}) lisa(format, {
  num_layers: 6,
  pos_layer: 1,
  parse_layer: 2,
  ffn_hidden_layers: 1,
  max_tokens: 500,
  scheduler: { type: 'noam', model_size: 200, warmup_steps: 800 },
  callbacks: [{ type: 'time_budget', minutes: settings.budget_minutes(30) }],
} + overrides)
