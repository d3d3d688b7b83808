// Peer row (leaderboards/ewt.jsonnet): allennlp-models' `srl_bert` (Shi and Lin 2019: the predicate
// marked by BERT's token-type ids, one encoder pass per (sentence, predicate) row, a linear layer and
// Viterbi under BIO constraints) on the same first 3 MiniLM layers as srl_zoo's rows. Trained with
// allennlp-models 2.10.1 from .cache/allennlp-models (`make install`), beside the venv, never in it:
//   PYTHONPATH=.cache/allennlp-models allennlp train training_configs/peers/srl_bert_minilm_l3.jsonnet \
//       -s runs/srl_bert --include-package allennlp_models.structured_prediction
// `make minilm-l3` writes .cache/minilm-l3-uncased (the name must say "uncased": the reader lower-cases
// only then). The data are directories of `*gold_conll` files without the parse column (the leaderboard
// writes them: srl_zoo.leaderboard.peers).
local transformer = '.cache/minilm-l3-uncased';
{
  dataset_reader: { type: 'srl', bert_model_name: transformer },
  train_data_path: 'runs/leaderboard/data/peers/train',
  validation_data_path: 'runs/leaderboard/data/peers/dev',
  model: { type: 'srl_bert', bert_model: transformer, embedding_dropout: 0.1 },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: 32 } },
  trainer: {
    optimizer: {
      type: 'huggingface_adamw',
      lr: 1e-4,
      correct_bias: false,
      weight_decay: 0.01,
      parameter_groups: [[['bias', 'LayerNorm.bias', 'LayerNorm.weight', 'layer_norm.weight'], { weight_decay: 0.0 }]],
    },
    learning_rate_scheduler: { type: 'slanted_triangular' },
    grad_norm: 1.0,
    num_epochs: 6,
    validation_metric: '+f1-measure-overall',
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
