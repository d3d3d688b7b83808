// The shipped English model's recipe (README, "The shipped model"): the best CPU recipe
// (sc_bilstm_cpu_budget_conll2005.jsonnet: selective-connection encoder, depth 4, BiLSTM input
// layer, connection off, d=200, GloVe 50-d) on the CoNLL-2012 files, so that it sees every
// predicate (verbal and nominal) and its frameset, plus the predicate identification head, which
// learns to find the predicates and their senses (`01`, `LV`, ...) for raw text.
// Needs SRL_GLOVE (empty: random vectors) and SRL_BUDGET_MINUTES; data as in ../common/data.libsonnet.
local sc = import '../selective_connection/selective_connection.libsonnet';
local glove = std.extVar('SRL_GLOVE');
sc('conll2012', {
  word_dim: 50,
  pretrained_file: if glove == '' then null else glove,
  lowercase_tokens: true,
  num_layers: 4,
  input_bilstm: true,
  selective: false,
  predicate_identification: true,
  callbacks: [{ type: 'time_budget', minutes: std.parseJson(std.extVar('SRL_BUDGET_MINUTES')) }],
})
