"""Frames scored, lost and decoded group by group: at inference the groups are small enough that memory
stays bounded however long a sentence is and however many predicates it has."""

import functools
import operator
from dataclasses import dataclass
from typing import Optional

import torch

from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.scorers.frame_scorer import FrameScorer

#: padded (sentence, frame, token) cells per group: the tag logits of a group take this many times the
#: number of labels (and layers) floats, e.g. 32768 x 109 labels x 4 layers x 4 bytes = 57 MB.
DEFAULT_ROW_TOKENS = 32768


def frame_groups(batch: int, num_frames: int, length: int, row_tokens: int = DEFAULT_ROW_TOKENS) -> list[slice]:
    """Consecutive slices of the frame dimension with at most `row_tokens` padded cells (`batch` x
    frames x `length`) each; at least one frame per group, and one empty slice when there is no frame.

    # Parameters

    batch, num_frames, length : the shape of `predicate_indices (batch, num_frames)` and the padded
        sentence length.
    row_tokens : the budget per group.
    """
    if num_frames == 0:
        return [slice(0, 0)]
    per_group = max(1, row_tokens // max(1, batch * length))
    return [slice(start, min(start + per_group, num_frames)) for start in range(0, num_frames, per_group)]


@dataclass
class ScoredFrames:
    """loss : the scorer's tag loss, a token average over all groups (None without gold tags).
    predicted_tags : `(batch, num_frames, seq_len)`, when decoded. class_probabilities : `(batch,
    num_frames, seq_len, num_labels)`, when decoded with probabilities. span_log_probabilities : `(batch,
    num_frames, seq_len)` each decoded span's log-probability at its last token, when asked for."""

    loss: Optional[torch.Tensor] = None
    predicted_tags: Optional[torch.Tensor] = None
    class_probabilities: Optional[torch.Tensor] = None
    span_log_probabilities: Optional[torch.Tensor] = None

    def outputs(self) -> dict[str, torch.Tensor]:
        """The decoded tensors there are, by their names in the Model's output."""
        named = {
            "predicted_tags": self.predicted_tags,
            "class_probabilities": self.class_probabilities,
            "span_log_probabilities": self.span_log_probabilities,
        }
        return {name: value for name, value in named.items() if value is not None}


def score_frame_groups(
    scorer: FrameScorer,
    inputs: tuple[torch.Tensor, torch.Tensor, torch.Tensor, Optional[EncodedSentences], Optional[torch.Tensor]],
    gold_tags: Optional[torch.Tensor],
    decodes: bool,
    with_probabilities: bool,
    row_tokens: Optional[int] = None,
    with_span_scores: bool = False,
    score_temperature: float = 1.0,
    teacher_probabilities: Optional[torch.Tensor] = None,
) -> ScoredFrames:
    """Have `scorer` score, lose and decode the frames: all at once, or with `row_tokens` in groups of
    frames of at most that many padded cells (`frame_groups`).

    # Parameters

    inputs : `embedded (batch, seq_len, dim)`, `mask (batch, seq_len)`, `predicate_indices (batch,
        num_frames)`, the encoded sentences (or None) and frame features `(batch, num_frames, seq_len,
        feature_dim)` (or None).
    gold_tags : `(batch, num_frames, seq_len)` or None.
    with_span_scores : also each decoded span's log-probability (`FrameScorer.span_log_probabilities`), its
        scores divided by `score_temperature`.
    teacher_probabilities : `(batch, num_frames, seq_len, num_labels)` a teacher's tag distributions that the
        loss learns too (`TagOutput.loss_with_teacher`), or None.
    """
    embedded, mask, predicate_indices, sentences, features = inputs
    batch, num_frames = predicate_indices.shape
    groups = [slice(0, num_frames)]
    if row_tokens is not None:
        groups = frame_groups(batch, num_frames, mask.size(1), row_tokens)
    losses: list[torch.Tensor] = []
    weights: list[torch.Tensor] = []
    decoded: list[tuple[torch.Tensor, Optional[torch.Tensor]]] = []
    span_scores: list[torch.Tensor] = []
    for group in groups:
        indices = predicate_indices[:, group]
        scores = scorer(embedded, mask, indices, sentences, None if features is None else features[:, group])
        frame_mask = indices >= 0  # (batch, group frames)
        if gold_tags is not None and frame_mask.size(1):
            teacher = None if teacher_probabilities is None else teacher_probabilities[:, group]
            losses.append(scorer.loss(scores, gold_tags[:, group], frame_mask, mask, teacher))
            weights.append((frame_mask.unsqueeze(-1) & mask.unsqueeze(1)).sum())
        if decodes:
            decoded.append(scorer.decode(scores, frame_mask, mask, with_probabilities))
            if with_span_scores:
                tags = decoded[-1][0]
                span_scores.append(scorer.span_log_probabilities(scores, tags, frame_mask, mask, score_temperature))
    result = ScoredFrames()
    if decoded:
        result.predicted_tags = torch.cat([tags for tags, _ in decoded], dim=1)
        if with_probabilities:
            result.class_probabilities = torch.cat([p for _, p in decoded if p is not None], dim=1)
        if with_span_scores:
            result.span_log_probabilities = torch.cat(span_scores, dim=1)
    if gold_tags is not None:
        if len(losses) <= 1:  # one group, or no frame at all
            result.loss = losses[0] if losses else embedded.sum() * 0.0
        else:  # the token average over all groups, as one call over all frames would give it
            weighted = functools.reduce(
                operator.add, [loss * weight for loss, weight in zip(losses, weights, strict=True)]
            )
            result.loss = weighted / functools.reduce(operator.add, weights).clamp_min(1)
    return result
