// Word embeddings shared by the configs: random vectors, or pretrained vectors from a local file
// (e.g. `make glove` -> .cache/glove/glove.6B.50d.txt.gz; nothing is downloaded).
//
// settings: word_dim, predicate_dim, pretrained_file (null: random), lowercase_tokens,
//           train_pretrained (fine-tune the vectors), pretrained_std (their spread after rescaling).
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
  },

  token_indexers(settings):: { tokens: { type: 'single_id', lowercase_tokens: settings.lowercase_tokens } },

  embedder(settings):: {
    token_embedders: {
      tokens: { type: 'embedding', embedding_dim: settings.word_dim }
              + (if settings.pretrained_file != null
                 then { pretrained_file: settings.pretrained_file, trainable: settings.train_pretrained }
                 else {}),
    },
  },

  // The embeddings start at N(0, 1/d) (d = word + predicate width); pretrained vectors are rescaled instead.
  initializer_regexes(settings):: (
    local normal = { type: 'normal', mean: 0.0, std: std.pow(settings.word_dim + settings.predicate_dim, -0.5) };
    if settings.pretrained_file == null then
      [['text_field_embedder.token_embedder_tokens.weight|predicate_embedding.weight', normal]]
    else
      [['text_field_embedder.token_embedder_tokens.weight', { type: 'rescale', std: settings.pretrained_std }],
       ['predicate_embedding.weight', normal]]
  ),
}
