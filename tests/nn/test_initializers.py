"""The `rescale` initializer, alone and on pretrained GloVe vectors loaded through `pretrained_file`."""

import gzip
import os

import pytest
import torch
from allennlp.common import Params
from allennlp.data import Vocabulary
from allennlp.modules.token_embedders import Embedding
from allennlp.nn import InitializerApplicator

from srl_zoo.nn.initializers import RescaleInitializer
from tests.conftest import FIXTURES

GLOVE = os.path.join(FIXTURES, "glove", "sample.50d.txt.gz")


def glove_vectors():
    with gzip.open(GLOVE, "rt", encoding="utf-8") as handle:
        return {word: torch.tensor([float(v) for v in values]) for word, *values in (line.split() for line in handle)}


def test_rescale_sets_the_spread_and_keeps_directions():
    torch.manual_seed(0)
    original = torch.randn(40, 10) * 3 + 1
    tensor = original.clone()
    RescaleInitializer(std=0.1)(tensor)
    assert tensor.std().item() == pytest.approx(0.1, rel=1e-4)
    assert torch.allclose(
        tensor / tensor.norm(dim=1, keepdim=True), original / original.norm(dim=1, keepdim=True), atol=1e-5
    )
    centered = original.clone()
    RescaleInitializer(std=0.5, center=True)(centered)
    assert centered.mean(0).abs().max().item() < 1e-5 and centered.std().item() == pytest.approx(0.5, rel=1e-4)


def test_rescale_rejects_a_non_positive_spread():
    with pytest.raises(ValueError, match="positive"):
        RescaleInitializer(std=0.0)


def test_pretrained_vectors_survive_the_model_initializer_rescaled():
    vectors = glove_vectors()
    vocab = Vocabulary()
    words = ["the", "bush", "nominated", "notinglove-xyz"]
    vocab.add_tokens_to_namespace(words, "tokens")
    embedding = Embedding.from_params(Params({"embedding_dim": 50, "pretrained_file": GLOVE}), vocab=vocab)
    applicator = InitializerApplicator.from_params(Params({"regexes": [[".*weight", {"type": "rescale", "std": 0.1}]]}))
    applicator(embedding)
    weight = embedding.weight.detach()
    assert weight.std().item() == pytest.approx(0.1, rel=1e-4)
    for word in ("the", "bush", "nominated"):
        row = weight[vocab.get_token_index(word, "tokens")]
        assert torch.nn.functional.cosine_similarity(row, vectors[word], dim=0).item() == pytest.approx(1.0, abs=1e-5)
    # one factor for all rows: relative norms are kept
    ratio = (
        weight[vocab.get_token_index("the", "tokens")].norm() / weight[vocab.get_token_index("bush", "tokens")].norm()
    )
    assert ratio.item() == pytest.approx((vectors["the"].norm() / vectors["bush"].norm()).item(), rel=1e-4)
