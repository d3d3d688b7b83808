// A BiLSTM (allennlp's stacked_bidirectional_lstm, 2 layers of 300 per direction, highway connections)
// over a pretrained transformer's word vectors and a 100-d predicate embedding, as in BERT-based SRL
// models with an LSTM on top. Needs SRL_TRANSFORMER.
local data = import '../common/data.libsonnet';
local embedding = import '../common/embedding.libsonnet';
local settings = embedding.defaults(null, 100) + (import 'transformer.libsonnet');
{
  dataset_reader: data.reader('conll2012') + { token_indexers: embedding.token_indexers(settings) },
  train_data_path: data.train('conll2012'),
  validation_data_path: data.dev('conll2012'),
  model: {
    type: 'srl_zoo',
    text_field_embedder: embedding.embedder(settings),
    frame_scorer: {
      type: 'indicator',
      predicate_embedding_dim: settings.predicate_dim,
      encoder: { type: 'stacked_bidirectional_lstm', hidden_size: 300, num_layers: 2, recurrent_dropout_probability: 0.1, use_highway: true },
      output: { type: 'softmax', decoding: 'viterbi' },
    },
    initializer: { regexes: embedding.initializer_regexes(settings) },
  },
  data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: settings.max_tokens, sorting_keys: ['tokens'] } },
  validation_data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: 4 * settings.max_tokens, sorting_keys: ['tokens'] } },
  trainer: {
    optimizer: settings.optimizer,
    learning_rate_scheduler: settings.scheduler,
    grad_norm: 1.0,
    num_epochs: settings.num_epochs,
    validation_metric: '+f1-measure-overall',
  },
}
