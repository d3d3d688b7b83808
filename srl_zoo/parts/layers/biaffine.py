"""Dozat & Manning (2017) biaffine dependency scoring: arc scores for every (dependent, head) pair, and
relation labels of each dependent's arc."""

import torch
from torch import nn

MASKED = -1e9  # the score of an impossible head (padding); finite so that softmax stays defined


def mlp(input_dim: int, output_dim: int, dropout: float) -> nn.Module:
    """`Dropout(LeakyReLU(W x + b))`: the MLP that the biaffine scorers put before their bilinear maps."""
    return nn.Sequential(nn.Linear(input_dim, output_dim), nn.LeakyReLU(0.1), nn.Dropout(dropout))


def zero_based_heads(heads: torch.Tensor) -> torch.Tensor:
    """CoNLL heads `(batch, seq_len)` (1-based, 0 = root) as 0-based token indices, the root pointing to itself."""
    positions = torch.arange(heads.size(1), device=heads.device).expand_as(heads)
    return torch.where(heads > 0, heads - 1, positions)


class LabeledBilinear(nn.Module):
    """A bilinear score per label for every (left, right) pair, with input biases:
    `scores[b, i, j, l] = [x_i; 1]ᵀ W_l [y_j; 1]`. The left side is projected once through all labels'
    maps (one matrix product), then met with the right side in one batched product, so no copy of the
    weights per batch element is made (as broadcasting `matmul` over a label dimension would).

    # Parameters

    left_dim, right_dim : widths of the two inputs.
    num_labels : number of labels (one bilinear map each).
    """

    def __init__(self, left_dim: int, right_dim: int, num_labels: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.empty(num_labels, left_dim + 1, right_dim + 1))
        nn.init.xavier_uniform_(self.weight)

    def get_num_labels(self) -> int:
        return self.weight.size(0)

    def forward(self, left: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
        """`left (batch, num_left, left_dim)`, `right (batch, num_right, right_dim)` ->
        `(batch, num_left, num_right, num_labels)`."""
        batch, num_left, _ = left.shape
        left = torch.cat([left, left.new_ones(left.shape[:-1] + (1,))], -1)
        right = torch.cat([right, right.new_ones(right.shape[:-1] + (1,))], -1)
        weight = self.weight.to(left.dtype)
        projected = torch.einsum("bid,lde->bile", left, weight)  # (batch, num_left, num_labels, right_dim + 1)
        scores = projected.reshape(batch, -1, right.size(-1)) @ right.transpose(
            1, 2
        )  # (batch, num_left * labels, num_right)
        return scores.view(batch, num_left, self.get_num_labels(), right.size(1)).transpose(2, 3)

    def paired(self, left: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
        """Each left item with its own right items: `left (batch, num_left, left_dim)`, `right (batch,
        num_left, num_right, right_dim)` -> `(batch, num_left, num_right, num_labels)`."""
        left = torch.cat([left, left.new_ones(left.shape[:-1] + (1,))], -1)
        right = torch.cat([right, right.new_ones(right.shape[:-1] + (1,))], -1)
        projected = torch.einsum("bid,lde->bile", left, self.weight.to(left.dtype))  # (batch, left, labels, r_dim)
        return (projected @ right.transpose(2, 3)).transpose(2, 3)  # (batch, num_left, num_right, num_labels)


class ArcScorer(nn.Module):
    """Biaffine arc scores `(batch, seq_len, seq_len)`: rows are dependents, columns candidate heads;
    the root attaches to itself (a self-loop). Padded heads score `MASKED`.

    # Parameters

    input_dim : width of the states read.
    mlp_dim : width of the dependent and head MLPs (LISA, Dozat & Manning: 500).
    dropout : dropout after the MLPs.
    """

    def __init__(self, input_dim: int, mlp_dim: int = 500, dropout: float = 0.1) -> None:
        super().__init__()
        self.dependent = mlp(input_dim, mlp_dim, dropout)
        self.head = mlp(input_dim, mlp_dim, dropout)
        # [dependent; 1]ᵀ W [head; 1]: the terms without the head cancel in the softmax over heads
        self.bilinear = LabeledBilinear(mlp_dim, mlp_dim, 1)

    def forward(self, states: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`states (batch, seq_len, input_dim)`, `mask (batch, seq_len)` bool -> float32 scores
        `(batch, seq_len, seq_len)`."""
        scores = self.bilinear(self.dependent(states), self.head(states)).squeeze(-1).float()
        return scores.masked_fill(~mask.unsqueeze(1), MASKED)


class RelationScorer(nn.Module):
    """Relation logits `(batch, seq_len, num_relations)` of each dependent's arc to a given head:
    a bilinear map (with biases) between the dependent's and its head's MLP representations.

    # Parameters

    input_dim : width of the states read.
    num_relations : number of dependency relations.
    mlp_dim : width of the MLPs (LISA: 100).
    dropout : dropout after the MLPs.
    """

    def __init__(self, input_dim: int, num_relations: int, mlp_dim: int = 100, dropout: float = 0.1) -> None:
        super().__init__()
        self.dependent = mlp(input_dim, mlp_dim, dropout)
        self.head = mlp(input_dim, mlp_dim, dropout)
        self.weight = nn.Parameter(torch.empty(num_relations, mlp_dim + 1, mlp_dim + 1))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, states: torch.Tensor, heads: torch.Tensor) -> torch.Tensor:
        """`states (batch, seq_len, input_dim)`, 0-based `heads (batch, seq_len)` ->
        `(batch, seq_len, num_relations)`."""
        dependent = self.dependent(states)
        head = self.head(states)
        head = head.gather(1, heads.unsqueeze(-1).expand(-1, -1, head.size(-1)))  # each dependent's head
        ones = dependent.new_ones(dependent.shape[:-1] + (1,))
        dependent, head = torch.cat([dependent, ones], -1), torch.cat([head, ones], -1)
        return torch.einsum("bid,lde,bie->bil", dependent, self.weight.to(dependent.dtype), head)
