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
            "output": {"type": "softmax", "decoding": "viterbi", "label_smoothing": 0.1},
        },
        "predicate_head": {"type": "tagger", "loss_weight": 0.5},
    }
    assert not upgrade_model_shorthand(model)  # a model without shorthand is left alone


def test_settings_go_to_an_explicit_scorer_and_the_model_wins():
    model = {"frame_scorer": {"type": "bilinear", "decoding": "argmax"}, "decoding": "viterbi", "label_smoothing": None}
    upgrade_model_shorthand(model)
    assert model == {"frame_scorer": {"type": "bilinear", "output": {"type": "softmax", "decoding": "viterbi"}}}


def test_the_old_crf_wrapper_and_an_explicit_head_are_kept_apart():
    model = {
        "frame_scorer": {"type": "crf", "scorer": {"type": "bilinear"}},
        "predicate_identification": True,
        "predicate_head": {"type": "joint_pos_predicate"},
    }
    upgrade_model_shorthand(model)
    assert model["frame_scorer"] == {"type": "bilinear", "output": {"type": "crf"}}
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
    in_parts = {"frame_scorer": {"type": "indicator", "output": {"type": "softmax", "decoding": "viterbi"}}}
    assert not upgrade_model_shorthand(in_parts, strict=True)


@pytest.mark.parametrize(
    ("scorer", "output"),
    [
        (
            {"decoding": "viterbi", "label_smoothing": 0.1},
            {"type": "softmax", "decoding": "viterbi", "label_smoothing": 0.1},
        ),
        ({"output": "softmax", "decoding": None}, {"type": "softmax"}),
        ({"output": "crf", "decoding": "viterbi", "label_smoothing": 0.0}, {"type": "crf"}),
        ({"output": "crf"}, {"type": "crf"}),
    ],
)
def test_an_archived_scorer_gets_its_output_layer_as_a_part(scorer, output):
    """Archives of earlier versions named the output layer (`output: "crf"`) and set its decoding and smoothing
    on the scorer; they load with the same settings as a part (a CRF had only Viterbi and no smoothing)."""
    model = {"frame_scorer": {"type": "indicator", "encoder": {"type": "lstm"}, **scorer}}
    assert upgrade_model_shorthand(model)
    assert model["frame_scorer"] == {"type": "indicator", "encoder": {"type": "lstm"}, "output": output}
    assert not upgrade_model_shorthand(model, strict=True)  # what it wrote is the language of today


@pytest.mark.parametrize(
    ("scorer", "message"),
    [
        ({"output": "crf"}, 'model.frame_scorer.output: the output layer is a part now; write "output": '
         '{"type": "crf"}'),
        ({"decoding": "argmax"}, "model.frame_scorer.decoding: a setting of the output layer now; write it as "
         "model.frame_scorer.output.decoding"),
        ({"label_smoothing": 0.1}, "model.frame_scorer.label_smoothing: a setting of the output layer now"),
    ],
)  # fmt: skip
def test_a_config_to_train_is_refused_the_scorer_level_output_settings(scorer, message):
    with pytest.raises(ConfigurationError) as error:
        upgrade_model_shorthand({"frame_scorer": {"type": "indicator", **scorer}}, strict=True)
    assert error.value.message.startswith(message) and "\n" not in error.value.message
