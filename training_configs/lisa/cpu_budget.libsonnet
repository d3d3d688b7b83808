// LISA for a 30-minute one-thread CPU budget on a small corpus (EWT, 12.5k sentences): the paper's
// 12 layers and widths, but ~1000-token batches (more updates) and an 800-step warm-up (same peak
// learning rate formula as the paper's schedule); time_budget stops at the last epoch that fits in
// SRL_BUDGET_MINUTES.
local lisa = import 'lisa.libsonnet';
function(format, overrides={}) lisa(format, {
  batch_size: 64,
  scheduler: { type: 'noam', model_size: 200, warmup_steps: 800 },
  callbacks: [{ type: 'time_budget', minutes: std.parseJson(std.extVar('SRL_BUDGET_MINUTES')) }],
} + overrides)
