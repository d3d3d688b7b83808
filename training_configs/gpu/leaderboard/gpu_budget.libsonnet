// The GPU budget of the leaderboard's MiniLM rows (scripts/run_gpu_minilm_rows.sh): the whole EWT
// training set (12,530 sentences, not the CPU budget's 4,000), 6 epochs of 75-sentence batches (~1,200
// words; the CPU rows take 37), bfloat16 autocast on one GPU (common/gpu.libsonnet). Learning rates,
// warm-up and linear decay are each row's own, as on the CPU.
(import '../../common/gpu.libsonnet') + {
  data_loader+: { batch_sampler+: { batch_size: 75 } },
  trainer+: { num_epochs: 6 },
}
