// The accurate model's 3-epoch continued schedule (mpnet_lora_sc_crf_continued_long_conll2012.jsonnet: the
// shipped archive's vocabulary and weights, one warm-up and one linear decay, batches of at most 500 padded word
// pieces, bfloat16 autocast) with MPNet's top two layers trained too (`trained_modules`): their own weights at
// 2e-5 (a fine-tuning rate), the adapters at 1e-4, the head at 5e-4. Archives then hold those two layers
// (~14M parameters) beside the adapters and the head. Needs `make mpnet`.
local long = import 'mpnet_lora_sc_crf_continued_long_conll2012.jsonnet';
local top = ['encoder.layer.10', 'encoder.layer.11'];
long + {
  model+: {
    text_field_embedder+: {
      token_embedders+: { tokens+: { trained_modules: top } },
    },
  },
  trainer+: {
    optimizer+: {
      parameter_groups: [
        [['text_field_embedder.*\\.(down|up)$'], { lr: 1e-4 }],
        [['text_field_embedder.*\\.layer\\.1[01]\\.(?!.*\\.(down|up)$)'], { lr: 2e-5 }],
      ],
    },
  },
}
