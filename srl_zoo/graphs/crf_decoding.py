"""A linear-chain CRF's decoding in numpy, as `srl_zoo.parts.outputs.linear_chain_crf` computes it in torch: the best
path under hard BIO constraints (Viterbi) and each decoded span's marginal log-probability (forward-backward)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from srl_zoo.frames.valid_frames import FrameConstraints, valid_paths

#: the decodings a manifest may name (`srl_zoo.parts.outputs.crf.CRF_DECODINGS`)
DECODINGS = ("viterbi", "valid_frames")
#: the score of a forbidden tag or transition (as `srl_zoo.parts.outputs.decoding.FORBIDDEN`)
FORBIDDEN = np.float32(-1.0e9)
#: the smallest positive float32, below which a probability is clamped before its log
TINY = np.finfo(np.float32).tiny


@dataclass(frozen=True)
class CrfDecoder:
    """A trained CRF's scores and constraints.

    # Parameters

    transitions : `(labels, labels)` float32 learned [from, to] scores. start_scores : `(labels,)` float32.
    allowed : `(labels, labels)` bool, allowed transitions [from, to]. start_allowed : `(labels,)` bool.
    continuation : `(labels,)` int64, the id of `I-X` for `B-X` and `I-X`, -1 for labels no tag continues.
    constraints : the frame constraints `decode` keeps besides BIO (`"valid_frames"` decoding), or None.
    """

    transitions: np.ndarray
    start_scores: np.ndarray
    allowed: np.ndarray
    start_allowed: np.ndarray
    continuation: np.ndarray
    constraints: Optional[FrameConstraints] = None

    @classmethod
    def from_json(cls, settings: dict[str, Any], labels: Sequence[str]) -> "CrfDecoder":
        """The decoder of a graph manifest's `decoder` entry (the CRF's `graph_decoder`), over the tags `labels`
        by index; `ValueError` naming the `decoding` it does not know."""
        decoding = settings.get("decoding", "viterbi")
        if decoding not in DECODINGS:
            raise ValueError(f"decoder.decoding: one of {DECODINGS}, got {decoding!r}")
        return cls(
            np.asarray(settings["transitions"], dtype=np.float32),
            np.asarray(settings["start_scores"], dtype=np.float32),
            np.asarray(settings["allowed"], dtype=bool),
            np.asarray(settings["start_allowed"], dtype=bool),
            np.asarray(settings["continuation"], dtype=np.int64),
            FrameConstraints(labels) if decoding == "valid_frames" else None,
        )

    def decode(self, emissions: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """`(rows, seq_len)` int64, each row's best path under BIO (and the frame constraints where kept).

        # Parameters

        emissions : `(rows, seq_len, labels)` float32. mask : `(rows, seq_len)` bool, real tokens first.
        """
        paths = self.viterbi(emissions, mask)
        if self.constraints is None or not len(paths):
            return paths
        transitions, start = self.constrained()
        return valid_paths(self.constraints, emissions, mask, transitions, start, paths)

    def constrained(self, temperature: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Transition `(labels, labels)` and first-tag `(labels,)` scores divided by `temperature`, forbidden ones
        `FORBIDDEN`."""
        scale = np.float32(temperature)
        transitions = np.where(self.allowed, self.transitions / scale, FORBIDDEN).astype(np.float32)
        start = np.where(self.start_allowed, self.start_scores / scale, FORBIDDEN).astype(np.float32)
        return transitions, start

    def viterbi(self, emissions: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """`(rows, seq_len)` int64, the best allowed path of each row; past a row's real tokens its last tag.

        # Parameters

        emissions : `(rows, seq_len, labels)` float32. mask : `(rows, seq_len)` bool, real tokens first.
        """
        rows, length, size = emissions.shape
        if rows == 0:
            return np.zeros((0, length), dtype=np.int64)
        # [to, from]: each step's maximum runs over the last, contiguous axis
        transitions = np.ascontiguousarray((np.where(self.allowed, np.float32(0), FORBIDDEN) + self.transitions).T)
        best = emissions[:, 0] + (np.where(self.start_allowed, np.float32(0), FORBIDDEN) + self.start_scores)
        identity = np.broadcast_to(np.arange(size), (rows, size))
        backpointers = np.zeros((rows, length, size), dtype=np.int16 if size < 2**15 else np.int64)
        for t in range(1, length):
            candidates = best[:, None, :] + transitions[None]  # (rows, to, from)
            step_from = candidates.argmax(axis=2)
            step_best = np.take_along_axis(candidates, step_from[:, :, None], axis=2)[:, :, 0] + emissions[:, t]
            real = mask[:, t, None]
            best = np.where(real, step_best, best)
            backpointers[:, t] = np.where(real, step_from, identity)
        path = np.empty((rows, length), dtype=np.int64)
        path[:, -1] = best.argmax(axis=-1)
        for t in range(length - 1, 0, -1):
            path[:, t - 1] = np.take_along_axis(backpointers[:, t], path[:, t, None], axis=1)[:, 0]
        return path

    def _forward(
        self, emissions: np.ndarray, mask: np.ndarray, transitions: np.ndarray, start: np.ndarray
    ) -> np.ndarray:
        """`(rows, seq_len, labels)` alpha (log Σ of the paths' prefixes up to t ending in each label)."""
        exp_transitions = np.exp(transitions)
        alpha = start + emissions[:, 0]
        alphas = [alpha]
        for t in range(1, emissions.shape[1]):
            shift = alpha.max(axis=-1, keepdims=True)
            reach = np.exp(alpha - shift) @ exp_transitions
            step = np.log(np.maximum(reach, TINY)) + shift + emissions[:, t]
            alpha = np.where(mask[:, t, None], step, alpha)
            alphas.append(alpha)
        return np.stack(alphas, axis=1)

    def _backward(self, emissions: np.ndarray, mask: np.ndarray, transitions: np.ndarray) -> np.ndarray:
        """`(rows, seq_len, labels)` beta (log Σ of the paths' suffixes after t given the label at t)."""
        exp_back = np.exp(transitions).T  # [to, from]
        beta = np.zeros((emissions.shape[0], emissions.shape[2]), dtype=np.float32)
        betas = [beta]
        for t in range(emissions.shape[1] - 1, 0, -1):
            ahead = emissions[:, t] + beta
            shift = ahead.max(axis=-1, keepdims=True)
            reach = np.exp(ahead - shift) @ exp_back
            step = np.log(np.maximum(reach, TINY)) + shift
            beta = np.where(mask[:, t, None], step, beta)
            betas.append(beta)
        return np.stack(betas[::-1], axis=1)

    def span_log_probabilities(
        self, emissions: np.ndarray, tags: np.ndarray, mask: np.ndarray, temperature: float = 1.0
    ) -> np.ndarray:
        """`(rows, seq_len)` at each token, log p(the span of `tags` that ends there is a span of the labeling).

        # Parameters

        emissions : `(rows, seq_len, labels)` float32. tags : `(rows, seq_len)` an allowed path (Viterbi's).
        mask : `(rows, seq_len)` bool, real tokens first. temperature : every score divided by it first.
        """
        rows, length, size = emissions.shape
        if rows == 0:
            return np.zeros((0, length), dtype=np.float32)
        emissions = (emissions / np.float32(temperature)).astype(np.float32)
        tags = np.maximum(tags, 0)
        transitions, start = self.constrained(temperature)
        alpha = self._forward(emissions, mask, transitions, start)
        beta = self._backward(emissions, mask, transitions)
        log_z = _logsumexp(alpha[:, -1])  # (rows,)
        pieces = np.take_along_axis(emissions, tags[:, :, None], axis=2)[:, :, 0].copy()
        pieces[:, 1:] += transitions[tags[:, :-1], tags[:, 1:]]
        starts = span_starts(tags, self.continuation)
        inside = np.cumsum(pieces, axis=1, dtype=np.float32)
        inside = inside - np.take_along_axis(inside, starts, axis=1)
        at_tags = np.take_along_axis(alpha, tags[:, :, None], axis=2)[:, :, 0]
        opening = np.take_along_axis(at_tags, starts, axis=1)
        ahead = transitions[tags[:, :-1]] + emissions[:, 1:] + beta[:, 1:]  # (rows, seq_len - 1, labels)
        excluded = self.continuation[tags[:, :-1]]
        ahead = np.where(
            (np.arange(size) == excluded[:, :, None]) & (excluded >= 0)[:, :, None], np.float32(-np.inf), ahead
        )
        closing = np.zeros(tags.shape, dtype=np.float32)
        closing[:, :-1] = np.where(mask[:, 1:], _logsumexp(ahead), closing[:, :-1])
        return (opening + inside + closing - log_z[:, None]).astype(np.float32)


def _logsumexp(values: np.ndarray) -> np.ndarray:
    """log Σ exp over the last axis (an all `-inf` slice gives `-inf`)."""
    top = values.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, np.float32(0))
    return (np.log(np.exp(values - top).sum(axis=-1)) + top[..., 0]).astype(np.float32)


def span_starts(tags: np.ndarray, continuation: np.ndarray) -> np.ndarray:
    """`(rows, seq_len)` the first token of the span each token belongs to (`I-X` after `B-X`/`I-X` continues it).

    # Parameters

    tags : `(rows, seq_len)` non-negative tag ids. continuation : `(labels,)` see `CrfDecoder`.
    """
    positions = np.broadcast_to(np.arange(tags.shape[1]), tags.shape)
    continues = np.zeros(tags.shape, dtype=bool)
    continues[:, 1:] = continuation[tags[:, :-1]] == tags[:, 1:]
    return np.maximum.accumulate(np.where(continues, 0, positions), axis=1)
