"""Frames that PropBank allows, decoded exactly: no core role (ARG0-ARG5, ARGA) twice in a frame, a continuation
`C-X` only after an `X`, a reference `R-X` only where the frame has an `X` (He et al., 2017). Plain numpy, shared by
the torch output layer and the graphs' decoder.

The best path under these constraints is found by adding them where they are broken: Viterbi under BIO alone,
then, while the best path breaks the constraints of some roles, Viterbi again over tags extended by those roles'
states (seen, unseen, referred to but not yet seen). Each pass is exact for the roles it tracks and a relaxation of
the rest, so a path that keeps every constraint is the best valid path; every pass tracks at least one more role."""

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from srl_zoo.data.formats.labels import prefix_and_core

#: the roles a frame has at most once: PropBank's numbered arguments (CoNLL-2005 spells them `A0`-`A5`, `AA`)
CORE_ROLE = re.compile(r"^(ARG|A)[0-5A]$")
#: a role's states in the extended Viterbi: not seen, seen, referred to (`R-X`) but not seen (the end refuses it)
UNSEEN, SEEN, REFERRED = 0, 1, 2
#: the tag kinds that change a role's state where their span begins
BASE, CONTINUATION, REFERENCE = "base", "continuation", "reference"


@dataclass(frozen=True)
class SpanStart:
    """What a tag that begins a span says of a role: `role` (its base: `ARG1` for `B-R-ARG1`) and `kind`."""

    role: str
    kind: str


class FrameConstraints:
    """The constraints over one label set.

    # Parameters

    labels : the BIO tags by index (`O`, `B-ARG0`, `I-ARG0`, `B-C-ARG1`, `B-R-ARG0`, ...).
    """

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = list(labels)
        self.starts: dict[int, SpanStart] = {}
        for index, label in enumerate(self.labels):
            if label.startswith("B-"):
                self.starts[index] = span_start(label[2:])

    def broken_roles(self, path: Sequence[int]) -> set[str]:
        """The roles whose constraints the tag ids `path` (one frame's real tokens) break."""
        seen: set[str] = set()
        broken: set[str] = set()
        referred: set[str] = set()
        for tag in path:
            start = self.starts.get(int(tag))
            if start is None:
                continue
            if start.kind == BASE:
                if start.role in seen and CORE_ROLE.match(start.role):
                    broken.add(start.role)
                seen.add(start.role)
            elif start.kind == CONTINUATION and start.role not in seen:
                broken.add(start.role)
            elif start.kind == REFERENCE:
                referred.add(start.role)
        return broken | (referred - seen)

    def best_valid_path(
        self, scores: np.ndarray, transitions: np.ndarray, start_scores: np.ndarray, best_path: np.ndarray
    ) -> np.ndarray:
        """`(length,)` int64, the highest-scoring path that keeps BIO and these constraints.

        # Parameters

        scores : `(length, labels)` float32 per-token scores of one frame's real tokens.
        transitions : `(labels, labels)` [from, to] scores, forbidden ones (BIO) very low.
        start_scores : `(labels,)` first-tag scores, forbidden ones very low.
        best_path : `(length,)` the best path under BIO alone (Viterbi's), the first candidate.
        """
        tracked: list[str] = []
        path = np.asarray(best_path, dtype=np.int64)
        while broken := self.broken_roles(path.tolist()) - set(tracked):
            tracked.extend(sorted(broken))
            path = self._viterbi_tracking(scores, transitions, start_scores, tracked)
        return path

    def _next_states(self, tracked: list[str]) -> np.ndarray:
        """`(states, labels)` int64: the joint state of the `tracked` roles after each tag, -1 where refused."""
        size = len(self.labels)
        states = 3 ** len(tracked)
        following = np.tile(np.arange(states, dtype=np.int64)[:, None], (1, size))
        position = {role: index for index, role in enumerate(tracked)}
        for tag, start in self.starts.items():
            if start.role not in position:
                continue
            digit = 3 ** position[start.role]
            for state in range(states):
                following[state, tag] = _after(state, digit, start, CORE_ROLE.match(start.role) is not None)
        return following

    def _viterbi_tracking(
        self, scores: np.ndarray, transitions: np.ndarray, start_scores: np.ndarray, tracked: list[str]
    ) -> np.ndarray:
        """The best path keeping BIO and the constraints of the `tracked` roles (Viterbi over (state, tag))."""
        length, size = scores.shape
        following = self._next_states(tracked)
        states = following.shape[0]
        scores = scores.astype(np.float64)
        transitions = transitions.astype(np.float64)
        best = np.full((states, size), -np.inf)
        first = following[0] >= 0
        best[following[0][first], np.flatnonzero(first)] = start_scores[first] + scores[0][first]
        cells, sources = _sources_of_cells(following)
        step = StepMaxima(transitions)
        table = np.empty((length, states, size))  # the best score of a path ending in (state, tag) at each step
        table[0] = best
        for t in range(1, length):
            step_best = step(best) + scores[t]  # (from state, to)
            best = np.full((states, size), -np.inf)
            best.ravel()[cells] = np.append(step_best.ravel(), -np.inf)[sources].max(axis=1)
            table[t] = best
        finals = np.array([_unreferred(state, len(tracked)) for state in range(states)])
        best[~finals] = -np.inf
        end_state, end_tag = np.unravel_index(int(best.argmax()), best.shape)
        path = np.empty(length, dtype=np.int64)
        path[-1], at = end_tag, int(end_state)
        for t in range(length - 1, 0, -1):  # each step's best predecessor, found again: lowest state, first tag
            tag = int(path[t])
            froms = sources[np.searchsorted(cells, at * size + tag)]
            froms = froms[froms < following.size] // size  # the states one step before that lead here by `tag`
            offered = table[t - 1, froms] + transitions[:, tag]  # (those states, from tag)
            row = int(offered.max(axis=1).argmax())
            at, path[t - 1] = int(froms[row]), int(offered[row].argmax())
        return path


