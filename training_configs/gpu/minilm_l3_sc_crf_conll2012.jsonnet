// The shipped English model's recipe (../recommended/minilm_l3_sc_crf_conll2012.jsonnet: the first 3 MiniLM
// layers under 2 selective-connection layers per predicate and a CRF output layer, 15 epochs) on one GPU in
// bfloat16 (../common/gpu.libsonnet), with the recipe's batches of ~600 words.
(import '../recommended/minilm_l3_sc_crf_conll2012.jsonnet') + (import '../common/gpu.libsonnet')
