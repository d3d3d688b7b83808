"""Groups of frames scored and decoded together at inference, so that memory stays bounded however
long a sentence is and however many predicates it has."""

from typing import List

#: padded (sentence, frame, token) cells per group: the tag logits of a group take this many times the
#: number of labels (and layers) floats, e.g. 32768 x 109 labels x 4 layers x 4 bytes = 57 MB.
DEFAULT_ROW_TOKENS = 32768


def frame_groups(batch: int, num_frames: int, length: int, row_tokens: int = DEFAULT_ROW_TOKENS) -> List[slice]:
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
