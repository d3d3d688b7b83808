"""The config check before training: every bundled config passes it; a misspelt or leftover key anywhere and
a value of the wrong simple type are one line naming the key path, before any data is read or folder made."""

import glob
import json
import os
import subprocess
import sys

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError

from srl_zoo.config_defaults import CONFIG_VARIABLES
from srl_zoo.training.config_check import check_training_config
from tests.conftest import FIXTURES, REPO_ROOT

BUNDLED = sorted(
    config
    for config in glob.glob(os.path.join(REPO_ROOT, "training_configs", "**", "*.jsonnet"), recursive=True)
    if os.sep + "peers" + os.sep not in config  # allennlp-models' own models
)


@pytest.mark.parametrize("config", BUNDLED, ids=lambda c: os.path.relpath(c, REPO_ROOT))
def test_every_bundled_config_passes_the_check(config, monkeypatch):
    for name in CONFIG_VARIABLES:
        monkeypatch.setenv(name, "")
    monkeypatch.setenv("SRL_TRANSFORMER", "/models/some-bert")  # evaluated only, never loaded
    monkeypatch.setenv("SRL_MPNET", "/models/some-mpnet")  # the accurate configs' (evaluated only)
    check_training_config(Params.from_file(config).as_dict(quiet=True), gpus=2)  # GPU configs as on their machine


FIXTURE = os.path.join(FIXTURES, "deepatt", "ffn_predicate_identification.jsonnet")


def fixture_config(monkeypatch) -> dict:
    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    return Params.from_file(FIXTURE).as_dict(quiet=True)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda c: c["trainer"].update(num_epochz=1),
            "trainer.num_epochz: not a key of trainer (ExactResumeTrainer); " "did you mean 'num_epochs'? it takes: ",
        ),
        (
            lambda c: c["trainer"].update(type="gradient_descent", num_epochz=1),
            "trainer.num_epochz: not a key of " "trainer (GradientDescentTrainer); did you mean 'num_epochs'?",
        ),
        (lambda c: c["trainer"].update(num_epochs="four"), "trainer.num_epochs: expected an integer, got 'four'"),
        (lambda c: c["model"].update(hiden_dim=3), "model.hiden_dim: not a key of model (SrlModel); it takes: "),
        (
            lambda c: c["model"]["frame_scorer"]["encoder"].update(hidden_dim="big"),
            "model.frame_scorer.encoder.hidden_dim: expected " "an integer, got 'big'",
        ),
        (
            lambda c: c["dataset_reader"].update(labl_convention="x"),
            "dataset_reader.labl_convention: not a key of "
            "dataset_reader (Conll2012Reader); did you mean 'label_convention'?",
        ),
        (lambda c: c["data_loader"].update(batch_sise=3), "data_loader.batch_sise: not a key of data_loader"),
        (
            lambda c: c.update(train_data_pth="x"),
            "train_data_pth: not a key of the config; did you mean " "'train_data_path'?",
        ),
        (lambda c: c["trainer"]["optimizer"].update(lr="fast"), "trainer.optimizer.lr: expected a number, got 'fast'"),
        (
            lambda c: c["model"]["frame_scorer"].update(output={"type": "crf", "label_smoothing": 0.1}),
            "model.frame_scorer.output.label_smoothing: not a key of model.frame_scorer.output (CrfTagOutput)",
        ),
        (
            lambda c: c["model"]["frame_scorer"].update(output={"type": "crf", "decoding": "argmax"}),
            "model.frame_scorer.output.decoding: one of ('viterbi', 'valid_frames'), got 'argmax'",
        ),
        (
            lambda c: c["model"]["frame_scorer"].update(output={"type": "softmax", "decodng": "viterbi"}),
            "model.frame_scorer.output.decodng: not a key of model.frame_scorer.output (SoftmaxTagOutput); "
            "did you mean 'decoding'?",
        ),
        (
            lambda c: c["model"]["predicate_head"].update(los_weight=2),
            "model.predicate_head.los_weight: not a key of model.predicate_head",
        ),
    ],
    ids=[
        "trainer",
        "gradient_descent",
        "type",
        "model",
        "encoder",
        "reader",
        "loader",
        "top",
        "optimizer",
        "crf_output",
        "crf_decoding",
        "softmax_output",
        "optional_part",
    ],  # fmt: skip
)
def test_a_wrong_key_or_value_is_named(monkeypatch, edit, message):
    config = fixture_config(monkeypatch)
    edit(config)
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    assert str(error.value.message).startswith(message) and "\n" not in error.value.message


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            ("model", "frame_scorer", "encoder", "type"),
            "deep_attn",
            "model.frame_scorer.encoder.type: 'deep_attn' is not a registered Seq2SeqEncoder; did you mean 'deep_att'? "
            "registered: ",
        ),
        (
            ("model", "frame_scorer", "output", "type"),
            "crff",
            "model.frame_scorer.output.type: 'crff' is not a registered TagOutput; did you mean 'crf'? "
            "registered: crf, softmax (",
        ),
        (
            ("trainer", "optimizer", "type"),
            "adamm",
            "trainer.optimizer.type: 'adamm' is not a registered Optimizer; did you mean 'adam'? registered: ",
        ),
        (
            ("trainer", "learning_rate_scheduler", "type"),
            "slantd_triangular",
            "trainer.learning_rate_scheduler.type: 'slantd_triangular' is not a registered LearningRateScheduler; "
            "did you mean 'slanted_triangular'?",
        ),
        (("trainer", "type"), "gradient_decent", "trainer.type: 'gradient_decent' is not a registered Trainer; "),
        (
            ("trainer", "cuda_device"),
            "cpu",
            "trainer.cuda_device: expected an integer or a device number (-1: the CPU)",
        ),
    ],
    ids=["encoder", "output", "optimizer", "scheduler", "trainer", "cuda_device"],
)
def test_an_unknown_part_type_is_named_with_the_registered_ones(monkeypatch, path, value, message):
    """Before, allennlp named an unknown type only after reading the data, with no "did you mean", and advised
    `--include-package` for a typo; `cuda_device: "cpu"` failed after the data in a 61-line TypeError."""
    config = fixture_config(monkeypatch)
    node = config
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    assert str(error.value.message).startswith(message) and "\n" not in error.value.message


