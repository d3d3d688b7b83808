"""The senses each word was seen with in training, so that a predicate head never outputs a sense the
training data never paired with the word (`broke.13`); a word never seen as a predicate takes the senses
its lemma's rolesets have in the frame files, where given. Plain Python over torch tensors or numpy arrays: the
inference graphs' runtime (`srl_zoo.graphs`) restricts senses with it too."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Optional

#: the sense a word never seen as a predicate in training gets
DEFAULT_SENSE = "01"


class SenseTable:
    """Word (lowercased) → the predicate labels it had in training (`01`, `LV`, ...).

    # Parameters

    index_to_label : `{index: predicate label}` of the `predicate_senses` namespace.
    not_a_predicate : the id of `-`.
    unseen_senses : word → the senses it may take when training never had it as a predicate (e.g. its
        lemma's rolesets in PropBank's frame files); None, or none of them a label: `01`.
    """

    def __init__(
        self,
        index_to_label: dict[int, str],
        not_a_predicate: int,
        unseen_senses: Optional[Callable[[str], Iterable[str]]] = None,
    ) -> None:
        self.labels = [index_to_label[i] for i in range(len(index_to_label))]
        self.ids = {label: i for i, label in enumerate(self.labels)}
        self.not_a_predicate = not_a_predicate
        self.unseen_senses = unseen_senses
        self.seen: dict[str, set[str]] = {}

    def record(self, words: Sequence[Sequence[str]], gold_ids: Any) -> None:
        """Note each gold predicate's label, `gold_ids (batch, seq_len)`, under its word."""
        for sentence, ids in zip(words, gold_ids.tolist(), strict=False):
            for word, label_id in zip(sentence, ids, strict=False):
                if label_id != self.not_a_predicate:
                    self.seen.setdefault(word.lower(), set()).add(self.labels[label_id])

    def allowed(self, word: str) -> Optional[list[int]]:
        """The label ids `word` may take as a predicate; None when nothing restricts it."""
        seen = self.seen.get(word.lower())
        if seen is None and self.unseen_senses is not None:
            seen = {sense for sense in self.unseen_senses(word) if sense in self.ids} or None
        if seen is None:
            seen = {DEFAULT_SENSE} if DEFAULT_SENSE in self.ids else None
        return sorted(self.ids[label] for label in seen) if seen else None

    def restrict(self, logits: Any, label_ids: Any, words: Sequence[Sequence[str]]) -> Any:
        """For each token predicted to be a predicate, the best label among those its word may take.

        # Parameters

        logits : `(batch, seq_len, num_labels)` (a torch tensor or a numpy array).
        label_ids : `(batch, seq_len)` the unrestricted choice (whether a token is a predicate stays as it is), of
            the same kind.
        words : per sentence its words.
        """
        restricted = label_ids.clone() if hasattr(label_ids, "clone") else label_ids.copy()
        found = [
            (sentence, position)
            for sentence, row in enumerate((label_ids != self.not_a_predicate).tolist())
            for position, is_predicate in enumerate(row)
            if is_predicate
        ]
        for sentence, position in found:
            if position >= len(words[sentence]):
                continue
            allowed = self.allowed(words[sentence][position])
            if allowed is not None:
                scores = logits[sentence, position, allowed]
                restricted[sentence, position] = allowed[int(scores.argmax())]
        return restricted

    def to_json(self) -> dict[str, list[str]]:
        """The table as JSON: each word's labels, sorted (words sorted too)."""
        return {word: sorted(labels) for word, labels in sorted(self.seen.items())}

    def load_json(self, table: dict[str, list[str]]) -> None:
        """Read back what `to_json` gave."""
        self.seen = {word: set(labels) for word, labels in table.items()}
