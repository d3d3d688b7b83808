"""Widths follow the parts: a frame scorer and AMN's memory build their encoders for what they feed them; a width a
config still gives is accepted where it fits and refused in one line naming both parts where it does not."""

import glob
import os
import re

import pytest
import torch
from allennlp.common import Lazy, Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.modules import Seq2SeqEncoder

import srl_zoo.plugin  # noqa: F401  (registers the parts)
from srl_zoo.modules.encoder_width import encoder_with_width
from srl_zoo.modules.frame_scorers import FrameScorer
from tests.conftest import REPO_ROOT


def lazy_encoder(config: dict) -> Lazy[Seq2SeqEncoder]:
    return Lazy(Seq2SeqEncoder, Params(config))


def vocabulary() -> Vocabulary:
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["O", "B-ARG0", "I-ARG0", "B-V"], "labels")
    return vocab


@pytest.mark.parametrize(
    "config",
    [
        {"type": "lstm", "hidden_size": 5, "bidirectional": True},
        {"type": "stacked_bidirectional_lstm", "hidden_size": 5, "num_layers": 2},
        {"type": "pass_through"},
        {"type": "deep_att", "hidden_dim": 8, "num_layers": 1, "num_heads": 2, "ffn_hidden_dim": 8},
        {"type": "selective_connection", "hidden_dim": 8, "num_layers": 1, "num_heads": 2},
        {"type": "lisa", "hidden_dim": 8, "num_layers": 2, "num_heads": 2, "ffn_hidden_dim": 8, "parse_layer": None},
    ],
    ids=lambda config: config["type"],
)
def test_an_encoder_without_a_width_is_built_for_what_is_fed(config):
    encoder = encoder_with_width(lazy_encoder(config), {"words": 10, "predicate embedding": 3}, "e", "the scorer")
    assert encoder.get_input_dim() == 13
    outputs = encoder(torch.randn(2, 4, 13), torch.ones(2, 4, dtype=torch.bool))
    assert outputs.shape[:2] == (2, 4)


@pytest.mark.parametrize("key", ["input_dim", "input_size"])
def test_a_given_width_must_be_the_one_fed(key):
    settings = {"type": "lstm", "hidden_size": 4} if key == "input_size" else {"type": "pass_through"}
    widths = {"words": 10, "predicate embedding": 3}
    fits = encoder_with_width(lazy_encoder({**settings, key: 13}), widths, "e", "the scorer")
    assert fits.get_input_dim() == 13
    with pytest.raises(ConfigurationError) as raised:
        encoder_with_width(
            lazy_encoder({**settings, key: 200}), widths, "model.frame_scorer.encoder", "the frame scorer"
        )
    assert str(raised.value).strip("'\"") == (
        f"model.frame_scorer.encoder.{key}: 200, but the frame scorer feeds it 13 (words 10 + predicate embedding 3); "
        f"leave {key} out: the width follows the parts"
    )


@pytest.mark.parametrize(
    ("scorer", "expected"),
    [
        ({"type": "indicator", "predicate_embedding_dim": 4}, 10 + 4 + 6),
        ({"type": "indicator", "predicate_embedding_dim": 4, "predicate_combination": "add"}, 10 + 6),
        ({"type": "bilinear", "mlp_dim": 4}, 10),  # frame features go to the role MLP, not the encoder
    ],
    ids=["indicator", "indicator-add", "bilinear"],
)
def test_a_scorer_builds_its_encoder_for_the_words_predicate_and_features(scorer, expected):
    config = {**scorer, "encoder": {"type": "lstm", "hidden_size": 3, "bidirectional": True}}
    built = FrameScorer.from_params(Params(config), vocab=vocabulary(), input_dim=10, frame_feature_dim=6)
    assert built.encoder.get_input_dim() == expected
    built.check_input_dim(10)  # the Model's check of the words' width holds by construction


def test_a_replaced_encoder_without_widths_builds_the_model(monkeypatch):
    """The researcher walk's case: `-o '{"model.frame_scorer.encoder": {"type": "selective_connection",
    "num_layers": 2}}'` replaces the whole encoder, width and all."""
    from allennlp.models import Model

    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    config = os.path.join(REPO_ROOT, "fixtures", "deepatt", "ffn.jsonnet")
    overrides = '{"model.frame_scorer.encoder": {"type": "selective_connection", "num_layers": 2, "hidden_dim": 8}}'
    params = Params.from_file(config, overrides).pop("model")
    model = Model.from_params(vocab=vocabulary(), params=params)
    words, predicate = model.text_field_embedder.get_output_dim(), model.frame_scorer.predicate_embedding_dim
    assert model.frame_scorer.encoder.get_input_dim() == words + predicate


def test_no_bundled_config_writes_an_input_width():
    """Widths follow the parts: the configs, libsonnets and fixtures give none (allennlp-models' own `srl` model,
    the peer under training_configs/peers, is not ours: it needs its LSTM's `input_size`)."""
    written = []
    for folder in ("training_configs", "fixtures"):
        for path in glob.glob(os.path.join(REPO_ROOT, folder, "**", "*sonnet"), recursive=True):
            if os.sep + "peers" + os.sep in path:
                continue
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    if re.search(r"\binput_(dim|size)\b", line.split("//", 1)[0]):
                        written.append(f"{os.path.relpath(path, REPO_ROOT)}:{number}")
    assert written == []
