// LISA (Strubell et al. 2018) on the shared srl Model: the `lisa` encoder (12 pre-norm layers, 8 heads
// x 25, FFN 800 with leaky ReLU, sinusoidal positions), one pass per sentence, the `bilinear` frame
// scorer over the last layer, the joint POS/predicate head on layer 3 (index 2), the parser on
// layer 5 (index 4) whose parse is one attention head of layer 6, dependency relations with loss
// weight 0.1, label smoothing 0.1 and exact-BIO Viterbi decoding.
//
// Dependency trees: CoNLL-2009 files carry them; for span data (conll2005/conll2012) give aligned
// CoNLL-U or CoNLL-2009 files of the same sentences in SRL_TRAIN_TREES and SRL_DEV_TREES (on the
// bundled EWT data: data/ewt/conll2009/{train,dev}.txt.gz hold the UD trees of the same sentences).
local data = import '../common/data.libsonnet';
local embedding = import '../common/embedding.libsonnet';

function(format, overrides={}) {
  local settings = embedding.defaults(100, 0) + {
    hidden_dim: 200,
    num_layers: 12,
    num_heads: 8,
    ffn_hidden_dim: 800,
    ffn_hidden_layers: 2,      // 200→800→800→200 as in the authors' code
    parse_layer: 4,            // null: the `sa_baseline` (same transformer, no syntax head, no parse loss)
    pos_layer: 2,
    pre_norm: true,
    mlp_dim: 200,
    residual_dropout: 0.2,     // keep 0.8 in the paper
    dropout: 0.1,              // keep 0.9
    batch_size: 256,           // sentences per batch, as in the paper
    max_tokens: null,          // or batches of at most this many sentence tokens (instead of batch_size)
    // LISA's code: lr 0.04 * min(step^-0.5, step * warmup^-1.5); allennlp's noam also multiplies by
    // model_size^-0.5, hence the sqrt(200) here to get the same schedule.
    optimizer: { type: 'nadam', lr: 0.04 * std.pow(200, 0.5), betas: [0.9, 0.98], eps: 1e-12 },
    scheduler: { type: 'noam', model_size: 200, warmup_steps: 8000 },
    grad_norm: 5.0,
    num_epochs: 200,
    patience: 20,
    predicate_source: 'gold',
    callbacks: [],
    // 'indicator' scores the same transformer DeepAtt-style, one encoder row per (sentence,
    // predicate) with a 100-d predicate-mask embedding (no syntax head, no POS/predicate head): the
    // speed comparison of one pass per sentence against one pass per predicate
    frame_scorer: 'bilinear',
    // The paper's size (12 layers, batches of 256 sentences) does not fit a 24 GB CPU machine:
    // lisa_conll2012 reached 23.7 GB resident at batch 19 of 49 on the bundled EWT data and was
    // killed. Those configs therefore train on GPU 0; on a machine without one allennlp stops at
    // once with "Experiment specified a GPU but none is available; if you want to run on CPU use the
    // override 'trainer.cuda_device=-1'". The small and CPU-budget configs (smaller batches) run on CPU.
    for_gpu: self.max_tokens == null && self.batch_size >= 256,
  } + overrides,
  local indicator = settings.frame_scorer == 'indicator',

  local trees = if format == 'conll2009' then {} else {
    // two objects merged, so that train and dev may be the same file
    dependency_files: { [data.train(format)]: data.train_trees() } + { [data.dev(format)]: data.dev_trees() },
  },

  dataset_reader: data.reader(format) + { token_indexers: embedding.token_indexers(settings) } + trees,
  train_data_path: data.train(format),
  validation_data_path: data.dev(format),
  model: {
    type: 'srl_zoo',
    text_field_embedder: embedding.embedder(settings),
    frame_scorer: {
      type: settings.frame_scorer,
      encoder: {
        type: 'lisa',
        hidden_dim: settings.hidden_dim,
        num_layers: settings.num_layers,
        num_heads: settings.num_heads,
        ffn_hidden_dim: settings.ffn_hidden_dim,
        ffn_hidden_layers: settings.ffn_hidden_layers,
        pre_norm: settings.pre_norm,
        parse_layer: if indicator then null else settings.parse_layer,
        residual_dropout: settings.residual_dropout,
        attention_dropout: settings.dropout,
        relu_dropout: settings.dropout,
        // embeddings start at N(0, 1/d): sqrt(d) brings them to the positions' scale (not a transformer's output)
        scale_input: embedding.scale_input(settings),
      },
      // CoNLL-2009 labels head words: each argument is one token, scored by eval09's rules (as AMN's configs)
      output: { type: 'softmax', label_smoothing: 0.1, decoding: if format == 'conll2009' then 'dependency' else 'viterbi' },
    } + (if indicator then { predicate_embedding_dim: 100 } else { mlp_dim: settings.mlp_dim, dropout: settings.dropout }),
    predicate_head: if indicator then null else
      { type: 'joint_pos_predicate', layer: settings.pos_layer, mlp_dim: settings.mlp_dim, dropout: settings.dropout },
    auxiliary_tasks: if settings.parse_layer == null || indicator then {} else {
      parse: { type: 'dependency_parse', label_mlp_dim: 100, arc_loss_weight: 1.0, label_loss_weight: 0.1, dropout: settings.dropout },
    },
    predicate_source: settings.predicate_source,
    [if format == 'conll2009' then 'srl_metric']: { type: 'conll2009_f1' },
    embedding_dropout: settings.residual_dropout,
    initializer: { regexes: embedding.initializer_regexes(settings) },
  },
  local sampler(scale) = if settings.max_tokens == null
    then { type: 'bucket', batch_size: scale * settings.batch_size, sorting_keys: ['tokens'] }
    else { type: 'max_tokens_sampler', max_tokens: scale * settings.max_tokens, sorting_keys: ['tokens'] },
  data_loader: { batch_sampler: sampler(1) },
  validation_data_loader: { batch_sampler: sampler(4) },
  trainer: {
    optimizer: settings.optimizer,
    learning_rate_scheduler: settings.scheduler,
    grad_norm: settings.grad_norm,
    num_epochs: settings.num_epochs,
    patience: settings.patience,
    validation_metric: '+f1-measure-overall',
    callbacks: settings.callbacks,
    [if settings.for_gpu then 'cuda_device']: 0,
  },
}
