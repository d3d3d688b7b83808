// MiniLM (fine-tuned) under the 'bilinear' head (see minilm.libsonnet), EWT CoNLL-2012, predicates and senses.
(import 'minilm.libsonnet')('bilinear')
