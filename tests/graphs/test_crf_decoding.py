"""The CRF's numpy decoding: Viterbi is the best allowed path by brute force, and the span log-probabilities are
the sums over all paths by brute force; both agree with the torch CRF the network trains."""

import itertools
import json

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.graphs.crf_decoding import CrfDecoder
from srl_zoo.parts.outputs.crf import CrfOutput
from srl_zoo.parts.outputs.linear_chain_crf import LinearChainCrf
from srl_zoo.parts.outputs.span_scores import continuation_ids

LABELS = ["O", "B-ARG0", "I-ARG0", "B-V", "I-V"]


def crf_and_decoder(seed: int) -> tuple[LinearChainCrf, CrfDecoder]:
    """A torch CRF over `LABELS` with random learned scores, and its numpy decoder (as an export writes it)."""
    generator = torch.Generator().manual_seed(seed)
    crf = LinearChainCrf(dict(enumerate(LABELS)))
    with torch.no_grad():
        crf.transitions.copy_(torch.randn(len(LABELS), len(LABELS), generator=generator))
        crf.start_scores.copy_(torch.randn(len(LABELS), generator=generator))
    decoder = CrfDecoder(
        crf.transitions.detach().numpy(), crf.start_scores.detach().numpy(), crf.allowed.numpy(),
        crf.start_allowed.numpy(), continuation_ids(LABELS).numpy(),
    )  # fmt: skip
    return crf, decoder


def path_score(decoder: CrfDecoder, emissions: np.ndarray, path: tuple[int, ...], temperature: float = 1.0) -> float:
    """The score of one path (-inf where a constraint forbids it)."""
    if not decoder.start_allowed[path[0]] or any(
        not decoder.allowed[a, b] for a, b in zip(path, path[1:], strict=False)
    ):
        return -np.inf
    score = decoder.start_scores[path[0]] + sum(emissions[t, tag] for t, tag in enumerate(path))
    score += sum(decoder.transitions[a, b] for a, b in zip(path, path[1:], strict=False))
    return float(score) / temperature


def spans_of(path: tuple[int, ...], decoder: CrfDecoder) -> set[tuple[int, int, int]]:
    """The spans (first token, last token, first tag) of a path as the readout reads BIO tags."""
    spans, start = set(), 0
    for t in range(1, len(path) + 1):
        if t == len(path) or decoder.continuation[path[t - 1]] != path[t]:
            spans.add((start, t - 1, path[start]))
            start = t
    return spans


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(1, 5), temperature=st.sampled_from([1.0, 1.25]))
def test_viterbi_and_span_scores_are_the_brute_force_ones(seed, length, temperature):
    _, decoder = crf_and_decoder(seed)
    emissions = np.random.default_rng(seed).normal(size=(1, length, len(LABELS))).astype(np.float32)
    mask = np.ones((1, length), dtype=bool)
    paths = list(itertools.product(range(len(LABELS)), repeat=length))
    scores = {path: path_score(decoder, emissions[0], path) for path in paths}
    best = max(scores, key=scores.get)
    assert tuple(decoder.viterbi(emissions, mask)[0]) == best
    tempered = {path: path_score(decoder, emissions[0], path, temperature) for path in paths}
    log_z = np.logaddexp.reduce(list(tempered.values()))
    found = decoder.span_log_probabilities(emissions, np.array([best]), mask, temperature)[0]
    for first, last, tag in spans_of(best, decoder):
        holding = [s for path, s in tempered.items() if (first, last, tag) in spans_of(path, decoder)
                   and path[first : last + 1] == best[first : last + 1]]  # fmt: skip
        assert found[last] == pytest.approx(np.logaddexp.reduce(holding) - log_z, abs=1e-4)


def test_the_numpy_decoder_gives_the_torch_crfs_tags_and_scores_on_padded_rows():
    crf, decoder = crf_and_decoder(7)
    generator = torch.Generator().manual_seed(3)
    emissions = torch.randn(6, 9, len(LABELS), generator=generator) * 3
    mask = torch.arange(9).unsqueeze(0) < torch.tensor([9, 1, 4, 7, 2, 9]).unsqueeze(1)
    torch_tags = crf.viterbi(emissions, mask)
    numpy_tags = decoder.viterbi(emissions.numpy(), mask.numpy())
    real = mask.numpy()
    assert (numpy_tags[real] == torch_tags.numpy()[real]).all()
    continuation = continuation_ids(LABELS)
    with torch.no_grad():
        torch_scores = crf.span_log_probabilities(emissions, torch_tags, mask, continuation, 1.25)
    numpy_scores = decoder.span_log_probabilities(emissions.numpy(), numpy_tags, real, 1.25)
    np.testing.assert_allclose(numpy_scores[real], torch_scores.numpy()[real], atol=1e-4)


def test_no_rows_decode_to_no_rows():
    _, decoder = crf_and_decoder(1)
    empty = np.zeros((0, 3, len(LABELS)), dtype=np.float32)
    assert decoder.viterbi(empty, np.zeros((0, 3), dtype=bool)).shape == (0, 3)
    no_tags, no_mask = np.zeros((0, 3), dtype=np.int64), np.zeros((0, 3), dtype=bool)
    assert decoder.span_log_probabilities(empty, no_tags, no_mask).shape == (0, 3)


@pytest.mark.parametrize("decoding", ["viterbi", "valid_frames"])
def test_the_decoder_travels_as_json_and_decodes_as_the_torch_output_layer(decoding):
    labels = ["O", "B-ARG0", "I-ARG0", "B-ARG1", "I-ARG1", "B-C-ARG1", "B-R-ARG0", "B-V"]
    output = CrfOutput(dict(enumerate(labels)), decoding=decoding)
    generator = torch.Generator().manual_seed(3)
    with torch.no_grad():
        output.crf.transitions.copy_(torch.randn(len(labels), len(labels), generator=generator))
        output.crf.start_scores.copy_(torch.randn(len(labels), generator=generator))
    decoder = CrfDecoder.from_json(json.loads(json.dumps(output.graph_decoder())), labels)
    emissions = torch.randn(64, 7, len(labels), generator=generator)
    emissions[..., labels.index("B-ARG0")] += 2.0  # many rows with ARG0 twice
    mask = torch.arange(7) < torch.randint(1, 8, (64, 1), generator=generator)
    from_torch = output._best_paths(emissions, mask)
    from_numpy = decoder.decode(emissions.numpy(), mask.numpy())
    np.testing.assert_array_equal(from_numpy[mask.numpy()], from_torch.numpy()[mask.numpy()])
    repeated = [
        sum(labels[tag] == "B-ARG0" for tag in row[real]) > 1
        for row, real in zip(from_numpy, mask.numpy(), strict=True)
    ]
    assert any(repeated) == (decoding == "viterbi")


def test_a_decoding_the_graphs_do_not_know_is_refused_by_its_key():
    output = CrfOutput(dict(enumerate(LABELS)))
    with pytest.raises(ValueError, match=r"^decoder\.decoding: .*'beam'"):
        CrfDecoder.from_json(output.graph_decoder() | {"decoding": "beam"}, LABELS)
