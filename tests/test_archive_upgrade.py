"""The one upgrade of an archive's config: every spelling of earlier srl_zoo versions rewritten into today's
language, which the config check then passes."""

import pytest

from srl_zoo.archive_upgrade import ArchiveConfigError, upgrade_archived_config, upgrade_model_config
from srl_zoo.models.old_spellings import refuse_old_spellings


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
    assert upgrade_model_config(model)
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
    assert not upgrade_model_config(model)  # a model without shorthand is left alone
    refuse_old_spellings(model)


def test_settings_go_to_an_explicit_scorer_and_the_model_wins():
    model = {"frame_scorer": {"type": "bilinear", "decoding": "argmax"}, "decoding": "viterbi", "label_smoothing": None}
    upgrade_model_config(model)
    assert model == {"frame_scorer": {"type": "bilinear", "output": {"type": "softmax", "decoding": "viterbi"}}}


def test_the_old_crf_wrapper_and_an_explicit_head_are_kept_apart():
    model = {
        "frame_scorer": {"type": "crf", "scorer": {"type": "bilinear"}},
        "predicate_identification": True,
        "predicate_head": {"type": "joint_pos_predicate"},
    }
    upgrade_model_config(model)
    assert model["frame_scorer"] == {"type": "bilinear", "output": {"type": "crf"}}
    assert model["predicate_head"] == {"type": "joint_pos_predicate"}


def test_both_a_scorer_and_the_encoder_shorthand_is_refused():
    with pytest.raises(ArchiveConfigError, match="either a frame_scorer or an encoder"):
        upgrade_model_config({"frame_scorer": {"type": "bilinear"}, "encoder": {"type": "lstm"}})


def test_a_part_saved_under_its_old_name_gets_its_name_today():
    """AMN's memory was the model's `memory` before it became a generic feature source."""
    model = {"type": "srl_zoo", "memory": {"flag_dim": 4}, "frame_scorer": {"type": "indicator"}}
    assert upgrade_model_config(model)
    assert model == {"type": "srl_zoo", "frame_features": {"flag_dim": 4}, "frame_scorer": {"type": "indicator"}}


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
    assert upgrade_model_config(model)
    assert model["frame_scorer"] == {"type": "indicator", "encoder": {"type": "lstm"}, "output": output}
    refuse_old_spellings(model)  # what it wrote is the language of today


def test_the_old_model_type_is_srl_zoos_only_with_srl_zoos_readers():
    ours = {"model": {"type": "srl", "encoder": {"type": "lstm"}}, "dataset_reader": {"type": "conll2012"}}
    assert upgrade_archived_config(ours)
    assert ours["model"] == {"type": "srl_zoo", "frame_scorer": {"type": "indicator", "encoder": {"type": "lstm"}}}
    theirs = {"model": {"type": "srl", "encoder": {}, "binary_feature_dim": 100}, "dataset_reader": {"type": "srl"}}
    assert not upgrade_archived_config(theirs) and theirs["model"]["type"] == "srl" and "encoder" in theirs["model"]
    current = {"model": {"type": "srl_zoo", "frame_scorer": {"type": "bilinear"}}, "dataset_reader": {"type": "x"}}
    assert not upgrade_archived_config(current)
    assert not upgrade_archived_config({"model": "not a dict"})
