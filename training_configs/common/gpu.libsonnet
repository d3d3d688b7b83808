// Mixin for one CUDA GPU: bfloat16 autocast on every forward pass (no gradient scaler needed),
// per-epoch training throughput in <serialization dir>/throughput.jsonl, and inference in large
// chunks for the indicator scorer (fewer encoder calls: on a GPU each costs launch overhead, not arithmetic;
// the bilinear scorer runs once per sentence and has no chunks).
//   local gpu = import '../common/gpu.libsonnet';  some_config(...) + gpu
local chunks = { inference_chunk_tokens: 131072, inference_chunk_elements: 64000000 };
{
  model+: if super.model.frame_scorer.type == 'indicator' then { frame_scorer+: chunks } else {},
  trainer+: {
    cuda_device: 0,
    callbacks+: [{ type: 'mixed_precision', dtype: 'bfloat16' }, { type: 'throughput' }],
  },
}
