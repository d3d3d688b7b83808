// The accurate model's continued runs on one GPU: the GPU mixin (gpu.libsonnet), batches of up to 2,000 padded word
// pieces instead of the CPU's 500 (about the recipe's ~1200-word batches: a GPU's cost is per batch, not per piece),
// 10 epochs, stopped earlier by the time budget (SRL_BUDGET_MINUTES), keeping the last two epochs' weights
// (allennlp's default: the device keeps nothing, and only the archive comes back).
//   (import '../accurate/<a continued config>.jsonnet') + (import '../common/accurate_gpu.libsonnet')
(import 'gpu.libsonnet') + {
  data_loader+: { batch_sampler+: { max_tokens: 2000 } },
  trainer+: { num_epochs: 10, checkpointer: { keep_most_recent_by_count: 2 } },
}
