"""AMN's ways of merging what the m associated sentences say about each target token."""

import torch

MERGES = ("average", "concat", "weighted", "flat")


def _masked_softmax(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Softmax over the last dimension where `mask` (broadcastable) is true; rows with nothing allowed are 0."""
    filled = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
    return torch.softmax(filled, dim=-1) * mask


def merge_memory(
    scores: torch.Tensor, neighbour_mask: torch.Tensor, labels: torch.Tensor, target_mask: torch.Tensor, merge: str
) -> torch.Tensor:
    """Label vectors per target token: attention from target tokens to each neighbour's tokens, weights
    applied to the neighbours' label embeddings, merged over the neighbours.

    # Parameters

    scores : `(rows, m, target_len, neighbour_len)` target x neighbour token similarities.
    neighbour_mask : `(rows, m, neighbour_len)` bool, real neighbour tokens (all false for a missing neighbour).
    labels : `(rows, m, neighbour_len, label_dim)` embeddings of the neighbours' gold tags.
    target_mask : `(rows, target_len)` bool.
    merge : `"average"` (the paper's best), `"concat"`, `"weighted"` (by each neighbour's mean
        similarity) or `"flat"` (one softmax over all neighbours' tokens).

    # Returns

    `(rows, target_len, label_dim)`, or `(rows, target_len, m * label_dim)` for `concat`.
    """
    rows, m, length, neighbour_length = scores.shape
    if merge == "flat":
        flat_scores = scores.permute(0, 2, 1, 3).reshape(rows, length, m * neighbour_length)
        weights = _masked_softmax(flat_scores, neighbour_mask.reshape(rows, 1, m * neighbour_length))
        return weights @ labels.reshape(rows, m * neighbour_length, -1)
    weights = _masked_softmax(scores, neighbour_mask.unsqueeze(2))  # (rows, m, target_len, neighbour_len)
    per_neighbour = weights @ labels  # (rows, m, target_len, label_dim)
    present = neighbour_mask.any(-1)  # (rows, m)
    if merge == "concat":
        return per_neighbour.permute(0, 2, 1, 3).reshape(rows, length, -1)
    if merge == "average":
        share = present.to(scores.dtype) / present.sum(-1, keepdim=True).clamp(min=1)  # (rows, m)
    elif merge == "weighted":
        pair_mask = target_mask[:, None, :, None] & neighbour_mask.unsqueeze(2)  # (rows, m, target_len, n_len)
        mean_similarity = (scores * pair_mask).sum((2, 3)) / pair_mask.sum((2, 3)).clamp(min=1)  # (rows, m)
        share = _masked_softmax(mean_similarity, present)
    else:
        raise ValueError(f"merge must be one of {MERGES}, got {merge!r}")
    return torch.einsum("rk,rktd->rtd", share, per_neighbour)


def merged_dim(label_dim: int, num_neighbours: int, merge: str) -> int:
    """Width of `merge_memory`'s output."""
    if merge not in MERGES:
        raise ValueError(f"merge must be one of {MERGES}, got {merge!r}")
    return label_dim * num_neighbours if merge == "concat" else label_dim
