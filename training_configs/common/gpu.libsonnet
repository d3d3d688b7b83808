// Mixin for one CUDA GPU: bfloat16 autocast on every forward pass (no gradient scaler needed),
// per-epoch training throughput in <serialization dir>/throughput.jsonl, and inference in large
// chunks (fewer encoder calls: on a GPU each costs launch overhead, not arithmetic).
//   local gpu = import '../common/gpu.libsonnet';  some_config(...) + gpu
{
  model+: { inference_chunk_tokens: 131072, inference_chunk_elements: 64000000 },
  trainer+: {
    cuda_device: 0,
    callbacks+: [{ type: 'mixed_precision', dtype: 'bfloat16' }, { type: 'throughput' }],
  },
}
