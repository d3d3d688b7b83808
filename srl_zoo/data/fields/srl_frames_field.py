"""A field holding all predicate frames of one sentence: predicate positions and per-frame BIO tags."""

from typing import Optional

import numpy as np
import torch
from allennlp.data.fields import Field, SequenceField
from allennlp.data.vocabulary import Vocabulary

from srl_zoo.data.formats.teacher_distributions import TeacherFrames


class SrlFramesField(Field[dict[str, torch.Tensor]]):
    """Predicate indices `(num_frames,)` padded with -1, tag ids `(num_frames, num_tokens)` and, with a
    teacher's distributions, `teacher_probabilities (num_frames, num_tokens, num_labels)` over the namespace's tags
    (a teacher's tag the vocabulary lacks is dropped).

    A sentence may have no frames; batches pad the frame dimension. `tags` may be `None` when
    only the predicates are known (prediction).

    # Parameters

    predicate_indices : 0-based token index of each frame's predicate.
    tags : one BIO tag sequence per frame, each as long as `sequence_field`.
    sequence_field : the sentence's tokens.
    label_namespace : vocabulary namespace of the tags.
    teacher : a teacher model's distributions for these frames (knowledge distillation), or None.
    """

    __slots__ = [
        "predicate_indices",
        "tags",
        "sequence_field",
        "label_namespace",
        "teacher",
        "_indexed_tags",
        "_teacher_ids",
        "_num_labels",
    ]

    def __init__(
        self,
        predicate_indices: list[int],
        tags: Optional[list[list[str]]],
        sequence_field: SequenceField,
        label_namespace: str = "labels",
        teacher: Optional[TeacherFrames] = None,
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
        if teacher is not None and teacher.label_ids.shape[:2] != (len(predicate_indices), length):
            raise ValueError(
                f"teacher distributions of shape {teacher.label_ids.shape[:2]} for {len(predicate_indices)} "
                f"frames of {length} tokens"
            )
        self.teacher = teacher
        self._indexed_tags: Optional[list[list[int]]] = None
        self._teacher_ids: Optional[np.ndarray] = None
        self._num_labels = 0

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
        if self.teacher is not None:
            known = vocab.get_token_to_index_vocabulary(self.label_namespace)
            self._num_labels = vocab.get_vocab_size(self.label_namespace)
            # the teacher's tag ids → ours; a tag we lack and the -1 of an empty slot (the last entry) → -1
            ours = np.array([known.get(label, -1) for label in self.teacher.labels] + [-1], dtype=np.int64)
            self._teacher_ids = ours[self.teacher.label_ids]

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
        if self._teacher_ids is not None and self.teacher is not None:
            tensors["teacher_probabilities"] = self._teacher_tensor(num_frames, num_tokens)
        return tensors

    def _teacher_tensor(self, num_frames: int, num_tokens: int) -> torch.Tensor:
        """`(num_frames, num_tokens, num_labels)` the teacher's distributions, zeros where padded."""
        assert self._teacher_ids is not None and self.teacher is not None
        frames, tokens, _ = self._teacher_ids.shape
        ids = torch.from_numpy(self._teacher_ids)
        ids = torch.where(ids >= 0, ids, torch.full_like(ids, self._num_labels))  # dropped into a spare column
        dense = torch.zeros((num_frames, num_tokens, self._num_labels + 1))
        probabilities = torch.from_numpy(self.teacher.probabilities.astype(np.float32))
        dense[:frames, :tokens].scatter_add_(2, ids, probabilities)
        return dense[..., : self._num_labels]

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
