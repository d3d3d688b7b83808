"""Viterbi under BIO constraints against brute-force enumeration of every tag sequence."""

import itertools

import pytest
import torch

from srl_zoo.decoding import TagDecoder, bio_constraints, viterbi_decode

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


@pytest.mark.parametrize("seed", range(10))
def test_sparse_bio_steps_equal_scoring_every_tag_pair(seed):
    # Under plain BIO constraints Viterbi scores only each tag's allowed predecessors; with a
    # transition score (CRF) it scores every pair. A zero transition score must change nothing.
    labels = ["O"] + [f"{p}-A{k}" for k in range(12) for p in "BI"] + ["B-V", "I-V", "I-R"]  # I-R: no B-R
    scores, _, mask = random_rows(seed, 6, 40, len(labels))
    allowed, start = bio_constraints(labels)
    every_pair = viterbi_decode(scores, mask, allowed, start, transition_scores=torch.zeros(len(labels), len(labels)))
    assert torch.equal(viterbi_decode(scores, mask, allowed, start), every_pair)


def test_sparse_predecessors_only_for_few_predecessors():
    from srl_zoo.decoding import _sparse_predecessors

    allowed, _ = bio_constraints(LABELS)
    open_tags, predecessors = _sparse_predecessors(allowed)
    assert open_tags.tolist() == [True, True, False, True, False]
    assert sorted(predecessors[2].tolist()) == [1, 2] and sorted(predecessors[4].tolist()) == [3, 4]
    dense = torch.rand(30, 30, generator=torch.Generator().manual_seed(0)) < 0.5
    assert _sparse_predecessors(dense) is None
