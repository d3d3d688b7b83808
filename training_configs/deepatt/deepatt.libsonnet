// DeepAtt (Tan et al. 2018) with the paper's settings; each variant file picks sub-layer and data format.
local data = import '../common/data.libsonnet';
local embedding = import '../common/embedding.libsonnet';

function(sublayer, format, overrides={}) {
  // word_dim: word embedding (paper: 100, GloVe-initialised); predicate_dim: predicate-mask
  // embedding, concatenated (d = 200); pretrained_file: e.g. '.cache/glove/glove.6B.50d.txt.gz'
  // (a local path; nothing is downloaded) -- see ../common/embedding.libsonnet.
  local settings = embedding.defaults(100, 100) + {
    hidden_dim: 200,
    num_layers: 10,
    num_heads: 8,
    // ~4096 (sentence, predicate)-row tokens per batch as in the paper: one Instance holds all
    // predicates of a sentence (~2.5 on average, more in long sentences), hence 1600 sentence tokens.
    max_tokens: 1600,
    optimizer: { type: 'adadelta', lr: 1.0, rho: 0.95, eps: 1e-6 },
    scheduler: { type: 'step_halving', start: 400000, every: 100000 },
    num_epochs: 150,
    decoding: 'argmax',
    predicate_identification: false,  // true: also learn to find predicates (raw-text prediction)
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
        type: 'deep_att',
        hidden_dim: settings.hidden_dim,
        num_layers: settings.num_layers,
        num_heads: settings.num_heads,
        sublayer: sublayer,
        ffn_hidden_dim: 800,
        residual_dropout: 0.2,
        attention_dropout: 0.1,
        relu_dropout: 0.1,
        scale_input: embedding.scale_input(settings),
      },
      // CoNLL-2009: roles on head words, senses from the predicate head, eval09's scores (as AMN's configs)
      output: { type: 'softmax', label_smoothing: 0.1, decoding: if format == 'conll2009' then 'dependency' else settings.decoding },
    },
    [if settings.predicate_identification || format == 'conll2009' then 'predicate_head']: { type: 'tagger' },
    [if format == 'conll2009' then 'srl_metric']: { type: 'conll2009_f1' },
    // The encoder multiplies its input by sqrt(d); as in the authors' code, embeddings start at
    // N(0, 1/d) so that the scaled input has unit scale (pretrained vectors are rescaled to it).
    initializer: { regexes: embedding.initializer_regexes(settings) },
  },
  data_loader: {
    batch_sampler: { type: 'max_tokens_sampler', max_tokens: settings.max_tokens, sorting_keys: ['tokens'] },
  },
  validation_data_loader: {
    batch_sampler: { type: 'max_tokens_sampler', max_tokens: 4 * settings.max_tokens, sorting_keys: ['tokens'] },
  },
  trainer: {
    optimizer: settings.optimizer,
    learning_rate_scheduler: settings.scheduler,
    grad_norm: 1.0,
    num_epochs: settings.num_epochs,
    patience: 20,
    validation_metric: '+f1-measure-overall',
    callbacks: settings.callbacks,
    use_amp: false,          // set true on a GPU for mixed precision
  },
}
