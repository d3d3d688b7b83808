"""A linear-chain CRF over BIO tags with hard BIO constraints: learned transition and first-tag scores,
the exact forward algorithm for the log partition, the gold path's score, marginals, and Viterbi."""

import torch
from torch import nn

from srl_zoo.decoding import FORBIDDEN, bio_constraints, viterbi_decode


class LinearChainCrf(nn.Module):
    """`score(y) = start[y_0] + Σ_t emissions[t, y_t] + Σ_{t≥1} transitions[y_{t-1}, y_t]` over the real
    tokens, where a transition `I-X` after anything but `B-X`/`I-X` (or `I-X` first) is forbidden.

    # Parameters

    index_to_label : `{index: BIO tag}` of the label namespace.
    """

    allowed: torch.Tensor  # buffers: (labels, labels) [from, to] and (labels,)
    start_allowed: torch.Tensor

    def __init__(self, index_to_label: dict[int, str]) -> None:
        super().__init__()
        allowed, start = bio_constraints([index_to_label[i] for i in range(len(index_to_label))])
        self.register_buffer("allowed", allowed, persistent=False)  # (labels, labels) [from, to]
        self.register_buffer("start_allowed", start, persistent=False)  # (labels,)
        self.transitions = nn.Parameter(torch.zeros(len(index_to_label), len(index_to_label)))
        self.start_scores = nn.Parameter(torch.zeros(len(index_to_label)))

    def constrained(self) -> "tuple[torch.Tensor, torch.Tensor]":
        """Transition `(labels, labels)` and first-tag `(labels,)` scores with the forbidden ones set to `FORBIDDEN`."""
        transitions = torch.where(self.allowed, self.transitions, torch.full_like(self.transitions, FORBIDDEN))
        start = torch.where(self.start_allowed, self.start_scores, torch.full_like(self.start_scores, FORBIDDEN))
        return transitions, start

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows,)` log Σ_y exp(score(y)) by the forward algorithm.

        # Parameters

        emissions : `(rows, seq_len, labels)`.
        mask : `(rows, seq_len)` bool, real tokens first; every row has one.
        """
        transitions, start = self.constrained()
        # In probability space one step is a matrix product (rows, labels) x (labels, labels): far
        # cheaper than a logsumexp over (rows, labels, labels); each row is shifted by its maximum,
        # so nothing overflows, and forbidden transitions are exactly 0.
        exp_transitions = transitions.exp()
        alpha = start + emissions[:, 0]  # (rows, labels)
        for t in range(1, emissions.size(1)):
            shift = alpha.max(dim=-1, keepdim=True).values
            reach = torch.exp(alpha - shift) @ exp_transitions
            step = reach.clamp_min(torch.finfo(reach.dtype).tiny).log() + shift + emissions[:, t]
            alpha = torch.where(mask[:, t].unsqueeze(1), step, alpha)
        return torch.logsumexp(alpha, dim=-1)

    def path_score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows,)` the score of the tag sequences `tags (rows, seq_len)` (see `log_partition`)."""
        transitions, start = self.constrained()
        real = mask.to(emissions.dtype)
        score = start[tags[:, 0]] + (emissions.gather(2, tags.unsqueeze(2)).squeeze(2) * real).sum(1)
        return score + (transitions[tags[:, :-1], tags[:, 1:]] * real[:, 1:]).sum(1)

    def negative_log_likelihood(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows,)` -log p(tags) = log Z - score(tags)."""
        emissions = emissions.float()
        return self.log_partition(emissions, mask) - self.path_score(emissions, tags, mask)

    def marginals(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows, seq_len, labels)` p(y_t = l): the gradient of the log partition by the emissions."""
        with torch.enable_grad():
            leaf = emissions.detach().float().requires_grad_(True)
            (gradient,) = torch.autograd.grad(self.log_partition(leaf, mask).sum(), leaf)
        return gradient * mask.unsqueeze(-1)

    def viterbi(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows, seq_len)` the best allowed path's tags."""
        return viterbi_decode(emissions, mask, self.allowed, self.start_allowed, self.transitions, self.start_scores)
