// A small selective-connection model that trains on CPU in a few minutes. Data: the bundled EWT data unless SRL_TRAIN_DATA/SRL_DEV_DATA are set.
local sc = import 'selective_connection.libsonnet';
sc('conll2005', { word_dim: 64, predicate_dim: 32, hidden_dim: 96, num_layers: 3, num_heads: 4, max_tokens: 400, warmup_steps: 100, num_epochs: 40 })
