"""`allennlp srl-export`: a float16 archive that loads like the original and predicts the same."""

import json
import os
import subprocess
import sys
import tarfile

import pytest
import torch
from allennlp.data import Batch
from allennlp.models.archival import load_archive

from srl_zoo.commands.srl_export import clear_training_files
from srl_zoo.models.srl_model import SrlModel
from tests.archive_rewriting import rewritten_archive
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def run_export(archive, output) -> subprocess.CompletedProcess:
    """`allennlp srl-export ARCHIVE OUTPUT` from the repository root."""
    command = [
        sys.executable,
        "-m",
        "allennlp",
        "srl-export",
        str(archive),
        str(output),
        "--include-package",
        "srl_zoo",
    ]
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT)


def test_export_halves_the_weights_and_keeps_the_predictions(predicate_model_archive, tmp_path):
    output = tmp_path / "shipped" / "model.tar.gz"
    completed = run_export(predicate_model_archive, output)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "MiB (from" in completed.stdout
    with tarfile.open(output) as tar:
        assert sorted(n for n in tar.getnames() if "/" not in n) == ["config.json", "vocabulary", "weights.th"]
        config = json.load(tar.extractfile("config.json"))
        weights = torch.load(tar.extractfile("weights.th"), weights_only=True)
    assert "train_data_path" not in config and "validation_data_path" not in config
    assert all(v.dtype == torch.float16 for v in weights.values() if v.is_floating_point())
    assert_same_probabilities(predicate_model_archive, output)


def assert_same_probabilities(archive, exported_archive) -> None:
    """Both archives give the same tag probabilities on the CoNLL-2012 sample, to float16's precision."""
    original, exported = load_archive(str(archive)), load_archive(str(exported_archive))
    reader = original.validation_dataset_reader
    instances = list(reader.read(os.path.join(FIXTURES, "conll2012", "sample.gold_conll")))
    batch = Batch(instances)
    batch.index_instances(original.model.vocab)
    original.model.eval()
    exported.model.eval()
    with torch.no_grad():
        before = original.model(**batch.as_tensor_dict())["class_probabilities"]
        after = exported.model(**batch.as_tensor_dict())["class_probabilities"]
    assert before.shape == after.shape
    assert torch.allclose(before, after, atol=1e-2)  # float16 keeps ~3 significant digits of each weight


def as_shorthand(config: dict) -> None:
    """Write the model of `config` (in place) in the model-level shorthand of earlier srl_zoo versions."""
    model = config["model"]
    scorer = model.pop("frame_scorer")
    assert scorer.pop("type") == "indicator"
    output = scorer.pop("output", None) or {"type": "softmax"}
    assert output.pop("type") == "softmax"
    model.update(scorer, **output)  # decoding and label_smoothing were the model's
    if model.pop("predicate_head", None) is not None:
        model["predicate_identification"] = True
    model["per_layer_loss"] = False


def test_an_archive_of_an_earlier_version_is_exported_in_parts(predicate_model_archive, tmp_path):
    """The GloVe model shipped in 2026 was written in the shorthand; exported again, its config reads like a
    config to train (the config check passes it), and it labels as before."""
    old = rewritten_archive(predicate_model_archive, str(tmp_path / "old.tar.gz"), as_shorthand)
    output = tmp_path / "exported.tar.gz"
    completed = run_export(old, output)
    assert completed.returncode == 0, completed.stderr[-3000:]
    with tarfile.open(output) as tar:
        model = json.load(tar.extractfile("config.json"))["model"]
    assert not {"encoder", "decoding", "predicate_identification", "per_layer_loss"} & set(model)
    assert model["frame_scorer"]["type"] == "indicator" and model["frame_scorer"]["per_layer_loss"] is False
    assert model["frame_scorer"]["output"] == {"type": "softmax", "decoding": "viterbi", "label_smoothing": 0.1}
    assert model["predicate_head"] == {"type": "tagger", "loss_weight": 1.0}
    SrlModel.check_spelling(model)  # the config check's view: refuses any spelling of earlier versions
    assert_same_probabilities(predicate_model_archive, output)


