// Any recipe with the CRF output layer: the model's indicator shorthand (`encoder`, its predicate
// embedding, per-layer loss, inference chunks) becomes an `indicator` scorer with `output: 'crf'`
// (srl_zoo/modules/frame_scorers/crf_output.py): the encoder's logits are a CRF's emissions, trained
// by the sequences' likelihood and decoded by Viterbi over learned transitions under hard BIO
// constraints. Label smoothing (a per-token softmax notion) is dropped.
local indicator_keys = [
  'encoder', 'predicate_embedding_dim', 'predicate_combination', 'per_layer_loss',
  'inference_chunk_elements', 'inference_chunk_tokens',
];
local dropped = indicator_keys + ['label_smoothing', 'decoding'];
function(config) config + {
  model: {
    [key]: config.model[key]
    for key in std.objectFields(config.model)
    if !std.member(dropped, key)
  } + {
    frame_scorer: { type: 'indicator', output: 'crf' } + {
      [key]: config.model[key]
      for key in std.objectFields(config.model)
      if std.member(indicator_keys, key)
    },
  },
}
