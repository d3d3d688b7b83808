// The accurate model trained further: the recipe (mpnet_lora_sc_crf_conll2012.jsonnet) started from the
// shipped models/ewt-english-accurate.tar.gz instead of fresh adapters, with its vocabulary, and a second,
// shorter schedule. The shipped archive is this config run twice on the recipe's 12 epochs on an H200 (EWT dev
// 78.52 -> 79.57 -> 80.25, srl-eval.pl, gold predicates; models/README.md, "The accurate one"): run it again
// and it trains the shipped archive further (the H200's archive:
// `git show 717eb2c:models/ewt-english-accurate.tar.gz`). The schedule: 100 warm-up steps to half the recipe's
// rates (adapters 1e-4, head 5e-4), then linear decay to zero over `num_epochs` (2). Its forward passes run under
// bfloat16 autocast (the frozen MPNet weights are bfloat16 already), for a CPU with native bfloat16 (AVX-512 BF16 or AMX) or a GPU. Batches hold at most 500 padded word
// pieces (`max_padded_tokens_sampler`): measured in words, a short sentence of many pieces was batched with a
// hundred other short ones, and such a step went past the 24 GB of a 2-core Xeon, which killed the first four
// tries (docs/training.md, "Batches measured in word pieces"). Every epoch's weights are kept
// (`keep_most_recent_by_count: null`) for checkpoint averaging (`python -m srl_zoo.training.checkpoint_average`).
// Needs `make mpnet`.
local recipe = import 'mpnet_lora_sc_crf_conll2012.jsonnet';
local settings = import '../common/settings.libsonnet';
local suffix = 'accurate/mpnet_lora_sc_crf_continued_conll2012.jsonnet';
local here = std.thisFile;
assert std.endsWith(here, suffix) : 'this config must stay at training_configs/' + suffix + ', read as ' + here;
local shipped = std.substr(here, 0, std.length(here) - std.length(suffix)) + '../models/ewt-english-accurate.tar.gz';
// the parameters the archive holds: the head and the adapters (MPNet's own weights stay frozen, not archived)
local archived = '^(?!text_field_embedder\\.)|\\.(down|up)$';
recipe + {
  vocabulary: { type: 'from_files', directory: shipped },
  model+: {
    initializer: { regexes: [[archived, { type: 'pretrained', weights_file_path: shipped }]] },
  },
  // batches of at most 500 word pieces, padding included (`max_padded_tokens_sampler` counts a sentence's word
  // pieces, not its words): batches of 75 sentences, or of 500 words, put a 4-word sentence of 160 pieces beside
  // a hundred other short ones, and such a batch took a step on the CPU past 24 GB
  data_loader: { batch_sampler: { type: 'max_padded_tokens_sampler', max_tokens: 500, sorting_keys: ['tokens'] } },
  trainer+: {
    num_epochs: 2,
    optimizer+: { lr: 5e-4, parameter_groups: [[['text_field_embedder'], { lr: 1e-4 }]] },
    learning_rate_scheduler: { type: 'linear_with_warmup', warmup_steps: 100 },
    checkpointer: { keep_most_recent_by_count: null },
    callbacks: [
      { type: 'time_budget', minutes: settings.budget_minutes(120) },
      { type: 'transformer_files' },
      { type: 'mixed_precision', dtype: 'bfloat16' },
    ],
  },
}
