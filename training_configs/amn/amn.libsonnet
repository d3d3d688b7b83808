// AMN (Guan et al. 2019): a BiLSTM argument labeler over words + a predicate flag, with the
// associated memory (srl_zoo/amn/associated_memory.py) of the training file's labeled
// (sentence, predicate) pairs. The paper's settings: flag 16, word 100 (GloVe), main BiLSTM 3x512,
// shared BiLSTM 2x512, label embeddings 128, m = 4 neighbours by POS edit distance, average merge,
// Adam 1e-3, batches of 32. Left out: the paper's lemma, POS and ELMo input embeddings.
// CoNLL-2009: gold predicates, senses from a predicate head, `dependency` decoding, scored like
// eval09.pl (`conll2009_f1`: labeled F1 with senses; `argument-f1` without them).
// Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set (the memory reads the training file too).
local data = import '../common/data.libsonnet';
local embedding = import '../common/embedding.libsonnet';

function(format, overrides={})
  local settings = embedding.defaults(100, 16) + {
    memory: true,  // false: the base model
    selector: 'edit_distance',  // or 'sif', 'relaxed_wmd' (over the model's initial word vectors), 'random'
    merge: 'average',  // or 'concat', 'weighted', 'flat'
    num_neighbours: 4,
    label_dim: 128,
    hidden_dim: 512,  // per direction
    num_layers: 3,
    memory_hidden_dim: 512,  // the shared encoder's, per direction
    memory_layers: 2,
    dropout: 0.1,
    neighbour_cache: null,  // e.g. the serialization dir's or the data's neighbours.json (reused across runs)
    batch_size: 32,
    max_tokens: null,  // a number: batches of about that many sentence tokens instead of batch_size sentences
    optimizer: { type: 'adam', lr: 1e-3 },
    num_epochs: 50,
    callbacks: [],
  } + overrides;
  local dependency = format == 'conll2009';
  local sampler = if settings.max_tokens == null then { batch_size: settings.batch_size, shuffle: true }
  else { batch_sampler: { type: 'max_tokens_sampler', max_tokens: settings.max_tokens, sorting_keys: ['tokens'] } };
  {
    dataset_reader: data.reader(format) + { token_indexers: embedding.token_indexers(settings) },
    train_data_path: data.train(format),
    validation_data_path: data.dev(format),
    model: {
      type: 'srl_zoo',
      text_field_embedder: embedding.embedder(settings),
      frame_scorer: {
        type: 'indicator',
        predicate_embedding_dim: settings.predicate_dim,
        encoder: {
          type: 'lstm',
          hidden_size: settings.hidden_dim,
          num_layers: settings.num_layers,
          bidirectional: true,
          dropout: settings.dropout,
        },
        output: { type: 'softmax', decoding: if dependency then 'dependency' else 'viterbi' },
      },
      embedding_dropout: settings.dropout,
      // senses (eval09 counts them) come from the predicate head
      [if dependency then 'predicate_head']: { type: 'tagger' },
      [if dependency then 'srl_metric']: { type: 'conll2009_f1' },
      [if settings.memory then 'frame_features']: {
        encoder: {
          type: 'lstm',
          hidden_size: settings.memory_hidden_dim,
          num_layers: settings.memory_layers,
          bidirectional: true,
        },
        flag_dim: 16,
        label_dim: settings.label_dim,
        num_neighbours: settings.num_neighbours,
        merge: settings.merge,
        selector: { type: settings.selector },
        train_data_path: data.train(format),
        reader: data.reader(format),
        lowercase_tokens: settings.lowercase_tokens,
        neighbour_cache: settings.neighbour_cache,
      },
      initializer: { regexes: embedding.initializer_regexes(settings) },
    },
    data_loader: sampler,
    validation_data_loader: { batch_size: 64 },
    trainer: {
      optimizer: settings.optimizer,
      grad_norm: 5.0,
      num_epochs: settings.num_epochs,
      patience: 10,
      validation_metric: '+f1-measure-overall',
      callbacks: settings.callbacks,
    },
  }
