// The leaderboard row minilm_l3_marked at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_marked.jsonnet') + (import 'gpu_budget.libsonnet')
