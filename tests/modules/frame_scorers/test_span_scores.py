"""How sure the output layers are of a span: the CRF's span probability (forward-backward) against brute-force
enumeration of every allowed tag sequence, and the softmax's product of tag probabilities against a loop."""

import math

import pytest
import torch

from srl_zoo.data.formats import bio_to_spans
from srl_zoo.parts.outputs.span_scores import continuation_ids, product_log_probabilities, span_starts
from tests.modules.frame_scorers.test_crf import brute_force, random_crf
from tests.test_decoding import LABELS

CONTINUATION = continuation_ids(LABELS)


def spans_of(ids: tuple[int, ...]) -> set[tuple[str, int, int]]:
    return {(span.label, span.start, span.end) for span in bio_to_spans([LABELS[i] for i in ids])}


@pytest.mark.parametrize("seed", range(12))
def test_crf_span_probability_equals_the_mass_of_the_paths_that_hold_the_span(seed):
    crf, emissions, mask, lengths = random_crf(seed)
    generator = torch.Generator().manual_seed(100 + seed)
    for row, length in enumerate(lengths):
        scored = brute_force(crf, emissions[row], length)
        log_z = math.log(sum(math.exp(score) for score, _ in scored))
        # the best path and a sampled allowed path: every span of each is checked
        sampled = scored[int(torch.randint(len(scored), (1,), generator=generator))][1]
        for path in (max(scored)[1], sampled):
            tags = torch.zeros(1, emissions.size(1), dtype=torch.long)
            tags[0, :length] = torch.tensor(path)
            with torch.no_grad():
                logs = crf.span_log_probabilities(emissions[row : row + 1], tags, mask[row : row + 1], CONTINUATION)
            for label, start, end in spans_of(path):
                held = [score for score, ids in scored if (label, start, end) in spans_of(ids)]
                expected = sum(math.exp(score - log_z) for score in held)
                assert math.exp(float(logs[0, end])) == pytest.approx(expected, rel=1e-4, abs=1e-6)


def test_softmax_span_probability_is_the_product_of_its_tags_probabilities():
    generator = torch.Generator().manual_seed(7)
    log_probs = torch.log_softmax(torch.randn(3, 6, len(LABELS), generator=generator), dim=-1)
    tags = torch.randint(len(LABELS), (3, 6), generator=generator)  # any tags, stray I-X included
    logs = product_log_probabilities(log_probs, tags, CONTINUATION)
    for row in range(3):
        for _, start, end in spans_of(tuple(tags[row].tolist())):
            expected = sum(float(log_probs[row, t, tags[row, t]]) for t in range(start, end + 1))
            assert float(logs[row, end]) == pytest.approx(expected, abs=1e-5)


def test_span_starts_follow_bio_to_spans():
    generator = torch.Generator().manual_seed(3)
    tags = torch.randint(len(LABELS), (20, 7), generator=generator)
    starts = span_starts(tags, CONTINUATION)
    for row in range(20):
        for _, start, end in spans_of(tuple(tags[row].tolist())):
            assert starts[row, start : end + 1].tolist() == [start] * (end - start + 1)


@pytest.mark.parametrize("temperature", [0.5, 2.0])
def test_a_temperature_divides_every_score_of_the_crf(temperature):
    crf, emissions, mask, lengths = random_crf(5)
    scored = brute_force(crf, emissions[0], lengths[0])
    log_z = math.log(sum(math.exp(score / temperature) for score, _ in scored))
    best = max(scored)[1]
    tags = torch.tensor([best])
    with torch.no_grad():
        logs = crf.span_log_probabilities(emissions[:1], tags, mask[:1], CONTINUATION, temperature)
    for label, start, end in spans_of(best):
        held = [score for score, ids in scored if (label, start, end) in spans_of(ids)]
        expected = sum(math.exp(score / temperature - log_z) for score in held)
        assert math.exp(float(logs[0, end])) == pytest.approx(expected, rel=1e-4, abs=1e-6)
