// MiniLM (fine-tuned) under the 'thin' head (see minilm.libsonnet), EWT CoNLL-2012, predicates and senses.
(import 'minilm.libsonnet')('thin')
