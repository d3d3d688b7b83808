// DeepAtt adapted to a 30-minute CPU budget on a small corpus (EWT, 12.5k sentences).
// In 30 min on one CPU thread the paper setting sees ~3.5 epochs, i.e. only ~460 updates of
// ~7k row tokens: too few for Adadelta from scratch. This variant trades depth (6 layers instead
// of 10) and batch size (~2k row tokens) for more updates, and uses Adam with Noam warm-up
// (peak lr 2.5e-3). Everything else is the paper's. A time_budget callback ends training at the
// last epoch boundary that fits in SRL_BUDGET_MINUTES. `format`: the data's (default conll2005).
local settings = import '../common/settings.libsonnet';
local deepatt = import 'deepatt.libsonnet';
function(sublayer, overrides={}, format='conll2005') deepatt(sublayer, format, {
  num_layers: 6,
  max_tokens: 500,
  optimizer: { type: 'adam', lr: 1.0, betas: [0.9, 0.98], eps: 1e-9 },
  scheduler: { type: 'noam', model_size: 200, warmup_steps: 800 },
  callbacks: [{ type: 'time_budget', minutes: settings.budget_minutes(30) }],
} + overrides)
