// The leaderboard row minilm_l3_bilinear at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_bilinear.jsonnet') + (import 'gpu_budget.libsonnet')
