// Word embeddings shared by the configs: random vectors, pretrained vectors from a local file
// (e.g. `make glove` -> .cache/glove/glove.6B.50d.txt.gz), or a pretrained transformer from a local
// Hugging Face model directory. Nothing is downloaded.
//
// settings: word_dim, predicate_dim, pretrained_file (null: random), lowercase_tokens,
//           train_pretrained (fine-tune the vectors), pretrained_std (their spread after rescaling),
//           transformer_model (null, or a local model directory: its width is the words', word_dim
//           unused), transformer_max_length, train_transformer.
//
// Transformer: allennlp's `pretrained_transformer_mismatched` indexer and embedder (word pieces in,
// one vector per word out: the mean of its pieces). Sentences longer than transformer_max_length
// word pieces are cut into windows of that length, each encoded separately and stitched back
// (allennlp's folding), so no sentence is too long. The encoders then take the vectors as they
// come (no sqrt(d) input scaling: see scale_input) and the predicate embedding starts at N(0, 1),
// the scale of a transformer's LayerNorm-ed output.
//
// Pretrained vectors: the vocabulary is the training data's words (allennlp's default: words of
// the training and validation files); a word found in the file starts from its vector, a word
// not found from a random vector of the file's mean and spread, and words unseen in the data map
// to @@UNKNOWN@@. GloVe 6B is lowercased, so `lowercase_tokens` defaults to true with a
// pretrained file. The vectors are then rescaled (initializer `rescale`) to `pretrained_std`,
// by default the N(0, 1/d) scale that the other embeddings start from, because DeepAtt-style
// encoders multiply their input by sqrt(d) and GloVe's raw spread (~0.4-0.6) would swamp the
// predicate embedding and the timing signal.
{
  defaults(word_dim, predicate_dim):: {
    word_dim: word_dim,
    predicate_dim: predicate_dim,
    pretrained_file: null,
    lowercase_tokens: self.pretrained_file != null,
    train_pretrained: true,
    pretrained_std: std.pow(self.word_dim + self.predicate_dim, -0.5),
    transformer_model: null,
    transformer_max_length: 512,
    train_transformer: true,
  },

  local transformer(settings) = {
    type: 'pretrained_transformer_mismatched',
    model_name: settings.transformer_model,
    max_length: settings.transformer_max_length,
  },

  // a transformer's words are split into pieces by srl_zoo's `word_pieces` indexer (as the runtime splits them)
  token_indexers(settings):: { tokens: if settings.transformer_model != null then transformer(settings) + { type: 'word_pieces' }
  else { type: 'single_id', lowercase_tokens: settings.lowercase_tokens } },

  // Whether an encoder should multiply its input by sqrt(d): for embeddings that start at N(0, 1/d),
  // not for a transformer's output.
  scale_input(settings):: settings.transformer_model == null,

  embedder(settings):: if settings.transformer_model != null then {
    token_embedders: { tokens: transformer(settings) + { train_parameters: settings.train_transformer } },
  } else {
    token_embedders: {
      tokens: { type: 'embedding', embedding_dim: settings.word_dim }
              + (if settings.pretrained_file != null
                 then { pretrained_file: settings.pretrained_file, trainable: settings.train_pretrained }
                 else {}),
    },
  },

  // The embeddings start at N(0, 1/d) (d = word + predicate width); pretrained vectors are rescaled instead.
  initializer_regexes(settings):: if settings.transformer_model != null then
    [['predicate_embedding.weight', { type: 'normal', mean: 0.0, std: 1.0 }]]
  else (
    local normal = { type: 'normal', mean: 0.0, std: std.pow(settings.word_dim + settings.predicate_dim, -0.5) };
    if settings.pretrained_file == null then
      [['text_field_embedder.token_embedder_tokens.weight|predicate_embedding.weight', normal]]
    else
      [['text_field_embedder.token_embedder_tokens.weight', { type: 'rescale', std: settings.pretrained_std }],
       ['predicate_embedding.weight', normal]]
  ),
}
