"""Tag decoding: argmax, Viterbi under hard BIO constraints (no I-X without a B-X/I-X before it), and
dependency decoding (a label on argument head words, `O` elsewhere: no spans)."""

from typing import Optional

import torch

DECODINGS = ("argmax", "viterbi", "dependency")
#: the score of a forbidden tag or transition (Viterbi, the CRF): exp() of it is 0 next to any allowed path
FORBIDDEN = -1.0e9


def bio_constraints(labels: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """Allowed transitions `(num_labels, num_labels)` [from, to] and allowed first tags `(num_labels,)`.

    `I-X` may only follow `B-X` or `I-X` and may not start a sequence; everything else is allowed.
    """
    size = len(labels)
    allowed = torch.ones(size, size, dtype=torch.bool)
    start = torch.ones(size, dtype=torch.bool)
    for j, label in enumerate(labels):
        if label.startswith("I-"):
            start[j] = False
            kind = label[2:]
            for i, previous in enumerate(labels):
                allowed[i, j] = previous in ("B-" + kind, "I-" + kind)
    return allowed, start


def viterbi_decode(
    log_probs: torch.Tensor,
    mask: torch.Tensor,
    allowed: torch.Tensor,
    start: torch.Tensor,
    transition_scores: Optional[torch.Tensor] = None,
    start_scores: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    """The highest-scoring allowed tag sequence for every row: the sum of its tokens' scores (and, when
    given, of its transitions' and first tag's scores, as in a linear-chain CRF).

    # Parameters

    log_probs : `(batch, seq_len, num_labels)` per-token scores (log-probabilities, or CRF emissions).
    mask : `(batch, seq_len)` bool, True for real tokens; each row must start with a real token.
    allowed : `(num_labels, num_labels)` bool transitions [from, to].
    start : `(num_labels,)` bool allowed first tags.
    transition_scores : `(num_labels, num_labels)` [from, to] scores added per transition (default 0).
    start_scores : `(num_labels,)` scores added to the first tag (default 0).

    # Returns

    `(batch, seq_len)` tag ids; positions outside the mask repeat the last real tag.
    """
    scores = log_probs.detach().float()  # decoding needs no gradient (and out= buffers allow none)
    batch, length, size = scores.shape
    device = scores.device
    if batch == 0:
        return torch.zeros(batch, length, dtype=torch.long, device=device)
    transitions = torch.where(allowed.to(device), 0.0, FORBIDDEN)  # (from, to)
    if transition_scores is not None:
        transitions = transitions + transition_scores.detach().float().to(device)
    first = torch.where(start.to(device), 0.0, FORBIDDEN)
    if start_scores is not None:
        first = first + start_scores.detach().float().to(device)
    best = scores[:, 0] + first
    identity = torch.arange(size, device=device).expand(batch, size)
    mask = mask.bool()
    # Every buffer is allocated once: per-step temporaries interleaved with kept backpointers fragment
    # the CPU heap (500 steps over 100 rows once held 2 GB), and small backpointers keep long rows cheap.
    backpointers = torch.zeros(batch, length, size, dtype=_index_dtype(size), device=device)
    sparse = _sparse_predecessors(allowed.to(device))
    step = (
        _DenseStep(transitions, batch, scores)
        if sparse is None
        else _SparseStep(sparse, None if transition_scores is None else transitions, batch, scores)
    )
    for t in range(1, length):
        step_best, step_from = step(best)
        real = mask[:, t].unsqueeze(1)
        step_best += scores[:, t]
        best = torch.where(real, step_best, best)
        backpointers[:, t] = torch.where(real, step_from, identity)
    path = torch.empty(batch, length, dtype=torch.long, device=device)
    path[:, -1] = best.argmax(dim=-1)
    for t in range(length - 1, 0, -1):
        path[:, t - 1] = backpointers[:, t].gather(1, path[:, t].unsqueeze(1)).squeeze(1)
    return path


#: a tag restricted to at most this many predecessors is decoded from those alone (BIO: `I-X` has 2)
_MAX_SPARSE_PREDECESSORS = 4

SparsePredecessors = tuple[torch.Tensor, torch.Tensor]


def _sparse_predecessors(allowed: torch.Tensor) -> Optional[SparsePredecessors]:
    """`allowed` as `(open, predecessors)` when every tag either follows any tag (`open (num_labels,)`
    bool) or only a few (`predecessors (num_labels, k)`: their indices, padded by repeating one), as
    under BIO constraints; None when some tag has none or many predecessors (then all pairs are scored).
    """
    size = allowed.size(0)
    open_tags = allowed.all(dim=0)
    counts = allowed.sum(dim=0)
    restricted = counts[~open_tags]
    if restricted.numel() == 0:
        return open_tags, torch.zeros(size, 1, dtype=torch.long, device=allowed.device)
    if int(restricted.min()) == 0 or int(restricted.max()) > _MAX_SPARSE_PREDECESSORS:
        return None
    width = int(restricted.max())
    predecessors = torch.zeros(size, width, dtype=torch.long)
    for tag in range(size):
        found = allowed[:, tag].nonzero().flatten().tolist()
        if not open_tags[tag]:
            predecessors[tag] = torch.tensor((found * width)[:width])
    return open_tags, predecessors.to(allowed.device)


class _DenseStep:
    """One Viterbi step over every (from, to) tag pair: O(num_labels²) per row.

    # Parameters

    transitions : `(num_labels, num_labels)` [from, to] scores, `FORBIDDEN` where not allowed.
    batch : rows; like : a tensor of the scores' dtype and device (for the buffers).
    """

    def __init__(self, transitions: torch.Tensor, batch: int, like: torch.Tensor) -> None:
        size = transitions.size(0)
        self.transitions = transitions.unsqueeze(0)
        self.candidates = like.new_empty(batch, size, size)
        self.step_best = like.new_empty(batch, size)
        self.step_from = torch.empty(batch, size, dtype=torch.long, device=like.device)

    def __call__(self, best: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """`best (batch, num_labels)` -> each tag's best score through its best predecessor, and that predecessor."""
        torch.add(best.unsqueeze(2), self.transitions, out=self.candidates)
        torch.max(self.candidates, dim=1, out=(self.step_best, self.step_from))
        return self.step_best, self.step_from


class _SparseStep:
    """One Viterbi step over the allowed predecessors only: a restricted tag (BIO: `I-X`) scores its few
    predecessors; an open tag scores every tag when transitions carry scores (a CRF), and otherwise simply
    takes the row's best tag. Under BIO constraints that is O(num_labels) per row without transition scores
    and about half of every pair with them.

    # Parameters

    sparse : `(open (num_labels,) bool, predecessors (num_labels, k))` from `_sparse_predecessors`.
    transitions : `(num_labels, num_labels)` [from, to] scores, or None when every allowed transition scores 0.
    batch : rows; like : a tensor of the scores' dtype and device (for the buffers).
    """

    def __init__(
        self, sparse: SparsePredecessors, transitions: Optional[torch.Tensor], batch: int, like: torch.Tensor
    ) -> None:
        open_tags, predecessors = sparse
        size, width = predecessors.shape
        self.open_tags, self.predecessors = open_tags, predecessors
        self.flat_predecessors = predecessors.flatten()
        self.open_indices = open_tags.nonzero().flatten()
        self.candidates = like.new_empty(batch, size, width)
        self.step_best = like.new_empty(batch, size)
        self.step_from = torch.empty(batch, size, dtype=torch.long, device=like.device)
        self.predecessor_scores: Optional[torch.Tensor] = None
        self.open_transitions: Optional[torch.Tensor] = None
        if transitions is not None:
            tags = torch.arange(size, device=like.device).unsqueeze(1)
            self.predecessor_scores = transitions[predecessors, tags]  # (num_labels, k)
            self.open_transitions = transitions[:, self.open_indices].unsqueeze(0)  # (1, from, open)
            self.open_candidates = like.new_empty(batch, size, self.open_indices.numel())
            self.open_best = like.new_empty(batch, self.open_indices.numel())
            self.open_from = torch.empty(batch, self.open_indices.numel(), dtype=torch.long, device=like.device)

    def __call__(self, best: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """`best (batch, num_labels)` -> each tag's best score through its best predecessor, and that predecessor."""
        batch = best.size(0)
        torch.index_select(best, 1, self.flat_predecessors, out=self.candidates.view(batch, -1))
        if self.predecessor_scores is not None:
            self.candidates += self.predecessor_scores
        torch.max(self.candidates, dim=2, out=(self.step_best, self.step_from))
        chosen = self.predecessors.expand(batch, -1, -1).gather(2, self.step_from.unsqueeze(2)).squeeze(2)
        if self.open_transitions is None:
            overall_best, overall_from = best.max(dim=1, keepdim=True)
            self.step_best.copy_(torch.where(self.open_tags, overall_best, self.step_best))
            self.step_from.copy_(torch.where(self.open_tags, overall_from, chosen))
            return self.step_best, self.step_from
        torch.add(best.unsqueeze(2), self.open_transitions, out=self.open_candidates)
        torch.max(self.open_candidates, dim=1, out=(self.open_best, self.open_from))
        self.step_from.copy_(chosen)
        self.step_best.index_copy_(1, self.open_indices, self.open_best)
        self.step_from.index_copy_(1, self.open_indices, self.open_from)
        return self.step_best, self.step_from


def _index_dtype(size: int) -> torch.dtype:
    """The smallest integer type that holds label indices below `size`."""
    return torch.uint8 if size <= 256 else torch.int16 if size <= 32768 else torch.long


def argmax_decode(log_probs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Independent per-token argmax, `(batch, seq_len, num_labels)` -> `(batch, seq_len)`."""
    return log_probs.argmax(dim=-1)


def dependency_decode(log_probs: torch.Tensor, mask: torch.Tensor, single_token: torch.Tensor) -> torch.Tensor:
    """Per-token argmax over the tags that stand alone (`O`, `B-X`; never `I-X`): dependency SRL puts
    each argument's label on its head word only. `single_token (num_labels,)` bool marks those tags."""
    return log_probs.masked_fill(~single_token.to(log_probs.device), FORBIDDEN).argmax(dim=-1)


class TagDecoder:
    """Decodes with `"argmax"`, `"viterbi"` or `"dependency"` over a label vocabulary given as `{index: label}`."""

    def __init__(self, decoding: str, index_to_label: dict[int, str]) -> None:
        if decoding not in DECODINGS:
            raise ValueError(f"decoding must be one of {DECODINGS}, got {decoding!r}")
        self.decoding = decoding
        labels = [index_to_label[i] for i in range(len(index_to_label))]
        self.allowed, self.start = bio_constraints(labels)
        self.single_token = torch.tensor([not label.startswith("I-") for label in labels], dtype=torch.bool)

    def __call__(self, log_probs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        if self.decoding == "argmax" or log_probs.size(0) == 0:
            return argmax_decode(log_probs, mask)
        if self.decoding == "dependency":
            return dependency_decode(log_probs, mask, self.single_token)
        return viterbi_decode(log_probs, mask, self.allowed, self.start)
