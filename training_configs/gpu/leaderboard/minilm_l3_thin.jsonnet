// The leaderboard row minilm_l3_thin at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_thin.jsonnet') + (import 'gpu_budget.libsonnet')
