"""allennlp's folding of long word-piece sequences: with a `max_length`, a transformer indexer cuts a sentence's
word pieces into segments of `max_length` that each begin and end with special tokens, which the mismatched
indexer's word offsets do not count. These helpers map the folded positions back to the offsets' numbering."""

from typing import Optional

import torch
from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder

#: `(max_length, start_tokens, end_tokens)` of a folding indexer
Folding = tuple[int, int, int]


def folding_of(transformer: PretrainedTransformerMismatchedEmbedder) -> Optional[Folding]:
    """The embedder's folding, or None when it does not fold (no `max_length`)."""
    matched = transformer._matched_embedder
    if matched._max_length is None:
        return None
    return (matched._max_length, matched._num_added_start_tokens, matched._num_added_end_tokens)


def unfolded_positions(
    num_wordpieces: int, folding: Optional[Folding], device: Optional[torch.device] = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """For each of `num_wordpieces` folded positions, its position in the offsets' numbering and whether it is
    a special token added by the folding: two `(num_wordpieces,)` tensors, long and bool (all False without
    folding, where the positions are unchanged)."""
    positions = torch.arange(num_wordpieces, device=device)
    if folding is None:
        return positions, torch.zeros_like(positions, dtype=torch.bool)
    length, start, end = folding
    within = positions % length
    return positions - (positions // length) * (start + end), (within < start) | (within >= length - end)