@pytest.mark.parametrize(
    ("key", "value", "spelling"),
    [
        ("encoder", {"type": "lstm"}, "model.frame_scorer.encoder (of a frame_scorer of type 'indicator')"),
        ("predicate_embedding_dim", 4, "model.frame_scorer.predicate_embedding_dim (of a frame_scorer of type"),
        ("decoding", "argmax", "model.frame_scorer.output.decoding (of an output of type 'softmax')"),
        ("label_smoothing", 0.1, "model.frame_scorer.output.label_smoothing (of an output of type 'softmax')"),
        ("predicate_identification", True, 'model.predicate_head: {"type": "tagger"}'),
        ("predicate_loss_weight", 0.5, "model.predicate_head.loss_weight"),
    ],
)
def test_the_model_level_shorthand_is_refused_naming_where_the_key_goes(monkeypatch, key, value, spelling):
    """A config speaks parts only: the model-level shorthand of earlier versions (which once dropped a leftover
    `predicate_embedding_dim` beside a frame_scorer without a word) is read from archives, never trained."""
    config = fixture_config(monkeypatch)
    check_training_config(config)
    config["model"][key] = value
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    message = error.value.message
    assert message.startswith(f"model.{key}: the model-level shorthand of earlier srl_zoo versions")
    assert f"write it as {spelling}" in message and "\n" not in message


def test_the_old_crf_wrapper_is_refused_in_a_config_to_train(monkeypatch):
    config = fixture_config(monkeypatch)
    config["model"]["frame_scorer"] = {"type": "crf", "scorer": config["model"]["frame_scorer"]}
    with pytest.raises(ConfigurationError, match=r"^model.frame_scorer: the 'crf' wrapper of earlier"):
        check_training_config(config)


