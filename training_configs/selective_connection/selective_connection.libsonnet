// Selectively connected self-attentions (Applied Sciences 2019) on the shared srl Model.
// The paper gives no optimiser details we could verify, so this uses Adam with Noam warm-up;
// loss at every layer and averaged label distributions at inference (per_layer_loss).
local data = import '../common/data.libsonnet';
local embedding = import '../common/embedding.libsonnet';

function(format, overrides={}) {
  // word_dim, predicate_dim, pretrained_file, ...: see ../common/embedding.libsonnet
  local settings = embedding.defaults(100, 100) + {
    hidden_dim: 200,
    num_layers: 8,
    num_heads: 8,
    input_bilstm: false,
    selective: true,          // false: the ablation "plain stacked attention", same depth
    next_input: 'output',     // or 'state' (ambiguous in the paper)
    initial_state: 'random',  // N(0, 1/d) in training as in the paper, zero at inference
    predicate_identification: false,  // true: also learn to find predicates (and senses) for raw text
    max_tokens: 500,
    warmup_steps: 800,
    optimizer: { type: 'adam', lr: 1.0, betas: [0.9, 0.98], eps: 1e-9 },
    local outer = self,
    scheduler: { type: 'noam', model_size: outer.hidden_dim, warmup_steps: outer.warmup_steps },
    num_epochs: 100,
    callbacks: [],
  } + overrides,

  dataset_reader: data.reader(format) + { token_indexers: embedding.token_indexers(settings) },
  train_data_path: data.train(format),
  validation_data_path: data.dev(format),
  model: {
    type: 'srl_zoo',
    text_field_embedder: embedding.embedder(settings),
    // one encoder pass per (sentence, predicate) over [words; predicate-mask embedding]
    frame_scorer: {
      type: 'indicator',
      predicate_embedding_dim: settings.predicate_dim,
      encoder: {
        type: 'selective_connection',
        hidden_dim: settings.hidden_dim,
        num_layers: settings.num_layers,
        num_heads: settings.num_heads,
        input_bilstm: settings.input_bilstm,
        selective: settings.selective,
        next_input: settings.next_input,
        initial_state: settings.initial_state,
        scale_input: embedding.scale_input(settings),
      },
      per_layer_loss: true,
      // CoNLL-2009: roles on head words, senses from the predicate head, eval09's scores (as AMN's configs)
      output: { type: 'softmax', decoding: if format == 'conll2009' then 'dependency' else 'viterbi' },
    },
    [if settings.predicate_identification || format == 'conll2009' then 'predicate_head']: { type: 'tagger' },
    [if format == 'conll2009' then 'srl_metric']: { type: 'conll2009_f1' },
    initializer: { regexes: embedding.initializer_regexes(settings) },
  },
  data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: settings.max_tokens, sorting_keys: ['tokens'] } },
  validation_data_loader: { batch_sampler: { type: 'max_tokens_sampler', max_tokens: 4 * settings.max_tokens, sorting_keys: ['tokens'] } },
  trainer: {
    optimizer: settings.optimizer,
    learning_rate_scheduler: settings.scheduler,
    grad_norm: 1.0,
    num_epochs: settings.num_epochs,
    patience: 20,
    validation_metric: '+f1-measure-overall',
    callbacks: settings.callbacks,
  },
}
