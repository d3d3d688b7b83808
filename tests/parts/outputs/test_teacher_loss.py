"""Distillation's loss: the CRF's differentiable marginals against brute force, each output layer's teacher loss
against its definition (a student whose distributions are the teacher's pays exactly their entropy) and the mix
of the gold and the teacher loss by `teacher_weight`."""

import math

import pytest
import torch

from srl_zoo.modules.frame_scorers.crf_output import CrfTagOutput
from srl_zoo.modules.frame_scorers.softmax_output import SoftmaxTagOutput
from srl_zoo.parts.outputs.crf import CrfOutput
from srl_zoo.parts.outputs.softmax import SoftmaxOutput
from srl_zoo.parts.outputs.tag_output import soft_cross_entropy
from tests.modules.frame_scorers.test_crf import brute_force, random_crf
from tests.test_decoding import LABELS


@pytest.mark.parametrize("seed", range(4))
def test_log_marginals_equal_brute_force_and_carry_gradients(seed):
    crf, emissions, mask, lengths = random_crf(seed)
    emissions.requires_grad_(True)
    log_marginals = crf.log_marginals(emissions, mask)
    for row, length in enumerate(lengths):
        scored = brute_force(crf, emissions[row].detach(), length)
        z = sum(math.exp(score) for score, _ in scored)
        expected = torch.zeros(length, len(LABELS))
        for score, ids in scored:
            for t, i in enumerate(ids):
                expected[t, i] += math.exp(score) / z
        assert torch.allclose(log_marginals[row, :length].exp(), expected, atol=1e-5)
    (gradient,) = torch.autograd.grad(log_marginals[mask].exp()[:, 0].sum(), emissions)
    assert float(gradient.abs().sum()) > 0


def test_soft_cross_entropy_is_the_mean_over_real_tokens():
    log_probabilities = torch.log_softmax(torch.tensor([[[0.0, 1.0], [2.0, 0.0], [5.0, 5.0]]]), dim=-1)
    teacher = torch.tensor([[[0.25, 0.75], [1.0, 0.0], [0.5, 0.5]]])
    mask = torch.tensor([[True, True, False]])
    expected = -(0.25 * log_probabilities[0, 0, 0] + 0.75 * log_probabilities[0, 0, 1] + log_probabilities[0, 1, 0]) / 2
    assert float(soft_cross_entropy(log_probabilities, teacher, mask)) == pytest.approx(float(expected))


def _frames(seed: int):
    generator = torch.Generator().manual_seed(seed)
    logits = torch.randn(2, 3, 5, len(LABELS), generator=generator) * 2  # (batch, frames, tokens, labels)
    frame_mask = torch.tensor([[True, True, False], [True, False, False]])
    mask = torch.tensor([[True] * 5, [True, True, True, False, False]])
    gold = torch.randint(0, len(LABELS), (2, 3, 5), generator=generator)
    return logits, frame_mask, mask, gold


def _entropy(distributions: torch.Tensor, token_mask: torch.Tensor) -> float:
    terms = torch.where(distributions > 0, distributions * distributions.clamp_min(1e-30).log(), 0.0)
    return float(-(terms.sum(-1) * token_mask).sum() / token_mask.sum())


@pytest.mark.parametrize("output_type", [SoftmaxOutput, CrfOutput])
def test_a_student_with_the_teachers_distributions_pays_their_entropy(output_type):
    logits, frame_mask, mask, _ = _frames(0)
    output = output_type(dict(enumerate(LABELS)))
    _, own = output.decode([logits], frame_mask, mask)  # the student's own per-token distributions
    token_mask = frame_mask.unsqueeze(-1) & mask.unsqueeze(1)
    own = own * token_mask.unsqueeze(-1)
    assert output.teacher_loss([logits], own, frame_mask, mask).item() == pytest.approx(
        _entropy(own, token_mask), rel=1e-4
    )
    sharper = torch.nn.functional.one_hot(own.argmax(-1), len(LABELS)).float() * token_mask.unsqueeze(-1)
    assert output.teacher_loss([logits], sharper, frame_mask, mask).item() > _entropy(sharper, token_mask)


@pytest.mark.parametrize("output_type", [SoftmaxTagOutput, CrfTagOutput])
def test_teacher_weight_mixes_the_gold_and_the_teacher_loss(output_type):
    logits, frame_mask, mask, gold = _frames(1)
    outside_or_begin = torch.tensor([LABELS.index(tag) for tag in ("O", "B-A0", "B-A1")])
    gold = outside_or_begin[gold % 3]  # every sequence of these is allowed under BIO
    teacher = torch.softmax(torch.randn(logits.shape), dim=-1)
    output = output_type(dict(enumerate(LABELS)), teacher_weight=0.25)
    gold_loss = output.loss([logits], gold, frame_mask, mask).item()
    teacher_loss = output.teacher_loss([logits], teacher, frame_mask, mask).item()
    mixed = output.loss_with_teacher([logits], gold, frame_mask, mask, teacher).item()
    assert mixed == pytest.approx(0.75 * gold_loss + 0.25 * teacher_loss, rel=1e-5)
    assert output.loss_with_teacher([logits], gold, frame_mask, mask, None).item() == pytest.approx(gold_loss)
    output.teacher_weight = 0.0
    assert output.loss_with_teacher([logits], gold, frame_mask, mask, teacher).item() == pytest.approx(gold_loss)
