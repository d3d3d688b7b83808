// The leaderboard row minilm_l3_sc at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_sc.jsonnet') + (import 'gpu_budget.libsonnet')
