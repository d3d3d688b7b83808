"""The valid-frame decoder against brute force: over every tag sequence of small label sets and lengths, the
best one that keeps BIO, unique core roles and C-/R- roles with their base is the decoder's (same score)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.frames.valid_frames import FrameConstraints, StepMaxima, valid_paths

LABELS = ["O", "B-ARG0", "I-ARG0", "B-ARG1", "B-C-ARG1", "B-R-ARG0", "I-R-ARG0", "B-ARGM-TMP", "B-V"]
FORBIDDEN = -1.0e9


def bio_tables(labels: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Allowed [from, to] transitions and first tags under BIO: `I-X` only after `B-X` or `I-X`."""
    allowed = np.ones((len(labels), len(labels)), dtype=bool)
    start = np.ones(len(labels), dtype=bool)
    for to, label in enumerate(labels):
        if label.startswith("I-"):
            start[to] = False
            allowed[:, to] = [other in ("B-" + label[2:], label) for other in labels]
    return allowed, start


def keeps_the_constraints(labels: list[str], path: tuple[int, ...]) -> bool:
    """The constraints read off the spans of `path`, written out plainly."""
    spans = [labels[tag][2:] for tag in path if labels[tag].startswith("B-")]
    for index, role in enumerate(spans):
        if role in ("ARG0", "ARG1") and role in spans[:index]:
            return False
        if role.startswith("C-") and role[2:] not in spans[:index]:
            return False
        if role.startswith("R-") and role[2:] not in spans:
            return False
    return True


def path_score(path, scores, transitions, start) -> float:
    """The path's score: its first tag's start score, its tokens' scores and its transitions'."""
    total = start[path[0]] + sum(scores[t, tag] for t, tag in enumerate(path))
    return float(total + sum(transitions[a, b] for a, b in zip(path, path[1:], strict=False)))


def plain_viterbi(scores, transitions, start) -> np.ndarray:
    """The best path under the transition table alone (brute force over sequences: short rows only)."""
    paths = itertools.product(range(scores.shape[1]), repeat=scores.shape[0])
    return np.array(max(paths, key=lambda path: path_score(path, scores, transitions, start)))


def brute_force_best(labels, scores, transitions, start, allowed, start_allowed) -> float:
    """The best score of a path that keeps BIO and the constraints, over every tag sequence."""
    best = -np.inf
    for path in itertools.product(range(len(labels)), repeat=scores.shape[0]):
        bio = start_allowed[path[0]] and all(allowed[a, b] for a, b in zip(path, path[1:], strict=False))
        if bio and keeps_the_constraints(labels, path):
            best = max(best, path_score(path, scores, transitions, start))
    return best


@settings(max_examples=25, deadline=None)
@given(length=st.integers(1, 4), seed=st.integers(0, 2**31 - 1))
def test_the_decoder_finds_the_best_valid_path_that_brute_force_finds(length, seed):
    generator = np.random.default_rng(seed)
    labels = LABELS
    allowed, start_allowed = bio_tables(labels)
    # scores that favour invalid frames: ARG0 and R-ARG0 everywhere, C-ARG1 often
    scores = generator.normal(size=(length, len(labels))).astype(np.float32)
    scores[:, labels.index("B-ARG0")] += 1.5
    scores[:, labels.index("B-R-ARG0")] += 1.0
    scores[:, labels.index("B-C-ARG1")] += 1.0
    learned = generator.normal(scale=0.5, size=(len(labels), len(labels))).astype(np.float32)
    transitions = np.where(allowed, learned, FORBIDDEN).astype(np.float32)
    start = np.where(start_allowed, generator.normal(scale=0.5, size=len(labels)), FORBIDDEN).astype(np.float32)
    constraints = FrameConstraints(labels)
    first = plain_viterbi(scores, transitions, start)
    path = constraints.best_valid_path(scores, transitions, start, first)
    assert keeps_the_constraints(labels, tuple(path.tolist()))
    assert start_allowed[path[0]] and all(allowed[a, b] for a, b in zip(path, path[1:], strict=False))
    expected = brute_force_best(labels, scores, transitions, start, allowed, start_allowed)
    assert path_score(tuple(path), scores, transitions, start) == pytest.approx(expected, abs=1e-4)


