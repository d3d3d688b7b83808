// Mixin for one CUDA GPU: bfloat16 autocast on every forward pass (no gradient scaler needed),
// per-epoch training throughput in <serialization dir>/throughput.jsonl, and inference in large
// chunks for the indicator scorer (fewer encoder calls: on a GPU each costs launch overhead, not arithmetic;
// the bilinear scorer runs once per sentence and has no chunks). A callback the config already has (a config
// that autocasts on a CPU too) is not added twice.
//   local gpu = import '../common/gpu.libsonnet';  some_config(...) + gpu
local chunks = { inference_chunk_tokens: 131072, inference_chunk_elements: 64000000 };
local gpu_callbacks = [{ type: 'mixed_precision', dtype: 'bfloat16' }, { type: 'throughput' }];
local missing(callbacks, callback) = std.all([other.type != callback.type for other in callbacks]);
{
  model+: if super.model.frame_scorer.type == 'indicator' then { frame_scorer+: chunks } else {},
  trainer+: {
    local configured = if 'callbacks' in super then super.callbacks else [],
    cuda_device: 0,
    callbacks: configured + [callback for callback in gpu_callbacks if missing(configured, callback)],
  },
}
