// MiniLM (fine-tuned) under the 'deepatt' head (see minilm.libsonnet), EWT CoNLL-2012, predicates and senses.
(import 'minilm.libsonnet')('deepatt')
