"""A learned score per label for where a token sits relative to its predicate (before or after, how far)."""

from collections.abc import Sequence

import torch
from torch import nn

# Distances in words at which a new bucket starts: every distance up to 9 has its own, farther ones share
# buckets that widen (10-11, 12-15, 16-23, 24-31, 32-63, 64+). Each side of the predicate has its own.
DISTANCE_BOUNDARIES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 64)


class RelativePositionBias(nn.Module):
    """`bias[b, f, t, l]`: a learned score of label `l` for token `t` at its signed, bucketed offset from
    frame `f`'s predicate. A one-pass scorer reads each token's state without knowing the predicate; this
    tells it directly what an offset means (an agent before the verb, a patient after it, the verb itself
    at 0) at the cost of one table lookup per (frame, token). Starts at zero, so a model begins as without it.

    # Parameters

    num_labels : number of labels scored.
    boundaries : increasing distances (≥ 1) at which a new bucket starts; farther than the last share one.
    """

    boundaries: torch.Tensor  # a buffer: (buckets,)

    def __init__(self, num_labels: int, boundaries: Sequence[int] = DISTANCE_BOUNDARIES) -> None:
        super().__init__()
        if list(boundaries) != sorted(set(boundaries)) or boundaries[0] < 1:
            raise ValueError(f"boundaries must be increasing distances ≥ 1, got {list(boundaries)}")
        self.register_buffer("boundaries", torch.tensor(list(boundaries)), persistent=False)
        self.num_side_buckets = len(boundaries)
        self.scores = nn.Embedding(2 * self.num_side_buckets + 1, num_labels)
        nn.init.zeros_(self.scores.weight)

    def buckets(self, offsets: torch.Tensor) -> torch.Tensor:
        """Bucket indices in `[0, 2 * num_side_buckets]` of signed offsets (token minus predicate); 0 is
        the middle bucket, negative offsets the lower half."""
        distance = torch.bucketize(offsets.abs(), self.boundaries, right=True)  # 0 at 0, then 1..len
        return self.num_side_buckets + distance * offsets.sign()

    def forward(self, predicate_indices: torch.Tensor, seq_len: int) -> torch.Tensor:
        """`predicate_indices (batch, num_frames)` (padding < 0 is treated as 0; mask it afterwards) ->
        `(batch, num_frames, seq_len, num_labels)`."""
        positions = torch.arange(seq_len, device=predicate_indices.device)
        offsets = positions - predicate_indices.clamp(min=0).unsqueeze(-1)  # (batch, num_frames, seq_len)
        return self.scores(self.buckets(offsets))
