"""AMN's memory reading (Guan et al. 2019): target and neighbour sentences through one shared encoder, attention from
each target token to each neighbour's tokens over the neighbours' tag embeddings, merged over the neighbours."""

import torch
from torch import nn

from srl_zoo.parts.frame_features.memory_merges import merge_memory, merged_dim


class MemoryReading(nn.Module):
    """The math of the associated memory, once: how the neighbours are found and where their words come from is
    the caller's (`srl_zoo.amn.AssociatedMemory`, which subclasses this for training).

    # Parameters

    encoder : the shared encoder: `encoder(inputs (n, len, word_dim + flag_dim), mask (n, len))` gives
        `(n, len, hidden)` (paper: a 2-layer BiLSTM).
    flag_dim : width of the predicate-flag embedding appended to every word (paper: 16).
    num_labels : how many tags the neighbours' gold tags are ids of.
    label_dim : width of the tag embeddings (paper: 128).
    num_neighbours : m, the most neighbours a row reads (paper: 4).
    merge : `average` (the paper's best), `concat`, `weighted` or `flat` (`memory_merges.merge_memory`).
    """

    def __init__(
        self, encoder: nn.Module, flag_dim: int, num_labels: int, label_dim: int, num_neighbours: int, merge: str
    ) -> None:
        super().__init__()
        self.encoder = encoder
        self.num_neighbours = num_neighbours
        self.merge = merge
        self.output_dim = merged_dim(label_dim, num_neighbours, merge)
        self.flag_embedding = nn.Embedding(2, flag_dim)
        self.label_embedding = nn.Embedding(num_labels, label_dim)

    def encode(self, words: torch.Tensor, flags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The shared encoder over words with their predicate flagged.

        # Parameters

        words : `(n, len, word_dim)`.
        flags : `(n, len)` bool, true at the predicate.
        mask : `(n, len)` bool, real tokens.

        # Returns

        `(n, len, hidden)`.
        """
        inputs = torch.cat([words, self.flag_embedding(flags.long()).to(words.dtype)], dim=-1)
        return self.encoder(inputs, mask)

    def read(
        self,
        target: torch.Tensor,
        target_mask: torch.Tensor,
        neighbours: torch.Tensor,
        neighbour_mask: torch.Tensor,
        neighbour_tags: torch.Tensor,
        neighbour_of_row: torch.Tensor,
        present: torch.Tensor,
    ) -> torch.Tensor:
        """Each target row's features from its neighbours (each distinct neighbour encoded once, shared by rows).

        # Parameters

        target : `(rows, seq_len, hidden)` the target rows, encoded (`encode`, predicate flagged).
        target_mask : `(rows, seq_len)` bool.
        neighbours : `(distinct, n_len, hidden)` the distinct neighbours of the batch, encoded.
        neighbour_mask : `(distinct, n_len)` bool, their real tokens.
        neighbour_tags : `(distinct, n_len)` their gold tag ids.
        neighbour_of_row : `(rows, m)` which distinct neighbour each row reads in each of its m places.
        present : `(rows, m)` bool, false where a row has fewer than m neighbours (that place is ignored).

        # Returns

        `(rows, seq_len, output_dim)`.
        """
        labels = self.label_embedding(neighbour_tags)  # (distinct, n_len, label_dim)
        row_neighbour_mask = neighbour_mask[neighbour_of_row] & present.unsqueeze(-1)  # (rows, m, n_len)
        scores = torch.einsum("rth,rknh->rktn", target, neighbours[neighbour_of_row])  # (rows, m, seq_len, n_len)
        return merge_memory(
            scores, row_neighbour_mask, labels[neighbour_of_row].to(scores.dtype), target_mask, self.merge
        )
