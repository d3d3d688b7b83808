// Mixin for allennlp's distributed trainer (torch.distributed, one process per device):
//   some_config(...) + distributed([0, 1])     two GPUs (nccl)
//   some_config(...) + distributed([-1, -1])   two CPU processes (gloo)
// Each worker reads its own shard of the data and takes batches of the config's size, so the
// effective batch is N times larger (scale the learning rate or warm-up if that matters). The span,
// predicate and parse metrics sum their counts over the workers before scoring: validation numbers
// are those of one process on the whole dev file. The trainer's own `cuda_device` is dropped, as
// allennlp requires (each worker gets its device from the list).
function(cuda_devices) {
  distributed: { cuda_devices: cuda_devices },
  trainer+: { cuda_device:: null },
}
