// AMN with the paper's settings on CoNLL-2009 (../amn/bilstm_memory_conll2009.jsonnet: 4 neighbours by POS
// edit distance, average merge) on one GPU in bfloat16 (../common/gpu.libsonnet).
(import '../amn/bilstm_memory_conll2009.jsonnet') + (import '../common/gpu.libsonnet')