def test_srl_zoo_train_stops_on_a_typo_before_training(tmp_path):
    """Before: the misspelt key was ignored and the run trained every epoch, exiting 0."""
    run = tmp_path / "run"
    command = [os.path.join(os.path.dirname(sys.executable), "srl-zoo"), "train", FIXTURE, "-s", str(run)]
    command += ["-o", '{"trainer.num_epochz": 1}']
    environment = {**os.environ, "SRL_ZOO_TEST_PREDICATE_SOURCE": "gold"}
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=environment)
    assert completed.returncode != 0 and "Traceback" not in completed.stderr
    assert completed.stderr.strip().splitlines()[-1].startswith("srl-zoo train: trainer.num_epochz: not a key")
    assert not run.exists()


def test_the_output_layer_is_swapped_with_one_override(monkeypatch):
    """`-o '{"model.frame_scorer.output": {"type": "crf"}}'` replaces the whole part: the softmax's decoding and
    smoothing go with it (before, three keys had to be set by hand, and a shorthand config could not be swapped)."""
    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    config = Params.from_file(FIXTURE, '{"model.frame_scorer.output": {"type": "crf"}}').as_dict(quiet=True)
    assert config["model"]["frame_scorer"]["output"] == {"type": "crf"}
    check_training_config(config)
    softmax = Params.from_file(FIXTURE).as_dict(quiet=True)["model"]["frame_scorer"]["output"]
    assert softmax == {"type": "softmax", "decoding": "viterbi", "label_smoothing": 0.1}


def test_settings_for_glove_scale_words_are_refused_over_a_transformer(monkeypatch):
    """DeepAtt's words swapped for a pretrained transformer with -o trained with the √d input scaling and the
    GloVe-scale initialisation still on, without a word: each is now one line saying what to set."""
    for name in CONFIG_VARIABLES:
        monkeypatch.setenv(name, "")
    config_path = os.path.join(REPO_ROOT, "training_configs", "deepatt", "ffn_conll2005.jsonnet")
    transformer = {"type": "pretrained_transformer_mismatched", "model_name": "/models/some-bert"}
    swap = {"model.text_field_embedder": {"token_embedders": {"tokens": transformer}}}
    config = Params.from_file(config_path, json.dumps(swap)).as_dict(quiet=True)
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config, gpus=1)
    assert error.value.message.startswith("model.frame_scorer.encoder.scale_input: true multiplies a pretrained")
    config["model"]["frame_scorer"]["encoder"]["scale_input"] = False
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config, gpus=1)
    assert error.value.message.startswith("model.initializer.regexes[0]: initialises text_field_embedder.")
    config["model"]["initializer"]["regexes"] = [["predicate_embedding.weight", {"type": "normal", "std": 1.0}]]
    check_training_config(config, gpus=1)
    check_training_config(Params.from_file(config_path).as_dict(quiet=True), gpus=1)  # its own words: as written


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("model", "frame_scorer", "output", "index_to_label"), {"0": "O"}),
        (("model", "predicate_head", "input_dim"), 16),
        (("trainer", "optimizer", "model_parameters"), []),
    ],
    ids=["index_to_label", "head_input_dim", "optimizer_parameters"],
)
def test_a_key_the_building_part_gives_is_refused_in_a_config(monkeypatch, path, value):
    """Before, `index_to_label` passed the check and crashed with `KeyError: 0` after the data was read."""
    config = fixture_config(monkeypatch)
    node = config
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    where = ".".join(path[:-1])
    assert error.value.message.startswith(f"{'.'.join(path)}: given to {where} (")
    assert error.value.message.endswith("by the part that builds it; a config does not set it")


def lisa_config(monkeypatch) -> dict:
    monkeypatch.setenv("SRL_ZOO_TEST_LISA_FORMAT", "conll2012")
    monkeypatch.setenv("SRL_ZOO_TEST_LISA_PARSE_LAYER", "1")
    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    return Params.from_file(os.path.join(FIXTURES, "lisa", "tiny.jsonnet")).as_dict(quiet=True)