def test_the_broken_roles_are_named():
    constraints = FrameConstraints(LABELS)
    ids = {label: index for index, label in enumerate(LABELS)}

    def broken(*tags: str) -> set[str]:
        return constraints.broken_roles([ids[tag] for tag in tags])

    assert broken("B-ARG0", "I-ARG0", "O", "B-V", "B-ARG1") == set()
    assert broken("B-ARG0", "B-V", "B-ARG0") == {"ARG0"}
    assert broken("B-ARGM-TMP", "B-V", "B-ARGM-TMP") == set()  # modifiers may repeat
    assert broken("B-C-ARG1", "B-V", "B-ARG1") == {"ARG1"}  # a continuation comes after its base
    assert broken("B-V", "B-ARG1", "B-C-ARG1") == set()
    assert broken("B-R-ARG0", "B-V") == {"ARG0"}
    assert broken("B-R-ARG0", "B-V", "B-ARG0") == set()  # a reference may come before its base


def test_rows_that_keep_the_constraints_are_left_as_they_are_and_the_others_mended():
    labels = LABELS
    allowed, start_allowed = bio_tables(labels)
    transitions = np.where(allowed, 0.0, FORBIDDEN).astype(np.float32)
    start = np.where(start_allowed, 0.0, FORBIDDEN).astype(np.float32)
    ids = {label: index for index, label in enumerate(labels)}
    scores = np.zeros((2, 4, len(labels)), dtype=np.float32)
    # the best tags repeat ARG0; the best valid frame relabels the second one ARG1 (0.5 lost, not 1.0)
    for t, (tag, runner_up, lost) in enumerate(
        [("B-ARG0", "O", 1.0), ("B-V", "O", 1.0), ("B-ARG0", "B-ARG1", 0.5), ("O", "O", 0.0)]
    ):
        scores[:, t, ids[runner_up]] = 2.0 - lost
        scores[:, t, ids[tag]] = 2.0
    mask = np.array([[True] * 4, [True, True, False, False]])
    best = scores.argmax(axis=2)
    best[1, 2:] = best[1, 1]
    mended = valid_paths(FrameConstraints(labels), scores, mask, transitions, start, best)
    assert [labels[tag] for tag in mended[0]] == ["B-ARG0", "B-V", "B-ARG1", "O"]
    assert mended[1].tolist() == best[1].tolist()


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=3, max_value=40),
    states=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    spread=st.sampled_from([0.1, 1.0, 10.0]),
)
def test_a_step_s_maxima_are_every_pair_s(size, states, seed, spread):
    """`StepMaxima` (gathered narrow columns, the best few tags tried first) against every (from, to) pair, on
    label sets larger than the brute-force ones, with unreachable cells (-inf), ties and forbidden transitions."""
    rng = np.random.default_rng(seed)
    transitions = np.round(rng.normal(scale=spread, size=(size, size)), 1)  # rounded: ties
    narrow = rng.random(size) < 0.4
    for to in np.flatnonzero(narrow):  # a few tags that one or two tags alone may precede
        kept = rng.choice(size, size=int(rng.integers(1, 3)), replace=False)
        forbidden = np.setdiff1d(np.arange(size), kept)
        transitions[forbidden, to] = FORBIDDEN
    best = np.round(rng.normal(scale=spread, size=(states, size)), 1)
    best[rng.random((states, size)) < 0.3] = -np.inf
    best[0, : size // 2] = -np.inf
    expected = (best[:, :, None] + transitions[None]).max(axis=1)
    expected[expected <= FORBIDDEN / 2] = -np.inf  # reached by a forbidden transition only: unreachable
    found = StepMaxima(transitions)(best)
    found[found <= FORBIDDEN / 2] = -np.inf
    np.testing.assert_array_equal(found, expected)
