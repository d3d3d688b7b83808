"""The Model's config shorthand is rewritten into parts before the Model is built."""

import pytest
from allennlp.common.checks import ConfigurationError

from srl_zoo.models.model_shorthand import upgrade_model_shorthand


def test_the_encoder_shorthand_becomes_an_indicator_scorer_with_the_model_settings():
    model = {
        "type": "srl_zoo",
        "encoder": {"type": "lstm"},
        "predicate_embedding_dim": 16,
        "per_layer_loss": True,
        "decoding": "viterbi",
        "label_smoothing": 0.1,
        "predicate_identification": True,
        "predicate_loss_weight": 0.5,
    }
    assert upgrade_model_shorthand(model)
    assert model == {
        "type": "srl_zoo",
        "frame_scorer": {
            "type": "indicator",
            "encoder": {"type": "lstm"},
            "predicate_embedding_dim": 16,
            "per_layer_loss": True,
            "decoding": "viterbi",
            "label_smoothing": 0.1,
        },
        "predicate_head": {"type": "tagger", "loss_weight": 0.5},
    }
    assert not upgrade_model_shorthand(model)  # a model without shorthand is left alone


def test_settings_go_to_an_explicit_scorer_and_the_model_wins():
    model = {"frame_scorer": {"type": "bilinear", "decoding": "argmax"}, "decoding": "viterbi", "label_smoothing": None}
    upgrade_model_shorthand(model)
    assert model == {"frame_scorer": {"type": "bilinear", "decoding": "viterbi"}}


def test_the_old_crf_wrapper_and_an_explicit_head_are_kept_apart():
    model = {
        "frame_scorer": {"type": "crf", "scorer": {"type": "bilinear"}},
        "predicate_identification": True,
        "predicate_head": {"type": "joint_pos_predicate"},
    }
    upgrade_model_shorthand(model)
    assert model["frame_scorer"] == {"type": "bilinear", "output": "crf"}
    assert model["predicate_head"] == {"type": "joint_pos_predicate"}


def test_both_a_scorer_and_the_encoder_shorthand_is_refused():
    with pytest.raises(ConfigurationError, match="either a frame_scorer or an encoder"):
        upgrade_model_shorthand({"frame_scorer": {"type": "bilinear"}, "encoder": {"type": "lstm"}})


def test_a_part_saved_under_its_old_name_gets_its_name_today():
    """AMN's memory was the model's `memory` before it became a generic feature source."""
    model = {"type": "srl_zoo", "memory": {"flag_dim": 4}, "frame_scorer": {"type": "indicator"}}
    assert upgrade_model_shorthand(model)
    assert model == {"type": "srl_zoo", "frame_features": {"flag_dim": 4}, "frame_scorer": {"type": "indicator"}}


def test_a_config_to_train_is_refused_any_old_spelling():
    with pytest.raises(ConfigurationError, match=r"^model.memory: the name of earlier srl_zoo versions; write it as"):
        upgrade_model_shorthand({"memory": {}, "frame_scorer": {"type": "indicator"}}, strict=True)
    with pytest.raises(ConfigurationError, match=r"^model.decoding: the model-level shorthand"):
        upgrade_model_shorthand({"decoding": "viterbi", "frame_scorer": {"type": "indicator"}}, strict=True)
    in_parts = {"frame_scorer": {"type": "indicator", "decoding": "viterbi"}}
    assert not upgrade_model_shorthand(in_parts, strict=True)