#: a transition score at or below it is forbidden (BIO's, scored -1e9 on both paths)
FORBIDDEN_AT_MOST = -1.0e8
#: the best previous tags a step tries first for a tag any tag may precede (exact: the rest are bounded)
FIRST_TRIED = 8


class StepMaxima:
    """One Viterbi step's maxima, exact and cheaper than every (from, to) pair: a tag few tags may precede (`I-X`:
    `B-X`, `I-X`) gathers those alone; for a tag many may precede, the `FIRST_TRIED` best previous tags give a
    maximum that no other can beat unless the next best score plus the tag's best transition could, and only those
    (state, tag) cells are computed over every previous tag.

    # Parameters

    transitions : `(labels, labels)` float64 [from, to] scores, forbidden ones at most `FORBIDDEN_AT_MOST`.
    """

    def __init__(self, transitions: np.ndarray) -> None:
        size = transitions.shape[0]
        allowed = transitions > FORBIDDEN_AT_MOST
        counts = allowed.sum(axis=0)
        self.size = size
        self.narrow = np.flatnonzero(counts <= 2)
        self.wide = np.flatnonzero(counts > 2)
        width = max(1, int(counts[self.narrow].max(initial=0)))
        self.narrow_from = np.full((len(self.narrow), width), size, dtype=np.int64)  # `size`: a column of -inf
        self.narrow_scores = np.full((len(self.narrow), width), -np.inf)
        for row, to in enumerate(self.narrow):
            froms = np.flatnonzero(allowed[:, to])
            self.narrow_from[row, : len(froms)] = froms
            self.narrow_scores[row, : len(froms)] = transitions[froms, to]
        self.wide_scores = transitions[:, self.wide]  # (from, wide to)
        self.wide_best = self.wide_scores.max(axis=0, initial=-np.inf)

    def __call__(self, best: np.ndarray) -> np.ndarray:
        """`(states, labels)`: per state and tag the best of `best (states, labels)` plus the transition into it."""
        states, size = best.shape
        out = np.empty((states, size))
        padded = np.concatenate([best, np.full((states, 1), -np.inf)], axis=1)
        out[:, self.narrow] = (padded[:, self.narrow_from] + self.narrow_scores[None]).max(axis=2)
        if size <= 2 * FIRST_TRIED:
            out[:, self.wide] = (best[:, :, None] + self.wide_scores[None]).max(axis=1)
            return out
        tried = np.argpartition(best, size - FIRST_TRIED, axis=1)[:, size - FIRST_TRIED :]  # (states, tried)
        untried_best = np.partition(best, size - FIRST_TRIED - 1, axis=1)[:, size - FIRST_TRIED - 1]  # (states,)
        found = (np.take_along_axis(best, tried, axis=1)[:, :, None] + self.wide_scores[tried]).max(axis=1)
        unsure_states, unsure_tags = np.nonzero(found < untried_best[:, None] + self.wide_best[None])
        if len(unsure_states):
            found[unsure_states, unsure_tags] = (best[unsure_states] + self.wide_scores[:, unsure_tags].T).max(axis=1)
        out[:, self.wide] = found
        return out