def test_training_files_and_initializers_are_cleared_everywhere():
    config = {
        "train_data_path": "/data/train.txt",
        "validation_data_path": "/data/dev.txt",
        "dataset_reader": {"type": "conll2005"},
        "vocabulary": {"type": "from_files", "directory": "/runs/earlier/model.tar.gz"},
        "model": {
            "type": "srl",
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "pretrained_file": "/g.txt"}}},
            "initializer": {"regexes": []},
            "layers": [{"pretrained_file": "/x"}, 3],
        },
    }
    assert clear_training_files(config) == {
        "dataset_reader": {"type": "conll2005"},
        "model": {
            "type": "srl",
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding"}}},
            "layers": [{}, 3],
        },
    }
    built = {"dataset_reader": {}, "model": {}, "vocabulary": {"type": "from_instances", "min_count": {"tokens": 2}}}
    assert clear_training_files(built)["vocabulary"] == built["vocabulary"]  # no file of the training machine


def test_a_failed_export_leaves_an_existing_output_alone(tmp_path):
    output = tmp_path / "model.tar.gz"
    output.write_bytes(b"previous")
    completed = run_export(tmp_path / "missing.tar.gz", output)
    assert completed.returncode != 0
    assert output.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.tar.gz"]


def test_measure_precision_records_the_f1_per_precision_in_the_archive(predicate_model_archive, tmp_path):
    from srl_zoo.commands.evaluation_loop import score_predictions
    from srl_zoo.commands.srl_export import export_archive
    from srl_zoo.data.format_detection import reader_for_file
    from srl_zoo.metrics import SrlSpanF1

    gold = os.path.join(FIXTURES, "conll2005", "sample.txt")
    output = str(tmp_path / "measured.tar.gz")
    export_archive(predicate_model_archive, output, measure_on=gold)
    archive = load_archive(output)
    measured = archive.model.f1_per_precision
    # int8 once per engine installed (both are in the lock): ONNX Runtime's under "int8", OpenVINO's apart
    assert set(measured) == {"float32", "bfloat16", "int8", "int8 openvino 128", "sentences"}
    assert measured["sentences"] == 20
    reader = reader_for_file(archive.validation_dataset_reader, archive.model.vocab, gold)
    _, _, scores = score_predictions(archive.model, reader, gold, 64, SrlSpanF1())
    assert measured["float32"] == round(100 * scores["f1-measure-overall"], 2)  # the exported model's own F1
    assert isinstance(measured["bfloat16"], float)
    assert measured["int8"] is None and measured["int8 openvino 128"] is None  # a transformer's: a word table here
    assert load_archive(predicate_model_archive).model.f1_per_precision is None  # not measured


def test_calibrate_scores_records_a_temperature_that_changes_scores_not_labels(predicate_model_archive, tmp_path):
    import srl_zoo.api

    output = tmp_path / "calibrated.tar.gz"
    gold = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    command = [sys.executable, "-m", "srl_zoo.cli", "export", str(predicate_model_archive), str(output)]
    completed = subprocess.run(command + ["--calibrate-scores", gold], capture_output=True, text=True, cwd=REPO_ROOT)
    assert completed.returncode == 0, completed.stderr[-3000:]
    calibrated = srl_zoo.load(str(output), precision="float32")
    calibration = srl_zoo.api.load(str(output)).model.score_calibration
    assert calibration["file"] == "sample.gold_conll" and calibration["sentences"] > 0
    assert calibrated.model.score_temperature == calibration["temperature"]  # the runtime's labeler reads it too
    assert 0 <= calibration["ece"] <= calibration["ece_at_temperature_1"]
    assert len(calibration["held_out"]) == 2
    plain = srl_zoo.load(str(predicate_model_archive), precision="float32")
    text = "President Bush nominated two individuals to replace jurists."

    def labels(labeler):
        return [[(a["role"], a["start"], a["end"]) for a in f["arguments"]] for f in labeler(text)[0]["frames"]]

    assert labels(calibrated) == labels(plain)


def test_overrides_are_recorded_in_the_config_and_a_wrong_value_is_named(tmp_path):
    from allennlp.common.checks import ConfigurationError

    from srl_zoo.commands.srl_export import export_archive

    shipped = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
    output = tmp_path / "valid-frames.tar.gz"
    export_archive(shipped, str(output), overrides='{"model.frame_scorer.output.decoding": "valid_frames"}')
    with tarfile.open(output) as tar:
        config = json.load(tar.extractfile("config.json"))
    assert config["model"]["frame_scorer"]["output"]["decoding"] == "valid_frames"
    refused = tmp_path / "refused.tar.gz"
    with pytest.raises(ConfigurationError, match=r"^model\.frame_scorer\.output\.decoding: one of .*'beam'$"):
        export_archive(shipped, str(refused), overrides='{"model.frame_scorer.output.decoding": "beam"}')
    assert not refused.exists()
