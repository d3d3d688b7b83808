// The shipped default (models/ewt-english.tar.gz) trained further on more text than EWT's: EWT train plus
// 25,295 sentences of public-domain books (data/README.md, "Unlabeled text"), the books labeled by the accurate
// model (its predicates and best tags as their frames). `make teacher-text` writes both files: the frames
// (EWT's gold, the books' the teacher's) and the teacher's tag distributions for all of them. Beside each
// sentence's tags, the CRF's marginals learn the teacher's distributions, half of the loss each (posterior
// distillation). Started from the shipped archive's weights and vocabulary: 100 warm-up steps to half the
// recipe's rates, then linear decay to zero over `num_epochs` (3); SRL_BUDGET_MINUTES (default 100) stops it at
// the last epoch that fits. Same architecture and speed as the default. Measured: docs/benchmarks.md, the
// route table.
local settings = import '../common/settings.libsonnet';
local suffix = 'recommended/minilm_l3_sc_crf_distilled_text_conll2012.jsonnet';
local here = std.thisFile;
assert std.endsWith(here, suffix) : 'this config must stay at training_configs/' + suffix + ', read as ' + here;
local root = std.substr(here, 0, std.length(here) - std.length(suffix)) + '../';
local shipped = root + 'models/ewt-english.tar.gz';
local taught = root + '.cache/teacher/ewt-train-and-gutenberg';
local recipe = (import 'minilm_l3_sc_crf_conll2012.jsonnet');
recipe + {
  dataset_reader+: { teacher_files: { [taught + '.gold_conll']: taught + '.npz' } },
  train_data_path: taught + '.gold_conll',
  vocabulary: { type: 'from_files', directory: shipped },
  model+: {
    initializer: { regexes: [['.*', { type: 'pretrained', weights_file_path: shipped }]] },
    frame_scorer+: { output+: { teacher_weight: 0.5 } },
  },
  trainer+: {
    num_epochs: 3,
    optimizer+: { lr: 5e-4, parameter_groups: [[['text_field_embedder'], { lr: 5e-5 }]] },
    learning_rate_scheduler: { type: 'linear_with_warmup', warmup_steps: 100 },
    callbacks: [
      { type: 'time_budget', minutes: settings.budget_minutes(100) },
      { type: 'transformer_files' },
    ],
  },
}
