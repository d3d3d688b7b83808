// Leaderboard row: minilm_l3_bilinear with a CRF output layer (`output: 'crf'`): the bilinear scores are
// the CRF's emissions, trained by the sequences' likelihood and decoded by Viterbi over learned
// transitions (srl_zoo/modules/frame_scorers/crf_output.py); label smoothing and the softmax decoding
// setting are dropped.
local base = (import '../minilm/minilm.libsonnet')('bilinear', { mlp_dim: 128, transformer_layers: 3 });
base + {
  model: {
    [key]: base.model[key]
    for key in std.objectFields(base.model)
    if !std.member(['frame_scorer', 'decoding', 'label_smoothing'], key)
  } + { frame_scorer: base.model.frame_scorer + { output: 'crf' } },
}
