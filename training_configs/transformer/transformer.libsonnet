// Settings shared by the transformer-embedder configs: word vectors from a pretrained transformer in a
// local Hugging Face model directory (SRL_TRANSFORMER, e.g. a saved bert-base-cased or roberta-base;
// nothing is downloaded), whose hidden size SRL_TRANSFORMER_DIM gives (default 768, base models). The
// transformer is fine-tuned with the SRL layers; sentences longer than 512 word pieces
// (transformer_max_length) are encoded in windows. Adam with a 5e-5 peak and a linear warm-up,
// as usual for fine-tuning, and 1000-token batches (the transformer sees each sentence once).
{
  transformer_model: if std.extVar('SRL_TRANSFORMER') != '' then std.extVar('SRL_TRANSFORMER')
  else error 'SRL_TRANSFORMER is unset: set it to a local Hugging Face model directory (nothing is downloaded; '
             + 'srl_zoo does not build an offline encoder yet)',
  word_dim: std.parseInt(if std.extVar('SRL_TRANSFORMER_DIM') == '' then '768' else std.extVar('SRL_TRANSFORMER_DIM')),
  max_tokens: 1000,
  optimizer: { type: 'huggingface_adamw', lr: 5e-5, weight_decay: 0.01, correct_bias: true },
  scheduler: { type: 'slanted_triangular', num_epochs: 15, cut_frac: 0.06 },
  num_epochs: 15,
}
