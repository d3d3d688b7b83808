// The MiniLM encoder (`make minilm`: .cache/minilm, or SRL_TRANSFORMER) under a head, on the bundled
// EWT CoNLL-2012 files (all predicates and their senses), with the predicate-and-sense head so the
// model labels raw text. The transformer runs once per sentence; the heads differ in what they
// cost per predicate:
//   thin      an indicator scorer: the transformer's word vectors + a 32-d predicate embedding,
//             one BiLSTM layer of 128 per direction (torch's LSTM) per (sentence, predicate) row
//   bilinear  LISA's one-pass scorer: predicate and role MLPs on the transformer's top layer and a
//             bilinear map per label; no per-predicate encoder at all
//   deepatt   an indicator scorer with 2 DeepAtt layers (d=200, FFN) per (sentence, predicate) row
//   sc        an indicator scorer with 2 selective-connection layers (d=200, BiLSTM input layer,
//             the loss on the last layer's output) per (sentence, predicate) row
//   marked    the predicate marked in the transformer's input (token-type id 1 on its word pieces, as
//             allennlp-models' srl_bert): the transformer runs again per (sentence, predicate) row, and
//             an indicator scorer tags each word from [its sentence vector; a 32-d predicate embedding;
//             its vector from the marked row] with one linear layer
//   amn       the thin head with AMN's associated memory (Guan et al. 2019) beside the words: the 4 training
//             (sentence, predicate) pairs nearest by POS edit distance, their words (the transformer's
//             word-piece input embeddings averaged per word, no context) and the target's through a
//             shared BiLSTM of 64 per direction, their gold tags (64-d) averaged by attention; needs POS
//             with every sentence to label (the CoNLL files have them; raw text has none)
//   lisa      the bilinear scorer over 2 LISA layers (d=200) run once per sentence: layer 1's output
//             feeds a joint POS/predicate head and a dependency parser trained on EWT's gold UD trees
//             (SRL_TRAIN_TREES/SRL_DEV_TREES; default the bundled ones), whose parse is one attention
//             head of layer 2 (Strubell et al. 2018)
// `train_transformer: false` freezes the transformer and learns a scalar mix of its layers;
// `transformer_layers: N` keeps only its first N layers (faster, the rest of the weights unread);
// `position_bias: true` gives the bilinear head a learned score per label for each token's offset
// from the predicate (srl_zoo/parts/layers/relative_position_bias.py).
// Learning rates per part: the transformer `transformer_lr`, everything else `head_lr`, linear
// warm-up then linear decay over `num_epochs`; the time_budget callback stops at the last epoch
// that fits in SRL_BUDGET_MINUTES (default 60). Batches of ~`max_tokens` words, bucketed by length.
local data = import '../common/data.libsonnet';
local settings = import '../common/settings.libsonnet';
local embedding = import '../common/embedding.libsonnet';
local transformer = import '../transformer/transformer.libsonnet';
function(head, overrides={}) (
  local s = {
    train_transformer: true,
    transformer_lr: 1e-4,
    head_lr: 1e-3,
    warmup_steps: 300,
    num_epochs: 12,
    max_tokens: 600,
    dropout: 0.1,
    mlp_dim: 256,  // the bilinear head's predicate and role MLPs
    position_bias: false,
    output: 'softmax',  // or 'crf': a CRF output layer on the head's scores (Viterbi over learned transitions)
    transformer_layers: null,  // null: all of them
    budget_minutes: settings.budget_minutes(60),
  } + overrides;
  local embedder_settings = embedding.defaults(null, 32) + {  // the transformer's width follows from it
    transformer_model: transformer.transformer_model,
    train_transformer: s.train_transformer,
  };
  local heads = {
    thin: {
      frame_scorer: {
        type: 'indicator',
        predicate_embedding_dim: 32,
        encoder: { type: 'lstm', hidden_size: 128, bidirectional: true },
      },
    },
    bilinear: {
      frame_scorer: {
        type: 'bilinear', encoder: { type: 'pass_through' }, mlp_dim: s.mlp_dim, dropout: s.dropout,
        position_bias: s.position_bias,
      },
    },
    deepatt: {
      frame_scorer: {
        type: 'indicator',
        predicate_embedding_dim: 32,
        encoder: {
          type: 'deep_att', hidden_dim: 200, num_layers: 2, num_heads: 8,
          sublayer: 'ffn', ffn_hidden_dim: 800, scale_input: false,
        },
      },
    },
    sc: {
      frame_scorer: {
        type: 'indicator',
        predicate_embedding_dim: 32,
        encoder: {
          type: 'selective_connection', hidden_dim: 200, num_layers: 2, num_heads: 8,
          input_bilstm: true, scale_input: false,
        },
      },
    },
    amn: self.thin + {
      frame_features: {
        type: 'associated_memory',
        encoder: { type: 'lstm', hidden_size: 64, bidirectional: true },
        flag_dim: 16,
        label_dim: 64,
        num_neighbours: 4,
        selector: { type: 'edit_distance' },
        train_data_path: data.train('conll2012'),
        reader: data.reader('conll2012'),
      },
    },
    marked: {
      frame_features: { type: 'marked_predicate_transformer', dropout: s.dropout },
      frame_scorer: {
        type: 'indicator',
        predicate_embedding_dim: 32,
        encoder: { type: 'pass_through' },
      },
    },
    lisa: {
      frame_scorer: {
        type: 'bilinear', mlp_dim: s.mlp_dim, dropout: s.dropout,
        encoder: {
          type: 'lisa', hidden_dim: 200, num_layers: 2, num_heads: 8, ffn_hidden_dim: 800,
          ffn_hidden_layers: 2, pre_norm: true, parse_layer: 0, residual_dropout: s.dropout,
          attention_dropout: s.dropout, relu_dropout: s.dropout, scale_input: false,
        },
      },
      predicate_head: { type: 'joint_pos_predicate', layer: 0, mlp_dim: s.mlp_dim, dropout: s.dropout },
      auxiliary_tasks: {
        parse: { type: 'dependency_parse', label_mlp_dim: 100, arc_loss_weight: 1.0, label_loss_weight: 0.1, dropout: s.dropout },
      },
    },
  };
  // LISA's parser learns from dependency trees of the same sentences
  local trees = if head != 'lisa' then {} else {
    dependency_files: { [data.train('conll2012')]: data.train_trees() } + { [data.dev('conll2012')]: data.dev_trees() },
  };
  {
    dataset_reader: data.reader('conll2012') + { token_indexers: embedding.token_indexers(embedder_settings) } + trees,
    train_data_path: data.train('conll2012'),
    validation_data_path: data.dev('conll2012'),
    model: {
      type: 'srl_zoo',
      text_field_embedder: {
        token_embedders: {
          tokens: {
            type: 'pretrained_transformer_mismatched',
            model_name: transformer.transformer_model,
            max_length: 512,
            train_parameters: s.train_transformer,
            last_layer_only: s.train_transformer,  // frozen: a learned scalar mix of every layer
          } + (if s.transformer_layers == null then {} else { transformer_kwargs: { num_hidden_layers: s.transformer_layers } }),
        },
      },
      embedding_dropout: s.dropout,
      // predicates and senses for raw text; a sense only if the word had it in training (else 01)
      predicate_head: { type: 'tagger', restrict_senses: true },
      initializer: { regexes: [['predicate_embedding.weight', { type: 'normal', mean: 0.0, std: 1.0 }]] },
    // a softmax output decodes by Viterbi under BIO; a CRF decodes with its own transitions (no decoding setting)
    } + heads[head] + { frame_scorer+: { output: if s.output == 'softmax' then { type: 'softmax', decoding: 'viterbi' } else { type: s.output } } },
    data_loader: { batch_sampler: { type: 'bucket', batch_size: std.floor(s.max_tokens / 16), sorting_keys: ['tokens'] } },
    validation_data_loader: { batch_sampler: { type: 'bucket', batch_size: 128, sorting_keys: ['tokens'] } },
    trainer: {
      optimizer: {
        type: 'huggingface_adamw',
        lr: s.head_lr,
        weight_decay: 0.01,
        parameter_groups: [[['text_field_embedder'], { lr: s.transformer_lr }]],
      },
      learning_rate_scheduler: { type: 'linear_with_warmup', warmup_steps: s.warmup_steps },
      grad_norm: 1.0,
      num_epochs: s.num_epochs,
      validation_metric: '+f1-measure-overall',
      // the transformer's config and tokenizer travel in model.tar.gz: loading needs no .cache/minilm
      callbacks: [{ type: 'time_budget', minutes: s.budget_minutes }, { type: 'transformer_files' }],
    },
    include_in_archive: ['transformer/*'],
  }
)
