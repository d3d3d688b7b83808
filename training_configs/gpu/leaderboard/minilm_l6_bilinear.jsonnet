// The leaderboard row minilm_l6_bilinear at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l6_bilinear.jsonnet') + (import 'gpu_budget.libsonnet')
