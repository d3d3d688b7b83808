// The shipped English model's recipe (minilm_l3_sc_crf_conll2012.jsonnet) distilled from the accurate model
// (models/ewt-english-accurate.tar.gz, MPNet-base under adapters): beside the gold tags, the CRF's marginals
// learn the accurate model's tag distributions on the training data (`make teacher` writes them, its 4 most
// probable tags per token; SRL_TEACHER names another file), half of the loss each. Same architecture and speed
// as the default; about 90 minutes on two idle CPU threads. Measured (models/README.md and docs/benchmarks.md): EWT dev 76.20 with gold predicates,
// 74.79 end to end, below the default's 77.32 and 75.71, so the shipped default is not distilled.
local data = import '../common/data.libsonnet';
(import 'minilm_l3_sc_crf_conll2012.jsonnet') + {
  dataset_reader+: { teacher_files: { [data.train('conll2012')]: data.teacher() } },
  model+: { frame_scorer+: { output+: { teacher_weight: 0.5 } } },
}
