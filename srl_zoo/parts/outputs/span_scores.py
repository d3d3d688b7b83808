"""How sure an output layer is of each span it decoded: the pieces both output layers share (which tag
continues which, where the span that ends at a token starts)."""

from collections.abc import Callable

import torch

#: `(row_scores (rows, seq_len, labels), row_tags (rows, seq_len), row_mask (rows, seq_len)) -> (rows, seq_len)`
RowSpanScorer = Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]


def continuation_ids(labels: list[str]) -> torch.Tensor:
    """`(labels,)` the id of `I-X` for `B-X` and `I-X` (-1 where the vocabulary has no `I-X`, and for `O`)."""
    ids = {label: i for i, label in enumerate(labels)}
    return torch.tensor(
        [ids.get("I-" + label[2:], -1) if label[:2] in ("B-", "I-") else -1 for label in labels], dtype=torch.long
    )


def span_starts(tags: torch.Tensor, continuation: torch.Tensor) -> torch.Tensor:
    """`(rows, seq_len)` the first token of the span each token belongs to: a token starts a span unless its
    tag continues the previous one's (`I-X` after `B-X` or `I-X`), as `bio_to_spans` reads tags.

    # Parameters

    tags : `(rows, seq_len)` tag ids (non-negative).
    continuation : `(labels,)` see `continuation_ids`.
    """
    positions = torch.arange(tags.size(1), device=tags.device).expand_as(tags)
    continues = torch.zeros_like(tags, dtype=torch.bool)
    continues[:, 1:] = continuation[tags[:, :-1]] == tags[:, 1:]
    return torch.where(continues, torch.zeros_like(positions), positions).cummax(dim=1).values


def product_log_probabilities(log_probs: torch.Tensor, tags: torch.Tensor, continuation: torch.Tensor) -> torch.Tensor:
    """`(rows, seq_len)` at each token, the sum of the tags' log-probabilities from the start of its span to
    it: at a span's last token, log of the product of its tags' probabilities.

    # Parameters

    log_probs : `(rows, seq_len, labels)`; tags : `(rows, seq_len)` tag ids (non-negative).
    continuation : `(labels,)` see `continuation_ids`.
    """
    pieces = log_probs.gather(2, tags.unsqueeze(2)).squeeze(2)
    total = pieces.cumsum(1)
    starts = span_starts(tags, continuation)
    return total - total.gather(1, starts) + pieces.gather(1, starts)


def score_frame_rows(
    score: RowSpanScorer, scores: torch.Tensor, tags: torch.Tensor, frame_mask: torch.Tensor, mask: torch.Tensor
) -> torch.Tensor:
    """`(batch, num_frames, seq_len)` `score` run over the real frames of `scores (batch, num_frames, seq_len,
    labels)` and `tags (batch, num_frames, seq_len)` (-1 outside real tokens); 0 outside real frames."""
    rows = frame_mask.nonzero(as_tuple=False)
    row_sentence, row_frame = rows[:, 0], rows[:, 1]
    result = scores.new_zeros(tags.shape, dtype=torch.float32)
    row_tags = tags[row_sentence, row_frame].clamp_min(0)
    result[row_sentence, row_frame] = score(scores[row_sentence, row_frame].float(), row_tags, mask[row_sentence])
    return result
