// The leaderboard row minilm_l3_bilinear_crf at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_bilinear_crf.jsonnet') + (import 'gpu_budget.libsonnet')