def test_parts_that_do_not_fit_are_named_with_both_keys(monkeypatch):
    """Before, each failed after the whole training data was read: a 75-line ValueError at the first batch for the
    parse task over an encoder without a syntax head, a 75-line IndexError for a head's layer 7."""
    config = lisa_config(monkeypatch)
    check_training_config(config)
    config["model"]["frame_scorer"]["encoder"]["parse_layer"] = None
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    assert error.value.message == (
        "model.auxiliary_tasks.parse: the dependency_parse task needs an encoder with a syntax head, and "
        "model.frame_scorer.encoder has none: give it one (model.frame_scorer.encoder.parse_layer for lisa) or leave "
        "this task out"
    )
    del config["model"]["auxiliary_tasks"]["parse"]
    check_training_config(config)  # LISA without its syntax head, as the docs describe it, once the task is out
    config = lisa_config(monkeypatch)
    config["model"]["frame_scorer"]["encoder"]["parse_layer"] = 3
    with pytest.raises(ConfigurationError, match=r"^model.frame_scorer.encoder.parse_layer: 3 is not below the top "):
        check_training_config(config)
    config = lisa_config(monkeypatch)
    config["model"]["predicate_head"]["layer"] = 4
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    assert error.value.message == (
        "model.predicate_head.layer: 4 is not one of the 4 layers model.frame_scorer.encoder gives: use 0 to 3, "
        "or -1 for the top one"
    )
    config["model"]["predicate_head"]["layer"] = -4
    check_training_config(config)
    config = fixture_config(monkeypatch)  # an encoder of allennlp's gives its top layer only
    config["model"]["frame_scorer"] = {
        "type": "bilinear",
        "encoder": {"type": "lstm", "hidden_size": 8, "bidirectional": True},
        "mlp_dim": 4,
    }
    config["model"]["predicate_head"]["layer"] = 1
    with pytest.raises(ConfigurationError, match=r"^model.predicate_head.layer: 1 is not one of the 1 layers "):
        check_training_config(config)


def test_head_word_decoding_and_scoring_need_conll2009_data(monkeypatch):
    """Dependency decoding and eval09.pl's metric are for labels on head words: over CoNLL-2012's spans they would
    train and score every argument as one word, silently; refused in one line naming both keys."""
    config = fixture_config(monkeypatch)  # CoNLL-2012: spans
    config["model"]["frame_scorer"]["output"] = {"type": "softmax", "decoding": "dependency"}
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    assert error.value.message == (
        "model.frame_scorer.output.decoding: 'dependency' decodes labels on head words (CoNLL-2009), but "
        "dataset_reader reads spans: decode with 'viterbi'"
    )
    config["model"]["frame_scorer"]["output"]["decoding"] = "viterbi"
    config["model"]["srl_metric"] = {"type": "conll2009_f1"}
    with pytest.raises(ConfigurationError) as error:
        check_training_config(config)
    assert error.value.message == (
        "model.srl_metric: conll2009_f1 (eval09.pl's) scores labels on head words (CoNLL-2009), but dataset_reader "
        "reads spans: leave srl_metric out (srl_span_f1, srl-eval.pl's)"
    )
    config["dataset_reader"]["type"] = "conll2009"  # labels on head words: both fit
    config["model"]["frame_scorer"]["output"]["decoding"] = "dependency"
    check_training_config(config)


def test_a_run_that_fails_before_saving_weights_leaves_no_folder(tmp_path, monkeypatch):
    """allennlp made the folder, config, vocabulary and log before the first batch; a run failing there left them
    and the corrected command was refused with "Specify --recover". A folder that was there stays."""
    from allennlp.commands.train import train_model_from_file

    from srl_zoo.models.srl_model import SrlModel

    def fail(*args, **kwargs):
        raise RuntimeError("the first batch fails")

    monkeypatch.setenv("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")
    monkeypatch.setattr(SrlModel, "forward", fail)
    run = tmp_path / "run"
    with pytest.raises(RuntimeError, match="the first batch fails"):
        train_model_from_file(FIXTURE, str(run))
    assert not run.exists()
    with pytest.raises(RuntimeError, match="the first batch fails"):  # the same command again: no "--recover"
        train_model_from_file(FIXTURE, str(run))
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    with pytest.raises(RuntimeError, match="the first batch fails"):
        train_model_from_file(FIXTURE, str(kept), force=True)
    assert kept.is_dir()
