// The shipped recipe (minilm_l3_sc_crf_conll2012.jsonnet) with the selective connection's gates off: the same
// 2 layers per (sentence, predicate) row over the first 3 MiniLM layers, BiLSTM input layer, CRF output and
// schedule (15 epochs, about 85 minutes on two idle CPU threads), each layer's output the next layer's input.
// At the leaderboard's budget it scored 66.48 dev F1 against 64.24 ± 1.08 with the gates (docs/leaderboard.md);
// trained at this schedule it is the candidate for the next shipped model (issue 44):
//   bash scripts/train_shipped_model.sh runs/nogates minilm-nogates
(import 'minilm_l3_sc_crf_conll2012.jsonnet') + { model+: { frame_scorer+: { encoder+: { selective: false } } } }
