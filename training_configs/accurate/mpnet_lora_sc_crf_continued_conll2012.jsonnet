// The accurate model trained further: the recipe (mpnet_lora_sc_crf_conll2012.jsonnet) started from the
// shipped models/ewt-english-accurate.tar.gz (12 epochs on an H200, EWT dev still rising ~0.65 F1 an epoch
// when its schedule ended) instead of fresh adapters, with its vocabulary, and a second, shorter schedule:
// 100 warm-up steps to half the recipe's rates (adapters 1e-4, head 5e-4), then linear decay to zero over
// `num_epochs` (1). Its forward passes run under bfloat16 autocast (the frozen MPNet weights are bfloat16
// already), for a CPU with native bfloat16 (AVX-512 BF16 or AMX) or a GPU. Not yet completed anywhere: on two
// threads of a 2-core Xeon (24 GB) a step took ~5 s (454 batches, ~40 min an epoch), but the process grew to
// 24 GB at a few batches and was killed by the kernel four times, twice alone on the machine (batches of 75
// sentences, of 1500 words and of 500 words, with MALLOC_MMAP_THRESHOLD_=131072 handing freed memory back);
// what costs that memory is not found yet. Every epoch's weights are kept (`keep_most_recent_by_count: null`) for
// checkpoint averaging (`python -m srl_zoo.training.checkpoint_average`). Needs `make mpnet`.
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
  // batches of at most 500 words, padding included: a batch's memory grows with its (predicate, word) rows × words,
  // about the square of its sentences' length, and on two CPU threads the recipe's 75-sentence batches (and
  // 1500-word ones) of long sentences went past the 24 GB of the machine, which killed the run
  data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: 500, sorting_keys: ['tokens'] } },
  trainer+: {
    num_epochs: 1,
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
