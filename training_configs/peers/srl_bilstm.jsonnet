// Peer row (leaderboards/ewt.jsonnet): allennlp-models' BiLSTM `srl` model (He et al. 2017: word
// embeddings and a predicate indicator into 8 alternating highway LSTM layers of 300, Viterbi under BIO
// constraints), randomly initialised 100-d embeddings (as the reference run in the issue tracker),
// trained with allennlp-models 2.10.1 from .cache/allennlp-models, beside the venv:
//   PYTHONPATH=.cache/allennlp-models allennlp train training_configs/peers/srl_bilstm.jsonnet \
//       -s runs/srl_bilstm --include-package allennlp_models.structured_prediction
{
  dataset_reader: { type: 'srl' },
  train_data_path: 'runs/leaderboard/data/peers/train',
  validation_data_path: 'runs/leaderboard/data/peers/dev',
  model: {
    type: 'srl',
    text_field_embedder: { token_embedders: { tokens: { type: 'embedding', embedding_dim: 100, trainable: true } } },
    initializer: {
      regexes: [
        ['tag_projection_layer.*weight', { type: 'orthogonal' }],
      ],
    },
    encoder: {
      type: 'alternating_lstm',
      input_size: 200,
      hidden_size: 300,
      num_layers: 8,
      recurrent_dropout_probability: 0.1,
      use_input_projection_bias: false,
    },
    binary_feature_dim: 100,
    label_smoothing: 0.1,
  },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: 80 } },
  trainer: {
    optimizer: { type: 'adadelta', rho: 0.95 },
    grad_clipping: 1.0,
    num_epochs: 6,
    validation_metric: '+f1-measure-overall',
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
