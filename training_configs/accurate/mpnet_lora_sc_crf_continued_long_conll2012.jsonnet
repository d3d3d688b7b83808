// The accurate model trained further in one longer schedule: the continued config
// (mpnet_lora_sc_crf_continued_conll2012.jsonnet: the shipped archive's vocabulary and weights, half the recipe's
// rates, batches of at most 500 padded word pieces, bfloat16 autocast) over 3 epochs with one warm-up and one
// linear decay, instead of restarting its 2-epoch schedule. Every epoch's weights are kept for checkpoint
// averaging. About 35 minutes an epoch on two threads of a CPU with native bfloat16. Needs `make mpnet`.
local continued = import 'mpnet_lora_sc_crf_continued_conll2012.jsonnet';
continued + {
  trainer+: { num_epochs: 3 },
}
