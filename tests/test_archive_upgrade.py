"""The one upgrade of an archive's config: every spelling of earlier srl_zoo versions rewritten into today's
language, which the config check then passes."""

import pytest

from srl_zoo.archive_upgrade import (
    ArchiveConfigError,
    upgrade_archived_config,
    upgrade_model_config,
    use_word_piece_indexers,
)
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


def indexed_with(indexer: dict, model_type: str = "srl_zoo") -> dict:
    return {"model": {"type": model_type}, "dataset_reader": {"token_indexers": {"tokens": indexer}},
            "validation_dataset_reader": {"token_indexers": {"tokens": dict(indexer)}}}  # fmt: skip


def test_allennlp_s_word_piece_indexer_of_the_archived_transformer_becomes_word_pieces():
    mismatched = {
        "type": "pretrained_transformer_mismatched",
        "model_name": "/x/transformer",
        "max_length": 512,
        "namespace": "tags",
        "tokenizer_kwargs": {"trust_remote_code": False, "local_files_only": True},
    }
    config = indexed_with(mismatched)
    assert use_word_piece_indexers(config, "/x/transformer")
    expected = {"type": "word_pieces", "model_name": "/x/transformer", "max_length": 512}
    for reader in ("dataset_reader", "validation_dataset_reader"):
        assert config[reader]["token_indexers"]["tokens"] == expected
    assert not use_word_piece_indexers(config, "/x/transformer")  # once


@pytest.mark.parametrize(
    "change, model_type",
    [
        ({"model_name": "/elsewhere"}, "srl_zoo"),  # not the archive's own transformer
        ({"tokenizer_kwargs": {"do_lower_case": False}}, "srl_zoo"),  # a tokenizer setting word_pieces has not
        ({"tokenizer_kwargs": {"trust_remote_code": True}}, "srl_zoo"),
        ({"type": "pretrained_transformer"}, "srl_zoo"),
        ({}, "srl_bert"),  # another library's model
    ],
)
def test_an_indexer_that_says_more_or_another_model_s_stays_as_it_is(change, model_type):
    indexer = {"type": "pretrained_transformer_mismatched", "model_name": "/x/transformer", **change}
    config = indexed_with(indexer, model_type)
    assert not use_word_piece_indexers(config, "/x/transformer")
    assert config["dataset_reader"]["token_indexers"]["tokens"] == indexer
