// The shipped default trained further as minilm_l3_sc_crf_distilled_text_conll2012.jsonnet is, on other text: EWT
// train plus 6,750 sentences of UD English GUM's CC BY and public-domain documents (web genres: news, interviews,
// biographies, travel guides, textbooks, vlogs, speeches, conversation; data/README.md, "Unlabeled text"), labeled
// by the accurate model. `make teacher-gum` writes both files. Measured: docs/benchmarks.md, the route table.
local suffix = 'recommended/minilm_l3_sc_crf_distilled_gum_conll2012.jsonnet';
local here = std.thisFile;
assert std.endsWith(here, suffix) : 'this config must stay at training_configs/' + suffix + ', read as ' + here;
local root = std.substr(here, 0, std.length(here) - std.length(suffix)) + '../';
local taught = root + '.cache/teacher/ewt-train-and-gum';
(import 'minilm_l3_sc_crf_distilled_text_conll2012.jsonnet') + {
  dataset_reader+: { teacher_files: { [taught + '.gold_conll']: taught + '.npz' } },
  train_data_path: taught + '.gold_conll',
}
