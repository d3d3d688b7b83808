"""A field holding all predicate frames of one sentence: predicate positions and per-frame BIO tags."""

from typing import Optional

import torch
from allennlp.data.fields import Field, SequenceField
from allennlp.data.vocabulary import Vocabulary


class SrlFramesField(Field[dict[str, torch.Tensor]]):
    """Predicate indices `(num_frames,)` padded with -1 and tag ids `(num_frames, num_tokens)`.

    A sentence may have no frames; batches pad the frame dimension. `tags` may be `None` when
    only the predicates are known (prediction).

    # Parameters

    predicate_indices : 0-based token index of each frame's predicate.
    tags : one BIO tag sequence per frame, each as long as `sequence_field`.
    sequence_field : the sentence's tokens.
    label_namespace : vocabulary namespace of the tags.
    """

    __slots__ = ["predicate_indices", "tags", "sequence_field", "label_namespace", "_indexed_tags"]

    def __init__(
        self,
        predicate_indices: list[int],
        tags: Optional[list[list[str]]],
        sequence_field: SequenceField,
        label_namespace: str = "labels",
    ) -> None:
        length = sequence_field.sequence_length()
        for index in predicate_indices:
            if not 0 <= index < length:
                raise ValueError(f"predicate index {index} outside a sentence of {length} tokens")
        if tags is not None:
            if len(tags) != len(predicate_indices):
                raise ValueError(f"{len(tags)} tag sequences for {len(predicate_indices)} predicates")
            for sequence in tags:
                if len(sequence) != length:
                    raise ValueError(f"tag sequence of length {len(sequence)} for a sentence of {length} tokens")
        self.predicate_indices = list(predicate_indices)
        self.tags = tags
        self.sequence_field = sequence_field
        self.label_namespace = label_namespace
        self._indexed_tags: Optional[list[list[int]]] = None

    def count_vocab_items(self, counter: dict[str, dict[str, int]]) -> None:
        for sequence in self.tags or []:
            for tag in sequence:
                counter[self.label_namespace][tag] += 1

    def index(self, vocab: Vocabulary) -> None:
        """Tags unseen when the vocabulary was built (e.g. a rare label only in a test set) index as `O`,
        so evaluation never crashes; metrics score against the exact gold spans, not these ids."""
        if self.tags is not None:
            known = vocab.get_token_to_index_vocabulary(self.label_namespace)
            outside = known.get("O", 0)
            self._indexed_tags = [[known.get(tag, outside) for tag in sequence] for sequence in self.tags]

    def get_padding_lengths(self) -> dict[str, int]:
        return {"num_frames": len(self.predicate_indices), "num_tokens": self.sequence_field.sequence_length()}

    def as_tensor(self, padding_lengths: dict[str, int]) -> dict[str, torch.Tensor]:
        num_frames, num_tokens = padding_lengths["num_frames"], padding_lengths["num_tokens"]
        indices = torch.full((num_frames,), -1, dtype=torch.long)
        indices[: len(self.predicate_indices)] = torch.tensor(self.predicate_indices, dtype=torch.long)
        tensors = {"predicate_indices": indices}
        if self.tags is not None:
            if self._indexed_tags is None:
                raise RuntimeError("SrlFramesField.index() must be called before as_tensor()")
            tags = torch.zeros((num_frames, num_tokens), dtype=torch.long)
            for row, sequence in enumerate(self._indexed_tags):
                tags[row, : len(sequence)] = torch.tensor(sequence, dtype=torch.long)
            tensors["tags"] = tags
        return tensors

    def empty_field(self) -> "SrlFramesField":
        return SrlFramesField(
            [], None if self.tags is None else [], self.sequence_field.empty_field(), self.label_namespace
        )

    def batch_tensors(self, tensor_list: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:  # type: ignore
        return {key: torch.stack([tensors[key] for tensors in tensor_list]) for key in tensor_list[0]}

    def human_readable_repr(self) -> dict[str, object]:
        return {"predicate_indices": self.predicate_indices, "tags": self.tags}

    def __len__(self) -> int:
        return len(self.predicate_indices)

    def __str__(self) -> str:
        return f"SrlFramesField with {len(self.predicate_indices)} frames in namespace '{self.label_namespace}'."
