// The leaderboard row minilm_l3_lisa at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_lisa.jsonnet') + (import 'gpu_budget.libsonnet')
