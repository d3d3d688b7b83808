import pytest
import torch
from allennlp.common import Lazy
from allennlp.data import Vocabulary
from allennlp.modules.seq2seq_encoders import PassThroughEncoder

from srl_zoo.modules.frame_scorers.bilinear import BilinearFrameScorer
from srl_zoo.parts.layers.relative_position_bias import DISTANCE_BOUNDARIES, RelativePositionBias


def bucket_by_hand(offset: int, boundaries=DISTANCE_BOUNDARIES) -> int:
    """The bucket of one offset: how many boundaries its distance reaches, signed, shifted to ≥ 0."""
    reached = sum(1 for boundary in boundaries if abs(offset) >= boundary)
    return len(boundaries) + (reached if offset > 0 else -reached)


def test_buckets_match_counting_the_boundaries_reached():
    bias = RelativePositionBias(num_labels=3)
    offsets = torch.arange(-150, 151)
    expected = [bucket_by_hand(o) for o in offsets.tolist()]
    assert bias.buckets(offsets).tolist() == expected
    # every distance up to 9 on either side has a bucket of its own; 0 is the middle one
    assert len({bucket_by_hand(o) for o in range(-9, 10)}) == 19
    assert bucket_by_hand(0) == len(DISTANCE_BOUNDARIES)
    assert bucket_by_hand(64) == bucket_by_hand(1000) == 2 * len(DISTANCE_BOUNDARIES)
    assert bucket_by_hand(-64) == bucket_by_hand(-1000) == 0


def test_forward_looks_up_each_tokens_offset_from_its_frames_predicate():
    torch.manual_seed(0)
    bias = RelativePositionBias(num_labels=4, boundaries=(1, 2, 4))
    torch.nn.init.normal_(bias.scores.weight)
    predicates = torch.tensor([[0, 3], [5, -1]])  # -1: a padded frame, read as predicate 0
    scores = bias(predicates, seq_len=7)
    assert scores.shape == (2, 2, 7, 4)
    for b in range(2):
        for f in range(2):
            predicate = max(int(predicates[b, f]), 0)
            for t in range(7):
                expected = bias.scores.weight[bucket_by_hand(t - predicate, (1, 2, 4))]
                assert torch.equal(scores[b, f, t], expected)


def test_starts_at_zero_and_rejects_bad_boundaries():
    assert not RelativePositionBias(num_labels=2)(torch.tensor([[1]]), 3).any()
    with pytest.raises(ValueError, match="increasing"):
        RelativePositionBias(num_labels=2, boundaries=(2, 1))
    with pytest.raises(ValueError, match="increasing"):
        RelativePositionBias(num_labels=2, boundaries=(0, 1))


def test_the_bilinear_scorer_adds_the_bias_to_its_scores_and_learns_it():
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["O", "B-V", "B-ARG0", "I-ARG0"], "labels")
    torch.manual_seed(0)
    plain = BilinearFrameScorer(vocab, Lazy(PassThroughEncoder), 6, mlp_dim=5, dropout=0.0)
    torch.manual_seed(0)
    biased = BilinearFrameScorer(vocab, Lazy(PassThroughEncoder), 6, mlp_dim=5, dropout=0.0, position_bias=True)
    torch.nn.init.normal_(biased.position_bias.scores.weight)
    embedded, mask = torch.randn(2, 5, 6), torch.ones(2, 5, dtype=torch.bool)
    predicates = torch.tensor([[1, 3], [2, -1]])
    expected = plain(embedded, mask, predicates)[0] + biased.position_bias(predicates, 5)
    expected[1, 1] = 0  # padded frames score zero
    (logits,) = biased(embedded, mask, predicates)
    assert torch.allclose(logits, expected)
    logits.sum().backward()
    assert biased.position_bias.scores.weight.grad.abs().sum() > 0
    assert "position_bias.scores.weight" not in plain.state_dict()  # older archives load unchanged
