// Selectively connected self-attentions (Applied Sciences 2019) on the shared srl Model.
// The paper gives no optimiser details we could verify, so this uses Adam with Noam warm-up;
// loss at every layer and averaged label distributions at inference (per_layer_loss).
local data = import '../common/data.libsonnet';

function(format, overrides={}) {
  local settings = {
    word_dim: 100,
    predicate_dim: 100,
    hidden_dim: 200,
    num_layers: 8,
    num_heads: 8,
    input_bilstm: false,
    selective: true,          // false: the ablation "plain stacked attention", same depth
    next_input: 'output',     // or 'state' (ambiguous in the paper)
    initial_state: 'random',  // N(0, 1/d) in training as in the paper, zero at inference
    max_tokens: 500,
    warmup_steps: 800,
    num_epochs: 100,
    callbacks: [],
  } + overrides,

  dataset_reader: data.reader(format),
  train_data_path: data.train,
  validation_data_path: data.dev,
  model: {
    type: 'srl',
    text_field_embedder: { token_embedders: { tokens: { type: 'embedding', embedding_dim: settings.word_dim } } },
    predicate_embedding_dim: settings.predicate_dim,
    encoder: {
      type: 'selective_connection',
      input_dim: settings.word_dim + settings.predicate_dim,
      hidden_dim: settings.hidden_dim,
      num_layers: settings.num_layers,
      num_heads: settings.num_heads,
      input_bilstm: settings.input_bilstm,
      selective: settings.selective,
      next_input: settings.next_input,
      initial_state: settings.initial_state,
    },
    per_layer_loss: true,
    decoding: 'viterbi',
    initializer: {
      regexes: [
        ['text_field_embedder.token_embedder_tokens.weight|predicate_embedding.weight',
         { type: 'normal', mean: 0.0, std: std.pow(settings.word_dim + settings.predicate_dim, -0.5) }],
      ],
    },
  },
  data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: settings.max_tokens, sorting_keys: ['tokens'] } },
  validation_data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: 4 * settings.max_tokens, sorting_keys: ['tokens'] } },
  trainer: {
    optimizer: { type: 'adam', lr: 1.0, betas: [0.9, 0.98], eps: 1e-9 },
    learning_rate_scheduler: { type: 'noam', model_size: settings.hidden_dim, warmup_steps: settings.warmup_steps },
    grad_norm: 1.0,
    num_epochs: settings.num_epochs,
    patience: 20,
    validation_metric: '+f1-measure-overall',
    callbacks: settings.callbacks,
  },
}
