// The shipped recipe's head (2 selective-connection layers per predicate under a CRF output) on all 6
// MiniLM layers, at the GPU budget (gpu_budget.libsonnet): does the whole encoder change the answer?
(import '../../minilm/minilm.libsonnet')('sc', { output: 'crf' }) + (import 'gpu_budget.libsonnet')
