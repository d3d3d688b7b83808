"""Viterbi under BIO constraints against brute-force enumeration of every tag sequence."""

import itertools

import pytest
import torch

from srl_zoo.parts.outputs.decoding import TagDecoder, bio_constraints, viterbi_decode

LABELS = ["O", "B-A0", "I-A0", "B-A1", "I-A1"]


def valid(sequence):
    previous = "O"
    for tag in sequence:
        if tag.startswith("I-") and previous[2:] != tag[2:]:
            return False
        previous = tag
    return True


def brute_force(scores: torch.Tensor, length: int):
    best, best_sequence = float("-inf"), None
    for ids in itertools.product(range(len(LABELS)), repeat=length):
        if valid([LABELS[i] for i in ids]):
            score = sum(float(scores[t, i]) for t, i in enumerate(ids))
            if score > best:
                best, best_sequence = score, list(ids)
    return best, best_sequence


def random_rows(seed: int, batch: int, max_length: int, num_labels: int):
    """Random log-probabilities `(batch, max_length, num_labels)`, row lengths from 1 to `max_length`, their mask."""
    generator = torch.Generator().manual_seed(seed)
    scores = torch.randn(batch, max_length, num_labels, generator=generator).log_softmax(-1)
    lengths = torch.randint(1, max_length + 1, (batch,), generator=generator)
    return scores, lengths, torch.arange(max_length)[None, :] < lengths[:, None]


def test_constraints():
    allowed, start = bio_constraints(LABELS)
    assert start.tolist() == [True, True, False, True, False]
    assert allowed[LABELS.index("B-A0"), LABELS.index("I-A0")]
    assert allowed[LABELS.index("I-A0"), LABELS.index("I-A0")]
    assert not allowed[LABELS.index("O"), LABELS.index("I-A0")]
    assert not allowed[LABELS.index("B-A1"), LABELS.index("I-A0")]


@pytest.mark.parametrize("seed", range(30))
def test_viterbi_equals_brute_force_on_random_scores(seed):
    batch = 4
    scores, lengths, mask = random_rows(seed, batch, 5, len(LABELS))
    allowed, start = bio_constraints(LABELS)
    decoded = viterbi_decode(scores, mask, allowed, start)
    for b in range(batch):
        length = int(lengths[b])
        best, expected = brute_force(scores[b], length)
        path = decoded[b, :length].tolist()
        assert valid([LABELS[i] for i in path])
        assert sum(float(scores[b, t, i]) for t, i in enumerate(path)) == pytest.approx(best, abs=1e-5)
        assert path == expected


def test_argmax_can_break_bio_but_viterbi_cannot():
    # I-A0 is the best single tag at both positions; only B-A0 I-A0 is a valid way to use it.
    scores = torch.tensor([[[0.0, -1.0, 2.0, -5.0, -5.0], [0.0, -5.0, 2.0, -5.0, -5.0]]]).log_softmax(-1)
    mask = torch.ones(1, 2, dtype=torch.bool)
    index_to_label = dict(enumerate(LABELS))
    assert TagDecoder("argmax", index_to_label)(scores, mask).tolist() == [[2, 2]]
    assert TagDecoder("viterbi", index_to_label)(scores, mask).tolist() == [[1, 2]]


def test_unknown_decoding_is_a_clear_error():
    with pytest.raises(ValueError, match="decoding must be one of"):
        TagDecoder("beam", dict(enumerate(LABELS)))


def test_dependency_decoding_is_the_argmax_over_tags_that_stand_alone():
    labels = ["O", "B-A0", "I-A0", "B-A1", "I-A1"]
    decoder = TagDecoder("dependency", dict(enumerate(labels)))
    torch.manual_seed(0)
    log_probs = torch.randn(3, 6, len(labels)).log_softmax(-1)
    decoded = decoder(log_probs, torch.ones(3, 6, dtype=torch.bool))
    alone = [i for i, label in enumerate(labels) if not label.startswith("I-")]
    for b in range(3):
        for t in range(6):
            assert int(decoded[b, t]) == max(alone, key=lambda i: float(log_probs[b, t, i]))


WIDE_LABELS = ["O"] + [f"{p}-A{k}" for k in range(12) for p in "BI"] + ["B-V", "I-V", "I-R"]  # I-R: no B-R


@pytest.mark.parametrize("with_transition_scores", [False, True])
@pytest.mark.parametrize("seed", range(10))
def test_a_sparse_step_equals_scoring_every_tag_pair(seed, with_transition_scores):
    # Under BIO constraints a step scores each restricted tag's allowed predecessors only (and, without
    # transition scores, gives an open tag the row's best): the same scores and predecessors as every pair.
    from srl_zoo.parts.outputs.decoding import FORBIDDEN, _DenseStep, _sparse_predecessors, _SparseStep

    generator = torch.Generator().manual_seed(seed)
    allowed, _ = bio_constraints(WIDE_LABELS)
    size = len(WIDE_LABELS)
    scores = torch.randn(size, size, generator=generator) if with_transition_scores else torch.zeros(size, size)
    transitions = torch.where(allowed, scores, FORBIDDEN)
    best = torch.randn(6, size, generator=generator)
    sparse = _sparse_predecessors(allowed)
    assert sparse is not None
    dense_best, dense_from = _DenseStep(transitions, 6, best)(best)
    sparse_best, sparse_from = _SparseStep(sparse, transitions if with_transition_scores else None, 6, best)(best)
    assert torch.allclose(sparse_best, dense_best) and torch.equal(sparse_from, dense_from)


@pytest.mark.parametrize("seed", range(20))
def test_viterbi_with_transition_scores_equals_brute_force(seed):
    # a CRF's decoding: emissions plus learned transition and first-tag scores, under BIO constraints
    generator = torch.Generator().manual_seed(seed)
    scores, lengths, mask = random_rows(seed, 4, 5, len(LABELS))
    transition_scores = torch.randn(len(LABELS), len(LABELS), generator=generator)
    start_scores = torch.randn(len(LABELS), generator=generator)
    allowed, start = bio_constraints(LABELS)
    decoded = viterbi_decode(scores, mask, allowed, start, transition_scores, start_scores)

    def total(row, ids):
        emitted = sum(float(scores[row, t, i]) for t, i in enumerate(ids))
        moved = sum(float(transition_scores[a, b]) for a, b in itertools.pairwise(ids))
        return emitted + moved + float(start_scores[ids[0]])

    for row in range(4):
        length = int(lengths[row])
        candidates = itertools.product(range(len(LABELS)), repeat=length)
        expected = max((ids for ids in candidates if valid([LABELS[i] for i in ids])), key=lambda ids: total(row, ids))
        assert decoded[row, :length].tolist() == list(expected)


def test_sparse_predecessors_only_for_few_predecessors():
    from srl_zoo.parts.outputs.decoding import _sparse_predecessors

    allowed, _ = bio_constraints(LABELS)
    open_tags, predecessors = _sparse_predecessors(allowed)
    assert open_tags.tolist() == [True, True, False, True, False]
    assert sorted(predecessors[2].tolist()) == [1, 2] and sorted(predecessors[4].tolist()) == [3, 4]
    dense = torch.rand(30, 30, generator=torch.Generator().manual_seed(0)) < 0.5
    assert _sparse_predecessors(dense) is None
