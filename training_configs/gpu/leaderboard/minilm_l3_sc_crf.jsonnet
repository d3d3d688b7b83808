// The leaderboard row minilm_l3_sc_crf at the GPU budget (gpu_budget.libsonnet).
(import '../../leaderboard/minilm_l3_sc_crf.jsonnet') + (import 'gpu_budget.libsonnet')
