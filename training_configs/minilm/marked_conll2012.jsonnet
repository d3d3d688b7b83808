// MiniLM (fine-tuned) under the 'marked' head (see minilm.libsonnet): the predicate marked by token-type ids
// in a second transformer pass per predicate, as allennlp-models' srl_bert; EWT CoNLL-2012, predicates and senses.
(import 'minilm.libsonnet')('marked')
