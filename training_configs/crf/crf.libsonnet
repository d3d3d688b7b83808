// Any recipe with the CRF output layer: its frame scorer gets `output: 'crf'`
// (srl_zoo/modules/frame_scorers/crf_output.py): the scorer's logits are a CRF's emissions, trained
// by the sequences' likelihood and decoded by Viterbi over learned transitions under hard BIO
// constraints. The softmax's settings are dropped: label smoothing (a per-token notion) and decoding.
local softmax_settings = ['label_smoothing', 'decoding'];
function(config) config + {
  model+: {
    frame_scorer: {
      [key]: config.model.frame_scorer[key]
      for key in std.objectFields(config.model.frame_scorer)
      if !std.member(softmax_settings, key)
    } + { output: 'crf' },
  },
}
