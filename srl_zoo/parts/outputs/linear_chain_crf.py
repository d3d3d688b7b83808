"""A linear-chain CRF over BIO tags with hard BIO constraints: learned transition and first-tag scores,
the exact forward algorithm for the log partition, the gold path's score, marginals, and Viterbi."""

import torch
from torch import nn

from srl_zoo.parts.outputs.decoding import FORBIDDEN, bio_constraints, viterbi_decode
from srl_zoo.parts.outputs.span_scores import span_starts


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

    def constrained(self, temperature: float = 1.0) -> "tuple[torch.Tensor, torch.Tensor]":
        """Transition `(labels, labels)` and first-tag `(labels,)` scores (divided by `temperature`) with the
        forbidden ones set to `FORBIDDEN`."""
        forbidden = torch.full_like(self.transitions, FORBIDDEN)
        transitions = torch.where(self.allowed, self.transitions / temperature, forbidden)
        start = torch.where(self.start_allowed, self.start_scores / temperature, forbidden[0])
        return transitions, start

    def forward_scores(self, emissions: torch.Tensor, mask: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
        """`(rows, seq_len, labels)` alpha: log Σ over the paths' prefixes up to t that end in each label
        (kept as it is past a row's last real token).

        # Parameters

        emissions : `(rows, seq_len, labels)`.
        mask : `(rows, seq_len)` bool, real tokens first; every row has one.
        temperature : the scores' divisor (emissions come divided already): the distribution's sharpness.
        """
        transitions, start = self.constrained(temperature)
        # In probability space one step is a matrix product (rows, labels) x (labels, labels): far
        # cheaper than a logsumexp over (rows, labels, labels); each row is shifted by its maximum,
        # so nothing overflows, and forbidden transitions are exactly 0.
        exp_transitions = transitions.exp()
        alpha = start + emissions[:, 0]  # (rows, labels)
        alphas = [alpha]
        for t in range(1, emissions.size(1)):
            shift = alpha.max(dim=-1, keepdim=True).values
            reach = torch.exp(alpha - shift) @ exp_transitions
            step = reach.clamp_min(torch.finfo(reach.dtype).tiny).log() + shift + emissions[:, t]
            alpha = torch.where(mask[:, t].unsqueeze(1), step, alpha)
            alphas.append(alpha)
        return torch.stack(alphas, dim=1)

    def backward_scores(self, emissions: torch.Tensor, mask: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
        """`(rows, seq_len, labels)` beta: log Σ over the paths' suffixes after t given the label at t
        (0 at and past a row's last real token). Arguments as `forward_scores`."""
        transitions, _ = self.constrained(temperature)
        exp_transitions_back = transitions.exp().t()  # [to, from]
        beta = emissions.new_zeros(emissions.size(0), emissions.size(2))
        betas = [beta]
        for t in range(emissions.size(1) - 1, 0, -1):
            ahead = emissions[:, t] + beta  # (rows, labels) the next token's label and what follows it
            shift = ahead.max(dim=-1, keepdim=True).values
            reach = torch.exp(ahead - shift) @ exp_transitions_back
            step = reach.clamp_min(torch.finfo(reach.dtype).tiny).log() + shift
            beta = torch.where(mask[:, t].unsqueeze(1), step, beta)
            betas.append(beta)
        return torch.stack(betas[::-1], dim=1)

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows,)` log Σ_y exp(score(y)) by the forward algorithm (arguments as `forward_scores`)."""
        return torch.logsumexp(self.forward_scores(emissions, mask)[:, -1], dim=-1)

    def span_log_probabilities(
        self,
        emissions: torch.Tensor,
        tags: torch.Tensor,
        mask: torch.Tensor,
        continuation: torch.Tensor,
        temperature: float = 1.0,
    ) -> torch.Tensor:
        """`(rows, seq_len)` at each token, log p(the span of `tags` that ends there is a span of the
        labeling): its tags exactly, and the token after it not continuing it (forward-backward).

        # Parameters

        emissions : `(rows, seq_len, labels)`; mask : `(rows, seq_len)` bool, real tokens first.
        tags : `(rows, seq_len)` an allowed path (e.g. Viterbi's), any label past the real tokens.
        continuation : `(labels,)` the id of `I-X` for `B-X` and `I-X`, -1 for labels no tag continues.
        temperature : every score divided by it first (1: the CRF's own distribution; above 1: less sure).
        """
        emissions = emissions.float() / temperature
        tags = tags.clamp_min(0)
        transitions, _ = self.constrained(temperature)
        alpha = self.forward_scores(emissions, mask, temperature)
        beta = self.backward_scores(emissions, mask, temperature)
        log_z = torch.logsumexp(alpha[:, -1], dim=-1)  # (rows,)
        # the path's own score pieces: emission at t plus the transition into t
        pieces = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)
        pieces[:, 1:] += transitions[tags[:, :-1], tags[:, 1:]]
        starts = span_starts(tags, continuation)
        inside = pieces.cumsum(1)
        inside = inside - inside.gather(1, starts)  # the pieces after the span's first token, up to t
        opening = alpha.gather(2, tags.unsqueeze(2)).squeeze(2).gather(1, starts)  # alpha at the span's start
        # after t: any next label but the one that would continue the span
        ahead = transitions[tags[:, :-1]] + emissions[:, 1:] + beta[:, 1:]  # (rows, seq_len - 1, labels)
        excluded = continuation[tags[:, :-1]]
        ahead = ahead.masked_fill(
            torch.nn.functional.one_hot(excluded.clamp_min(0), ahead.size(-1)).bool() & (excluded >= 0).unsqueeze(-1),
            float("-inf"),
        )
        closing = emissions.new_zeros(tags.shape)
        real_next = mask[:, 1:]
        closing[:, :-1] = torch.where(real_next, torch.logsumexp(ahead, dim=-1), closing[:, :-1])
        return opening + inside + closing - log_z.unsqueeze(1)

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

    def log_marginals(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows, seq_len, labels)` log p(y_t = l) = alpha + beta - log Z, differentiable (a student's marginals
        learning a teacher's); meaningless past a row's real tokens. Arguments as `forward_scores`."""
        alpha = self.forward_scores(emissions, mask)
        beta = self.backward_scores(emissions, mask)
        log_z = torch.logsumexp(alpha[:, -1], dim=-1)
        return alpha + beta - log_z[:, None, None]

    def viterbi(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows, seq_len)` the best allowed path's tags."""
        return viterbi_decode(emissions, mask, self.allowed, self.start_allowed, self.transitions, self.start_scores)
