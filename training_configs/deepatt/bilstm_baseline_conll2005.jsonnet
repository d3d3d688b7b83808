// Baseline for comparison: the same srl Model with allennlp's stacked BiLSTM encoder
// (4 layers, 300 per direction), word 100 + predicate 100, Adadelta as in He et al. 2017, with
// their batch size: ~80 predicates = ~500 sentence tokens (one Instance holds all predicates).
// Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local settings = import '../common/settings.libsonnet';
local data = import '../common/data.libsonnet';
{
  dataset_reader: data.reader('conll2005'),
  train_data_path: data.train('conll2005'),
  validation_data_path: data.dev('conll2005'),
  model: {
    type: 'srl_zoo',
    text_field_embedder: { token_embedders: { tokens: { type: 'embedding', embedding_dim: 100 } } },
    frame_scorer: {
      type: 'indicator',
      predicate_embedding_dim: 100,
      encoder: { type: 'stacked_bidirectional_lstm', hidden_size: 300, num_layers: 4,
                 recurrent_dropout_probability: 0.1, use_highway: true },
      output: { type: 'softmax', decoding: 'viterbi' },
    },
  },
  data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: 500, sorting_keys: ['tokens'] } },
  validation_data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: 6400, sorting_keys: ['tokens'] } },
  trainer: {
    optimizer: { type: 'adadelta', lr: 1.0, rho: 0.95, eps: 1e-6 },
    grad_norm: 1.0,
    num_epochs: 100,
    patience: 20,
    validation_metric: '+f1-measure-overall',
    // ends training at the last epoch boundary that fits in SRL_BUDGET_MINUTES
    callbacks: [{ type: 'time_budget', minutes: settings.budget_minutes(30) }],
  },
}
