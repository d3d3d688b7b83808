"""The adapted transformer embedder on a tiny BERT: frozen weights from the named encoder directory, archives
without them, the same vectors after a save and load, and only the adapters trained."""

import pytest
import torch

from srl_zoo.modules.adapted_transformer_embedder import AdaptedTransformerMismatchedEmbedder
from srl_zoo.parts.embedders import adapted_transformer
from tests.tiny_bert import SPLITTING_PIECES, write_tiny_bert


@pytest.fixture
def tiny_encoder(tmp_path, monkeypatch):
    directory = write_tiny_bert(str(tmp_path), SPLITTING_PIECES, hidden=8, layers=2)
    monkeypatch.setitem(adapted_transformer.FROZEN_ENCODERS, "tiny", lambda: directory)
    return directory


def embed(embedder, count=5):
    """The embedder's word vectors for a fixed batch of 2 sentences of `count` one-piece words."""
    pieces = torch.tensor([[2] + [5 + i for i in range(count)] + [3]] * 2)
    offsets = torch.tensor([[[i + 1, i + 1] for i in range(count)]] * 2)
    mask = torch.ones(2, count, dtype=torch.bool)
    return embedder(pieces, mask, offsets, torch.ones_like(pieces, dtype=torch.bool))


def test_it_starts_as_the_frozen_transformer_and_only_the_adapters_learn(tiny_encoder):
    from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder

    # the plain one first: allennlp caches a transformer by its path, whether its weights were loaded or not
    plain = PretrainedTransformerMismatchedEmbedder(tiny_encoder).eval()
    adapted = AdaptedTransformerMismatchedEmbedder(tiny_encoder, frozen_weights="tiny", adapter_rank=2).eval()
    torch.testing.assert_close(embed(adapted), embed(plain))
    trained = {name for name, parameter in adapted.named_parameters() if parameter.requires_grad}
    assert trained and all(name.endswith((".up", ".down")) for name in trained)
    assert len(trained) == 2 * 2 * 6  # 2 layers × (query, key, value, attention output, intermediate, output)


def test_its_state_leaves_the_frozen_weights_out_and_loads_back_to_the_same_vectors(tiny_encoder):
    torch.manual_seed(1)
    trained = AdaptedTransformerMismatchedEmbedder(tiny_encoder, frozen_weights="tiny", adapter_rank=2).eval()
    with torch.no_grad():
        for name, parameter in trained.named_parameters():
            if name.endswith(".up"):
                parameter.normal_()
    state = trained.state_dict()
    assert set(state) == {name for name, parameter in trained.named_parameters() if parameter.requires_grad}
    assert not set(state) & set(trained.frozen_names())
    loaded = AdaptedTransformerMismatchedEmbedder(tiny_encoder, frozen_weights="tiny", adapter_rank=2).eval()
    assert not torch.allclose(embed(loaded), embed(trained))
    loaded.load_state_dict(state, strict=True)
    torch.testing.assert_close(embed(loaded), embed(trained))


def test_bfloat16_rounds_the_frozen_weights_and_unknown_settings_are_named(tiny_encoder):
    rounded = AdaptedTransformerMismatchedEmbedder(tiny_encoder, frozen_weights="tiny", frozen_precision="bfloat16")
    for parameter in rounded._matched_embedder.transformer_model.parameters():
        if not parameter.requires_grad:
            assert torch.equal(parameter, parameter.to(torch.bfloat16).float())
    with pytest.raises(ValueError, match="frozen_weights: unknown encoder 'bert'"):
        AdaptedTransformerMismatchedEmbedder(tiny_encoder, frozen_weights="bert")
    with pytest.raises(ValueError, match="frozen_precision: 'float16' is not one of"):
        AdaptedTransformerMismatchedEmbedder(tiny_encoder, frozen_weights="tiny", frozen_precision="float16")


def test_trained_modules_learn_travel_in_the_state_and_load_back(tiny_encoder):
    torch.manual_seed(2)
    top = "encoder.layer.1"
    settings = {"frozen_weights": "tiny", "adapter_rank": 2, "trained_modules": [top]}
    trained = AdaptedTransformerMismatchedEmbedder(tiny_encoder, **settings).eval()
    learning = {name for name, parameter in trained.named_parameters() if parameter.requires_grad}
    whole_layer = {name for name in learning if f".{top}." in name and not name.endswith((".up", ".down"))}
    assert whole_layer and not any(".encoder.layer.0." in name for name in learning - _adapters(learning))
    with torch.no_grad():
        for name, parameter in trained.named_parameters():
            if name in whole_layer:
                parameter.add_(0.5)
    state = trained.state_dict()
    assert whole_layer <= set(state) and not set(state) & set(trained.frozen_names())
    loaded = AdaptedTransformerMismatchedEmbedder(tiny_encoder, **settings).eval()
    assert not torch.allclose(embed(loaded), embed(trained))
    loaded.load_state_dict(state, strict=True)
    torch.testing.assert_close(embed(loaded), embed(trained))
    with pytest.raises(ValueError, match="trained_modules: 'encoder.layer.7' names no sub-module"):
        AdaptedTransformerMismatchedEmbedder(tiny_encoder, frozen_weights="tiny", trained_modules=["encoder.layer.7"])


def _adapters(names: set[str]) -> set[str]:
    """The adapter matrices among parameter `names`."""
    return {name for name in names if name.endswith((".up", ".down"))}
