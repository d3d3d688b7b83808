"""One vector per word from a transformer's word-piece vectors: the mean of each word's pieces (as allennlp's
`pretrained_transformer_mismatched` embedder gives it), a word without pieces all zeros."""

import torch


def mean_of_pieces(vectors: torch.Tensor, slots: torch.Tensor, num_slots: int) -> torch.Tensor:
    """`(num_slots, dim)` the mean of the piece vectors of each slot (a word: sentence × longest + word).

    # Parameters

    vectors : `(num_pieces, dim)` the vectors of the words' pieces (special tokens and padding left out).
    slots : `(num_pieces,)` long, the slot (word) each piece belongs to.
    num_slots : how many slots (batch × the longest sentence in words).
    """
    # scatter_add_, not index_add_: the same sums, and ONNX's export of index_add_ keeps one of a slot's pieces
    places = slots.unsqueeze(1).expand_as(vectors)
    sums = vectors.new_zeros(num_slots, vectors.size(-1)).scatter_add_(0, places, vectors)
    counts = vectors.new_zeros(num_slots).scatter_add_(0, slots, vectors.new_ones(slots.shape))
    return sums / counts.clamp_min(1).unsqueeze(-1)
