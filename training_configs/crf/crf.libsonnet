// Any recipe with the CRF output layer: its frame scorer's output is `{ type: 'crf' }`
// (srl_zoo/modules/frame_scorers/crf_output.py): the scorer's logits are a CRF's emissions, trained
// by the sequences' likelihood and decoded by Viterbi over learned transitions under hard BIO
// constraints. It replaces the softmax output with its settings: label smoothing (a per-token notion)
// and decoding.
function(config) config + { model+: { frame_scorer+: { output: { type: 'crf' } } } }
