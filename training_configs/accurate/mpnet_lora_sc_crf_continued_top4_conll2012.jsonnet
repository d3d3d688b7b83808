// The accurate model's 3-epoch continued schedule with MPNet's top four layers trained (the top-two-layers
// config, mpnet_lora_sc_crf_continued_top2_conll2012.jsonnet, two layers further down): started from the shipped
// archive, whose layers 10 and 11 were trained already, so their weights come from the archive too, beside the
// adapters and the head; layers 8 and 9 start from MPNet's own. Their weights at 2e-5, the adapters at 1e-4, the
// head at 5e-4; batches of at most 500 padded word pieces, bfloat16 autocast. Archives then hold the four layers
// (~28M parameters). Needs `make mpnet`.
local top2 = import 'mpnet_lora_sc_crf_continued_top2_conll2012.jsonnet';
local suffix = 'accurate/mpnet_lora_sc_crf_continued_top4_conll2012.jsonnet';
local here = std.thisFile;
assert std.endsWith(here, suffix) : 'this config must stay at training_configs/' + suffix + ', read as ' + here;
local shipped = std.substr(here, 0, std.length(here) - std.length(suffix)) + '../models/ewt-english-accurate.tar.gz';
local top = ['encoder.layer.8', 'encoder.layer.9', 'encoder.layer.10', 'encoder.layer.11'];
// the parameters the shipped archive holds: the head, the adapters and the two layers it trained
local archived = '^(?!text_field_embedder\\.)|\\.(down|up)$|\\.layer\\.1[01]\\.';
top2 + {
  model+: {
    initializer: { regexes: [[archived, { type: 'pretrained', weights_file_path: shipped }]] },
    text_field_embedder+: {
      token_embedders+: { tokens+: { trained_modules: top } },
    },
  },
  trainer+: {
    optimizer+: {
      parameter_groups: [
        [['text_field_embedder.*\\.(down|up)$'], { lr: 1e-4 }],
        [['text_field_embedder.*\\.layer\\.(8|9|10|11)\\.(?!.*\\.(down|up)$)'], { lr: 2e-5 }],
      ],
    },
  },
}
