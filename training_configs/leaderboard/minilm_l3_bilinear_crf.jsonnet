// Leaderboard row: minilm_l3_bilinear with a CRF output layer (`output: 'crf'`): the bilinear scores are
// the CRF's emissions, trained by the sequences' likelihood and decoded by Viterbi over learned
// transitions (srl_zoo/modules/frame_scorers/crf_output.py); the softmax decoding setting is dropped.
(import '../minilm/minilm.libsonnet')('bilinear', { mlp_dim: 128, transformer_layers: 3, output: 'crf' })