def _sources_of_cells(following: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each reachable (state, tag) cell of the Viterbi table (flat index `state * labels + tag`) and `(cells, most)`
    the flat cells one step may come from (the same tag in a state that leads there, lowest state first), padded
    with `following.size` (a cell of -inf).

    # Parameters

    following : `(states, labels)` the state after each tag, -1 where refused (`FrameConstraints._next_states`).
    """
    states, size = following.shape
    from_states, tags = np.nonzero(following >= 0)  # row-major: lowest state first within each cell
    into = following[from_states, tags] * size + tags
    order = np.argsort(into, kind="stable")
    cells, first, counts = np.unique(into[order], return_index=True, return_counts=True)
    sources = np.full((len(cells), int(counts.max())), following.size, dtype=np.int64)
    for column in range(sources.shape[1]):
        has = counts > column
        picked = order[first[has] + column]
        sources[has, column] = from_states[picked] * size + tags[picked]
    return cells, sources


def span_start(role: str) -> SpanStart:
    """What a span labeled `role` (`ARG0`, `C-ARG1`, `R-ARGM-LOC`, `V`) says of its base role."""
    prefix, base = prefix_and_core(role)
    return SpanStart(base, {"C-": CONTINUATION, "R-": REFERENCE}.get(prefix, BASE))


def _after(state: int, digit: int, start: SpanStart, core: bool) -> int:
    """The joint state after a span `start` of the role at `digit` (a power of 3) begins, -1 where refused."""
    role_state = (state // digit) % 3
    if start.kind == BASE:
        return -1 if core and role_state == SEEN else state + (SEEN - role_state) * digit
    if start.kind == CONTINUATION:
        return state if role_state == SEEN else -1
    return state + (REFERRED - UNSEEN) * digit if role_state == UNSEEN else state


def _unreferred(state: int, roles: int) -> bool:
    """Whether no tracked role of the joint `state` is referred to without being seen (a valid end)."""
    return all((state // 3**index) % 3 != REFERRED for index in range(roles))


def valid_paths(
    constraints: FrameConstraints,
    scores: np.ndarray,
    mask: np.ndarray,
    transitions: np.ndarray,
    start_scores: np.ndarray,
    best_paths: np.ndarray,
) -> np.ndarray:
    """`best_paths` with each row that breaks the constraints replaced by its best valid path.

    # Parameters

    constraints : the label set's. scores : `(rows, seq_len, labels)` float32. mask : `(rows, seq_len)` bool, real
    tokens first. transitions : `(labels, labels)` [from, to], forbidden ones very low. start_scores : `(labels,)`.
    best_paths : `(rows, seq_len)` int64 the best paths under BIO alone; past a row's real tokens, its last tag.
    """
    paths = np.array(best_paths, dtype=np.int64, copy=True)
    lengths = mask.sum(axis=1)
    for row, length in enumerate(lengths.tolist()):
        if length and constraints.broken_roles(paths[row, :length].tolist()):
            paths[row, :length] = constraints.best_valid_path(
                scores[row, :length], transitions, start_scores, paths[row, :length]
            )
            paths[row, length:] = paths[row, length - 1]
    return paths
