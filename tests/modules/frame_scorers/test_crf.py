"""The `crf` output layer: its CRF against brute-force enumeration of every tag sequence (partition
function, best path, marginals, likelihood), any scorer with `output: crf` in the shared Model (trains,
saves, loads, predicts the same in batches), and archives of the old `crf` wrapper scorer loading as it."""

import itertools
import math
import os

import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.common.testing import ModelTestCase
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from srl_zoo.modules.frame_scorers import LinearChainCrf
from tests.archive_rewriting import rewritten_archive
from tests.conftest import FIXTURES, REPO_ROOT
from tests.test_decoding import LABELS, valid

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def brute_force(crf: LinearChainCrf, emissions: torch.Tensor, length: int):
    """Every allowed sequence of `length` tags with its score, straight from the definition."""
    start, transitions = crf.start_scores.detach(), crf.transitions.detach()
    scored = []
    for ids in itertools.product(range(len(LABELS)), repeat=length):
        if not valid([LABELS[i] for i in ids]):
            continue
        score = float(start[ids[0]]) + sum(float(emissions[t, i]) for t, i in enumerate(ids))
        score += sum(float(transitions[a, b]) for a, b in zip(ids, ids[1:], strict=False))
        scored.append((score, ids))
    return scored


def random_crf(seed: int):
    generator = torch.Generator().manual_seed(seed)
    crf = LinearChainCrf(dict(enumerate(LABELS)))
    with torch.no_grad():
        crf.transitions.copy_(torch.randn(len(LABELS), len(LABELS), generator=generator))
        crf.start_scores.copy_(torch.randn(len(LABELS), generator=generator))
    rows, max_length = 4, 5
    emissions = torch.randn(rows, max_length, len(LABELS), generator=generator) * 2
    lengths = torch.randint(1, max_length + 1, (rows,), generator=generator)
    lengths[0] = max_length
    mask = torch.arange(max_length)[None, :] < lengths[:, None]
    return crf, emissions, mask, lengths.tolist()


@pytest.mark.parametrize("seed", range(12))
def test_partition_function_and_best_path_equal_brute_force(seed):
    crf, emissions, mask, lengths = random_crf(seed)
    log_z = crf.log_partition(emissions, mask)
    best = crf.viterbi(emissions, mask)
    for row, length in enumerate(lengths):
        scored = brute_force(crf, emissions[row], length)
        expected = math.log(sum(math.exp(score) for score, _ in scored))
        assert float(log_z[row]) == pytest.approx(expected, rel=1e-5, abs=1e-4)
        assert tuple(best[row, :length].tolist()) == max(scored)[1]


@pytest.mark.parametrize("seed", range(6))
def test_marginals_and_likelihood_equal_brute_force(seed):
    crf, emissions, mask, lengths = random_crf(seed)
    marginals = crf.marginals(emissions, mask)
    for row, length in enumerate(lengths):
        scored = brute_force(crf, emissions[row], length)
        z = sum(math.exp(score) for score, _ in scored)
        expected = torch.zeros(length, len(LABELS))
        for score, ids in scored:
            for t, i in enumerate(ids):
                expected[t, i] += math.exp(score) / z
        assert torch.allclose(marginals[row, :length], expected, atol=1e-5)
        assert float(marginals[row, length:].abs().sum()) == 0.0
        score, ids = scored[len(scored) // 2]
        tags = torch.zeros(1, emissions.size(1), dtype=torch.long)
        tags[0, :length] = torch.tensor(ids)
        nll = crf.negative_log_likelihood(emissions[row : row + 1], tags, mask[row : row + 1])
        assert float(nll) == pytest.approx(math.log(z) - score, rel=1e-5, abs=1e-4)


def test_forbidden_paths_never_win_however_they_score():
    crf = LinearChainCrf(dict(enumerate(LABELS)))
    emissions = torch.full((1, 3, len(LABELS)), -5.0)
    emissions[0, :, LABELS.index("I-A1")] = 10.0  # I-A1 everywhere would score best, but may not start
    best = [LABELS[i] for i in crf.viterbi(emissions, torch.ones(1, 3, dtype=torch.bool))[0].tolist()]
    assert best == ["B-A1", "I-A1", "I-A1"]


class TestCrfOutputInTheModel(ModelTestCase):
    @pytest.mark.parametrize("inner", ["indicator", "bilinear"])
    def test_trains_saves_loads_and_batches_consistently(self, monkeypatch, inner):
        monkeypatch.chdir(REPO_ROOT)
        monkeypatch.setenv("SRL_ZOO_TEST_CRF_INNER", inner)
        self.set_up_model(
            os.path.join(FIXTURES, "crf", "tiny_crf.jsonnet"), os.path.join(FIXTURES, "conll2005", "sample.txt")
        )
        self.ensure_model_can_train_save_and_load(self.param_file)
        self.ensure_batch_predictions_are_consistent()
        assert self.model.frame_scorer.decoding == "viterbi"
        with pytest.raises(ValueError, match=r"one of \('viterbi', 'valid_frames'\), not 'argmax'"):
            self.model.set_decoding("argmax")
        self.model.set_decoding("valid_frames")  # the same frames wherever a sentence sits in a batch
        self.ensure_batch_predictions_are_consistent()


def as_wrapper_archive(archive: str, target: str) -> str:
    """A copy of `archive` as srl_zoo saved a CRF model before the CRF became an output layer: the config's
    frame scorer `{type: crf, scorer: ...}`, the inner scorer's weights under `frame_scorer.scorer.`, the
    CRF's under `frame_scorer.crf.`."""

    def wrap_scorer(config: dict) -> None:
        inner = {key: value for key, value in config["model"]["frame_scorer"].items() if key != "output"}
        config["model"]["frame_scorer"] = {"type": "crf", "scorer": inner}

    def old_key(key: str) -> str:
        if key.startswith("frame_scorer.tag_output.crf."):
            return "frame_scorer.crf." + key[len("frame_scorer.tag_output.crf.") :]
        if key.startswith("frame_scorer."):
            return "frame_scorer.scorer." + key[len("frame_scorer.") :]
        return key

    return rewritten_archive(archive, target, wrap_scorer, old_key)


@pytest.mark.parametrize("inner", ["indicator", "bilinear"])
def test_an_archive_of_the_old_crf_wrapper_predicts_the_same(monkeypatch, tmp_path, inner):
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("SRL_ZOO_TEST_CRF_INNER", inner)
    train_model_from_file(os.path.join(FIXTURES, "crf", "tiny_crf.jsonnet"), str(tmp_path / "run"))
    archive = str(tmp_path / "run" / "model.tar.gz")
    old_archive = as_wrapper_archive(archive, str(tmp_path / "old.tar.gz"))
    loaded = load_archive(old_archive)
    assert loaded.model.frame_scorer.tag_output.crf.transitions.abs().sum() > 0  # the trained transitions
    request = {"tokens": ["The", "company", "sold", "its", "shares", "."], "predicates": [2]}
    new = Predictor.from_archive(load_archive(archive), "srl_zoo").predict_json(request)
    old = Predictor.from_archive(loaded, "srl_zoo").predict_json(request)
    assert old == new
