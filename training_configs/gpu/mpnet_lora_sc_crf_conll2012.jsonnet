// The accurate model's recipe (../accurate/mpnet_lora_sc_crf_conll2012.jsonnet: MPNet-base frozen under
// low-rank adapters, the shipped model's head) on one GPU in bfloat16 (../common/gpu.libsonnet).
(import '../accurate/mpnet_lora_sc_crf_conll2012.jsonnet') + (import '../common/gpu.libsonnet')
