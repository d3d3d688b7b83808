// The leaderboard row minilm_l3_deepatt at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_deepatt.jsonnet') + (import 'gpu_budget.libsonnet')
