// MiniLM (fine-tuned) under the 'amn' head (see minilm.libsonnet): the thin head with AMN's associated
// memory of the training file's 4 nearest (sentence, predicate) pairs; EWT CoNLL-2012, predicates and senses.
// Labeling needs POS tags with each sentence (CoNLL files have them).
(import 'minilm.libsonnet')('amn')
