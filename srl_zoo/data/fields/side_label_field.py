"""The per-token labels beside the words (predicate senses, POS tags, dependency relations) in namespaces that
keep allennlp's padding and OOV entries on purpose: a POS tag, relation or sense unseen in training must not crash
evaluation. allennlp's `SequenceLabelField` advises, once per namespace, to name such namespaces `*labels` or
`*tags`; for these it does not apply, so this field has its own record of the namespaces already warned about,
filled with them (allennlp's own field and its record are left as they are)."""

from allennlp.data.fields import SequenceLabelField

#: the side namespaces that keep padding and OOV entries on purpose
SIDE_NAMESPACES = frozenset({"pos", "predicate_senses", "dependency_relations", "pos_predicate"})


class SideLabelField(SequenceLabelField):
    """allennlp's `SequenceLabelField`, without its namespace advice for `SIDE_NAMESPACES`."""

    _already_warned_namespaces = set(SIDE_NAMESPACES)
